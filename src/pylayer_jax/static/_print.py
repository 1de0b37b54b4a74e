"""``paddle.static.Print``: print a Variable's value each time the program runs (layer L6).

The print operator passes its input through unchanged and prints it from inside the compiled program
(``jax.debug.callback``, ordered), in Paddle's layout::

    Variable: x
      - message: hello
      - lod: {}
      - place: Place(cpu)
      - shape: [2, 3]
      - layout: NCHW
      - dtype: float32
      - data: [0.000000 1.000000 2.000000 3.000000]

Like every Paddle print operator it runs whenever its program runs, fetched or not. With
``print_phase`` "backward" or "both" the gradient that reaches its output is printed too when a
backward pass runs through it (under the name ``<output>@GRAD``). ``first_n`` limits how many times
each of the two prints (forward, backward) happens.
"""

from __future__ import annotations

import sys
from typing import Any

import jax
import numpy as np

from .._runtime import device as _device
from .._runtime import dtypes as _dtypes
from .._tensor.facade import Tensor
from ._program import Operator, unique_name
from ._variable import Variable


def _format(name: str | None, arr: np.ndarray, message: str, summarize: int, flags: dict[str, bool],
            place: str) -> str:
    lines = []
    if flags["print_tensor_name"]:
        lines.append(f"Variable: {name}")
    if message:
        lines.append(f"  - message: {message}")
    if flags["print_tensor_lod"]:
        lines.append("  - lod: {}")
    lines.append(f"  - place: {place}")
    if flags["print_tensor_shape"]:
        lines.append(f"  - shape: [{', '.join(str(d) for d in arr.shape)}]")
    if flags["print_tensor_layout"]:
        lines.append("  - layout: NCHW")
    if flags["print_tensor_type"]:
        lines.append(f"  - dtype: {_dtypes.to_paddle(arr.dtype).name}")
    flat = arr.reshape(-1)
    if summarize >= 0:
        flat = flat[:summarize]
    vals = " ".join(f"{float(v):f}" for v in flat.astype(np.float64))
    lines.append(f"  - data: [{vals}]")
    return "\n".join(lines)


class PrintOp(Operator):
    """``out = print(x)``: the identity that prints ``x`` (and, backward, ``out@GRAD``) at run time."""

    type = "print"
    always_run = True  # (kept when nothing it computes is fetched, as Paddle runs every op of a program)

    def __init__(self, block: Any, x: Variable, out: Variable, attrs: dict[str, Any]) -> None:
        super().__init__(block, [x], [out], attrs)
        self.counts = {"forward": 0, "backward": 0}

    @property
    def prints_gradient(self) -> bool:
        return self.attrs["print_phase"] in ("BACKWARD", "BOTH")

    def _printer(self, phase: str, name: str | None) -> Any:
        a = self.attrs
        flags = {k: a[k] for k in ("print_tensor_name", "print_tensor_type", "print_tensor_shape",
                                   "print_tensor_layout", "print_tensor_lod")}

        def show(arr: Any) -> None:
            if 0 <= a["first_n"] <= self.counts[phase]:
                return
            self.counts[phase] += 1
            place = f"Place({_device.get_device()})"  # (the device the program runs on)
            sys.stdout.write(_format(name, np.asarray(arr), a["message"], a["summarize"], flags, place) + "\n")
            sys.stdout.flush()

        return show

    def run(self, env: dict[int, Any], ctx: Any) -> None:
        x = env[id(self.inputs[0])]
        phase = self.attrs["print_phase"]
        # a grad operator recomputes the forward part of the program inside its VJP: the value is printed by the
        # forward run only, and the gradient by the pullback
        if phase in ("FORWARD", "BOTH") and not getattr(ctx, "recomputing", False):
            jax.debug.callback(self._printer("forward", self.inputs[0].name), x, ordered=True)
        if phase in ("BACKWARD", "BOTH") and getattr(ctx, "recomputing", False):
            show = self._printer("backward", f"{self.outputs[0].name}@GRAD")

            @jax.custom_vjp
            def ident(v: Any) -> Any:
                return v

            def fwd(v: Any) -> tuple[Any, None]:
                return v, None

            def bwd(_: None, g: Any) -> tuple[Any]:
                jax.debug.callback(show, g)  # (unordered: ordered effects cannot sit in a VJP)
                return (g,)

            ident.defvjp(fwd, bwd)
            x = ident(x)
        env[id(self.outputs[0])] = x


_PHASES = ("forward", "backward", "both")


def Print(input: Any, first_n: int = -1, message: str | None = None, summarize: int = 20,  # noqa: N802
          print_tensor_name: bool = True, print_tensor_type: bool = True, print_tensor_shape: bool = True,
          print_tensor_layout: bool = True, print_tensor_lod: bool = True, print_phase: str = "both") -> Any:
    """Print ``input`` whenever the program runs; returns a Variable equal to it (use it downstream to print
    the gradient as well). ``first_n``: print at most this many times (-1: always); ``summarize``: how many
    elements of the data to show (-1: all); ``print_phase``: "forward", "backward" or "both".

    Example::

        >>> x = paddle.static.data("x", [2, 3], "float32")
        >>> y = paddle.static.Print(x, message="x is")   # printed at every Executor.run
    """
    api = "paddle.static.Print"
    if not isinstance(input, Variable):
        if isinstance(input, Tensor):
            raise RuntimeError(f"{api}: Print works in static mode only (paddle.enable_static()); in dynamic mode "
                               "print(tensor) shows the value directly.")
        raise TypeError(f"{api}: input must be a Variable of a static program, but received {type(input).__name__}.")
    for what, v in (("first_n", first_n), ("summarize", summarize)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{api}: {what} must be an int, but received {type(v).__name__}.")
    if message is not None and not isinstance(message, str):
        raise TypeError(f"{api}: message must be a str, but received {type(message).__name__}.")
    if not isinstance(print_phase, str) or print_phase.lower() not in _PHASES:
        raise ValueError(f"{api}: print_phase must be one of {_PHASES}, but received {print_phase!r}.")
    flags = {"print_tensor_name": print_tensor_name, "print_tensor_type": print_tensor_type,
             "print_tensor_shape": print_tensor_shape, "print_tensor_layout": print_tensor_layout,
             "print_tensor_lod": print_tensor_lod}
    for k, v in flags.items():
        if not isinstance(v, bool):
            raise TypeError(f"{api}: {k} must be a bool, but received {type(v).__name__}.")
    prog = input.block.program
    block = prog.current_block()
    out = Variable.from_structs(block, f"{unique_name('print')}.tmp_0", input._value, input._alt,
                                input.stop_gradient)
    attrs = {"first_n": first_n, "summarize": summarize, "message": message or "", **flags,
             "print_phase": print_phase.upper()}
    prog.append_op(PrintOp(block, input, out, attrs))
    return out
