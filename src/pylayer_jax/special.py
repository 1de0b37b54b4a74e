"""``paddle.special``: the three functions Paddle 3.3.1 files under this name, which are the package's own
(``paddle.special.expm1 is paddle.expm1``; ``logsumexp`` and ``softmax`` take ``dim`` for ``axis`` as there).
Layer: public API, resolved from the package root (imported before its subpackages), as ``paddle.tensor`` is."""

from __future__ import annotations

import sys as _sys

_ROOT = _sys.modules[__name__.rpartition(".")[0]]
expm1 = _ROOT.expm1
logsumexp = _ROOT.logsumexp
softmax = _ROOT.softmax

__all__ = ["expm1", "logsumexp", "softmax"]
