"""Gradient slots of a PyLayer call and the checks on what backward returns (layer L5).

Paddle's rule: each top-level Tensor argument, and each top-level list/tuple holding a
Tensor, is a slot (positional arguments first, then keyword arguments in call order);
backward returns one value per slot. Beyond Paddle, any argument that is a pytree holding
Tensors (dicts, nesting) is a slot too, and its gradient has the same structure. Outputs
follow the same rule: backward gets one gradient per output slot. Both drivers (eager and
traced) share this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from .._tensor.facade import Tensor

_tree_flatten = jax.tree_util.tree_flatten
_tree_unflatten = jax.tree_util.tree_unflatten


def is_tensor_like(v: Any) -> bool:
    return isinstance(v, Tensor | jax.Array)


def _none_or_tensor(v: Any) -> bool:
    return v is None or isinstance(v, Tensor | jax.Array | np.ndarray)


class Slot:
    """One gradient slot: a single tensor (``tdef is None``) or a container of them."""

    __slots__ = ("tdef", "n_all", "tensor_pos", "kind")

    def __init__(self, value: Any) -> None:
        if is_tensor_like(value):
            self.tdef = None
            self.n_all = 1
            self.tensor_pos: tuple[int, ...] = (0,)
            self.kind = "Tensor"
        else:
            leaves, self.tdef = _tree_flatten(value, is_leaf=is_tensor_like)
            self.n_all = len(leaves)
            self.tensor_pos = tuple(i for i, v in enumerate(leaves) if is_tensor_like(v))
            self.kind = f"{type(value).__name__} of {len(self.tensor_pos)} Tensors"

    @property
    def n(self) -> int:
        return len(self.tensor_pos)

    def tensors(self, value: Any) -> list[Any]:
        if self.tdef is None:
            return [value]
        leaves = self.tdef.flatten_up_to(value)
        return [leaves[i] for i in self.tensor_pos]

    def structure(self, grads: Sequence[Any]) -> Any:
        """The gradient for this slot shaped like the slot (None at non-Tensor places)."""
        if self.tdef is None:
            return grads[0]
        full: list[Any] = [None] * self.n_all
        for i, g in zip(self.tensor_pos, grads):
            full[i] = g
        return _tree_unflatten(self.tdef, full)


def has_tensor(v: Any) -> bool:
    if is_tensor_like(v):
        return True
    if v is None or type(v) in (int, float, bool, str):
        return False
    return any(is_tensor_like(x) for x in jax.tree_util.tree_leaves(v, is_leaf=is_tensor_like))


def input_slots(args: Sequence[Any], kwargs: dict[str, Any]) -> tuple[list[Slot], list[Any]]:
    """The slots of a call and the flat list of their tensors, in slot order."""
    slots: list[Slot] = []
    flat: list[Any] = []
    for v in (*args, *kwargs.values()):
        if has_tensor(v):
            s = Slot(v)
            slots.append(s)
            flat.extend(s.tensors(v))
    return slots, flat


def output_slots(out: Any, layer: str) -> tuple[list[Slot], list[Any], Any]:
    """Slots of forward's result, their tensors, and how to rebuild the result from new tensors.

    A Tensor is one slot; a tuple/list has one slot per item holding a Tensor (other items
    pass through); any other pytree holding Tensors is one slot.
    """
    if is_tensor_like(out):
        return [Slot(out)], [out], None
    if type(out) in (tuple, list):
        slots, flat, where = [], [], []
        for k, v in enumerate(out):
            if has_tensor(v):
                s = Slot(v)
                slots.append(s)
                flat.extend(s.tensors(v))
                where.append(k)
        if slots:
            return slots, flat, (type(out), where)
    elif out is not None and has_tensor(out):
        s = Slot(out)
        return [s], s.tensors(out), "tree"
    raise ValueError(
        f"{layer}: At least one output of `PyLayer.forward` is a `Tensor`, but forward returned "
        f"{_describe(out)}. Return a Tensor, or a tuple/list/dict holding Tensors."
    )


def rebuild_output(out: Any, slots: list[Slot], how: Any, new_flat: list[Any]) -> Any:
    """forward's result with its tensors replaced by ``new_flat`` (same order as output_slots)."""
    if how is None:
        return new_flat[0]
    if how == "tree":
        return _replace(out, slots[0], new_flat)
    typ, where = how
    items = list(out)
    pos = 0
    for s, k in zip(slots, where):
        items[k] = _replace(out[k], s, new_flat[pos : pos + s.n])
        pos += s.n
    return typ(items)


def _replace(value: Any, slot: Slot, tensors: Sequence[Any]) -> Any:
    if slot.tdef is None:
        return tensors[0]
    leaves = slot.tdef.flatten_up_to(value)
    for i, t in zip(slot.tensor_pos, tensors):
        leaves[i] = t
    return _tree_unflatten(slot.tdef, leaves)


def backward_args(slots: list[Slot], grads: Sequence[Any]) -> list[Any]:
    """The arguments of backward after ctx: one gradient per output slot."""
    if len(slots) == 1 and slots[0].tdef is None:
        return [grads[0]]
    res, pos = [], 0
    for s in slots:
        res.append(s.structure(grads[pos : pos + s.n]))
        pos += s.n
    return res


def _describe(v: Any) -> str:
    if type(v) in (tuple, list):
        return f"a {type(v).__name__} of {[type(e).__name__ for e in v]}"
    return repr(v) if v is None or type(v) in (int, float, bool, str) else f"a {type(v).__name__}"


def split_grads(result: Any, slots: list[Slot], needs: Sequence[bool] | None, layer: str) -> list[Any]:
    """Check backward's result against the input slots; one value (or None) per input tensor.

    ``needs[i]`` says whether input tensor ``i`` (flat, slot order) wants a gradient; with
    ``needs=None`` (traced driver) a value for an input that needs none is simply dropped.
    """
    values = list(result) if type(result) is tuple else [result]
    n = len(slots)
    if len(values) > n:
        raise ValueError(
            f"{layer}: The number of outputs of `PyLayer.backward` should be {n}, but received {len(values)}. "
            "Return one gradient (or None) per Tensor argument of forward (a list/tuple argument counts once); "
            "non-Tensor arguments get no placeholder."
        )
    flat: list[Any] = []
    pos = 0
    for i, s in enumerate(slots):
        slot_needs = needs[pos : pos + s.n] if needs is not None else None
        pos += s.n
        if i >= len(values):
            if slot_needs is not None and any(slot_needs):
                raise ValueError(
                    f"{layer}: backward function should not return empty at {i} position: forward's Tensor "
                    f"argument {i} needs a gradient but backward returned only {len(values)} values. Return a "
                    "gradient (or None) for it."
                )
            flat.extend([None] * s.n)
            continue
        got = _slot_values(values[i], s, i, layer)
        for g, need in zip(got, slot_needs if slot_needs is not None else [True] * s.n):
            if g is not None and not need:
                if needs is None:
                    g = None
                else:
                    raise ValueError(
                        f"{layer}: backward function should return None at {i} position, because its forward "
                        "Tensor's stop_gradient is true (it needs no gradient), but received a Tensor. Return "
                        "None there."
                    )
            flat.append(g)
    return flat


def _slot_values(v: Any, s: Slot, i: int, layer: str) -> list[Any]:
    if s.tdef is None:
        if not _none_or_tensor(v):
            raise ValueError(
                f"{layer}: We can only support Tensor or None for backward output at {i} position, but got "
                f"{type(v).__name__}. Return the gradient of forward's Tensor argument {i} (or None)."
            )
        return [v]
    if v is None:
        return [None] * s.n
    leaves = jax.tree_util.tree_leaves(v, is_leaf=_none_or_tensor)
    if len(leaves) == s.n_all and s.n_all != s.n:
        leaves = [leaves[k] for k in s.tensor_pos]
    if len(leaves) != s.n:
        raise ValueError(
            f"{layer}: backward's value at {i} position must hold one gradient per Tensor of forward's argument "
            f"{i} (a {s.kind}), but it holds {len(leaves)}. Return the same structure with a Tensor or None "
            "for each Tensor."
        )
    for g in leaves:
        if not _none_or_tensor(g):
            raise ValueError(
                f"{layer}: We can only support Tensor or None for backward output at {i} position, but got "
                f"{type(g).__name__} inside it. Use a Tensor or None for each element."
            )
    return leaves
