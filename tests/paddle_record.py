"""The shared end of the ``record_paddle_*.py`` scripts whose cases live in a module of their own: run the cases
module's ``record(paddle)`` with real Paddle and write what it gives, with Paddle's version, to
``tests/data/<fixture>`` (the tests compare pylayer_jax with it and never need Paddle)."""

from __future__ import annotations

import importlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def record_into(cases: str, fixture: str) -> None:
    """``record(paddle)`` of the module ``cases`` (in tests/), written to ``tests/data/<fixture>``."""
    import paddle  # (real Paddle: these scripts run in its environment)

    out = {"paddle": paddle.__version__, **importlib.import_module(cases).record(paddle)}
    path = os.path.join(HERE, "data", fixture)
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
    print(f"{len(out) - 1} entries -> {path}")
