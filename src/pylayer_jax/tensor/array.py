"""``paddle.tensor.array``: the tensor-array helpers (in dynamic mode a tensor array is a Python list)."""

from .._api.namespace_extras import array_length as array_length
from .._api.namespace_extras import array_read as array_read
from .._api.namespace_extras import array_write as array_write
from .._api.namespace_extras import create_array as create_array

__all__: list[str] = []
