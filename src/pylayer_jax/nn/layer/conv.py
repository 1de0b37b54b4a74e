"""``paddle.nn.layer.conv`` import path: the convolution layers."""

from ._conv import Conv1D as Conv1D
from ._conv import Conv1d as Conv1d
from ._conv import Conv1DTranspose as Conv1DTranspose
from ._conv import Conv2D as Conv2D
from ._conv import Conv2d as Conv2d
from ._conv import Conv2DTranspose as Conv2DTranspose
from ._conv import Conv3D as Conv3D
from ._conv import Conv3d as Conv3d
from ._conv import Conv3DTranspose as Conv3DTranspose
