"""Parameters (re-exports): ``Parameter`` (Paddle's ``EagerParamBase``), ``ParamAttr``, ``create_parameter``."""

from ._param import ParamAttr as ParamAttr
from ._param import Parameter as Parameter
from ._param import create_parameter as create_parameter
