"""``paddle.onnx.export``: write a Layer as an ONNX model.

Paddle 3.3.1 does this through the separate ``paddle2onnx`` package, which converts Paddle's own program format
and raises ImportError when it is not installed. This package has no ONNX converter (``paddle2onnx`` reads
Paddle's programs, not this package's), so ``export`` checks its arguments and raises that ImportError, telling
what to do instead: ``paddle.jit.save`` writes a model this package (and ``paddle.inference``) loads back, and
``jax.export`` serializes a jitted function as StableHLO, which other XLA-based runtimes load. (A converter would
walk the program ``paddle.jit.to_static`` records, or the StableHLO of ``jax.export``, and emit ONNX nodes; none
is written here.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["export"]


def export(layer: Any, path: str, input_spec: Sequence[Any] | None = None, opset_version: int = 9,
           **configs: Any) -> None:
    """Export ``layer`` to ``path + '.onnx'`` (Paddle needs ``paddle2onnx`` for it): raises ImportError here,
    after checking the arguments; see the module's docstring for what to use instead."""
    from ..nn import Layer

    if not isinstance(layer, Layer) and not callable(layer):
        raise TypeError(f"paddle.onnx.export: layer must be a paddle.nn.Layer (or a function), but received "
                        f"{type(layer).__name__}.")
    if not isinstance(path, str):
        raise TypeError(f"paddle.onnx.export: path must be a str (the file name without '.onnx'), but received "
                        f"{type(path).__name__}.")
    if not isinstance(opset_version, int) or isinstance(opset_version, bool):
        raise TypeError(f"paddle.onnx.export: opset_version must be an int, but received "
                        f"{type(opset_version).__name__}.")
    raise ImportError("paddle.onnx.export: Failed importing paddle2onnx. Paddle converts models to ONNX with the "
                      "paddle2onnx package, which reads Paddle's own program format, and this package has no ONNX "
                      "converter. Save the model with paddle.jit.save (loaded back by paddle.jit.load and "
                      "paddle.inference), or serialize a jitted function as StableHLO with jax.export.")
