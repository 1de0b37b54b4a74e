"""``paddle.LazyGuard``: build a Layer whose parameters are initialised later, by ``param.initialize()`` (layer L5).

In Paddle, parameters created inside the guard have a shape and dtype but no memory until ``initialize()`` runs
their initializer. Here they are initialised at once, with the same initializer, so they can be used whether or not
``initialize()`` is called; ``initialize()`` then only marks them initialised. Calling each parameter's
``initialize()`` in creation order right after the guard (the usual pattern) gives the values Paddle would (the
generator draws in the same order); what differs: the memory is taken at creation, draws made between the guard and
``initialize()`` do not change the parameters' values, and values loaded with ``set_state_dict`` before
``initialize()`` are kept (Paddle's ``initialize()`` overwrites them).
"""

from __future__ import annotations

import threading

from ..._runtime.state import modes

__all__ = ["LazyGuard"]


class _Lazy(threading.local):
    on = False


_lazy = _Lazy()


def lazy_on() -> bool:
    """Whether parameters created now on this thread are lazy (inside a ``LazyGuard``)."""
    return _lazy.on


class LazyGuard:
    """Within the ``with`` block, parameters are created lazily: each gets an ``initialize()`` method to call
    once (the values are drawn at once here, see the module notes). As in Paddle, leaving a nested guard ends the
    lazy mode for the outer one too.

    >>> import pylayer_jax as paddle
    >>> with paddle.LazyGuard():
    ...     fc = paddle.nn.Linear(10, 10)
    >>> for param in fc.parameters():
    ...     param.initialize()
    """

    def __enter__(self) -> None:
        if modes.static_mode:
            raise RuntimeError(
                "paddle.LazyGuard: lazy initialisation is only available in dynamic mode, but static mode is on; "
                "call paddle.disable_static() first."
            )
        _lazy.on = True

    def __exit__(self, *exc: object) -> None:
        _lazy.on = False
