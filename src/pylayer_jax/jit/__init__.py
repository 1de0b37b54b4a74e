"""``pylayer_jax.jit``: Paddle's ``paddle.jit`` path."""

from ._logging import set_code_level as set_code_level
from ._logging import set_verbosity as set_verbosity
from ._save import TranslatedLayer as TranslatedLayer
from ._save import load as load
from ._save import save as save
from ._to_static import StaticFunction as StaticFunction
from ._to_static import enable_to_static as enable_to_static
from ._to_static import ignore_module as ignore_module
from ._to_static import not_to_static as not_to_static
from ._to_static import to_static as to_static
