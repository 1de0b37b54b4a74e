"""``paddle.static.nn``: layers and control flow for static programs."""

from ._control_flow import cond as cond
from ._control_flow import while_loop as while_loop
from ._nn import fc as fc
from ._nn import static_pylayer as static_pylayer
