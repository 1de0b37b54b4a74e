"""``paddle.static.nn.control_flow``: ``cond``, ``case``, ``switch_case``, ``while_loop`` and ``Print``."""

from .._control_flow import case as case
from .._control_flow import cond as cond
from .._control_flow import switch_case as switch_case
from .._control_flow import while_loop as while_loop
from .._print import Print as Print
