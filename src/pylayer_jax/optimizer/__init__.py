"""``paddle.optimizer``: the optimizers, eager (``step``) and static (``minimize``)."""

from . import lr as lr
from ._lbfgs import LBFGS as LBFGS
from ._optimizer import Optimizer as Optimizer
from ._rules import ASGD as ASGD
from ._rules import SGD as SGD
from ._rules import Adadelta as Adadelta
from ._rules import Adagrad as Adagrad
from ._rules import Adam as Adam
from ._rules import Adamax as Adamax
from ._rules import AdamW as AdamW
from ._rules import Lamb as Lamb
from ._rules import Momentum as Momentum
from ._rules import NAdam as NAdam
from ._rules import RAdam as RAdam
from ._rules import RMSProp as RMSProp
from ._rules import Rprop as Rprop
