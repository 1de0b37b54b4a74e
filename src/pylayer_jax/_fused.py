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

from . import _lazy as lazy
from ._graph import ZEROED, AccumulateGrad, Node, OpNode
from ._op_table import vjp_call

# a root gradient of ones, made inside the kernel instead of by its own dispatch
ONES = "ones"

_KERNELS: dict[Any, Any] = {}
_add_kernel = jax.jit(lambda a, b: a + b)
_ONES: dict[tuple, Any] = {}


def add_kernel(a: Any, b: Any) -> Any:
    """``a + b`` on gradient arrays (recorded)."""
    return lazy.call(_add_kernel, (a, b))


def as_array(v: Any, aval: tuple) -> Any:
    """A gradient value as an array: the ONES seed becomes ones of the slot's shape and dtype."""
    if v is not ONES:
        return v
    k = _ONES.get(aval)
    if k is None:  # an eager jnp.ones costs ~150 us; a recorded cached jit is part of the step's program
        k = _ONES[aval] = jax.jit(functools.partial(jnp.ones, aval[0], aval[1]))
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


def _replay(sig: tuple, seeds: tuple, captures: tuple, n_ext: int, ext_cts: Sequence[Any], saved: Sequence[Any],
            acc_in: Sequence[Any]) -> tuple[list[Any], list[Any], list[Any]]:
    """The engine's walk over one run, traced once per signature."""
    local = [list(c) for c in ext_cts]
    for k, j in seeds:
        aval = sig[k][-1][j] if sig[k][0] == "acc" else sig[k][1][4][j]
        local[k][j] = jnp.ones(aval[0], aval[1])
    ext_out: list[Any] = [None] * n_ext
    acc_out: list[Any] = []
    ai = 0
    for k, entry in enumerate(sig):
        cts = local[k]
        if entry[0] == "acc":
            if entry[1]:  # accumulate (Tensor.backward), not capture (paddle.grad)
                cur = acc_in[ai]
                acc_out.append(cur if cts[0] is None else _add(cur, cts[0]))
                ai += 1
            continue
        _, (op, key, avals, needs, _), targets, runs = entry
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
    cap_out = [local[k][j] for k, j in captures]
    return acc_out, ext_out, cap_out


def _kernel(sig: tuple, seeds: tuple, captures: tuple, n_ext: int) -> Any:
    key = (sig, seeds, captures, n_ext)
    k = _KERNELS.get(key)
    if k is None:
        k = jax.jit(functools.partial(_replay, sig, seeds, captures, n_ext))
        _KERNELS[key] = k
    return k


def run_segment(
    seg: Sequence[Node],
    grads: dict[int, list[Any]],
    accumulate: bool,
    runs: set[int] | None,
    wanted: dict[tuple[int, int], int],
    captured: list[Any],
    retain_graph: bool,
) -> None:
    """Differentiate ``seg`` in one call: read its incoming grads from ``grads``, write what leaves it."""
    pos = {id(n): k for k, n in enumerate(seg)}
    ext_targets: list[tuple[Node, int]] = []
    ext_index: dict[tuple[int, int], int] = {}
    sig: list[tuple] = []
    ext_cts: list[list[Any]] = []
    saved: list[Any] = []
    acc_in: list[Any] = []
    acc_nodes: list[AccumulateGrad] = []
    seeds: list[tuple[int, int]] = []
    captures: list[tuple[int, int]] = []
    capture_slots: list[int] = []
    pop = grads.pop
    for k, node in enumerate(seg):
        cts = pop(id(node), None)
        if cts is None:
            cts = [None] * len(node.out_avals)
        else:
            for j, c in enumerate(cts):
                if c is ONES:
                    seeds.append((k, j))
                    cts[j] = None
        if wanted:
            for j in range(len(cts)):
                w = wanted.get((id(node), j))
                if w is not None:
                    captures.append((k, j))
                    capture_slots.append(w)
        ext_cts.append(cts)
        if type(node) is AccumulateGrad:
            sig.append(("acc", accumulate, tuple(node.out_avals)))
            saved.append(None)
            if accumulate:
                acc_in.append(None if node.grad is ZEROED else node.grad)
                acc_nodes.append(node)
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
                if ek not in ext_index:
                    ext_index[ek] = len(ext_targets)
                    ext_targets.append(e)
                targets.append(("x", ext_index[ek], e[1]))
        saved.append(node.saved_arrays())
        sig.append(("op", node.static, tuple(targets), runs is None or id(node) in runs))
    kernel = _kernel(tuple(sig), tuple(seeds), tuple(captures), len(ext_targets))
    acc_out, ext_out, cap_out = lazy.call_tree(kernel, ext_cts, saved, acc_in)
    for node, g in zip(acc_nodes, acc_out):
        node.grad = g
    for (node, idx), g in zip(ext_targets, ext_out):
        if g is None:
            continue
        slot = grads.setdefault(id(node), [None] * len(node.out_avals))
        add_into(slot, idx, g, node.out_avals[idx])
    for w, g in zip(capture_slots, cap_out):
        captured[w] = g
    if not retain_graph:
        for node in seg:
            if type(node) is OpNode and (runs is None or id(node) in runs):
                node.release()
