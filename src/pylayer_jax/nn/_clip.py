"""Gradient clipping: ``ClipGradByValue``, ``ClipGradByNorm``, ``ClipGradByGlobalNorm``.

Layer L5. Each clip is an optax transformation over the list of gradients of the
parameters that take part (``need_clip`` True), used inside an optimizer's jitted update
(``grad_clip=``) and, as Paddle allows, standalone: ``clip(params_grads)`` returns the
``(param, clipped grad)`` pairs, recorded as one deferred call.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp

if TYPE_CHECKING:  # optax is imported where a clip is built: a script that clips nothing does not load it
    import optax

from .._autograd.graph import ZEROED
from .._exec import deferred as lazy
from .._tensor.facade import HELD, Tensor, follow_grads
from .._tensor.facade import result as _result
from .._tensor.methods import write_values


def _by_norm(clip_norm: float) -> optax.GradientTransformation:
    """Each gradient on its own: ``g * clip_norm / max(||g||, clip_norm)``."""
    import optax

    def one(g: Any) -> Any:
        norm = jnp.sqrt(jnp.sum(jnp.square(g)))
        c = jnp.asarray(clip_norm, g.dtype)
        return g * (c / jnp.maximum(norm, c))

    return optax.stateless(lambda updates, params=None: jax.tree.map(one, updates))


def _by_value(lo: float, hi: float) -> optax.GradientTransformation:
    import optax

    if lo == -hi:
        return optax.clip(hi)
    return optax.stateless(lambda updates, params=None: jax.tree.map(lambda g: jnp.clip(g, lo, hi), updates))


def transform_of(key: tuple[Any, ...]) -> optax.GradientTransformation:
    """The optax transformation of a clip's key (``ClipGradBase._key()``)."""
    import optax

    kind = key[0]
    if kind == "value":
        return _by_value(key[1], key[2])
    if kind == "norm":
        return _by_norm(key[1])
    return optax.clip_by_global_norm(key[1])


def _clip_arrays(key: tuple[Any, ...], grads: list[Any]) -> list[Any]:
    import optax

    out, _ = transform_of(key).update(list(grads), optax.EmptyState())
    return out


def _clip_flat(key: tuple[Any, ...], *grads: Any) -> list[Any]:
    return _clip_arrays(key, list(grads))


_KERNELS: dict[Any, Any] = {}


def _number(api: str, name: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise TypeError(f"{api}: {name} must be a float, but received {type(v).__name__}.")
    return float(v)


class ClipGradBase:
    """Base class of the gradient clips; ``clip(params_grads)`` clips a list of (param, grad) pairs."""

    def _key(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __call__(self, params_grads: Any) -> list[tuple[Any, Any]]:
        api = type(self).__name__
        pairs = list(params_grads)
        for pg in pairs:
            if not (isinstance(pg, tuple | list) and len(pg) == 2):
                raise TypeError(f"{api}: expected a list of (parameter, gradient) pairs, but an element is {pg!r}.")
        todo = [i for i, (p, g) in enumerate(pairs) if g is not None and getattr(p, "need_clip", True)]
        if not todo:
            return [tuple(pg) for pg in pairs]
        key = self._key()
        k = _KERNELS.get(key)
        if k is None:
            k = _KERNELS[key] = jax.jit(functools.partial(_clip_flat, key))
        grads = [pairs[i][1]._v for i in todo]
        cut = lazy.cut_buffer()
        # after an optimizer's update that joined a backward (``_clip_grads_in_place``), the clip joins them too:
        # one program, and clipped gradients that ``clear_grad`` drops before it runs are never computed
        new = lazy.call(k, grads) if cut is None else lazy.join(cut, k, grads, [None] * len(grads))
        out = [tuple(pg) for pg in pairs]
        for i, v in zip(todo, new):
            out[i] = (pairs[i][0], Tensor(v))
        return out


class ClipGradByValue(ClipGradBase):
    """Clip every gradient element into ``[min, max]`` (``min`` defaults to ``-max``).

    Example::

        clip = pylayer_jax.nn.ClipGradByValue(max=1.0)
        opt = pylayer_jax.optimizer.SGD(0.1, parameters=params, grad_clip=clip)
    """

    def __init__(self, max: float, min: float | None = None) -> None:  # noqa: A002 - Paddle's names
        hi = _number("ClipGradByValue", "max", max)
        lo = -hi if min is None else _number("ClipGradByValue", "min", min)
        if lo > hi:
            raise ValueError(f"ClipGradByValue: min ({lo}) must not exceed max ({hi}).")
        self.max, self.min = hi, lo

    def _key(self) -> tuple[Any, ...]:
        return ("value", self.min, self.max)

    def __repr__(self) -> str:
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"


class ClipGradByNorm(ClipGradBase):
    """Scale each gradient so that its L2 norm is at most ``clip_norm``.

    Example::

        opt = pylayer_jax.optimizer.SGD(0.1, parameters=params, grad_clip=ClipGradByNorm(1.0))
    """

    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = _number("ClipGradByNorm", "clip_norm", clip_norm)

    def _key(self) -> tuple[Any, ...]:
        return ("norm", self.clip_norm)

    def __repr__(self) -> str:
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"


class ClipGradByGlobalNorm(ClipGradBase):
    """Scale all gradients together so that their joint L2 norm is at most ``clip_norm``.

    Example::

        opt = pylayer_jax.optimizer.Adam(1e-3, parameters=params, grad_clip=ClipGradByGlobalNorm(1.0))
    """

    def __init__(self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False) -> None:
        self.clip_norm = _number("ClipGradByGlobalNorm", "clip_norm", clip_norm)
        if not isinstance(group_name, str):
            raise TypeError(f"ClipGradByGlobalNorm: group_name must be a str, but received {type(group_name).__name__}.")
        if auto_skip_clip:
            raise NotImplementedError(
                "ClipGradByGlobalNorm: auto_skip_clip=True (skipping the clip in distributed training) is not "
                "supported; leave it False."
            )
        self.group_name = group_name

    def _key(self) -> tuple[Any, ...]:
        return ("global", self.clip_norm)

    def __call__(self, params_grads: Any) -> list[tuple[Any, Any]]:
        """As Paddle's: each clipped gradient of one or more dimensions is scaled in place (a parameter's
        ``.grad`` given here holds the clipped values afterwards) and comes back itself; a 0-D one comes back as a
        new Tensor, its input untouched."""
        pairs = [tuple(pg) if isinstance(pg, tuple | list) else pg for pg in params_grads]
        out = super().__call__(pairs)
        for k, ((p, g), (_, new)) in enumerate(zip(pairs, out)):
            if new is not g and g.ndim > 0:
                write_values(g, new, type(self).__name__)
                out[k] = (p, g)
        return out

    def _clip_grads_in_place(self, params: list[Any]) -> None:
        """After an optimizer step that clipped with this: the parameters' gradients hold the clipped values, as
        Paddle's in-place clip leaves them (0-D ones keep theirs). Each gradient is replaced where it is kept
        (no ``.grad`` handle is made: a step's program that ``clear_grad`` ends never returns them)."""
        pairs = []
        for p in params:
            acc = p._acc
            g = acc.grad if acc is not None and p._e is None and not p._sg else None
            if g is None or g is ZEROED:  # (none, or cleared: zeros stay zeros)
                continue
            pairs.append((p, g if isinstance(g, Tensor) else _result(g)))
        if not pairs:
            return
        for (p, g), (_, new) in zip(pairs, super().__call__(pairs)):
            if new is not g and g.ndim > 0 and p._e is None and p._acc is not None:
                p._acc.grad = new._v  # (not the setter: it would run the step now, to read the value)
        if HELD:  # the Tensors .grad handed out show the clipped values, as Paddle's in-place clip leaves them
            follow_grads()

    def __repr__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"
