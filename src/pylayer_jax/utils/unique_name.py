"""``paddle.utils.unique_name``: ``generate``, ``guard``, ``switch`` (re-exports, layer L7)."""

from .._runtime.unique_name import UniqueNameGenerator as UniqueNameGenerator
from .._runtime.unique_name import generate as generate
from .._runtime.unique_name import guard as guard
from .._runtime.unique_name import switch as switch
