"""Host-side randomness for samplers, following ``paddle.seed`` (layer L5).

Index permutations are drawn on the host with numpy (no device work, no compilation per
dataset size) from a generator seeded by one key taken from the project's global generator,
so ``paddle.seed(n)`` makes every shuffle repeat.
"""

from __future__ import annotations

import numpy as np

from .._runtime.rng import generator


def host_rng() -> np.random.Generator:
    """A numpy Generator seeded from the next key of the global generator."""
    key = np.asarray(generator.next_host_key()).astype(np.uint64) & np.uint64(0xFFFFFFFF)
    return np.random.default_rng([int(k) for k in key])
