"""``recompute`` and ``recompute_sequential``: gradient checkpointing as Paddle 3.3.1 runs it in eager mode
(layer L7).

A recomputed block keeps no intermediate values for backward: backward runs its forward again and differentiates
that. Two implementations, picked by ``use_reentrant`` as in Paddle:

- ``use_reentrant=True`` (the default): a PyLayer. Forward runs the block with gradient recording off and saves only
  its Tensor inputs; the PyLayer's backward runs the block again with recording on, then backward through it (the
  block's parameters get their gradients there). As in Paddle, the outputs need a gradient only when some Tensor
  input does: a block whose inputs all stop gradient gives its parameters no gradient (Paddle warns about it).
- ``use_reentrant=False``: saved-tensor hooks. Forward runs normally but every value an op saves for backward is
  replaced by a placeholder; the first placeholder backward unpacks runs the block again and hands out the values
  that run saved, in order.

With ``preserve_rng_state=True`` (the default) the random state (the generator, numpy's and Python's) of the
forward is restored while backward runs the block again, so a dropout inside draws the forward's mask and the
gradients are those of the forward; with False the second run draws new masks (the gradients then belong to other
masks, as in Paddle).
"""

from __future__ import annotations

import inspect
import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...._api.random import get_rng_state, set_rng_state
from ...._pylayer.eager import PyLayer
from ...._runtime.state import grad_mode, modes
from ...._tensor.backward_entry import backward as _backward
from ...._tensor.facade import Tensor
from ...._tensor.saved_hooks import saved_tensors_hooks
from ....nn.layer._layers import Layer

_log = logging.getLogger(__name__)


class _RandomState:
    """The forward's random states (generator, numpy, Python), switched in while backward reruns the block."""

    def __init__(self) -> None:
        self.rng = get_rng_state()
        self.np = np.random.get_state()
        self.py = random.getstate()

    def __enter__(self) -> None:
        self.saved = (get_rng_state(), np.random.get_state(), random.getstate())
        set_rng_state(self.rng)
        np.random.set_state(self.np)
        random.setstate(self.py)

    def __exit__(self, *exc: Any) -> None:
        rng, nps, pys = self.saved
        set_rng_state(rng)
        np.random.set_state(nps)
        random.setstate(pys)


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def _detach(x: Any) -> Any:
    if isinstance(x, Tensor):
        d = x.detach()
        d.stop_gradient = x.stop_gradient
        return d
    if type(x) is tuple:
        return tuple(_detach(e) for e in x)
    return x


class _Block:
    """The recomputed function and its options, one opaque argument of the PyLayer (a Layer passed as it is would
    be taken apart as a tree of parameters)."""

    __slots__ = ("run", "preserve")

    def __init__(self, run: Callable[..., Any], preserve: bool) -> None:
        self.run, self.preserve = run, preserve


class _Recompute(PyLayer):
    @staticmethod
    def forward(ctx: Any, block: _Block, *args: Any) -> Any:
        run = block.run
        ctx.run, ctx.kwargs = run, {}
        ctx.rng = _RandomState() if block.preserve else None
        ctx.inputs, ctx.tensor_indices, tensors = [], [], []
        for i, a in enumerate(args):
            if isinstance(a, Tensor):
                tensors.append(a)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            elif type(a) is tuple and a and all(isinstance(e, Tensor) for e in a):
                sg = [e.stop_gradient for e in a]
                if any(sg) and not all(sg):
                    raise ValueError("recompute: a tuple of Tensors passed to a recomputed block must hold Tensors "
                                     "that all need a gradient or all stop gradient, but it holds both. Pass them "
                                     "as separate arguments.")
                tensors.append(a)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            elif type(a) is tuple and any(isinstance(e, Tensor) for e in a):
                raise ValueError("recompute: a tuple passed to a recomputed block holds Tensors and other values at "
                                 "once. Pass the Tensors and the other values as separate arguments.")
            else:
                ctx.inputs.append(a)
        ctx.save_for_backward(*tensors)
        return run(*args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensor()):
            inputs[i] = t
        with grad_mode(True), ctx.rng or _Nothing():
            detached = tuple(_detach(x) for x in inputs)
            outputs = ctx.run(*detached, **ctx.kwargs)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        outs, seeds = [], []
        for o, g in zip(outputs, grads):
            if isinstance(o, Tensor) and not o.stop_gradient:
                outs.append(o)
                seeds.append(g)
        if not outs:
            raise RuntimeError("recompute: none of the recomputed block's outputs needs a gradient, so its backward "
                               "has nothing to differentiate. Call the block without recompute.")
        _backward(outs, seeds)
        result = []
        for x in detached:
            if isinstance(x, Tensor):
                result.append(x.grad)
            elif type(x) is tuple and x and all(isinstance(e, Tensor) for e in x):
                result.append(None if all(e.stop_gradient for e in x) else tuple(e.grad for e in x))
        return tuple(result)


def _positional(function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """``args`` and ``kwargs`` bound to ``function``'s signature, as one positional list (Paddle's PyLayer path)."""
    sig = inspect.signature(function.forward if isinstance(function, Layer) else function)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    out: list[Any] = []
    for value, param in zip(bound.arguments.values(), sig.parameters.values()):
        if param.kind == param.VAR_POSITIONAL:
            out.extend(value)
        elif param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            out.append(value)
        elif param.kind == param.VAR_KEYWORD:
            out.extend(value.values())
        else:
            raise ValueError(f"recompute: with use_reentrant=True the block's keyword-only argument {param.name!r} "
                             "cannot be passed; make it positional-or-keyword or use use_reentrant=False.")
    return out


def _without_reentrant(function: Callable[..., Any], preserve: bool, args: tuple[Any, ...],
                       kwargs: dict[str, Any]) -> Any:
    state = _RandomState() if preserve else None
    count = [0]
    storage: dict[int, Any] = {}

    def pack(x: Any) -> int:
        count[0] += 1
        return count[0] - 1

    def unpack(index: int) -> Any:
        if not storage:
            seen = [0]

            def inner_pack(x: Any) -> None:
                storage[seen[0]] = x
                seen[0] += 1

            def inner_unpack(x: Any) -> Any:
                raise RuntimeError("recompute: a value of the recomputed block was unpacked twice.")

            with state or _Nothing(), grad_mode(True), saved_tensors_hooks(inner_pack, inner_unpack):
                function(*args, **kwargs)
        if index not in storage:
            raise RuntimeError("recompute: backward asked for a saved value of the recomputed block twice (backward "
                               "through a recomputed block with use_reentrant=False runs once; pass "
                               "retain_graph=False or use use_reentrant=True).")
        return storage.pop(index)

    with saved_tensors_hooks(pack, unpack):
        return function(*args, **kwargs)


def _check_necessary(values: Sequence[Any]) -> None:
    flags = []
    for v in values:
        if isinstance(v, Tensor):
            flags.append(v.stop_gradient)
        elif type(v) is tuple:
            flags.extend(e.stop_gradient for e in v if isinstance(e, Tensor))
    if all(flags):
        _log.warning("[Recompute]: None of the inputs to current recompute block need grad, therefore there is NO "
                     "need to recompute this block in backward !")


def recompute(function: Layer | Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run ``function(*args, **kwargs)`` keeping no intermediate values for backward; backward runs it again.

    ``preserve_rng_state`` (default True) and ``use_reentrant`` (default True) are taken out of ``kwargs``; the
    other keyword arguments go to ``function``. See the module's docstring for the two implementations.
    """
    if not callable(function):
        raise TypeError(f"recompute: function must be a Layer or a callable, but received {type(function).__name__}.")
    preserve = kwargs.pop("preserve_rng_state", True)
    use_reentrant = kwargs.pop("use_reentrant", True)
    for name, v in (("use_reentrant", use_reentrant), ("preserve_rng_state", preserve)):
        if not isinstance(v, bool):
            raise TypeError(f"recompute: {name} must be a bool, but received {type(v).__name__} {v!r}.")
    kwargs.pop("offload_indices", None)
    if modes.grad_enabled:
        _check_necessary([*args, *kwargs.values()])
    if use_reentrant:
        inputs = _positional(function, args, kwargs)
        return _Recompute.apply(_Block(function, bool(preserve)), *inputs)
    return _without_reentrant(function, bool(preserve), args, kwargs)


def recompute_sequential(ctx: dict[str, Any], functions: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a ``Sequential`` (or a list of callables) in ``ctx['segments']`` chunks (default 1), recomputing every
    chunk but the last; ``ctx['preserve_rng_state']`` (default True) as in ``recompute``."""
    segments = ctx.get("segments", 1)
    preserve = ctx.get("preserve_rng_state", True)
    if isinstance(functions, Layer) and not isinstance(functions, list | tuple):
        functions = list(functions.children())
    functions = list(functions)

    def chunk(begin: int, end: int) -> Callable[..., Any]:
        def run(x: Any) -> Any:
            for f in functions[begin:end + 1]:
                x = f(x)
            return x

        return run

    size = len(functions) // segments
    end = -1
    for begin in range(0, size * (segments - 1), size):
        end = begin + size - 1
        args = (recompute(chunk(begin, end), *args, preserve_rng_state=preserve, **kwargs),)
    return chunk(end + 1, len(functions) - 1)(*args)
