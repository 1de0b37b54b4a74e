"""Op families; importing this package registers every op in the table (layer L1)."""

from . import activation as activation  # noqa: F401
from . import conv as conv  # noqa: F401
from . import creation as creation  # noqa: F401
from . import device as device  # noqa: F401
from . import gather as gather  # noqa: F401
from . import indexing as indexing  # noqa: F401
from . import linalg as linalg  # noqa: F401
from . import logic as logic  # noqa: F401
from . import loss as loss  # noqa: F401
from . import loss_extra as loss_extra  # noqa: F401
from . import loss_tree as loss_tree  # noqa: F401
from . import math as math  # noqa: F401
from . import nn as nn  # noqa: F401
from . import norm as norm  # noqa: F401
from . import pool as pool  # noqa: F401
from . import products_statistics as coverage_math  # noqa: F401
from . import random as random  # noqa: F401
from . import recurrent as recurrent  # noqa: F401
from . import reduce as reduce  # noqa: F401
from . import sequence_loss as sequence_loss  # noqa: F401
from . import shape as shape  # noqa: F401
from . import slices_scatters as coverage_shape  # noqa: F401
from . import sorting as sorting  # noqa: F401
from . import special_functions as special_math  # noqa: F401
from . import unary as unary  # noqa: F401
from . import vision as vision  # noqa: F401
