"""``paddle.static.nn.sequence_lod``: Paddle's LoD sequence layers, which need LoD tensors (batches of
variable-length sequences packed with level-of-detail offsets). LoD tensors do not exist here, so each
raises ``NotImplementedError`` naming a dense alternative."""

from __future__ import annotations

from typing import Any

_WHY = ("LoD (level-of-detail) tensors, which pack variable-length sequences, do not exist here; pad the "
        "sequences to a dense [batch, time, ...] tensor and use")


def _msg(api: str, instead: str) -> str:
    return f"paddle.static.nn.{api}: {_WHY} {instead} instead."


def sequence_conv(input: Any, num_filters: int, filter_size: int = 3, filter_stride: int = 1, padding: bool = True,
                  padding_start: Any = None, bias_attr: Any = None, param_attr: Any = None, act: Any = None,
                  name: Any = None) -> Any:
    """Convolution along each LoD sequence: not available (LoD tensors)."""
    raise NotImplementedError(_msg("sequence_conv", "paddle.static.nn.conv2d / paddle.nn.Conv1D with a mask"))


def sequence_softmax(input: Any, use_cudnn: bool = False, name: Any = None) -> Any:
    """Softmax within each LoD sequence: not available (LoD tensors)."""
    raise NotImplementedError(_msg("sequence_softmax", "paddle.nn.functional.softmax over the time axis with padded steps masked"))


def sequence_pool(input: Any, pool_type: str, is_test: bool = False, pad_value: float = 0.0) -> Any:
    """Pooling of each LoD sequence: not available (LoD tensors)."""
    raise NotImplementedError(_msg("sequence_pool", "a masked sum/mean/max over the time axis"))


def sequence_first_step(input: Any) -> Any:
    """The first step of each LoD sequence: not available (LoD tensors)."""
    raise NotImplementedError(_msg("sequence_first_step", "x[:, 0]"))


def sequence_last_step(input: Any) -> Any:
    """The last step of each LoD sequence: not available (LoD tensors)."""
    raise NotImplementedError(_msg("sequence_last_step", "a gather at each sequence's length - 1"))


def sequence_expand(x: Any, y: Any, ref_level: int = -1, name: Any = None) -> Any:
    """Repeat rows of x by y's LoD: not available (LoD tensors)."""
    raise NotImplementedError(_msg("sequence_expand", "paddle.repeat_interleave"))
