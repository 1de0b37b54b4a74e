"""``paddle.utils.dlpack``: DLPack exchange."""

from .._dlpack import from_dlpack as from_dlpack
from .._dlpack import to_dlpack as to_dlpack
