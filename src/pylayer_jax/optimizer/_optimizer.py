"""The optimizer base class: parameters and groups, learning rate, decay, clipping, state.

Layer L5. Each optimizer class names its hyperparameters and builds, per parameter, an optax
``GradientTransformation`` chain (``_chain``) from them, a regularizer and the learning rate.
All parameters are updated by ONE jitted function (``_update_all``), cached per (class,
per-parameter settings, clip): gradient clipping over the parameters with ``need_clip``, then
each parameter's chain. Eagerly, ``step()`` records that function into the deferred buffer, so
the update joins the training step's compiled program: appended to the calls of the backward before it, which
wait for it (``deferred.join``; ``clear_grad()`` runs them), the gradients are values inside that program,
not its outputs, and if its run fails the parameters and the state keep their values; the learning rate is an
argument, so a scheduler's changing value never recompiles. The state of the parameters a step updates is kept
packed (``_packed``: a few arrays instead of one per accumulator); parameters of an element-wise rule with
the same settings whose states start together are updated as one flat parameter (one fused loop for
all of them, ``_packed.flat_groups``). A step like the last one (the same parameters with gradients of the
same shapes, the state packed by the last step, the gradients those of the backward the update joins, or
computed with the update the first call after backward's run: a training loop's) records the last step's
update call again without rebuilding it
(``_step_fast``: about half the Python of a full step; in a replayed training step, whose gradients are the noted
backward's results, the very entry the last update recorded: ``deferred.join_known``). A step is all or nothing:
an interrupt (``KeyboardInterrupt``, any ``BaseException``) anywhere in it leaves every parameter
and the state as they were before it, or every one updated. In static mode ``minimize(loss)`` is handled by
the static package, which registers itself in ``STATIC_MINIMIZE`` (this layer cannot import
it) and runs the same function inside the program.

Once a Tensor has been looked up with ``sparse=True`` (``nn._sparse_rows``), a full step asks ``_step_sparse``:
what Paddle raises for a sparse gradient is raised, and an optimizer whose update of one reads its rows (Adam,
AdamW: ``_SPARSE_ROWS``) updates each step with such a parameter by ``_update_rows`` (its state apart, no pack,
not repeated by ``_step_fast``). Other steps run as before.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from .._exec import deferred as lazy
from .._exec.deferred import Pending
from .._runtime import unique_name
from .._runtime.state import modes
from .._runtime.transfer import put_number
from .._tensor.facade import Tensor, before_write
from .._tensor.views import reach
from ..nn import _sparse_rows
from ..nn._clip import ClipGradBase, ClipGradByValue, transform_of
from ._packed import flat_groups, fresh_kernel, layout_of, packed_kernel, start_kernel, unpack_kernel, with_groups
from ._regularizer import WeightDecayRegularizer
from ._transforms import NAMES

# set by pylayer_jax.static: minimize(optimizer, loss, startup_program, parameters, no_grad_set)
STATIC_MINIMIZE: list[Callable[..., Any]] = []

_KERNELS: dict[Any, Any] = {}
_ArrayImpl = lazy._ArrayImpl
_LOW_PRECISION = (jnp.float16, jnp.bfloat16)


class ParamSpec(NamedTuple):
    """What defines one parameter's update besides its arrays (hashable: part of the kernel's key)."""

    hyper: tuple[tuple[str, Any], ...]
    reg: tuple[str, float] | None
    lr_mult: float
    need_clip: bool
    clip_group: int = 0  # the parameter group (Paddle clips each group's gradients on their own)


_LIVE: weakref.WeakSet[Any] = weakref.WeakSet()  # the optimizers made


def _drop_repeats() -> None:
    """A Tensor was looked up sparsely for the first time: no optimizer repeats a step recorded without its rows."""
    for opt in list(_LIVE):
        opt._fast = None


_sparse_rows.ON_MARK.append(_drop_repeats)


def is_scheduler(lr: Any) -> bool:
    """Paddle's ``LRScheduler`` contract: ``sched()`` is the current rate, ``sched.step()`` advances it."""
    return callable(lr) and hasattr(lr, "step") and not isinstance(lr, type)


def _update_all(cls: type, specs: tuple[ParamSpec, ...], clip: Any, params: list[Any], grads: list[Any],
                states: list[Any], lr: Any, groups: tuple = ()) -> tuple[list[Any], list[Any]]:
    """Clip, then each parameter's chain; ``lr`` reaches each rule in its parameter's dtype, as in Paddle.

    ``groups`` (``_packed.flat_groups``): parameters of one rule whose chain runs once, on them raveled and
    concatenated (one fused loop instead of one per parameter: the rule is element-wise), with their element-wise
    state leaves concatenated the same way and their shared leaves (equal) taken once."""
    lr = jnp.asarray(lr, jnp.float64)
    grads = _clipped(specs, clip, grads)

    def rule(spec: ParamSpec, p: Any, g: Any, st: Any) -> tuple[Any, Any]:
        plr = (lr * spec.lr_mult) if spec.lr_mult != 1.0 else lr
        tx = cls._chain(dict(spec.hyper), spec.reg, plr.astype(p.dtype))
        upd, st = tx.update(g.astype(p.dtype), st, p)
        return optax.apply_updates(p, upd).astype(p.dtype), st

    new_p: list[Any] = [None] * len(params)
    new_s: list[Any] = [None] * len(params)
    for members, elem in groups:
        fp = jnp.concatenate([jnp.ravel(params[i]) for i in members])
        fg = jnp.concatenate([jnp.ravel(grads[i].astype(params[i].dtype)) for i in members])
        per = [jax.tree.leaves(states[i]) for i in members]
        tree = jax.tree.structure(states[members[0]])
        fst = jax.tree.unflatten(tree, [jnp.concatenate([jnp.ravel(lv[k]) for lv in per]) if e else per[0][k]
                                        for k, e in enumerate(elem)])
        fp, fst = rule(specs[members[0]], fp, fg, fst)
        fl = jax.tree.leaves(fst)
        at = 0
        for i in members:
            shape = params[i].shape
            size = int(np.prod(shape, dtype=np.int64))
            new_p[i] = fp[at:at + size].reshape(shape)
            new_s[i] = jax.tree.unflatten(tree, [leaf[at:at + size].reshape(shape) if e else leaf
                                                 for leaf, e in zip(fl, elem)])
            at += size
    for i, (p, g, st, spec) in enumerate(zip(params, grads, states, specs)):
        if new_p[i] is None:
            new_p[i], new_s[i] = rule(spec, p, g, st)
    return new_p, new_s


def _clipped(specs: tuple[ParamSpec, ...], clip: Any, grads: Sequence[Any]) -> list[Any]:
    """The gradients, those of the parameters with ``need_clip`` clipped together by ``clip`` (those of each
    parameter group on their own, as Paddle's step clips group by group: a global norm is the group's)."""
    grads = list(grads)
    if clip is not None:
        for group in sorted({s.clip_group for s in specs}):
            key = clip[1][group] if clip[0] == "by_group" else clip  # (groups with a grad_clip of their own)
            idx = [i for i, s in enumerate(specs) if s.need_clip and s.clip_group == group]
            if idx and key is not None:
                clipped, _ = transform_of(key).update([grads[i] for i in idx], optax.EmptyState())
                for i, g in zip(idx, clipped):
                    grads[i] = g
    return grads


def _pick(first: Any, a: Any, b: Any) -> Any:
    return jnp.where(first, a, b).astype(a.dtype)


def _update_rows(cls: type, specs: tuple[ParamSpec, ...], clip: Any, lazy_modes: tuple[bool | None, ...],
                 trees: tuple[Any, ...], *flat: Any) -> list[Any]:
    """``_update_all`` for a step with sparse gradients (``nn._sparse_rows``), flat: ``(*params, *grads, *each
    parameter's state leaves, lr, *the lookup counts of those with a mode)`` -> ``[*new params, *new state leaves]``.

    ``lazy_modes[i]`` is None for a parameter updated by the rule (a dense gradient, or one whose sparse update is
    the dense one), else the ``lazy_mode`` of ``cls._sparse_update``, Paddle's update of a sparse gradient, which reads
    the rows looked up (count > 0). A gradient not zero on some row not looked up had a dense part as well (the table
    was also used otherwise), which Paddle's gradient is then: the rule updates it."""
    n = len(specs)
    params, grads = list(flat[:n]), _clipped(specs, clip, flat[n:2 * n])
    at = 2 * n
    states = []
    for tree in trees:
        states.append(jax.tree.unflatten(tree, flat[at:at + tree.num_leaves]))
        at += tree.num_leaves
    lr = jnp.asarray(flat[at], jnp.float64)
    counts = iter(flat[at + 1:])
    out_p, out_s = [], []
    for p, g, st, spec, mode in zip(params, grads, states, specs, lazy_modes):
        plr = ((lr * spec.lr_mult) if spec.lr_mult != 1.0 else lr).astype(p.dtype)
        g = g.astype(p.dtype)
        upd, new = cls._chain(dict(spec.hyper), spec.reg, plr).update(g, st, p)
        new_p = optax.apply_updates(p, upd).astype(p.dtype)
        if mode is not None:
            looked = (next(counts) > 0).reshape((-1,) + (1,) * (p.ndim - 1))
            sp, ss = cls._sparse_update(dict(spec.hyper), plr, p, g, st, looked, mode)
            dense = jnp.any((g != 0) & ~looked)
            new_p = jnp.where(dense, new_p, sp).astype(p.dtype)
            new = jax.tree.map(functools.partial(_pick, dense), new, ss)
        out_p.append(new_p)
        out_s.extend(jax.tree.leaves(new))
    return out_p + out_s


def kernel_for(cls: type, specs: tuple[ParamSpec, ...], clip: Any) -> Any:
    """The jitted update of all parameters, shared by optimizers with the same key."""
    key = (cls, specs, clip)
    k = _KERNELS.get(key)
    if k is None:
        k = _KERNELS[key] = jax.jit(functools.partial(_update_all, cls, specs, clip))
    return k


def _state_of(cls: type, spec: ParamSpec, shape: Sequence[int], dtype: Any) -> Any:
    """A parameter's starting state under ``cls``'s rule: it depends on the settings, the shape and the dtype only."""
    # numpy placeholders for the learning rate and the parameter: made with jnp, each would compile a small
    # program (a rule without state, SGD, then compiles nothing); a leaf that is one of them is transferred
    state = cls._chain(dict(spec.hyper), spec.reg, np.zeros((), dtype)).init(np.zeros(tuple(shape), dtype))
    return jax.tree.map(lambda v: jax.device_put(v) if isinstance(v, np.ndarray | np.generic) else v, state)


def _initial_state(cls: type, specs: tuple[ParamSpec, ...], shapes: tuple, i: int) -> Any:
    """Parameter ``i``'s starting state, of ``shapes[i]``'s (shape, dtype) (``_packed.start_kernel``'s ``init``)."""
    return _state_of(cls, specs[i], *shapes[i])


def _check_float(api: str, name: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise TypeError(f"{api}: {name} must be a float, but received {type(v).__name__} ({v!r}).")
    return float(v)


class Optimizer:
    """Base class of the optimizers.

    ``learning_rate`` is a float or an ``LRScheduler``; ``parameters`` a list of Tensors or of
    parameter groups (dicts with ``'params'`` and optional ``'learning_rate'`` (a multiplier),
    ``'weight_decay'`` and the optimizer's own settings); ``weight_decay`` a float (L2) or
    ``regularizer.L1Decay``/``L2Decay``; ``grad_clip`` an ``nn.ClipGradBy*``.
    """

    # the settings a parameter group may override, with the attribute holding each default
    _HYPER: tuple[str, ...] = ()
    _STATE: str | None = None  # key of the state names in _transforms.NAMES
    _REGULARIZED = True  # weight_decay is a regularizer added to the gradient
    _FLAT = False  # the rule is element-wise: parameters with the same settings may be updated as one (``_update_all``)
    # a sparse gradient (``Embedding(sparse=True)``, ``nn._sparse_rows``): Paddle has an update for it (False: it fails
    # there), and that update reads the rows looked up (``_sparse_update``; else it is the dense one)
    _SPARSE_OK = True
    _SPARSE_ROWS = False
    # the rule is linear in the gradient, so a complex parameter descends as two real ones would (SGD, Momentum);
    # the adaptive rules square gradients, which for a complex one is wrong: they refuse it (Paddle 3.3.1 has no
    # complex kernel for any optimizer and refuses it in all)
    _COMPLEX_OK = False

    def __init__(
        self,
        learning_rate: Any = 0.001,
        parameters: Any = None,
        weight_decay: Any = None,
        grad_clip: Any = None,
        name: str | None = None,
        multi_precision: bool = False,
    ) -> None:
        api = type(self).__name__
        if not (is_scheduler(learning_rate) or (isinstance(learning_rate, int | float)
                                                and not isinstance(learning_rate, bool))):
            raise TypeError(
                f"{api}: learning_rate should be a float or an LRScheduler, but received "
                f"{type(learning_rate).__name__}; pass e.g. learning_rate=0.01."
            )
        self._learning_rate = learning_rate if is_scheduler(learning_rate) else float(learning_rate)
        self._weight_decay = self._check_decay(api, weight_decay)
        if grad_clip is not None and not isinstance(grad_clip, ClipGradBase):
            raise TypeError(
                f"{api}: grad_clip should be an instance of nn.ClipGradByValue, ClipGradByNorm or "
                f"ClipGradByGlobalNorm, but received {type(grad_clip).__name__}."
            )
        self._grad_clip = grad_clip
        if name is not None and not isinstance(name, str):
            raise TypeError(f"{api}: name must be a str or None, but received {type(name).__name__}.")
        self._name = name
        if not isinstance(multi_precision, bool):
            raise TypeError(f"{api}: multi_precision must be a bool, but received {type(multi_precision).__name__}.")
        self._multi_precision = multi_precision
        self._param_groups: list[dict[str, Any]] | None = None
        self._parameter_list = self._check_parameters(api, parameters)
        if self._parameter_list is None and not modes.static_mode:
            raise AttributeError(  # (Paddle's type, raised where it raises it: at construction in dynamic mode)
                f"{api}: parameters must be given in dynamic mode (the Tensors to update, e.g. "
                f"parameters=model.parameters()), but received None; only a static program's minimize() finds "
                "them itself."
            )
        # each parameter's state leaves, except for the parameters of the pack (``_packed``): (their ids, its
        # layout, its arrays, the update for that layout), the state of the parameters the last step updated
        self._accumulators: dict[int, tuple[Any, ...]] = {}
        self._pack: tuple[tuple[int, ...], Any, tuple[Any, ...], Any] | None = None
        self._key_cache: tuple[Any, ...] | None = None
        # the accumulator Tensors state_dict() handed out, still alive: (id(param), leaf index, weak reference);
        # as in Paddle, where they are the optimizer's own, each step writes the new state into them
        self._live_states: list[tuple[int, int, Any]] = []
        self._fast: tuple | None = None  # what the next step's update repeats of the last one's (``_step_fast``)
        self._lr_in: tuple | None = None  # (rate, its device scalar, its aval): see ``_lr_input``
        # the accumulator names of the last set_state_dict that held any: a parameter whose state starts after it
        # must be among them (``_check_loaded``)
        self._loaded_keys: frozenset[str] | None = None
        # each parameter's accumulator names, by (id, accumulator): Paddle's unique names, given when this optimizer
        # first keeps state for the parameter (``_name_states``)
        self._acc_names: dict[tuple[int, str], str] = {}
        if self._parameter_list is not None:  # eager: the first backward's calls wait for this update too
            lazy.expect_join(self)
        _LIVE.add(self)

    # ---- argument checks ----------------------------------------------------------------
    @staticmethod
    def _check_decay(api: str, wd: Any) -> Any:
        if wd is None or isinstance(wd, WeightDecayRegularizer):
            return wd
        if isinstance(wd, int | float) and not isinstance(wd, bool):
            return float(wd)
        raise TypeError(
            f"{api}: weight_decay should be a float, regularizer.L1Decay or regularizer.L2Decay, but received "
            f"{type(wd).__name__} ({wd!r})."
        )

    def _check_parameters(self, api: str, parameters: Any) -> list[Any] | None:
        if parameters is None:
            return None
        if isinstance(parameters, Tensor | dict | set | str) or not isinstance(parameters, Sequence | Any):
            raise TypeError(
                f"{api}: parameters should be a list of Tensors (or of parameter-group dicts), but received "
                f"{type(parameters).__name__}; wrap a single Tensor in a list: parameters=[w]."
            )
        try:
            items = list(parameters)
        except TypeError:
            raise TypeError(
                f"{api}: parameters should be a list of Tensors (or of parameter-group dicts), but received "
                f"{type(parameters).__name__}."
            ) from None
        if items and all(isinstance(g, dict) for g in items):
            self._param_groups = []
            out: list[Any] = []
            for g in items:
                if "params" not in g:
                    raise TypeError(
                        f"{api}: a parameter group must have a 'params' entry (the list of Tensors it holds), but "
                        f"received a dict with keys {sorted(g)}."
                    )
                allowed = {"params", "learning_rate", "weight_decay", "grad_clip", *self._HYPER}
                extra = sorted(set(g) - allowed)
                if extra:
                    raise TypeError(f"{api}: unknown parameter-group settings {extra}; allowed: {sorted(allowed)}.")
                ps = g["params"]
                ps = [ps] if isinstance(ps, Tensor) else list(ps)
                group = dict(g, params=ps)
                if "weight_decay" in g:
                    group["weight_decay"] = self._check_decay(api, g["weight_decay"])
                if "learning_rate" in g:
                    _check_float(api, "a parameter group's learning_rate", g["learning_rate"])
                if g.get("grad_clip") is not None and not isinstance(g["grad_clip"], ClipGradBase):
                    raise TypeError(
                        f"{api}: a parameter group's grad_clip should be an instance of nn.ClipGradByValue, "
                        f"ClipGradByNorm or ClipGradByGlobalNorm (or None), but received "
                        f"{type(g['grad_clip']).__name__}."
                    )
                self._param_groups.append(group)
                out.extend(ps)
            items = out
        seen: set[int] = set()
        for p in items:
            if not isinstance(p, Tensor):
                raise TypeError(
                    f"{api}: parameters should be Tensors (or parameter-group dicts), but an element is "
                    f"{type(p).__name__}."
                )
            if id(p) in seen:
                raise ValueError(f"{api}: parameter {p.name} appears more than once in parameters.")
            seen.add(id(p))
        return items

    # ---- the rule ---------------------------------------------------------------------
    @classmethod
    def _chain(cls, h: dict[str, Any], reg: Any, lr: Any) -> optax.GradientTransformation:
        raise NotImplementedError

    def _defaults(self) -> dict[str, Any]:
        return {k: getattr(self, "_" + k) for k in self._HYPER}

    def _param_hyper(self, p: Any, h: dict[str, Any]) -> dict[str, Any]:
        """Per-parameter adjustments of the settings (AdamW's apply_decay_param_fun, Lamb's exclusion)."""
        return h

    def _lr_ratio(self, p: Any) -> float:
        return 1.0

    def _clip_of(self, group: int) -> Any:
        """The clip of a parameter group: its own ``grad_clip`` where it names one, else the optimizer's."""
        groups = self._param_groups
        if groups is not None and "grad_clip" in groups[group]:
            return groups[group]["grad_clip"]
        return self._grad_clip

    def _clip_key(self) -> Any:
        """The clip's part of the update kernel's key: the clip's key, or ``("by_group", keys)`` where a parameter
        group has a ``grad_clip`` of its own."""
        groups = self._param_groups
        if groups is not None and any("grad_clip" in g for g in groups):
            return ("by_group", tuple(None if c is None else c._key()
                                      for c in (self._clip_of(i) for i in range(len(groups)))))
        return self._grad_clip._key() if self._grad_clip else None

    def _specs(self, params: list[Any]) -> tuple[ParamSpec, ...]:
        base = self._defaults()
        groups, group_no = {}, {}
        if self._param_groups is not None:
            for no, g in enumerate(self._param_groups):
                for p in g["params"]:
                    groups[id(p)], group_no[id(p)] = g, no
        out = []
        for p in params:
            g = groups.get(id(p))
            h = dict(base)
            if g is not None:
                h.update({k: g[k] for k in self._HYPER if k in g})
                wd = g.get("weight_decay", self._weight_decay)
                mult = float(g.get("learning_rate", 1.0))
            else:
                wd = self._weight_decay
                reg_attr = getattr(p, "regularizer", None)
                if reg_attr is not None:
                    wd = reg_attr
                attr = getattr(p, "optimize_attr", None)
                mult = float(attr.get("learning_rate", 1.0)) if isinstance(attr, dict) else 1.0
            reg = None
            if self._REGULARIZED:
                if isinstance(wd, float):
                    reg = ("l2", wd)
                elif isinstance(wd, WeightDecayRegularizer):
                    reg = wd._key()
            else:
                if g is not None and "weight_decay" in g:
                    h["weight_decay"] = g["weight_decay"]
                # a rule whose weight_decay is its own (decoupled) setting still adds the gradient term of a
                # regularizer the parameter carries (ParamAttr(regularizer=...)), as Paddle does
                own = getattr(p, "regularizer", None)
                if isinstance(own, WeightDecayRegularizer):
                    reg = own._key()
            h = self._param_hyper(p, h)
            mult *= self._lr_ratio(p)
            out.append(ParamSpec(tuple(sorted(h.items())), reg, mult, bool(getattr(p, "need_clip", True)),
                                 group_no.get(id(p), 0)))
        return tuple(out)

    def _init_state(self, spec: ParamSpec, shape: Sequence[int], dtype: Any) -> Any:
        return _state_of(type(self), spec, shape, dtype)

    def _first_states(self, params: Sequence[Tensor]) -> tuple[tuple[Any, ...], ...]:
        """The starting state of each of ``params`` (its leaves), made by one cached program (``fresh_kernel``), as a
        first step makes them (``start_kernel``): for a compiled training step, which takes each leaf as an input."""
        specs = self._specs(params)
        shapes = tuple((tuple(p.shape), p._v.dtype) for p in params)
        return fresh_kernel((type(self), specs, shapes), len(params),
                            functools.partial(_initial_state, type(self), specs, shapes))()

    def _state_names(self) -> tuple[str, ...]:
        return NAMES[self._STATE] if self._STATE else ()

    # ---- learning rate ----------------------------------------------------------------
    def get_lr(self) -> float:
        """The current learning rate (a scheduler's current value when one is used)."""
        lr = self._learning_rate
        return float(lr()) if is_scheduler(lr) else lr

    def _lr_input(self) -> tuple[Any, tuple]:
        """The learning rate as the update's input, and its aval: a device scalar, made again only when the rate
        changes (a Python float would be transferred at every run of the step's program, a few µs). Weakly typed
        like the float, it gives the program the float gives. A scheduler's rate stays a Python float: it may change
        every step, and ``jax.device_put`` costs ~30 µs where passing a new float to the program costs ~2 µs (a value
        that repeats becomes a cached device scalar at the run, ``_exec.deferred._device_numbers``)."""
        lr = self.get_lr()
        if type(lr) is float and is_scheduler(self._learning_rate):
            return lr, float
        c = self._lr_in
        if c is None or c[0] != lr:
            arr = put_number(lr)
            c = self._lr_in = (lr, arr, (arr.shape, arr.dtype, arr.weak_type))
        return c[1], c[2]

    def set_lr(self, value: float) -> None:
        """Set a float learning rate; an error when the optimizer uses an LRScheduler."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(
                f"{type(self).__name__}.set_lr: value must be a float, but received {type(value).__name__}."
            )
        if is_scheduler(self._learning_rate):
            raise RuntimeError(
                f"{type(self).__name__}.set_lr: the learning rate is an LRScheduler; set_lr would conflict with it. "
                "Use set_lr_scheduler() to replace the scheduler."
            )
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler: Any) -> None:
        """Replace the learning rate by an ``LRScheduler``."""
        if not is_scheduler(scheduler):
            raise TypeError(
                f"{type(self).__name__}.set_lr_scheduler: scheduler must be an LRScheduler (callable, with step()), "
                f"but received {type(scheduler).__name__}."
            )
        self._learning_rate = scheduler

    # ---- eager ------------------------------------------------------------------------
    def _eager_params(self, api: str) -> list[Tensor]:
        if self._parameter_list is None:
            raise ValueError(
                f"{type(self).__name__}.{api}: in dynamic mode the optimizer needs parameters=[...] "
                "(the Tensors to update) when it is created."
            )
        return self._parameter_list

    def _check_precision(self, params: list[Any]) -> None:
        for p in params:
            if p._v.dtype.kind == "c" and not self._COMPLEX_OK:
                raise RuntimeError(
                    f"{type(self).__name__}.step: the parameter {p.name} is {p.dtype.name}, and this optimizer "
                    "updates real parameters only (its rule squares the gradient; Paddle's has no complex kernel). "
                    "Keep the real and imaginary parts as two float parameters combined by paddle.complex, use SGD "
                    "or Momentum, or update it by hand under paddle.no_grad()."
                )
            if self._multi_precision and p.dtype in _LOW_PRECISION:
                raise NotImplementedError(
                    f"{type(self).__name__}: multi_precision=True with the {p.dtype} parameter {p.name} (float32 "
                    "master weights) is not supported; train float32 parameters or pass multi_precision=False."
                )

    def _step_params(self, params: list[Tensor]) -> None:
        fast = self._fast
        if fast is not None and fast[0] is params and self._step_fast(params, fast, lazy.cut_buffer()):
            return
        todo, grads = [], []
        for p in params:
            if not p.stop_gradient:
                g = p.grad
                if g is not None:
                    todo.append(p)
                    grads.append(g._v)
        if not todo:
            return
        ids = tuple(id(p) for p in todo)
        cache = self._key_cache
        if cache is not None and cache[0] == ids:
            specs, layout, key = cache[1], cache[2], cache[3]
        else:
            self._name_states(todo)
            self._check_precision(todo)
            specs = self._specs(todo)
            layout = layout_of([jax.eval_shape(functools.partial(self._init_state, spec, tuple(p.shape), p._v.dtype))
                                for p, spec in zip(todo, specs)])
            key = (type(self), specs, self._clip_key())
            self._key_cache = (ids, specs, layout, key)
        if _sparse_rows.MARKED and self._step_sparse(todo, grads, specs, layout):  # (a table was looked up sparsely)
            return
        if modes.capture is not None:  # inside a compiled training step (jit.to_static)
            self._step_traced(todo, grads, specs, layout)
            return
        before_write()  # the parameters are rebound below
        n = len(todo)
        flat = [p._v for p in todo]
        flat += grads
        pack = self._pack
        if pack is not None and pack[0] == ids:  # the parameters of the last step: their state is packed
            layout, kernel = pack[1], pack[3]
            flat += pack[2]
        else:  # the first step, or other parameters than the last one's: their state is packed now
            self._unpack()
            acc = self._accumulators
            leaves = []
            fresh = []
            for p in todo:
                st = acc.get(id(p))
                fresh.append(st is None)
                if st is None and self._loaded_keys is not None:
                    self._check_loaded(p)
                if st is not None:  # (else the first step: the state starts in the pack, stored with the results)
                    leaves += st
            if self._FLAT and any(fresh):  # states that start together stay equal: their update may run flat
                layout = with_groups(layout, flat_groups(
                    layout, [(spec, p._v.dtype) if f else None for p, spec, f in zip(todo, specs, fresh)],
                    [tuple(p.shape) for p in todo],
                    lambda i, size: jax.eval_shape(functools.partial(self._init_state, specs[i], (size,),
                                                                     todo[i]._v.dtype))))
            kernel = packed_kernel(functools.partial(_update_all, *key), key, layout)
            if layout.dtypes:  # (at once: the step then records what the next steps record, and replays from the next)
                # one program makes the fresh states and packs them with the others
                shapes = tuple((tuple(p.shape), p._v.dtype) for p in todo)
                start = start_kernel(layout, (type(self), specs, shapes), tuple(fresh),
                                     functools.partial(_initial_state, type(self), specs, shapes))
                flat += start(*[lazy.concrete(v) for v in leaves])
        flat.append(self._lr_input()[0])
        # recorded like any op: the update joins the program of the step's backward (``lazy.join``), or the next one
        cut = lazy.cut_buffer()
        if cut is not None:
            out = lazy.join(cut, kernel, flat, [lazy.concrete_or_none(v) for v in (*flat[:n], *flat[2 * n:-1])])
            lazy.expect_join(self)
        else:
            if lazy.idle():  # the update follows backward's run: the next backward leaves its calls for it to join
                lazy.expect_join(self)
            out = lazy.call(kernel, flat)
        self._commit(todo, out[:n], (ids, layout, tuple(out[n:]), kernel))
        acc = self._accumulators
        for k in ids:  # their state is in the pack now (an entry an interrupt leaves here is never read)
            acc.pop(k, None)
        self._fast = self._fast_record(params, todo, ids, layout, kernel, flat, out)

    def _fast_record(self, params: list[Tensor], todo: list[Tensor], ids: tuple[int, ...], layout: Any, kernel: Any,
                     flat: list[Any], out: Any) -> tuple | None:
        """What ``_step_fast`` needs to record the next steps' update as this one's, or None (not recorded)."""
        if not all(type(o) is Pending for o in out):
            return None
        avals = []
        for v in flat:
            if type(v) is Pending:
                avals.append(v.aval)
            elif type(v) is _ArrayImpl:
                lr_in = self._lr_in
                avals.append(lr_in[2] if lr_in is not None and v is lr_in[1] else (v.shape, v.dtype, v.weak_type))
            elif type(v) is float:
                avals.append(float)
            else:
                return None
        used = set(ids)
        mask = tuple(id(p) in used for p in params)
        n = len(todo)
        # the parameters and the pack of the next step are this update's results: their avals are these objects, which
        # ``_step_fast`` then finds by identity (an equal tuple costs a comparison of shapes and dtypes each)
        for k, o in enumerate(out):
            at = k if k < n else k + n
            if avals[at] == o.aval:
                avals[at] = o.aval
        # (the parameter list, its parameters, each one's use, the parameters updated, their avals, the grads', the
        # pack's, the learning rate's, all of them, the update, its results' avals, the pack's ids and layout)
        return (params, tuple(params), mask, tuple(todo), tuple(avals[:n]), tuple(avals[n:2 * n]),
                tuple(avals[2 * n:-1]), avals[-1], tuple(avals), kernel, tuple(o.aval for o in out), ids, layout)

    def _step_fast(self, params: list[Tensor], fast: tuple, cut: Any) -> bool:
        """The update of a step like the last one, recorded without rebuilding it: the same parameters with
        gradients of the same shapes and dtypes, the state packed by the last step, and either the gradients
        computed (a step whose backward has run) and the buffer empty (the update is the first call after
        backward's run), or the gradients results of ``cut``, the buffer a backward left for the update to join.
        False (nothing done) otherwise: ``_step_params`` then records it in full."""
        (_, plist, mask, todo, p_avals, g_avals, s_avals, lr_aval, in_avals, kernel, out_avals, ids, layout) = fast
        pack = self._pack
        if (pack is None or pack[0] is not ids or len(params) != len(plist) or modes.capture is not None
                or not lazy.ENABLED):
            return False
        vals = []
        grads = []
        olds = []  # the parameters' values before the step (what an interrupt leaves them)
        i = 0
        for p, q, use in zip(params, plist, mask):
            if p is not q:
                return False
            if p.stop_gradient:
                if use:
                    return False
                continue
            acc = p._acc
            g = None if acc is None else acc.grad
            if not use:
                if g is None:
                    continue
                return False
            if p._e is not None:
                return False
            # the parameter's array and its gradient, computed (a step whose backward ran), as the last step's (their
            # avals are the last step's objects: the last update's results, the noted backward's slots)
            old = v = p._v
            if type(v) is Pending:
                av = v.aval
                v = v.array
            elif type(v) is _ArrayImpl:
                av = (v.shape, v.dtype, v.weak_type)
            else:
                return False
            if v is None or (av is not p_avals[i] and av != p_avals[i]):
                return False
            if type(g) is Pending:
                av = g.aval
                if g.buf is not cut:  # (else a result of the backward the update joins)
                    g = g.array
            elif type(g) is _ArrayImpl:
                av = (g.shape, g.dtype, g.weak_type)
            else:  # None, zeroed or a Tensor: the full step says what it is
                return False
            if g is None or (av is not g_avals[i] and av != g_avals[i]):
                return False
            vals.append(v)
            grads.append(g)
            olds.append(old)
            i += 1
        arrays = vals + grads
        for v, av in zip(pack[2], s_avals):
            if type(v) is Pending:
                if v.aval is not av and v.aval != av:
                    return False
                v = v.array
                if v is None:
                    return False
            elif type(v) is not _ArrayImpl or (v.shape, v.dtype, v.weak_type) != av:
                return False
            arrays.append(v)
        lr, av = self._lr_input()
        if av is not lr_aval and av != lr_aval:
            return False
        arrays.append(lr)
        before_write()  # the parameters are rebound below
        n = len(todo)
        if cut is not None:  # if the run fails, the parameters and the state keep their values
            out = lazy.join_known(cut, kernel, arrays, in_avals, out_avals, [*vals, *arrays[2 * n:-1]])
        else:
            out = lazy.call_first(kernel, arrays, in_avals, out_avals)
        if out is None:
            return False
        lazy.expect_join(self)
        # ``_commit``, written out (the old values are known): every parameter rebound and the state stored, or,
        # interrupted, none
        old_pack = self._pack
        try:
            for p, v in zip(todo, out):
                p._v = v
            self._pack = (ids, layout, tuple(out[n:]), kernel)
        except BaseException:
            for p, v in zip(todo, olds):
                p._v = v
            self._pack = old_pack
            raise
        reach(todo)
        return True

    @classmethod
    def _sparse_update(cls, h: dict[str, Any], lr: Any, p: Any, g: Any, state: Any, looked: Any,
                       lazy_mode: bool) -> tuple[Any, Any]:
        """Paddle's update of a sparse gradient ``g`` (zeros off the rows looked up, ``looked``: a boolean of
        ``p``'s rows broadcasting against it), for the rules whose update of one differs from the dense one
        (``_SPARSE_ROWS``): the new parameter and state."""
        raise NotImplementedError

    def _step_sparse(self, todo: list[Tensor], grads: list[Any], specs: tuple[ParamSpec, ...], layout: Any) -> bool:
        """A step where some parameter was looked up with ``sparse=True`` (``nn._sparse_rows``): what Paddle raises
        for a sparse gradient is raised here, and a rule whose update of one reads its rows (``_SPARSE_ROWS``) is
        run by ``_update_rows``, with each parameter's state apart (no pack, no repeated-step record). False when
        the step is an ordinary one (the dense update is Paddle's sparse one)."""
        marked = [_sparse_rows.is_sparse(p) for p in todo]
        if not any(marked):
            return False
        counts = [_sparse_rows.lookup_counts(p) if m else None for p, m in zip(todo, marked)]
        api = type(self).__name__
        for p, c, spec in zip(todo, counts, specs):
            if c is None:
                continue
            where = (f"the parameter {p.name!r} has a sparse gradient (it was looked up by an Embedding or "
                     "F.embedding with sparse=True)")
            if not self._SPARSE_OK:
                raise NotImplementedError(
                    f"{api}.step: {where}, which Paddle's {api} cannot update (it has no kernel for a sparse gradient)."
                    " Pass sparse=False for that table, or use an optimizer that updates sparse gradients (SGD, "
                    "Momentum, Adam, AdamW, Adagrad, RMSProp, Lamb)."
                )
            if isinstance(self._clip_of(spec.clip_group), ClipGradByValue) and spec.need_clip:
                raise NotImplementedError(
                    f"{api}.step: {where}, which grad_clip=ClipGradByValue cannot clip (Paddle's clip has no kernel "
                    "for a sparse gradient). Use ClipGradByNorm or ClipGradByGlobalNorm, or pass sparse=False for "
                    "that table."
                )
            if self._SPARSE_ROWS and self._REGULARIZED and self._weight_decay is not None:
                raise RuntimeError(
                    f"{api}.step: {where}, to which {api} cannot add weight_decay={self._weight_decay!r} (Paddle's "
                    f"{api} raises here too). Set weight_decay=None, give the other parameters a regularizer of their "
                    "own (ParamAttr(regularizer=...)), or pass sparse=False for that table."
                )
        if not self._SPARSE_ROWS:
            return False
        self._fast = None  # (the next step records its update in full: it reads the rows looked up)
        self._unpack()
        capture = modes.capture  # inside a compiled training step (jit.to_static): as ``_step_traced``
        lr = capture.optimizer_step(self, todo, self.get_lr()) if capture is not None else self._lr_input()[0]
        acc = self._accumulators
        leaves: list[Any] = []
        for p, spec in zip(todo, specs):
            st = acc.get(id(p))
            if st is None and self._loaded_keys is not None:
                self._check_loaded(p)
            if st is None:
                st = acc[id(p)] = tuple(jax.tree.leaves(self._init_state(spec, p.shape, p._v.dtype)))
            leaves += st
        # a parameter's own regularizer makes Paddle's gradient dense (the decay is added to it): the rule then
        lazy_modes = tuple(getattr(self, "_lazy_mode", False) if c is not None and spec.reg is None else None
                           for c, spec in zip(counts, specs))
        clip = self._clip_key()
        key = ("rows", type(self), specs, clip, lazy_modes, layout.trees)
        kernel = _KERNELS.get(key)
        if kernel is None:
            kernel = _KERNELS[key] = jax.jit(functools.partial(_update_rows, type(self), specs, clip, lazy_modes,
                                                               layout.trees))
        n = len(todo)
        flat = [p._v for p in todo] + list(grads) + leaves + [lr]
        flat += [c for c, m in zip(counts, lazy_modes) if m is not None]
        before_write()  # the parameters are rebound below
        cut = None if capture is not None else lazy.cut_buffer()
        if capture is not None:
            out = lazy.call(kernel, flat)
        elif cut is not None:  # (joins the backward's program, as ``_step_params``)
            out = lazy.join(cut, kernel, flat, [lazy.concrete_or_none(v) for v in (*flat[:n], *leaves)])
            lazy.expect_join(self)
        else:
            if lazy.idle():
                lazy.expect_join(self)
            out = lazy.call(kernel, flat)
        old_v, old_acc = [p._v for p in todo], dict(acc)
        try:  # all or nothing, as ``_commit``
            at = n
            for p, v, tree in zip(todo, out[:n], layout.trees):
                p._v = v
                acc[id(p)] = tuple(out[at:at + tree.num_leaves])
                at += tree.num_leaves
        except BaseException:
            for p, v in zip(todo, old_v):
                p._v = v
            acc.clear()
            acc.update(old_acc)
            raise
        reach(todo)
        return True

    def _step_traced(self, todo: list[Tensor], grads: list[Any], specs: tuple[ParamSpec, ...], layout: Any) -> None:
        """The update inside a compiled training step: each parameter's state is its own input of the program
        (no pack), and the learning rate is an input the step supplies."""
        self._unpack()
        lr = modes.capture.optimizer_step(self, todo, self.get_lr())
        before_write()  # the parameters are rebound below
        acc = self._accumulators
        states = []
        for p, spec, tree in zip(todo, specs, layout.trees):
            st = acc.get(id(p))
            if st is None and self._loaded_keys is not None:
                self._check_loaded(p)
            if st is None:
                st = acc[id(p)] = tuple(jax.tree.leaves(self._init_state(spec, p.shape, p._v.dtype)))
            states.append(jax.tree.unflatten(tree, st))
        kernel = kernel_for(type(self), specs, self._clip_key())
        new_p, new_s = lazy.call_tree(kernel, [p._v for p in todo], grads, states, lr)
        for p, v, st in zip(todo, new_p, new_s):
            p._v = v
            acc[id(p)] = tuple(jax.tree.leaves(st))

    def _commit(self, params: list[Tensor], values: Sequence[Any], pack: tuple) -> None:
        """Rebind every parameter to its new value and store the new state, or, interrupted (any
        ``BaseException``), leave every one as it was: a step is all or nothing."""
        old_v = [p._v for p in params]
        old_pack = self._pack
        try:
            for p, v in zip(params, values):
                p._v = v
            self._pack = pack
        except BaseException:
            for p, v in zip(params, old_v):
                p._v = v
            self._pack = old_pack
            raise
        reach(params)

    def _unpacked(self) -> dict[int, tuple[Any, ...]]:
        """The state leaves of the parameters of the pack, each parameter's apart (deferred slices)."""
        pack = self._pack
        if pack is None:
            return {}
        ids, layout, arrays, _ = pack
        leaves = lazy.call(unpack_kernel(layout), list(arrays)) if arrays else ()
        out, at = {}, 0
        for k, spots in zip(ids, layout.leaves):
            out[k] = tuple(leaves[at:at + len(spots)])
            at += len(spots)
        return out

    def _unpack(self) -> None:
        """Move the pack's state to the per-parameter accumulators (the same values: an interrupt in between
        leaves both, and the pack is read first)."""
        if self._pack is not None:
            self._accumulators.update(self._unpacked())
            self._pack = None

    def step(self) -> None:
        """Update every parameter that has a gradient (dynamic mode)."""
        params = self._eager_params("step")
        self._step_params(params)
        self._clip_grads(params)
        self._refresh_live_states()

    def _refresh_live_states(self) -> None:
        """Write the state after a step into the accumulator Tensors of earlier ``state_dict()`` calls still held
        (Paddle's state_dict holds the optimizer's live accumulators: a dict kept while training goes on shows the
        latest state, not the state at the call)."""
        if not self._live_states or modes.capture is not None:
            return
        live = [(k, i, t) for k, i, r in self._live_states if (t := r()) is not None]
        self._live_states = [(k, i, weakref.ref(t)) for k, i, t in live]
        if not live:
            return
        states = {**self._accumulators, **self._unpacked()}
        for k, i, t in live:
            st = states.get(k)
            if st is not None and st[i] is not t._v:
                t._v = st[i]
                t._version_counter().value += 1

    def _clip_grads(self, params: list[Tensor]) -> None:
        """``ClipGradByGlobalNorm`` clips the gradients in place in Paddle: after the step they hold the clipped
        values (the update has already read them, and clipped them itself)."""
        if modes.capture is not None:
            return
        if self._param_groups is None:
            in_place = getattr(self._grad_clip, "_clip_grads_in_place", None)
            if in_place is not None:
                in_place(params)
            return
        chosen = {id(p) for p in params}
        for i, g in enumerate(self._param_groups):  # each group's norm is its own, as in the update
            in_place = getattr(self._clip_of(i), "_clip_grads_in_place", None)
            if in_place is not None:
                in_place([p for p in g["params"] if id(p) in chosen])

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset the gradients of the parameters (dynamic mode)."""
        for p in self._eager_params("clear_grad"):
            p.clear_grad(set_to_zero)
        lazy.run_cut()  # the step's end: its program runs now, without the gradients just cleared

    clear_gradients = clear_grad

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None, no_grad_set: Any = None) -> Any:
        """Static mode: append the backward pass and the update. Dynamic mode, as Paddle's: the update of ``step()``
        from the gradients a ``loss.backward()`` already left (it runs no backward itself); returns
        ``([], [(param, grad), ...])``."""
        if getattr(loss, "_symbolic", False):
            if not STATIC_MINIMIZE:
                raise RuntimeError("minimize: static programs are not available (pylayer_jax.static not imported).")
            return STATIC_MINIMIZE[0](self, loss, startup_program, parameters, no_grad_set)
        if startup_program is not None:
            raise TypeError(f"{type(self).__name__}.minimize: startup_program is for static mode; pass None eagerly.")
        params = list(parameters) if parameters is not None else self._eager_params("minimize")
        if no_grad_set is not None:  # (Paddle's dynamic mode ignores it: here it is honoured, as documented)
            skip = {t if isinstance(t, str) else id(t) for t in no_grad_set}
            params = [p for p in params if id(p) not in skip and p.name not in skip]
        # as Paddle's dynamic mode: the gradients are those of a backward() already run (minimize runs none)
        pairs = [(p, g) for p in params if not p.stop_gradient and (g := p.grad) is not None]
        self._step_params(params)
        self._clip_grads(params)
        self._refresh_live_states()
        return [], pairs

    # ---- state ------------------------------------------------------------------------
    def _name_states(self, params: Sequence[Any]) -> None:
        """Give the accumulators of the parameters this optimizer has no state names for yet their names, as Paddle
        does when it creates them: ``unique_name.generate(<param>_<acc>)``, so ``linear_0.w_0_moment1_0`` for the
        first optimizer that keeps one for that parameter and ``..._moment1_1`` for a second (a state dict saved by
        the first does not load into the second: ``_check_loaded``), fresh counters under ``unique_name.guard()``."""
        for p in params:
            for n in self._state_names():
                self._acc_key(p, n)

    def _acc_key(self, p: Any, suffix: str) -> str:
        key = (id(p), suffix)
        name = self._acc_names.get(key)
        if name is None:
            acc = f"{self._name}_{suffix}" if self._name is not None else suffix
            name = self._acc_names[key] = unique_name.generate(f"{p.name}_{acc}")
        return name

    def state_dict(self) -> dict[str, Any]:
        """The accumulators by Paddle's names (``<param>_<acc>_<n>``, see ``_name_states``) and ``LR_Scheduler`` when
        one is used."""
        out: dict[str, Any] = {}
        names = self._state_names()
        states = {**self._accumulators, **self._unpacked()} if names else {}
        self._live_states = [e for e in self._live_states if e[2]() is not None]
        for p in self._parameter_list or []:
            st = states.get(id(p))
            if st is None:
                continue
            for i, (n, leaf) in enumerate(zip(names, st)):
                t = out[self._acc_key(p, n)] = Tensor(leaf)
                self._live_states.append((id(p), i, weakref.ref(t)))
        if is_scheduler(self._learning_rate) and hasattr(self._learning_rate, "state_dict"):
            out["LR_Scheduler"] = self._learning_rate.state_dict()
        return out

    def _check_loaded(self, p: Any) -> None:
        """A parameter whose state starts after a ``set_state_dict`` that loaded accumulators must have had its
        own there: as in Paddle, where the state is found by the parameter's name, a missing one is an error (a
        fresh state would silently restart the update)."""
        missing = [k for k in (self._acc_key(p, n) for n in self._state_names()) if k not in self._loaded_keys]
        if missing:
            raise AssertionError(
                f"{type(self).__name__}.step: the state loaded by set_state_dict has no {missing[0]!r} for the "
                f"parameter {p.name!r} (a state dict is keyed by parameter names). Build the model as the one "
                "whose optimizer state was saved, so that its parameters have the same names, or load no optimizer "
                "state for it."
            )

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load accumulators (by Paddle's names) and the scheduler's state."""
        if not isinstance(state_dict, dict):
            raise TypeError(
                f"{type(self).__name__}.set_state_dict: expected a dict, but received {type(state_dict).__name__}."
            )
        names = self._state_names()
        params = self._parameter_list or []
        specs = self._specs(params) if params else ()
        self._unpack()
        acc_keys = [k for k in state_dict if k not in ("LR_Scheduler", "master_weights")]
        if names and acc_keys:
            self._loaded_keys = frozenset(acc_keys)
        for p, spec in zip(params, specs):
            keys = [self._acc_key(p, n) for n in names]
            if not keys or not all(k in state_dict for k in keys):
                continue
            tmpl = jax.eval_shape(functools.partial(self._init_state, spec, tuple(p.shape), p._v.dtype))
            leaves = jax.tree.leaves(tmpl)
            new = []
            for k, t in zip(keys, leaves):
                v = state_dict[k]
                arr = jnp.asarray(v._value if isinstance(v, Tensor) else np.asarray(v))
                if tuple(arr.shape) != tuple(t.shape):
                    raise ValueError(
                        f"{type(self).__name__}.set_state_dict: {k} has shape {list(arr.shape)}, but the parameter "
                        f"needs {list(t.shape)}."
                    )
                new.append(arr.astype(t.dtype))
            self._accumulators[id(p)] = tuple(new)
        if "LR_Scheduler" in state_dict and is_scheduler(self._learning_rate):
            self._learning_rate.set_state_dict(state_dict["LR_Scheduler"])

