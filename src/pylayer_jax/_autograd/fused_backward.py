"""Fused backward: a run of table-op nodes differentiated by ONE cached jitted call.

Layer L3. A training loop builds the same graph every step, so the engine describes a
run of consecutive ``OpNode``/``AccumulateGrad`` nodes (in backward order) by a
hashable signature: each node's op, kernel key, static avals, which inputs need a
gradient, and where each input gradient goes (another node of the run, or outside).
The signature picks a jitted function that replays the engine's walk with the ops'
VJP rules; XLA sees the whole backward, fuses it, and Python pays one dispatch instead
of one per node. Nodes with Python logic (PyLayer, tensor hooks) end a run.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp

from .._exec import deferred as lazy
from .._ops.table import vjp_call
from .._runtime.kernel_cache import SHAPED, KernelCache, LazyJit
from .graph import ZEROED, AccumulateGrad, Node, OpNode

# a root gradient of ones, made inside the kernel instead of by its own dispatch
ONES = "ones"

_KERNELS = KernelCache(SHAPED, shaped=True)  # bounded: see _runtime.kernel_cache
_add_kernel = jax.jit(lambda a, b: a + b)
_ONES = KernelCache(SHAPED, shaped=True)


def add_kernel(a: Any, b: Any) -> Any:
    """``a + b`` on gradient arrays (recorded)."""
    return lazy.call(_add_kernel, (a, b))


def as_array(v: Any, aval: tuple) -> Any:
    """A gradient value as an array: the ONES seed becomes ones of the slot's shape and dtype."""
    if v is not ONES:
        return v
    # an eager jnp.ones costs ~150 us; a recorded cached jit is part of the step's program
    k = _ONES.kernel(aval, lambda: jax.jit(functools.partial(jnp.ones, aval[0], aval[1])))
    return lazy.call(k, ())


def add_into(slot: list[Any], idx: int, g: Any, aval: tuple) -> None:
    """Accumulate ``g`` into ``slot[idx]`` (either may be the ONES seed)."""
    cur = slot[idx]
    slot[idx] = g if cur is None else add_kernel(as_array(cur, aval), as_array(g, aval))


def fusable(node: Node) -> bool:
    if node.pre_hooks:
        return False
    if type(node) is OpNode:
        return not node.released
    return type(node) is AccumulateGrad


def _add(a: Any, b: Any) -> Any:
    return b if a is None else a + b


def _replay(sig: tuple, seeds: tuple, captures: tuple, n_ext: int, *flat: Any) -> tuple[Any, ...]:
    """The engine's walk over one run, traced once per signature.

    ``flat`` holds, node by node, the incoming gradients present (bit j of the entry's ``cm``)
    and then the node's accumulated grad (a leaf, when its mask is set) or its saved inputs
    present (bit i of the mask) and saved outputs. Returns the leaves' new grads, then the gradients leaving
    the run, then the captured ones (None where nothing arrived).
    """
    pos = 0
    local: list[list[Any]] = []
    ext_out: list[Any] = [None] * n_ext
    acc_out: list[Any] = []
    saved: list[Any] = []
    for head, cm, mask in sig:
        n_out = len(head[2]) if head[0] == "acc" else len(head[1][4])
        cts: list[Any] = [None] * n_out
        j = 0
        while cm:
            if cm & 1:
                cts[j] = flat[pos]
                pos += 1
            cm >>= 1
            j += 1
        local.append(cts)
        if head[0] == "acc":
            if mask:
                saved.append(flat[pos])
                pos += 1
            else:
                saved.append(None)
            continue
        op_static = head[1]
        leaves: list[Any] = []
        for i in range(len(op_static[2])):
            if mask >> i & 1:
                leaves.append(flat[pos])
                pos += 1
            else:
                leaves.append(None)
        outs = None
        if op_static[0].saves_out:
            outs = flat[pos:pos + n_out]
            pos += n_out
        saved.append((leaves, outs))
    for k, j in seeds:
        head = sig[k][0]
        aval = head[2][j] if head[0] == "acc" else head[1][4][j]
        local[k][j] = jnp.ones(aval[0], aval[1])
    for k, (head, _, _) in enumerate(sig):
        cts = local[k]
        if head[0] == "acc":
            if head[1]:  # accumulate (Tensor.backward), not capture (paddle.grad)
                cur = saved[k]
                acc_out.append(cur if cts[0] is None else _add(cur, cts[0]))
            continue
        _, (op, key, avals, needs, _), targets, runs = head
        if not runs or all(c is None for c in cts):
            continue
        leaves, outs = saved[k]
        grads = vjp_call(op, key, avals, needs, leaves, outs, cts)
        for g, t in zip(grads, targets):
            if g is None or t is None:
                continue
            if t[0] == "n":
                local[t[1]][t[2]] = _add(local[t[1]][t[2]], g)
            else:
                ext_out[t[1]] = _add(ext_out[t[1]], g)
    return (*acc_out, *ext_out, *[local[k][j] for k, j in captures])


def _kernel(sig: tuple, seeds: tuple, captures: tuple, n_ext: int) -> Any:
    key = (sig, seeds, captures, n_ext)
    return _KERNELS.kernel(key, lambda: LazyJit(functools.partial(_replay, sig, seeds, captures, n_ext)))


def run_segment(
    seg: Sequence[Node],
    grads: dict[int, list[Any]],
    accumulate: bool,
    runs: set[int] | None,
    wanted: dict[tuple[int, int], int],
    captured: list[Any],
    retain_graph: bool,
) -> None:
    """Differentiate ``seg`` in one call: read its incoming grads from ``grads``, write what leaves it.

    Each signature entry is ``(node part, cm, mask)``: the node part is a leaf's precomputed
    ``("acc", accumulate, avals)`` or ``("op", static, targets, runs)``; ``cm`` says which incoming
    gradients are in the flat arguments; ``mask`` whether a leaf's grad is (``has``), or which
    saved inputs of an op are (bits). No pytree is flattened per step.
    """
    pos = {id(n): k for k, n in enumerate(seg)}
    ext_targets: list[tuple[Node, int]] = []
    ext_index: dict[tuple[int, int], int] = {}
    sig: list[tuple] = []
    flat: list[Any] = []
    acc_nodes: list[AccumulateGrad] = []
    seeds: list[tuple[int, int]] = []
    captures: list[tuple[int, int]] = []
    capture_slots: list[int] = []
    pop = grads.pop
    for k, node in enumerate(seg):
        cts = pop(id(node), None)
        cm = 0
        if cts is not None:
            for j, c in enumerate(cts):
                if c is ONES:
                    seeds.append((k, j))
                elif c is not None:
                    flat.append(c)
                    cm |= 1 << j
        if wanted:
            for j in range(len(node.out_avals)):
                w = wanted.get((id(node), j))
                if w is not None:
                    captures.append((k, j))
                    capture_slots.append(w)
        if type(node) is AccumulateGrad:
            has = False
            if accumulate:
                acc_nodes.append(node)  # type: ignore[arg-type]
                g = node.grad  # type: ignore[attr-defined]
                if g is not None and g is not ZEROED:
                    flat.append(g)
                    has = True
            sig.append((node.sig[accumulate], cm, has))  # type: ignore[attr-defined]
            continue
        targets: list[tuple | None] = []
        for e in node.next_edges:
            if e is None:
                targets.append(None)
                continue
            p = pos.get(id(e[0]))
            if p is not None:
                targets.append(("n", p, e[1]))
            else:
                ek = (id(e[0]), e[1])
                x = ext_index.get(ek)
                if x is None:
                    x = ext_index[ek] = len(ext_targets)
                    ext_targets.append(e)
                targets.append(("x", x, e[1]))
        leaves, outs = node.saved_arrays()  # type: ignore[attr-defined]
        sm = 0
        for i, v in enumerate(leaves):
            if v is not None:
                flat.append(v)
                sm |= 1 << i
        if outs is not None:
            flat.extend(outs)
        sig.append((("op", node.static, tuple(targets), runs is None or id(node) in runs), cm, sm))  # type: ignore[attr-defined]
    kernel = _kernel(tuple(sig), tuple(seeds), tuple(captures), len(ext_targets))
    res = lazy.call(kernel, flat)
    if type(res) is not tuple:
        res = (res,)
    n_acc = len(acc_nodes)
    for node, g in zip(acc_nodes, res):
        node.grad = g
    for (node, idx), g in zip(ext_targets, res[n_acc:]):
        if g is None:
            continue
        slot = grads.setdefault(id(node), [None] * len(node.out_avals))
        add_into(slot, idx, g, node.out_avals[idx])
    for w, g in zip(capture_slots, res[n_acc + len(ext_targets):]):
        captured[w] = g
    if not retain_graph:
        for node in seg:
            if type(node) is OpNode and (runs is None or id(node) in runs):
                node.release()
