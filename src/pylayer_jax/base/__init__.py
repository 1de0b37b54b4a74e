"""``paddle.base``: the static-program building blocks under Paddle's older import path."""

from ..nn.layer._param import ParamAttr as ParamAttr
from ..static._executor import CPUPlace as CPUPlace
from ..static._executor import CUDAPlace as CUDAPlace
from ..static._executor import Executor as Executor
from ..static._program import Program as Program
from ..static._program import default_main_program as default_main_program
from ..static._program import default_startup_program as default_startup_program
from ..static._program import program_guard as program_guard
from ..static._scope import Scope as Scope
from ..static._scope import global_scope as global_scope
from ..static._scope import scope_guard as scope_guard
from ..utils import unique_name as unique_name
from . import backward as backward
from . import core as core
from . import framework as framework

__all__ = ["CPUPlace", "CUDAPlace", "Executor", "ParamAttr", "Program", "Scope", "backward", "core",
           "default_main_program", "framework", "unique_name",
           "default_startup_program", "global_scope", "program_guard", "scope_guard"]
