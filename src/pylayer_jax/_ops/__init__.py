"""Op families; importing this package registers every op in the table (layer L1)."""

from . import math as math  # noqa: F401
from . import indexing as indexing  # noqa: F401
from . import unary as unary  # noqa: F401
from . import logic as logic  # noqa: F401
from . import reduce as reduce  # noqa: F401
from . import sorting as sorting  # noqa: F401
from . import creation as creation  # noqa: F401
