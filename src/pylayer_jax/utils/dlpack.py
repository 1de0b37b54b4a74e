"""``paddle.utils.dlpack``: DLPack exchange."""

from .._tensor.dlpack import from_dlpack as from_dlpack
from .._tensor.dlpack import to_dlpack as to_dlpack
