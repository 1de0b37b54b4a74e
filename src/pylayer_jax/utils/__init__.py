"""``paddle.utils`` import path (layer L7): ``unique_name``, ``dlpack``, ``download``, the nested-structure helpers,
``run_check``, ``try_import``, ``require_version``, ``deprecated`` and ``strtobool``.

``paddle.utils.cpp_extension`` (building C++/CUDA custom ops) is not provided: ops here are JAX functions; write
them with ``jax.numpy``/``jax.lax`` (or a PyLayer), or call C code through ``jax.pure_callback``.
"""

from . import dlpack as dlpack
from . import download as download
from . import unique_name as unique_name
from ._install_check import run_check as run_check
from ._misc import require_version as require_version
from ._misc import strtobool as strtobool
from ._misc import try_import as try_import
from ._nest import assert_same_structure as assert_same_structure
from ._nest import flatten as flatten
from ._nest import is_sequence as is_sequence
from ._nest import map_structure as map_structure
from ._nest import pack_sequence_as as pack_sequence_as
from .deprecated import deprecated as deprecated

__all__ = ["deprecated", "run_check", "require_version", "try_import"]
