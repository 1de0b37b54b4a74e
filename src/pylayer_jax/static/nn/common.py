"""``paddle.static.nn.common``: the layer functions (``fc``, convolutions, normalisations, embeddings, ...),
``py_func`` and ``ExponentialMovingAverage``, at Paddle's module path."""

from .._ema import ExponentialMovingAverage as ExponentialMovingAverage
from .._layers import batch_norm as batch_norm
from .._layers import bilinear_tensor_product as bilinear_tensor_product
from .._layers import continuous_value_model as continuous_value_model
from .._layers import conv2d as conv2d
from .._layers import conv2d_transpose as conv2d_transpose
from .._layers import conv3d as conv3d
from .._layers import conv3d_transpose as conv3d_transpose
from .._layers import deform_conv2d as deform_conv2d
from .._layers import embedding as embedding
from .._layers import group_norm as group_norm
from .._layers import instance_norm as instance_norm
from .._layers import layer_norm as layer_norm
from .._layers import prelu as prelu
from .._layers import row_conv as row_conv
from .._layers import sparse_embedding as sparse_embedding
from .._layers import spectral_norm as spectral_norm
from .._nn import fc as fc
from .._py_func import py_func as py_func
