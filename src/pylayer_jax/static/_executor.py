"""``Executor``: run a Program with feeds, return fetches, keep parameters in the scope.

Layer L6. A run looks up a compiled function by a cheap signature (program version,
fetch names, feed names/shapes/dtypes); on a miss it checks the feeds against the
declared Variables, lowers the program and wraps it in ``jax.jit`` with the updated
persistable values donated. Startup programs (initializers) run eagerly.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from .._runtime.device import CPUPlace as CPUPlace
from .._runtime.device import CUDAPlace as CUDAPlace
from .._runtime.rng import generator
from .._tensor.facade import Tensor
from ._lowering import Lowered, lower
from ._program import RNG_KEY, InitOp, Program, default_main_program
from ._scope import DenseTensor, Scope, global_scope
from ._variable import Variable

# Donation is an optimisation; backends that cannot reuse a buffer just copy.
warnings.filterwarnings("ignore", message="Some donated buffers were not usable")


class _Entry:
    """One compiled program: a jitted flat function and where its arguments come from."""

    __slots__ = ("fn", "feed_names", "state_names", "ro_names", "optimizers", "lowered", "fetch_plan", "n_out",
                 "empty_feed")

    def __init__(self, lowered: Lowered) -> None:
        self.lowered = lowered
        feeds = lowered.feeds
        # a fetched input comes back as a copy of the fed array, without a trip through the device
        computed = [v for v in lowered.fetches if all(v is not f for f in feeds)]
        pos = {id(v): i for i, v in enumerate(computed)}  # by identity: == on Variables records an op
        self.fetch_plan = [
            (True, v.name) if any(v is f for f in feeds) else (False, pos[id(v)]) for v in lowered.fetches
        ]
        lowered.fetches = computed
        ns, nr, nf = len(lowered.state), len(lowered.read_only), len(feeds)

        def flat(*args: Any) -> tuple[Any, ...]:
            fetched, new_state = lowered(
                args[:ns], args[ns : ns + nr], args[ns + nr : ns + nr + nf], args[ns + nr + nf :]
            )
            return (*fetched, *new_state)

        self.fn = jax.jit(flat, donate_argnums=tuple(range(ns)))
        self.n_out = len(computed)
        self.feed_names = [v.name for v in feeds]
        self.state_names = [v.name for v in lowered.state]
        self.ro_names = [v.name for v in lowered.read_only]
        self.optimizers = lowered.optimizers
        self.empty_feed: tuple[str, list[int]] | None = None  # a fed array with no elements (set by _compile)


def _fetch_names(fetch_list: Any) -> tuple[str, ...]:
    if fetch_list is None:
        return ()
    if isinstance(fetch_list, str | Variable):
        fetch_list = [fetch_list]
    out = []
    for f in fetch_list:
        if type(f) is str:
            out.append(f)
        elif isinstance(f, Variable):
            out.append(f._name)
        else:
            raise TypeError(
                f"Executor.run: fetch_list entries must be Variables or names, but received {type(f).__name__}."
            )
    return tuple(out)


def _check_feed(v: Variable, arr: Any) -> None:
    shape = list(np.shape(arr))
    if np.dtype(arr.dtype) != v.dtype.np_dtype:
        raise TypeError(
            f"Executor.run: the feed for {v.name!r} has dtype {np.dtype(arr.dtype).name} but the Variable is declared "
            f"with dtype {v.dtype.name}; convert it first (array.astype('{v.dtype.name}'))."
        )
    decl = v.shape
    if len(shape) != len(decl) or any(d >= 0 and d != s for d, s in zip(decl, shape)):
        raise ValueError(
            f"Executor.run: the feed for {v.name!r} has shape {shape}, which does not match the declared shape "
            f"{decl} (-1 marks a dimension of any size); feed an array of the declared shape."
        )


class Executor:
    """Runs static programs (``paddle.static.Executor(place)``)."""

    def __init__(self, place: Any = None) -> None:
        self.place = place if place is not None else CPUPlace()

    def close(self) -> None:
        pass

    def run(
        self,
        program: Program | None = None,
        feed: dict[str, Any] | None = None,
        fetch_list: Any = None,
        feed_var_name: str = "feed",
        fetch_var_name: str = "fetch",
        scope: Scope | None = None,
        return_numpy: bool = True,
        use_program_cache: bool = True,
    ) -> list[Any]:
        """Run ``program`` with ``feed`` ({name: array}); returns the values of ``fetch_list`` (Variables or names)."""
        if program is None:
            program = default_main_program()
        if type(program).__name__ == "CompiledProgram" and isinstance(getattr(program, "_program", None), Program):
            program = program._program  # (runs as the program it wraps: XLA compiles every program)
        if not isinstance(program, Program):
            raise TypeError(
                f"Executor.run: program must be a paddle.static.Program (or None for the default main program), "
                f"but received {type(program).__name__} ({program!r}). Pass the Program object itself."
            )
        if scope is None:
            scope = global_scope()
        if feed is None:
            feed = {}
        if not isinstance(feed, dict):
            raise TypeError(
                f"Executor.run: feed must be a dict of {{name: array}}, but received {type(feed).__name__}. "
                f"Name each input, e.g. feed={{'x': array}}."
            )
        fkey = _fetch_names(fetch_list)
        feeds = feed
        if RNG_KEY in program.global_block().vars and RNG_KEY not in feed:
            feeds = dict(feed)  # random ops draw from a fresh key at every run (paddle.seed repeats runs)
            feeds[RNG_KEY] = generator.next_key()
        sig = []
        for k, v in list(feeds.items()):
            if type(v) is not np.ndarray and not isinstance(v, jax.Array):
                if feeds is feed:
                    feeds = dict(feed)
                v = feeds[k] = self._convert(program, k, v)
            sig.append((k, v.shape, v.dtype))
        key = (program.version, fkey, tuple(sig))
        cache = program._exe_cache
        entry = cache.get(key)
        if entry is None:
            if not isinstance(program, Program):
                raise TypeError(
                    f"Executor.run: program must be a paddle.static.Program, but received {type(program).__name__}."
                )
            if program.global_block().ops and all(isinstance(op, InitOp) for op in program.global_block().ops):
                return self._run_startup(program, scope)
            entry = self._compile(program, fkey, feeds)
            cache[key] = entry
        vals = scope.values
        try:
            args = [vals[n] for n in entry.state_names]
            if entry.ro_names:
                args.extend([vals[n] for n in entry.ro_names])
        except KeyError as e:
            raise RuntimeError(
                f"Executor.run: the parameter {e.args[0]!r} has no value in the scope; run the startup program "
                "(exe.run(paddle.static.default_startup_program())) first."
            ) from None
        for n in entry.feed_names:
            args.append(feeds[n])
        if entry.optimizers:
            args.extend([o.get_lr() for o in entry.optimizers])
        if entry.empty_feed is not None and entry.state_names:
            name, shape = entry.empty_feed
            raise ValueError(
                f"Executor.run: the feed for {name!r} is an empty batch (shape {shape}), and this program updates "
                "persistable state (an optimizer step, running statistics), which a step over no examples would "
                "fill with NaN. Skip empty batches (e.g. DataLoader(drop_last=True)) or feed at least one example."
            )
        out = entry.fn(*args)
        n_out = entry.n_out
        if entry.state_names:
            for n, a in zip(entry.state_names, out[n_out:]):
                vals[n] = a
        if return_numpy:
            return [np.array(feeds[i]) if fed else np.asarray(out[i]) for fed, i in entry.fetch_plan]
        return [DenseTensor(jax.numpy.asarray(feeds[i]) if fed else out[i]) for fed, i in entry.fetch_plan]

    def _convert(self, program: Program, name: str, value: Any) -> Any:
        if isinstance(value, Tensor):
            return value._value
        v = program.find_var(name)
        return np.asarray(value, dtype=v.dtype.np_dtype if v is not None else None)

    def _run_startup(self, program: Program, scope: Scope) -> list[Any]:
        seed = int(program.random_seed or 0)
        for i, op in enumerate(program.global_block().ops):
            assert isinstance(op, InitOp)
            v = op.outputs[0]
            # a program with a random_seed initialises the same way every time (Paddle's rule); else keys from the
            # global generator, so paddle.seed(n) before the startup run repeats the initial values
            key = (jax.random.fold_in(jax.random.PRNGKey(seed), i) if seed
                   else jax.numpy.asarray(generator.next_key()).astype(jax.numpy.uint32))
            if getattr(op.initializer, "reads_scope", False):  # (a value computed from one set before it)
                scope.values[v.name] = op.initializer.from_scope(scope.values, v.shape, v.dtype.np_dtype)
            else:
                scope.values[v.name] = op.initializer(v.shape, v.dtype.np_dtype, key)
        return []

    def _compile(self, program: Program, fkey: Sequence[str], feeds: dict[str, Any]) -> _Entry:
        fetches = []
        for n in fkey:
            v = program.find_var(n)
            if v is None:
                raise ValueError(
                    f"Executor.run: the fetch name {n!r} matches no Variable of the program; fetch one of its "
                    "Variables (or its name)."
                )
            fetches.append(v)
        for k, arr in feeds.items():
            v = program.find_var(k)
            if v is None:
                raise ValueError(
                    f"Executor.run: the feed name {k!r} matches no Variable of the program; declare it "
                    "with paddle.static.data first."
                )
            _check_feed(v, arr)
        entry = _Entry(lower(program, fetches, set(feeds)))
        entry.empty_feed = next(((k, list(np.shape(a))) for k, a in feeds.items() if k != RNG_KEY and np.size(a) == 0),
                                None)
        return entry
