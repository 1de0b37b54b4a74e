"""``paddle.optimizer``: SGD and Adam, eager (``step``) and static (``minimize``)."""

from . import lr as lr
from ._optimizer import SGD as SGD
from ._optimizer import Adam as Adam
from ._optimizer import Optimizer as Optimizer
