"""``paddle.reader``: decorators over *readers*, Paddle's pre-DataLoader data source (a reader is a
function of no arguments that returns an iterable of samples); ``paddle.batch`` groups one into lists.

Layer: public API, beside ``io`` (plain Python; no array is touched). ``paddle.io.DataLoader`` is the
current way to feed a model; these keep older scripts running unchanged.
"""

from __future__ import annotations

from . import decorator as decorator
from .decorator import (
    ComposeNotAligned,
    batch,
    buffered,
    cache,
    chain,
    compose,
    firstn,
    map_readers,
    multiprocess_reader,
    shuffle,
    xmap_readers,
)

__all__ = ["ComposeNotAligned", "batch", "buffered", "cache", "chain", "compose", "decorator", "firstn",
           "map_readers", "multiprocess_reader", "shuffle", "xmap_readers"]
