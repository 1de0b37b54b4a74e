"""Static programs at Paddle's paths: ``paddle.static``."""

from . import _optimize as _optimize  # noqa: F401  (static minimize)
from . import nn as nn
from ._backward import append_backward as append_backward
from ._backward import gradients as gradients
from ._executor import CPUPlace as CPUPlace
from ._executor import CUDAPlace as CUDAPlace
from ._executor import Executor as Executor
from ._inference_model import load_inference_model as load_inference_model
from ._inference_model import save_inference_model as save_inference_model
from ._input_spec import InputSpec as InputSpec
from ._param import ParamAttr as ParamAttr
from ._param import create_parameter as create_parameter
from ._program import Block as Block
from ._program import Operator as Operator
from ._program import Program as Program
from ._program import data as data
from ._program import default_main_program as default_main_program
from ._program import default_startup_program as default_startup_program
from ._program import program_guard as program_guard
from ._save import load as load
from ._save import save as save
from ._scope import Scope as Scope
from ._scope import global_scope as global_scope
from ._scope import scope_guard as scope_guard
from ._variable import Parameter as Parameter
from ._variable import Variable as Variable
