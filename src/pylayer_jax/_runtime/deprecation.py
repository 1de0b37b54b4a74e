"""``paddle.utils.deprecated``: mark an API as deprecated (layer L0: ``paddle.device.cuda`` marks its old names with
it too; ``utils/deprecated.py`` is its public path).

As in Paddle 3.3.1: the decorated function's docstring begins with a warning; ``level`` 0 changes nothing else,
1 issues a ``VisibleDeprecationWarning`` at each call (when ``since`` is empty or not newer than the Paddle API
this package implements, 3.3.1), 2 makes every call raise RuntimeError.
"""

from __future__ import annotations

import functools
import inspect
import sys
import warnings
from collections.abc import Callable
from typing import Any

from .api_version import PADDLE_API_VERSION, parts


class VisibleDeprecationWarning(UserWarning):
    """A deprecation warning Python shows by default (``DeprecationWarning`` is shown only in ``__main__``)."""


def deprecated(update_to: str = "", since: str = "", reason: str = "", level: int = 0) -> Callable[[Any], Any]:
    """A decorator marking a function as deprecated ``since`` a version, to be replaced by ``update_to`` (a
    ``paddle.`` name), for ``reason``; ``level``: 0 notes it in the docstring only, 1 also warns at each call,
    2 makes calls raise.

    >>> import warnings
    >>> import pylayer_jax as paddle
    >>> @paddle.utils.deprecated(update_to="paddle.add", since="2.0", level=1)
    ... def plus(a, b):
    ...     return a + b
    >>> with warnings.catch_warnings(record=True) as got:
    ...     warnings.simplefilter("always")
    ...     plus(1, 2), got[0].category.__name__
    (3, 'VisibleDeprecationWarning')
    """
    for name, v in (("update_to", update_to), ("since", since), ("reason", reason)):
        if not isinstance(v, str):
            raise TypeError(f"deprecated: {name} must be a str, but received {type(v).__name__}.")
    if not isinstance(level, int) or isinstance(level, bool) or level not in (0, 1, 2):
        raise ValueError(f"deprecated: level must be 0, 1 or 2, but received {level!r}.")
    _since, _update_to, _reason = since.strip(), update_to.strip(), reason.strip()
    if _update_to and not _update_to.startswith("paddle."):
        raise ValueError(
            f"deprecated: update_to must name the new API from 'paddle.' on, like 'paddle.add', but received "
            f"{update_to!r}."
        )

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        msg = f'API "{func.__module__}.{func.__name__}" is deprecated'
        if _since:
            msg += f" since {_since}"
        msg += ", and will be removed in future versions."
        if _update_to:
            msg += f' Please use "{_update_to}" instead.'
        if _reason:
            msg += f"\n    Reason: {_reason}"
        if func.__doc__:
            func.__doc__ = "\n\nWarning:\n    " + msg + "\n\n" + inspect.cleandoc(func.__doc__)
        if level == 0:
            return func
        shown = f"\nWarning:\n{msg} " if sys.platform.lower() == "win32" else f"\033[93m\nWarning:\n{msg} \033[0m"
        due = not _since or parts(PADDLE_API_VERSION) >= parts(_since)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if level == 2:
                raise RuntimeError(f'API "{func.__module__}.{func.__name__}" has been deprecated.')
            if due:
                warnings.warn(shown, category=VisibleDeprecationWarning, stacklevel=2)
            return func(*args, **kwargs)

        return wrapper

    return decorator
