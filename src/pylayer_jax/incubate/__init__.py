"""``paddle.incubate``: the fused transformer operators and Layers (``incubate.nn``), functional autodiff
(``incubate.autograd``), the LookAhead and ModelAverage optimizers and the BFGS minimisers (``incubate.optimizer``),
the segment reductions, graph sampling (``graph_sample_neighbors``, ``graph_khop_sampler``, ``graph_reindex``) and
fused softmaxes Paddle keeps at this path (layer L8)."""

from . import autograd as autograd
from . import cc as cc
from . import nn as nn
from . import optimizer as optimizer
from ._graph import graph_khop_sampler as graph_khop_sampler
from ._graph import graph_reindex as graph_reindex
from ._graph import graph_sample_neighbors as graph_sample_neighbors
from ._inference import inference as inference
from ._tensor_ops import graph_send_recv as graph_send_recv
from ._tensor_ops import identity_loss as identity_loss
from ._tensor_ops import segment_max as segment_max
from ._tensor_ops import segment_mean as segment_mean
from ._tensor_ops import segment_min as segment_min
from ._tensor_ops import segment_sum as segment_sum
from ._tensor_ops import softmax_mask_fuse as softmax_mask_fuse
from ._tensor_ops import softmax_mask_fuse_upper_triangle as softmax_mask_fuse_upper_triangle
from .optimizer import LookAhead as LookAhead
from .optimizer import ModelAverage as ModelAverage

__all__ = [
    "LookAhead",
    "ModelAverage",
    "cc",
    "graph_khop_sampler",
    "graph_reindex",
    "graph_sample_neighbors",
    "graph_send_recv",
    "identity_loss",
    "inference",
    "segment_max",
    "segment_mean",
    "segment_min",
    "segment_sum",
    "softmax_mask_fuse",
    "softmax_mask_fuse_upper_triangle",
]
