"""The eager optimizer state, packed: one flat array per dtype for all the parameters a step updates.

Layer L5. Paddle keeps each parameter's accumulators as separate tensors (``moment1``,
``moment2``, ``beta1_pow_acc`` ...); passed to the update one by one, an AdamW step of four
parameters would take and return sixteen state arrays, and each array a compiled program
takes or returns costs about a microsecond of dispatch, more than the update's arithmetic on a
small model. So ``step()`` keeps the state of the parameters it updates packed: the state
leaves of all of them, raveled and concatenated per dtype, in a ``Layout`` fixed by the
parameters' settings, shapes and dtypes. The update (``packed_kernel``) slices the leaves out
(free inside XLA's fusions), runs ``_update_all`` and concatenates the new leaves again; the
pack is split back into per-parameter arrays (``unpack_kernel``) only for ``state_dict`` and
when the set of parameters that have gradients changes. A layout may also name groups of
parameters updated as one flat parameter (``flat_groups``, ``with_groups``): their element-wise
leaves then lie together, leaf by leaf, so the flat update reads and writes each as one slice.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

_KERNELS: dict[Any, Any] = {}
SMALL = 1 << 16  # a state leaf of more elements is an array of its own


class Layout(NamedTuple):
    """Where each parameter's state leaves lie in the packed arrays (hashable: part of the kernels' keys)."""

    trees: tuple[Any, ...]  # per parameter: the treedef of its optax state
    leaves: tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...]  # per parameter, per leaf: (array, offset, shape)
    dtypes: tuple[Any, ...]  # per packed array: its dtype
    sizes: tuple[int, ...]  # per packed array: its length
    # parameters updated together, as one flat parameter (see ``flat_groups``): per group, (the parameters,
    # per state leaf whether it is element-wise (True: raveled and concatenated) or shared (one for all))
    groups: tuple[tuple[tuple[int, ...], tuple[bool, ...]], ...] = ()


def layout_of(states: list[Any]) -> Layout:
    """The layout of the given per-parameter states (pytrees of arrays or of ShapeDtypeStructs): the leaves of
    up to ``SMALL`` elements packed per dtype, each larger leaf an array of its own (raveled, which copies
    nothing: XLA would copy a large leaf into a concatenation, and its dispatch cost is small beside its work)."""
    dtypes: list[Any] = []
    sizes: list[int] = []
    small: dict[Any, int] = {}  # dtype -> its packed array
    trees, per = [], []
    for st in states:
        leaves, tree = jax.tree.flatten(st)
        trees.append(tree)
        spots = []
        for leaf in leaves:
            dt = np.dtype(leaf.dtype)
            shape = tuple(leaf.shape)
            n = int(np.prod(shape, dtype=np.int64))
            g = small.get(dt) if n <= SMALL else None
            if g is None:
                g = len(dtypes)
                dtypes.append(dt)
                sizes.append(0)
                if n <= SMALL:
                    small[dt] = g
            spots.append((g, sizes[g], shape))
            sizes[g] += n
        per.append(tuple(spots))
    return Layout(tuple(trees), tuple(per), tuple(dtypes), tuple(sizes))


def flat_groups(layout: Layout, keys: list[Any], shapes: list[tuple[int, ...]], flat_init: Any) -> tuple:
    """The groups of parameters whose update may run as one flat parameter: those of the same ``keys`` entry (None:
    not grouped; what defines the rule, the dtype included), each of at most ``SMALL`` elements, two or more, whose
    state leaves are each either of the parameter's shape (element-wise) or the same for all (a step count, a
    beta power). ``flat_init(i, n)`` is the state (ShapeDtypeStructs) of parameter ``i``'s rule for a flat
    parameter of ``n`` elements. The caller groups only parameters whose shared leaves hold the same values
    (states that start together)."""
    by_key: dict[Any, list[int]] = {}
    for i, k in enumerate(keys):
        if k is not None and int(np.prod(shapes[i], dtype=np.int64)) <= SMALL:
            by_key.setdefault(k, []).append(i)
    groups = []
    for members in by_key.values():
        if len(members) < 2:
            continue
        n = sum(int(np.prod(shapes[i], dtype=np.int64)) for i in members)
        leaves, tree = jax.tree.flatten(flat_init(members[0], n))
        elem = tuple(tuple(leaf.shape) == (n,) for leaf in leaves)
        ok = n > 1
        for i in members:
            spots = layout.leaves[i]
            if not ok or layout.trees[i] != tree or len(spots) != len(leaves):
                ok = False
                break
            for (g, _, shape), leaf, e in zip(spots, leaves, elem):
                if layout.dtypes[g] != np.dtype(leaf.dtype) or shape != (tuple(shapes[i]) if e else tuple(leaf.shape)):
                    ok = False
                    break
        if ok:
            groups.append((tuple(members), elem))
    return tuple(groups)


def with_groups(layout: Layout, groups: tuple) -> Layout:
    """``layout`` with ``groups``, each group's element-wise leaves laid out together (leaf by leaf, its parameters
    in order): the flat update then reads and writes them as one slice of the packed array."""
    if not groups:
        return layout
    nxt = [0] * len(layout.sizes)
    new = [list(spots) for spots in layout.leaves]
    done = set()

    def place(i: int, k: int) -> None:
        g, _, shape = new[i][k]
        n = int(np.prod(shape, dtype=np.int64))
        if n <= SMALL:  # (a larger leaf is an array of its own, at 0)
            new[i][k] = (g, nxt[g], shape)
            nxt[g] += n
        done.add((i, k))

    for members, elem in groups:
        for k, e in enumerate(elem):
            if e:
                for i in members:
                    place(i, k)
    for i, spots in enumerate(new):
        for k in range(len(spots)):
            if (i, k) not in done:
                place(i, k)
    return layout._replace(leaves=tuple(tuple(spots) for spots in new), groups=groups)


def _split(layout: Layout, packed: tuple[Any, ...]) -> list[list[Any]]:
    out = []
    for spots in layout.leaves:
        leaves = []
        for g, off, shape in spots:
            n = int(np.prod(shape, dtype=np.int64))
            leaves.append(jax.lax.slice(packed[g], (off,), (off + n,)).reshape(shape))
        out.append(leaves)
    return out


def _join(layout: Layout, states: list[list[Any]]) -> tuple[Any, ...]:
    parts: list[list[Any]] = [[] for _ in layout.dtypes]
    for spots, leaves in zip(layout.leaves, states):
        for (g, off, _), leaf in zip(spots, leaves):
            parts[g].append((off, jnp.ravel(leaf).astype(layout.dtypes[g])))
    out = []
    for p in parts:
        p.sort(key=lambda e: e[0])
        out.append(jnp.concatenate([a for _, a in p]) if len(p) > 1 else p[0][1])
    return tuple(out)


def _update(update_all: Any, layout: Layout, *flat: Any) -> tuple[Any, ...]:
    """``(*params, *grads, *packed state, lr) -> (*new params, *new packed state)``."""
    n = len(layout.trees)
    params, grads, lr = flat[:n], flat[n:2 * n], flat[-1]
    per = _split(layout, flat[2 * n:-1])
    states = [jax.tree.unflatten(t, leaves) for t, leaves in zip(layout.trees, per)]
    new_p, new_s = update_all(params, grads, states, lr, layout.groups)
    return (*new_p, *_join(layout, [jax.tree.leaves(s) for s in new_s]))


def packed_kernel(update_all: Any, key: Any, layout: Layout) -> Any:
    """The jitted ``_update``, cached per (``key``: what defines ``update_all``, layout)."""
    k = (key, layout)
    fn = _KERNELS.get(k)
    if fn is None:
        fn = _KERNELS[k] = jax.jit(functools.partial(_update, update_all, layout))
    return fn


def _start(layout: Layout, fresh: tuple[bool, ...], init: Any, *given: Any) -> tuple[Any, ...]:
    per, at = [], 0
    for i, spots in enumerate(layout.leaves):
        if fresh[i]:
            per.append(jax.tree.leaves(init(i)))
        else:
            per.append(given[at:at + len(spots)])
            at += len(spots)
    return _join(layout, per)


def start_kernel(layout: Layout, key: Any, fresh: tuple[bool, ...], init: Any) -> Any:
    """The jitted pack of a first step's state: ``(*the leaves of the parameters not fresh, in turn) -> packed
    arrays``, each fresh parameter ``i``'s state made inside by ``init(i)`` (which depends only on ``key``: the
    rule, the settings, shapes and dtypes). One program, where making each state eagerly would compile one per
    constant (a ``broadcast_in_dim`` per shape and dtype) and the pack another; cached per (layout, key, fresh)."""
    k = ("start", layout, key, fresh)
    fn = _KERNELS.get(k)
    if fn is None:
        fn = _KERNELS[k] = jax.jit(functools.partial(_start, layout, fresh, init))
    return fn


def _fresh(n: int, init: Any) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(jax.tree.leaves(init(i))) for i in range(n))


def fresh_kernel(key: Any, n: int, init: Any) -> Any:
    """The jitted ``() -> per parameter, its starting state's leaves`` of ``n`` parameters, each made by ``init(i)``
    as ``start_kernel`` makes it, unpacked (for a compiled training step, which takes each leaf as an input): one
    program where making each state eagerly would compile one per constant; cached per (``key``, ``n``)."""
    k = ("fresh", key, n)
    fn = _KERNELS.get(k)
    if fn is None:
        fn = jax.jit(functools.partial(_fresh, n, init))
        empty = jax.eval_shape(fn)
        if not jax.tree.leaves(empty):  # a rule without state (SGD): nothing to compile
            fn = functools.partial(tuple, empty)
        _KERNELS[k] = fn
    return fn


def _unpack(layout: Layout, *packed: Any) -> tuple[Any, ...]:
    return tuple(leaf for leaves in _split(layout, packed) for leaf in leaves)


def unpack_kernel(layout: Layout) -> Any:
    """The jitted split of packed arrays into every parameter's state leaves, in turn."""
    k = ("unpack", layout)
    fn = _KERNELS.get(k)
    if fn is None:
        fn = _KERNELS[k] = jax.jit(functools.partial(_unpack, layout))
    return fn
