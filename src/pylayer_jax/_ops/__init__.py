"""Op families; importing this package registers every op in the table (layer L1)."""

from . import math as math  # noqa: F401
from . import indexing as indexing  # noqa: F401
