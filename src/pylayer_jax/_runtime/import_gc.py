"""The cyclic garbage collector while ``import pylayer_jax`` runs (layer L0: the standard library only).

The import (JAX, jaxlib, NumPy, optax's dependencies, the op table) makes ~180,000 objects that live as long
as the process. The collector, left running, scans them again and again while they are made: about a fifth of
the import's CPU time (0.09 s of 0.53 s on the 2-core machine this project is developed on), and every later
full collection of the program scans them once more. So the package's ``__init__`` pauses it (``pause``) and,
at the import's end, moves every object then tracked to the permanent generation (``gc.freeze``) before starting
it again (``resume``): later collections never scan those objects.

- The few reference cycles the import leaves (~1,000 objects, ~300 KB: classes and functions JAX and NumPy make
  and drop) are frozen with the rest, so they are never freed; so are the cycles of objects the program made
  before the import (an import usually comes first). ``gc.unfreeze()`` gives them back to the collector.
- A collector the program had turned off stays off, and nothing is frozen.
- ``PYLAYER_JAX_GC_FREEZE=0``: the collector runs during the import as the program left it, nothing is frozen.
"""

from __future__ import annotations

import gc
import os


def enabled() -> bool:
    """Whether the import pauses the collector (``PYLAYER_JAX_GC_FREEZE``, read at each call)."""
    return os.environ.get("PYLAYER_JAX_GC_FREEZE", "1") != "0"


def pause() -> bool:
    """Stop the collector for an import; True when this stopped it (then ``resume(True)`` freezes and restarts)."""
    if not enabled() or not gc.isenabled():
        return False
    gc.disable()
    return True


def resume(paused: bool) -> None:
    """The import's end: if ``pause`` stopped the collector, freeze every tracked object and start it again."""
    if paused:
        gc.freeze()
        gc.enable()
