"""``paddle.distributed.fleet.utils.recompute`` (layer L7): gradient checkpointing.

Recomputing a block's forward during backward only saves memory: the values and gradients are those of calling
the block directly, which is what this does (JAX keeps what the backward needs)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_OPTIONS = ("use_reentrant", "preserve_rng_state", "offload_indices")


def recompute(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``: the same outputs and gradients as Paddle's recomputed block.
    ``use_reentrant`` and ``preserve_rng_state`` must be bools and ``offload_indices`` a list (they choose how
    Paddle re-runs the block, not what it computes); every other keyword goes to ``function``."""
    if not callable(function):
        raise TypeError(f"paddle.distributed.fleet.utils.recompute: function must be a Layer or a callable, but "
                        f"received {type(function).__name__}.")
    for flag in ("use_reentrant", "preserve_rng_state"):
        v = kwargs.pop(flag, True)
        if not isinstance(v, bool):
            raise TypeError(f"paddle.distributed.fleet.utils.recompute: {flag} must be a bool, but received "
                            f"{type(v).__name__}.")
    offload = kwargs.pop("offload_indices", [])
    if not isinstance(offload, (list, tuple)):
        raise TypeError(f"paddle.distributed.fleet.utils.recompute: offload_indices must be a list of ints, but "
                        f"received {type(offload).__name__}.")
    return function(*args, **kwargs)
