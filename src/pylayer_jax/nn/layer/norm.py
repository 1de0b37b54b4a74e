"""``paddle.nn.layer.norm`` import path: the normalisation layers."""

from ._norm import BatchNorm1D as BatchNorm1D
from ._norm import BatchNorm2D as BatchNorm2D
from ._norm import BatchNorm3D as BatchNorm3D
from ._norm import GroupNorm as GroupNorm
from ._norm import InstanceNorm1D as InstanceNorm1D
from ._norm import InstanceNorm2D as InstanceNorm2D
from ._norm import InstanceNorm3D as InstanceNorm3D
from ._norm import LayerNorm as LayerNorm
from ._norm import LocalResponseNorm as LocalResponseNorm
from ._norm_extra import BatchNorm as BatchNorm
from ._norm_extra import SpectralNorm as SpectralNorm
from ._norm_extra import SyncBatchNorm as SyncBatchNorm
