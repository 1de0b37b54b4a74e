"""PyTorch-style keyword aliases that Paddle 3.3.1 accepts (``paddle.sum(x, dim=0)``, ``paddle.add(input=x, other=y)``).

``ALIASES`` maps a public API (``"sum"`` for ``paddle.sum``, ``"Tensor.sum"``, ``"nn.functional.softmax"``,
``"linalg.norm"``) to ``({alias: parameter}, conflict)``: the keyword aliases Paddle 3.3.1 takes there and the
exception type it raises for a call giving both a parameter and its alias (ValueError where Paddle's
``ParamAliasDecorator`` or its C++ argument parser handles the alias; TypeError where ``param_one_alias`` /
``param_two_alias`` do, which leave the alias to the function as an unexpected keyword; None where the alias
silently wins, as softmax's and lp_pool's decorators do). ``tests/record_paddle_aliases.py`` records the facts.

``install`` applies the table once, after the public names are bound: a function or method built straight on a
table op gets the op's ``Op.aliases``, which dispatch reads only on a call with keywords (the plain call is not
slowed at all); any other function is wrapped, the wrapper looking at its keywords only when there are some.
APIs Paddle does not alias (``paddle.max`` / ``min`` / ``std`` with ``dim=``) are not here and stay TypeErrors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

ALIASES: dict[str, tuple[dict[str, str], type[Exception] | None]] = {
    'Tensor.add': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.add_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.argsort': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.bitwise_or': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.bitwise_or_': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.broadcast_to': ({'input': 'x', 'size': 'shape'}, ValueError),
    'Tensor.bucketize': ({'input': 'x', 'boundaries': 'sorted_sequence'}, TypeError),
    'Tensor.chunk': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.clamp': ({'input': 'x'}, TypeError),
    'Tensor.clip': ({'input': 'x'}, TypeError),
    'Tensor.concat': ({'tensors': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.cross': ({'dim': 'axis'}, ValueError),
    'Tensor.cumprod': ({'input': 'x'}, TypeError),
    'Tensor.cumsum': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.diff': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.div': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.div_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.divide': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.divide_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.eq': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.equal': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.exponential_': ({'lambd': 'lam'}, TypeError),
    'Tensor.flatten': ({'input': 'x', 'start_dim': 'start_axis', 'end_dim': 'stop_axis'}, ValueError),
    'Tensor.floor_mod': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.frac': ({'input': 'x'}, TypeError),
    'Tensor.gcd': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.gcd_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.ge': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.greater': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.greater_equal': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.gt': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.is_complex': ({'input': 'x'}, ValueError),
    'Tensor.is_floating_point': ({'input': 'x'}, TypeError),
    'Tensor.is_tensor': ({'obj': 'x'}, TypeError),
    'Tensor.isin': ({'elements': 'x', 'test_elements': 'test_x'}, TypeError),
    'Tensor.lcm': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.lcm_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.le': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.less': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.less_equal': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.less_than': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.lt': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.masked_select': ({'input': 'x'}, TypeError),
    'Tensor.mean': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.median': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.mod': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.mul': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.mul_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.multinomial': ({'input': 'x'}, TypeError),
    'Tensor.multiply_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.ne': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.nonzero': ({'input': 'x'}, TypeError),
    'Tensor.norm': ({'input': 'x', 'A': 'x', 'ord': 'p', 'dim': 'axis'}, ValueError),
    'Tensor.not_equal': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.outer': ({'input': 'x', 'vec2': 'y'}, ValueError),
    'Tensor.pow': ({'input': 'x', 'exponent': 'y'}, ValueError),
    'Tensor.prod': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.quantile': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.remainder': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.repeat_interleave': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.solve': ({'A': 'x', 'B': 'y'}, TypeError),
    'Tensor.squeeze': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.stack': ({'tensors': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.sub': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.sub_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.subtract': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.subtract_': ({'input': 'x', 'other': 'y'}, TypeError),
    'Tensor.take_along_axis': ({'input': 'arr', 'dim': 'axis'}, ValueError),
    'Tensor.take_along_dim': ({'input': 'arr', 'dim': 'axis'}, ValueError),
    'Tensor.tile': ({'input': 'x', 'dims': 'repeat_times'}, ValueError),
    'Tensor.topk': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.trace': ({'input': 'x'}, TypeError),
    'Tensor.unbind': ({'dim': 'axis'}, TypeError),
    'Tensor.unflatten': ({'input': 'x', 'dim': 'axis', 'sizes': 'shape'}, ValueError),
    'Tensor.unfold': ({'dimension': 'axis'}, TypeError),
    'Tensor.uniform_': ({'from': 'min', 'to': 'max'}, TypeError),
    'Tensor.unique_consecutive': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.unsqueeze': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'Tensor.var': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.where': ({'input': 'x', 'other': 'y'}, ValueError),
    'abs': ({'input': 'x'}, ValueError),
    'acos': ({'input': 'x'}, ValueError),
    'acosh': ({'input': 'x'}, ValueError),
    'adaptive_avg_pool1d': ({'input': 'x'}, TypeError),
    'add': ({'input': 'x', 'other': 'y'}, TypeError),
    'all': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'amax': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'amin': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'any': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'argmax': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'argmin': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'argsort': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'asin': ({'input': 'x'}, ValueError),
    'atanh': ({'input': 'x'}, ValueError),
    'bitwise_or': ({'input': 'x', 'other': 'y'}, TypeError),
    'bitwise_or_': ({'input': 'x', 'other': 'y'}, ValueError),
    'bmm': ({'input': 'x', 'mat2': 'y'}, ValueError),
    'broadcast_to': ({'input': 'x', 'size': 'shape'}, ValueError),
    'bucketize': ({'input': 'x', 'boundaries': 'sorted_sequence'}, TypeError),
    'cat': ({'tensors': 'x', 'dim': 'axis'}, ValueError),
    'ceil': ({'input': 'x'}, ValueError),
    'chunk': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'clamp': ({'input': 'x'}, TypeError),
    'clip': ({'input': 'x'}, TypeError),
    'concat': ({'tensors': 'x', 'dim': 'axis'}, ValueError),
    'concatenate': ({'tensors': 'x', 'dim': 'axis'}, ValueError),
    'conv1d': ({'input': 'x'}, ValueError),
    'conv2d': ({'input': 'x'}, ValueError),
    'conv3d': ({'input': 'x'}, ValueError),
    'cos': ({'input': 'x'}, ValueError),
    'cosh': ({'input': 'x'}, ValueError),
    'cross': ({'dim': 'axis'}, ValueError),
    'cumprod': ({'input': 'x'}, TypeError),
    'cumsum': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'diagonal': ({'input': 'x', 'dim1': 'axis1', 'dim2': 'axis2'}, ValueError),
    'diff': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'div': ({'input': 'x', 'other': 'y'}, TypeError),
    'div_': ({'input': 'x', 'other': 'y'}, TypeError),
    'divide': ({'input': 'x', 'other': 'y'}, TypeError),
    'divide_': ({'input': 'x', 'other': 'y'}, TypeError),
    'dot': ({'input': 'x', 'tensor': 'y'}, ValueError),
    'empty_like': ({'input': 'x'}, ValueError),
    'eq': ({'input': 'x', 'other': 'y'}, TypeError),
    'equal': ({'input': 'x', 'other': 'y'}, TypeError),
    'exp': ({'input': 'x'}, ValueError),
    'expand_as': ({'input': 'x', 'other': 'y'}, ValueError),
    'expm1': ({'input': 'x'}, ValueError),
    'eye': ({'n': 'num_rows', 'm': 'num_columns'}, TypeError),
    'finfo': ({'type': 'dtype'}, ValueError),
    'flatten': ({'input': 'x', 'start_dim': 'start_axis', 'end_dim': 'stop_axis'}, ValueError),
    'floor': ({'input': 'x'}, ValueError),
    'floor_mod': ({'input': 'x', 'other': 'y'}, TypeError),
    'frac': ({'input': 'x'}, TypeError),
    'full': ({'size': 'shape'}, ValueError),
    'full_like': ({'input': 'x'}, TypeError),
    'gcd': ({'input': 'x', 'other': 'y'}, TypeError),
    'gcd_': ({'input': 'x', 'other': 'y'}, TypeError),
    'ge': ({'input': 'x', 'other': 'y'}, TypeError),
    'ger': ({'input': 'x', 'vec2': 'y'}, ValueError),
    'greater': ({'input': 'x', 'other': 'y'}, TypeError),
    'greater_equal': ({'input': 'x', 'other': 'y'}, TypeError),
    'greater_than': ({'input': 'x', 'other': 'y'}, ValueError),
    'gt': ({'input': 'x', 'other': 'y'}, TypeError),
    'index_put': ({'input': 'x', 'values': 'value'}, ValueError),
    'is_complex': ({'input': 'x'}, ValueError),
    'is_floating_point': ({'input': 'x'}, TypeError),
    'is_tensor': ({'obj': 'x'}, TypeError),
    'isclose': ({'input': 'x', 'other': 'y'}, ValueError),
    'isfinite': ({'input': 'x'}, ValueError),
    'isin': ({'elements': 'x', 'test_elements': 'test_x'}, TypeError),
    'isinf': ({'input': 'x'}, ValueError),
    'isnan': ({'input': 'x'}, ValueError),
    'layer_norm': ({'input': 'x', 'eps': 'epsilon'}, TypeError),
    'lcm': ({'input': 'x', 'other': 'y'}, TypeError),
    'lcm_': ({'input': 'x', 'other': 'y'}, TypeError),
    'le': ({'input': 'x', 'other': 'y'}, TypeError),
    'less': ({'input': 'x', 'other': 'y'}, TypeError),
    'less_equal': ({'input': 'x', 'other': 'y'}, TypeError),
    'less_than': ({'input': 'x', 'other': 'y'}, TypeError),
    'linalg.cross': ({'dim': 'axis'}, ValueError),
    'linalg.norm': ({'input': 'x', 'A': 'x', 'ord': 'p', 'dim': 'axis'}, ValueError),
    'linalg.solve': ({'A': 'x', 'B': 'y'}, TypeError),
    'linalg.vector_norm': ({'ord': 'p', 'dim': 'axis'}, ValueError),
    'linspace': ({'end': 'stop', 'steps': 'num'}, TypeError),
    'log': ({'input': 'x'}, ValueError),
    'log10': ({'input': 'x'}, ValueError),
    'log1p': ({'input': 'x'}, ValueError),
    'log2': ({'input': 'x'}, ValueError),
    'logical_and': ({'input': 'x', 'other': 'y'}, ValueError),
    'logical_not': ({'input': 'x'}, ValueError),
    'logical_or': ({'input': 'x', 'other': 'y'}, ValueError),
    'logical_xor': ({'input': 'x', 'other': 'y'}, ValueError),
    'logsumexp': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'lt': ({'input': 'x', 'other': 'y'}, TypeError),
    'masked_select': ({'input': 'x'}, TypeError),
    'matmul': ({'input': 'x', 'other': 'y'}, ValueError),
    'maximum': ({'input': 'x', 'other': 'y'}, ValueError),
    'mean': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'median': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'minimum': ({'input': 'x', 'other': 'y'}, ValueError),
    'mod': ({'input': 'x', 'other': 'y'}, TypeError),
    'mul': ({'input': 'x', 'other': 'y'}, TypeError),
    'multinomial': ({'input': 'x'}, TypeError),
    'multiply': ({'input': 'x', 'other': 'y'}, ValueError),
    'multiply_': ({'input': 'x', 'other': 'y'}, TypeError),
    'ne': ({'input': 'x', 'other': 'y'}, TypeError),
    'nn.functional.adaptive_avg_pool1d': ({'input': 'x'}, TypeError),
    'nn.functional.adaptive_avg_pool2d': ({'input': 'x'}, TypeError),
    'nn.functional.adaptive_avg_pool3d': ({'input': 'x'}, TypeError),
    'nn.functional.adaptive_max_pool1d': ({'input': 'x', 'return_indices': 'return_mask'}, TypeError),
    'nn.functional.adaptive_max_pool2d': ({'input': 'x', 'return_indices': 'return_mask'}, TypeError),
    'nn.functional.adaptive_max_pool3d': ({'input': 'x', 'return_indices': 'return_mask'}, TypeError),
    'nn.functional.conv1d': ({'input': 'x'}, ValueError),
    'nn.functional.conv2d': ({'input': 'x'}, ValueError),
    'nn.functional.conv3d': ({'input': 'x'}, ValueError),
    'nn.functional.cosine_similarity': ({'dim': 'axis'}, TypeError),
    'nn.functional.cross_entropy': ({'target': 'label'}, ValueError),
    'nn.functional.dropout': ({'input': 'x'}, TypeError),
    'nn.functional.embedding': ({'input': 'x'}, TypeError),
    'nn.functional.fold': ({'input': 'x', 'output_size': 'output_sizes', 'kernel_size': 'kernel_sizes', 'stride': 'strides', 'padding': 'paddings', 'dilation': 'dilations'}, ValueError),
    'nn.functional.gelu': ({'input': 'x'}, ValueError),
    'nn.functional.glu': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'nn.functional.grid_sample': ({'input': 'x'}, ValueError),
    'nn.functional.hardshrink': ({'input': 'x', 'lambd': 'threshold'}, TypeError),
    'nn.functional.layer_norm': ({'input': 'x', 'eps': 'epsilon'}, TypeError),
    'nn.functional.log_sigmoid': ({'input': 'x'}, TypeError),
    'nn.functional.logsigmoid': ({'input': 'x'}, TypeError),
    'nn.functional.lp_pool1d': ({'input': 'x'}, None),
    'nn.functional.lp_pool2d': ({'input': 'x'}, None),
    'nn.functional.normalize': ({'input': 'x', 'dim': 'axis', 'eps': 'epsilon'}, ValueError),
    'nn.functional.one_hot': ({'input': 'x'}, TypeError),
    'nn.functional.pad': ({'input': 'x'}, ValueError),
    'nn.functional.pairwise_distance': ({'x1': 'x', 'x2': 'y', 'eps': 'epsilon'}, ValueError),
    'nn.functional.sigmoid': ({'input': 'x'}, ValueError),
    'nn.functional.silu': ({'input': 'x'}, TypeError),
    'nn.functional.softmax': ({'input': 'x', 'dim': 'axis'}, None),
    'nn.functional.softplus': ({'input': 'x'}, ValueError),
    'nn.functional.softshrink': ({'input': 'x', 'lambd': 'threshold'}, TypeError),
    'nn.functional.tanh': ({'input': 'x'}, ValueError),
    'nonzero': ({'input': 'x'}, TypeError),
    'norm': ({'input': 'x', 'A': 'x', 'ord': 'p', 'dim': 'axis'}, ValueError),
    'normal': ({'size': 'shape'}, TypeError),
    'not_equal': ({'input': 'x', 'other': 'y'}, TypeError),
    'ones_like': ({'input': 'x'}, ValueError),
    'outer': ({'input': 'x', 'vec2': 'y'}, ValueError),
    'pow': ({'input': 'x', 'exponent': 'y'}, ValueError),
    'prod': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'quantile': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'randn_like': ({'input': 'x'}, TypeError),
    'remainder': ({'input': 'x', 'other': 'y'}, TypeError),
    'repeat_interleave': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'roll': ({'input': 'x', 'dims': 'axis'}, ValueError),
    'round': ({'input': 'x'}, ValueError),
    'rsqrt': ({'input': 'x'}, ValueError),
    'searchsorted': ({'input': 'values'}, TypeError),
    'sigmoid': ({'input': 'x'}, ValueError),
    'sign': ({'input': 'x'}, ValueError),
    'sin': ({'input': 'x'}, ValueError),
    'sinh': ({'input': 'x'}, ValueError),
    'sqrt': ({'input': 'x'}, ValueError),
    'squeeze': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'stack': ({'tensors': 'x', 'dim': 'axis'}, ValueError),
    'sub': ({'input': 'x', 'other': 'y'}, TypeError),
    'sub_': ({'input': 'x', 'other': 'y'}, TypeError),
    'subtract': ({'input': 'x', 'other': 'y'}, TypeError),
    'subtract_': ({'input': 'x', 'other': 'y'}, TypeError),
    'sum': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'take_along_axis': ({'input': 'arr', 'dim': 'axis'}, ValueError),
    'take_along_dim': ({'input': 'arr', 'dim': 'axis'}, ValueError),
    'tanh': ({'input': 'x'}, ValueError),
    'tensor_split': ({'input': 'x', 'dim': 'axis', 'indices_or_sections': 'num_or_indices', 'indices': 'num_or_indices', 'sections': 'num_or_indices'}, TypeError),
    'tile': ({'input': 'x', 'dims': 'repeat_times'}, ValueError),
    'topk': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'trace': ({'input': 'x'}, TypeError),
    'tril': ({'input': 'x'}, ValueError),
    'triu': ({'input': 'x'}, ValueError),
    'unbind': ({'dim': 'axis'}, TypeError),
    'unflatten': ({'input': 'x', 'dim': 'axis', 'sizes': 'shape'}, ValueError),
    'unfold': ({'dimension': 'axis'}, TypeError),
    'unique_consecutive': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'unsqueeze': ({'input': 'x', 'dim': 'axis'}, TypeError),
    'var': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'where': ({'input': 'x', 'other': 'y'}, ValueError),
    'zeros_like': ({'input': 'x'}, ValueError),
    'Tensor.abs': ({'input': 'x'}, ValueError),
    'Tensor.acos': ({'input': 'x'}, ValueError),
    'Tensor.acosh': ({'input': 'x'}, ValueError),
    'Tensor.asin': ({'input': 'x'}, ValueError),
    'Tensor.atanh': ({'input': 'x'}, ValueError),
    'Tensor.ceil': ({'input': 'x'}, ValueError),
    'Tensor.cos': ({'input': 'x'}, ValueError),
    'Tensor.cosh': ({'input': 'x'}, ValueError),
    'Tensor.exp': ({'input': 'x'}, ValueError),
    'Tensor.expm1': ({'input': 'x'}, ValueError),
    'Tensor.floor': ({'input': 'x'}, ValueError),
    'Tensor.isfinite': ({'input': 'x'}, ValueError),
    'Tensor.isinf': ({'input': 'x'}, ValueError),
    'Tensor.isnan': ({'input': 'x'}, ValueError),
    'Tensor.log': ({'input': 'x'}, ValueError),
    'Tensor.log10': ({'input': 'x'}, ValueError),
    'Tensor.log1p': ({'input': 'x'}, ValueError),
    'Tensor.log2': ({'input': 'x'}, ValueError),
    'Tensor.logical_not': ({'input': 'x'}, ValueError),
    'Tensor.rsqrt': ({'input': 'x'}, ValueError),
    'Tensor.sigmoid': ({'input': 'x'}, ValueError),
    'Tensor.sign': ({'input': 'x'}, ValueError),
    'Tensor.sin': ({'input': 'x'}, ValueError),
    'Tensor.sinh': ({'input': 'x'}, ValueError),
    'Tensor.sqrt': ({'input': 'x'}, ValueError),
    'Tensor.tanh': ({'input': 'x'}, ValueError),
    'Tensor.round': ({'input': 'x'}, ValueError),
    'Tensor.tril': ({'input': 'x'}, ValueError),
    'Tensor.triu': ({'input': 'x'}, ValueError),
    'Tensor.all': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.amax': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.amin': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.any': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.argmax': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.argmin': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.logsumexp': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.sum': ({'input': 'x', 'dim': 'axis'}, ValueError),
    'Tensor.expand_as': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.greater_than': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.isclose': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.logical_and': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.logical_or': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.logical_xor': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.matmul': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.maximum': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.minimum': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.multiply': ({'input': 'x', 'other': 'y'}, ValueError),
    'Tensor.bmm': ({'input': 'x', 'mat2': 'y'}, ValueError),
    'Tensor.dot': ({'input': 'x', 'tensor': 'y'}, ValueError),
    'Tensor.roll': ({'input': 'x', 'dims': 'axis'}, ValueError),
    'Tensor.diagonal': ({'input': 'x', 'dim1': 'axis1', 'dim2': 'axis2'}, ValueError),
    'Tensor.index_put': ({'input': 'x', 'values': 'value'}, ValueError),
}

# plain alternative names Paddle 3.3.1 has for functions this package has: new name -> existing name
ALTERNATIVE_NAMES = {"cat": "concat", "concatenate": "concat"}


def unalias(aliases: tuple[str, dict[str, str], type[Exception] | None], kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with each alias of ``aliases`` (``(api, {alias: parameter}, conflict)``) renamed to its
    parameter; a call giving both raises ``conflict`` (None: the alias's value wins, as in Paddle)."""
    api, mapping, conflict = aliases
    for alias, param in mapping.items():
        if alias in kwargs:
            if param in kwargs and conflict is not None:
                raise conflict(f"{api}() got both {param!r} and its alias {alias!r}, which name the same "
                               f"argument; pass only one of them ({param}=...).")
            kwargs[param] = kwargs.pop(alias)
    return kwargs


def _wrap(fn: Callable[..., Any], aliases: tuple[str, dict[str, str], type[Exception] | None]) -> Callable[..., Any]:
    names = frozenset(aliases[1])

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if kwargs and not names.isdisjoint(kwargs):
            kwargs = unalias(aliases, kwargs)
        return fn(*args, **kwargs)

    return call


def install(namespaces: dict[str, Any]) -> list[str]:
    """Apply ``ALIASES`` to the public objects: ``namespaces`` maps a prefix (``""``, ``"Tensor."``,
    ``"nn.functional."``, ``"linalg."``) to the module, class or dict holding its names. Returns the APIs of the
    table this package lacks."""
    missing = []
    for new, old in ALTERNATIVE_NAMES.items():
        ns = namespaces[""]
        if new not in ns and old in ns:
            ns[new] = ns[old]
    for api, (mapping, conflict) in sorted(ALIASES.items(), key=lambda e: (e[0].startswith("Tensor."), e[0] in ALTERNATIVE_NAMES, e[0])):
        prefix, _, name = api.rpartition(".")
        where = namespaces.get(prefix + "." if prefix else "")
        get = where.get if isinstance(where, dict) else functools.partial(getattr, where)
        fn = get(name, None) if where is not None else None
        if fn is None:
            missing.append(api)
            continue
        label = "paddle." + api
        op = getattr(fn, "_op", None)
        if op is not None:
            if op.aliases is None:
                op.aliases = (label, mapping, conflict)
            continue
        wrapped = _wrap(fn, (label, mapping, conflict))
        if isinstance(where, dict):
            where[name] = wrapped
        else:
            setattr(where, name, wrapped)
    return missing
