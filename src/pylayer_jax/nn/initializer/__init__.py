"""``paddle.nn.initializer`` import path: every initializer class, ``calculate_gain``, ``set_global_initializer``."""

from ._base import Assign as Assign
from ._base import Constant as Constant
from ._base import ConstantInitializer as ConstantInitializer
from ._base import Initializer as Initializer
from ._base import Normal as Normal
from ._base import NormalInitializer as NormalInitializer
from ._base import NumpyArrayInitializer as NumpyArrayInitializer
from ._base import TruncatedNormal as TruncatedNormal
from ._base import TruncatedNormalInitializer as TruncatedNormalInitializer
from ._base import Uniform as Uniform
from ._base import UniformInitializer as UniformInitializer
from ._base import set_global_initializer as set_global_initializer
from ._scaled import Bilinear as Bilinear
from ._scaled import Dirac as Dirac
from ._scaled import KaimingNormal as KaimingNormal
from ._scaled import KaimingUniform as KaimingUniform
from ._scaled import MSRAInitializer as MSRAInitializer
from ._scaled import Orthogonal as Orthogonal
from ._scaled import XavierInitializer as XavierInitializer
from ._scaled import XavierNormal as XavierNormal
from ._scaled import XavierUniform as XavierUniform
from ._scaled import calculate_gain as calculate_gain
