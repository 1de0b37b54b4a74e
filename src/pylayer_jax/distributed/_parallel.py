"""``paddle.distributed`` in one process, and ``paddle.DataParallel`` (layer L7).

This package trains in one process. Scripts written for data parallelism run here as Paddle 3.3.1 runs them when
started without a launcher: ``get_rank()`` is 0 and ``get_world_size()`` 1, ``init_parallel_env()`` sets up no
communication group (``is_initialized()`` stays False), ``DataParallel(model)`` is the model itself behind a wrapper
(its ``state_dict`` without a prefix, its sublayer ``_layers``), and a collective operation (``all_reduce``,
``barrier``, ...) raises a RuntimeError, as Paddle's do without a group. Training over several processes is not
provided.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ..nn.layer._layers import Layer


def get_rank(group: Any = None) -> int:
    """0: this process is the only one."""
    return 0


def get_world_size(group: Any = None) -> int:
    """1: this process is the only one."""
    return 1


def is_available() -> bool:
    """True, as Paddle answers: the package imports (training stays in one process)."""
    return True


def is_initialized() -> bool:
    """False: no communication group is ever set up."""
    return False


def init_parallel_env(nccl_config: Any = None) -> None:
    """Nothing to set up for one process (returns None, as Paddle's started without a launcher)."""
    return None


def _no_group(api: str) -> RuntimeError:
    return RuntimeError(
        f"paddle.distributed.{api}: the global group is not initialized; this package trains in one process, so "
        "there is no other process to communicate with. Guard the call with get_world_size() > 1."
    )


def all_reduce(tensor: Any, op: Any = 0, group: Any = None, sync_op: bool = True) -> Any:
    """Raises: no communication group (as Paddle without a launcher)."""
    raise _no_group("all_reduce")


def all_gather(tensor_list: Any, tensor: Any, group: Any = None, sync_op: bool = True) -> Any:
    """Raises: no communication group (as Paddle without a launcher)."""
    raise _no_group("all_gather")


def broadcast(tensor: Any, src: int, group: Any = None, sync_op: bool = True) -> Any:
    """Raises: no communication group (as Paddle without a launcher)."""
    raise _no_group("broadcast")


def reduce(tensor: Any, dst: int, op: Any = 0, group: Any = None, sync_op: bool = True) -> Any:
    """Raises: no communication group (as Paddle without a launcher)."""
    raise _no_group("reduce")


def barrier(group: Any = None) -> None:
    """Raises: no communication group (as Paddle without a launcher)."""
    raise _no_group("barrier")


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
