"""``paddle.distributed`` in one process, and ``paddle.DataParallel`` (layer L7).

This package trains in one process. Scripts written for data parallelism run here as Paddle 3.3.1 runs them when
started without a launcher: ``get_rank()`` is 0 and ``get_world_size()`` 1, ``init_parallel_env()`` sets up no
communication group (``is_initialized()`` stays False), ``DataParallel(model)`` is the model itself behind a wrapper
(its ``state_dict`` without a prefix, its sublayer ``_layers``); the collectives are in ``_collective``. Training
over several processes is not provided.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ..nn.layer._layers import Layer
from ._collective import Group


def _group_answer(api: str, group: Any, alone: int) -> int:
    if group is None:
        return alone
    if isinstance(group, Group):
        return -1  # (this process is a member of no group made by new_group, as in Paddle without a launcher)
    raise TypeError(f"paddle.distributed.{api}: group must be a Group from paddle.distributed.new_group or None, "
                    f"but received {type(group).__name__}.")


def get_rank(group: Any = None) -> int:
    """0: this process is the only one (-1 for a ``new_group`` group: not a member)."""
    return _group_answer("get_rank", group, 0)


def get_world_size(group: Any = None) -> int:
    """1: this process is the only one (-1 for a ``new_group`` group: not a member)."""
    return _group_answer("get_world_size", group, 1)


def is_available() -> bool:
    """True, as Paddle answers: the package imports (training stays in one process)."""
    return True


def is_initialized() -> bool:
    """False: no communication group is ever set up."""
    return False


def init_parallel_env(nccl_config: Any = None) -> None:
    """Nothing to set up for one process (returns None, as Paddle's started without a launcher)."""
    return None


class DataParallel(Layer):
    """``paddle.DataParallel(model)`` in one process: calls ``model`` (its sublayer ``_layers``); ``state_dict`` and
    ``set_state_dict`` are the model's (no ``_layers.`` prefix, as in Paddle), ``parameters()`` its parameters,
    ``no_sync()`` a context that changes nothing, ``scale_loss(loss)`` the loss itself."""

    def __init__(self, layers: Layer, strategy: Any = None, comm_buffer_size: int = 25,
                 last_comm_buffer_size: float = 1, find_unused_parameters: bool = False, group: Any = None) -> None:
        if not isinstance(layers, Layer):
            raise TypeError(f"paddle.DataParallel: layers must be a paddle.nn.Layer, but received "
                            f"{type(layers).__name__}.")
        super().__init__()
        self._layers = layers

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self._layers(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """Gradients are never synchronised in one process: a context that changes nothing."""
        yield

    def scale_loss(self, loss: Any) -> Any:
        """The loss itself (one process: nothing to scale by)."""
        return loss

    def state_dict(self, *args: Any, **kwargs: Any) -> Any:
        return self._layers.state_dict(*args, **kwargs)

    def set_state_dict(self, *args: Any, **kwargs: Any) -> Any:
        return self._layers.set_state_dict(*args, **kwargs)

    set_dict = load_dict = set_state_dict
