"""``paddle.incubate.optimizer.LBFGS``: Paddle 3.3.1 keeps its earlier L-BFGS here, a class of its own with the
signature, algorithm and results of ``paddle.optimizer.LBFGS``, deprecated since 2.5.0 (making one warns)."""

from __future__ import annotations

import sys
import warnings
from typing import Any

from ...optimizer import LBFGS as _LBFGS
from ...utils.deprecated import VisibleDeprecationWarning

_MSG = ('API "paddle.incubate.optimizer.lbfgs.LBFGS" is deprecated since 2.5.0, and will be removed in future '
        'versions. Please use "paddle.optimizer.LBFGS" instead.')


class LBFGS(_LBFGS):
    """``paddle.optimizer.LBFGS`` under its deprecated incubate name (a VisibleDeprecationWarning at creation)."""

    def __init__(self, learning_rate: float = 1.0, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        shown = f"\nWarning:\n{_MSG} " if sys.platform.lower() == "win32" else f"\033[93m\nWarning:\n{_MSG} \033[0m"
        warnings.warn(shown, category=VisibleDeprecationWarning, stacklevel=2)
        super().__init__(learning_rate=learning_rate, max_iter=max_iter, max_eval=max_eval,
                         tolerance_grad=tolerance_grad, tolerance_change=tolerance_change, history_size=history_size,
                         line_search_fn=line_search_fn, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
