"""``paddle.static.input``: ``data``, ``InputSpec`` and ``setitem``, at Paddle's module path."""

from ._framework import setitem as setitem
from ._input_spec import InputSpec as InputSpec
from ._program import data as data
