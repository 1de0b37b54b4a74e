"""``paddle.random``: ``initial_seed()``, the seed the global generator was last seeded with (``paddle.seed``, or
the one drawn from the system's entropy at import). Layer: public API over the generator (``_runtime/rng.py``).
"""

from __future__ import annotations

from ._runtime.rng import generator as _generator

__all__ = ["initial_seed"]


def initial_seed() -> int:
    """The 64-bit seed of the global generator: the last ``paddle.seed(n)``'s ``n``, else the seed it started
    from (``set_rng_state`` does not change it, as in Paddle)."""
    return _generator.initial
