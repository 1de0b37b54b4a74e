"""``paddle.jit.save`` / ``paddle.jit.load``: a compiled forward as a deployable artifact.

Layer L5. ``save`` traces the forward of a Layer (or a function) once, with its parameters and
buffers as *arguments* of the traced function, and serializes it with ``jax.export`` as StableHLO
(with its first-order VJP, so a loaded model can be fine-tuned). Three files share the prefix
``path``:

- ``path.pdmodel``: the serialized ``jax.export.Exported`` (StableHLO bytes; ``vjp_order=1``);
- ``path.pdiparams``: the parameter and buffer values, an ``.npz`` archive (numpy's format, read
  back with ``allow_pickle=False``) keyed by structured name (``fc.weight``);
- ``path.json``: a small description: format version, input names/shapes/dtypes (-1 for a dimension
  exported as a symbolic size), output shapes, each parameter's structured name, Paddle name, shape,
  dtype and trainability, the platforms the artifact runs on, and any note on the export.

The artifact's arguments are the parameters and buffers, the inputs and the global generator's state;
its results are the outputs and the generator's new state, so a random op inside (dropout) draws from
the global generator as the original did (the same masks after the same ``paddle.seed``). The forward
is traced in eval mode, as Paddle saves an inference program; one that still writes a buffer is refused. Tensors a
plain function reads from outside (closures, globals) are constants of the artifact.

``load`` needs none of the Python that defined the model: it returns a ``PirTranslatedLayer`` whose
parameters are Parameters with the saved names and whose forward is one op (``_EXPORTED``) calling
the artifact; its VJP is the serialized VJP, itself an ``Exported``, so ``loss.backward()`` through a
loaded layer gives parameter gradients through the ordinary eager tape.
"""

from __future__ import annotations

import inspect
import io
import json
import os
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import export as jexport

from .._autograd.grad_mode import no_grad
from .._ops.table import Op
from .._runtime import dtypes as _dtypes
from .._runtime.rng import generator
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, unwrap
from ..nn.layer._layers import Layer
from ..nn.layer._param import Parameter
from ._to_static import StaticFunction

FORMAT = "pylayer_jax.jit/1"
PLATFORMS = ("cpu", "cuda")
_SAVE_CONFIGS = ("output_spec", "with_hook", "combine_params", "clip_extra", "skip_forward",
                 "input_names_after_prune", "skip_prune_program", "separate_parameters")


class _Refused(ValueError):
    """The forward does something an artifact cannot hold: raised as is, not retried with other shapes."""


# ---- the op that runs a loaded artifact --------------------------------------------------------------
class ExportedHandle:
    """An ``Exported`` and its serialized VJP, hashed by identity (a static attribute of ``_EXPORTED``)."""

    __slots__ = ("exported", "_vjp", "__weakref__")

    def __init__(self, exported: Any) -> None:
        self.exported = exported
        self._vjp = None

    @property
    def vjp(self) -> Any:
        if self._vjp is None:
            if not self.exported.has_vjp():
                raise RuntimeError(
                    "jit.load: this artifact was saved without its VJP (its forward could not be differentiated "
                    "when it was saved), so no gradient can flow through it; use it for inference only."
                )
            self._vjp = self.exported.vjp()
        return self._vjp


def _exported_fn(tensors: list[Any], handle: ExportedHandle) -> Any:
    return handle.exported.call(*tensors)


def _exported_vjp(saved: dict[str, Any], ct: Any, handle: ExportedHandle) -> tuple[list[Any]]:
    prim = list(saved["tensors"])
    exp = handle.exported
    outs = jax.eval_shape(exp.call, *prim)
    out_leaves = jax.tree_util.tree_leaves(outs)
    cts = list(ct) if isinstance(ct, tuple) and len(out_leaves) != 1 else [ct]
    full = []
    for o, c in zip(out_leaves, cts):
        if not jnp.issubdtype(o.dtype, jnp.inexact):
            full.append(np.zeros(o.shape, jax.dtypes.float0))
        else:
            full.append(jnp.zeros(o.shape, o.dtype) if c is None else c.astype(o.dtype))
    grads = handle.vjp.call(*prim, *full)  # its arguments: the primals, then one cotangent per output leaf
    return (list(jax.tree_util.tree_leaves(grads)),)


_NO_KEY = jax.device_put(np.zeros(2, np.int64))  # the key argument of an artifact whose forward draws no random numbers
_EXPORTED = Op("jit_load", _exported_fn, ("tensors",), ("tensors",), _exported_vjp, (), False, False, True)


# ---- specs ----------------------------------------------------------------------------------------------
def _spec_of(api: str, i: int, s: Any) -> tuple[list[int | None], np.dtype, str | None]:
    """(shape with None for a free size, numpy dtype, name) of one ``input_spec`` entry."""
    if isinstance(s, Tensor):
        return [int(d) for d in s.shape], np.dtype(s.dtype.np_dtype), getattr(s, "name", None)
    if isinstance(s, np.ndarray | jax.Array):
        return list(s.shape), np.dtype(s.dtype), None
    if hasattr(s, "shape") and hasattr(s, "dtype"):  # paddle.static.InputSpec
        shape = [None if d is None or d < 0 else int(d) for d in s.shape]
        return shape, np.dtype(_dtypes.to_np(s.dtype)), getattr(s, "name", None)
    raise TypeError(
        f"{api}: input_spec[{i}] must be a paddle.static.InputSpec or an example Tensor, but received "
        f"{type(s).__name__}."
    )


def _symbolic_structs(specs: Sequence[tuple], mode: str) -> tuple[list[jax.ShapeDtypeStruct], bool]:
    """Argument structs: ``distinct`` gives each free dimension its own symbol, ``per_axis`` one symbol
    per axis position (inputs sharing a batch size), ``concrete`` size 1. Returns (structs, any symbol)."""
    free = [(i, j) for i, (shape, _, _) in enumerate(specs) for j, d in enumerate(shape) if d is None]
    if mode == "distinct":
        names = {k: f"d{n}" for n, k in enumerate(free)}
    elif mode == "per_axis":
        names = {(i, j): f"axis{j}" for i, j in free}
    else:
        names = {}
    syms = {}
    if names:
        uniq = sorted(set(names.values()))
        syms = dict(zip(uniq, jexport.symbolic_shape(", ".join(uniq))))
    structs = []
    for i, (shape, dtype, _) in enumerate(specs):
        dims = tuple(syms[names[(i, j)]] if d is None and names else (1 if d is None else d)
                     for j, d in enumerate(shape))
        structs.append(jax.ShapeDtypeStruct(dims, dtype))
    return structs, bool(names)


def export_flat(api: str, fn: Callable[..., Any], fixed: Sequence[jax.ShapeDtypeStruct],
                specs: Sequence[tuple], extra: Sequence[jax.ShapeDtypeStruct] = ()) -> tuple[Any, list[str]]:
    """Export ``fn(*fixed_args, *inputs, *extra)`` with the inputs' free dimensions symbolic where the function
    allows it; returns (Exported, notes). Tries symbolic sizes (one per free dimension, then one per axis
    position), then the example size 1 with a warning; platforms ``cpu`` and ``cuda``, else ``cpu``."""
    notes: list[str] = []
    has_free = any(d is None for shape, _, _ in specs for d in shape)
    modes = ("distinct", "per_axis", "concrete") if has_free else ("concrete",)
    errors: list[str] = []
    for mode in modes:
        structs, _ = _symbolic_structs(specs, mode)
        for platforms in (PLATFORMS, ("cpu",)):
            try:
                exp = jexport.export(jax.jit(fn), platforms=platforms)(*fixed, *structs, *extra)
            except _Refused:
                raise
            except Exception as e:  # noqa: BLE001 - any failure of this attempt: try the next one
                errors.append(f"[{mode}, {'+'.join(platforms)}] {type(e).__name__}: {(str(e).splitlines() or [''])[0][:300]}")
                if mode == "concrete" and platforms == ("cpu",):
                    raise type(e)(f"{api}: the forward could not be exported: {e}") from e
                continue
            if platforms != PLATFORMS:
                notes.append(f"exported for cpu only (lowering for cuda failed: {errors[-1]})")
                warnings.warn(f"{api}: the artifact runs on cpu only; lowering for cuda failed: {errors[-1]}",
                              stacklevel=3)
            if mode == "concrete" and has_free:
                note = ("the forward does not allow symbolic sizes, so every None dimension of input_spec was "
                        "exported with size 1 and the loaded model accepts only that size; shape polymorphism "
                        "failed with: " + errors[0])
                notes.append(note)
                warnings.warn(f"{api}: {note}", stacklevel=3)
            elif mode == "per_axis":
                notes.append("None dimensions at the same axis position share one symbolic size")
            return exp, notes
    raise AssertionError("unreachable")  # pragma: no cover


# ---- files ---------------------------------------------------------------------------------------------
def _dim(d: Any) -> int:
    return int(d) if isinstance(d, int | np.integer) else -1


def _dump_array(a: Any) -> np.ndarray:
    a = np.asarray(a)
    if a.dtype.kind == "V" or a.dtype.name == "bfloat16":  # ml_dtypes: stored as their bits
        return a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint8)
    return a


def write_artifact(api: str, path: str, exported: Any, meta: dict[str, Any], arrays: dict[str, Any],
                   hidden_outputs: int = 0) -> None:
    """Write ``path.pdmodel`` (StableHLO with its VJP), ``path.pdiparams`` (npz) and ``path.json``."""
    if not isinstance(path, str) or not path or os.path.basename(path) == "":
        raise ValueError(
            f"{api}: path must be a file prefix such as 'out/model' (the files get .pdmodel, .pdiparams and .json "
            f"added), but received {path!r}."
        )
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    try:
        blob = exported.serialize(vjp_order=1)
        meta["vjp_order"] = 1
    except Exception as e:  # noqa: BLE001 - a forward that cannot be differentiated: inference only
        warnings.warn(f"{api}: the forward's VJP could not be exported ({type(e).__name__}: {e}); the loaded model "
                      "runs but cannot be differentiated.", stacklevel=3)
        blob = exported.serialize(vjp_order=0)
        meta["vjp_order"] = 0
    meta["format"] = FORMAT
    n_fixed = len(meta["params"])
    for s, aval in zip(meta["inputs"], exported.in_avals[n_fixed:]):  # -1 where the size stayed symbolic
        s["shape"] = [_dim(d) for d in aval.shape]
    meta["platforms"] = list(exported.platforms)
    meta["outputs"] = [{"shape": [_dim(x) for x in a.shape], "dtype": np.dtype(a.dtype).name}
                       for a in exported.out_avals[:len(exported.out_avals) - hidden_outputs]]
    buf = io.BytesIO()
    np.savez(buf, **{k: _dump_array(v) for k, v in arrays.items()})
    with open(path + ".pdmodel", "wb") as f:
        f.write(blob)
    with open(path + ".pdiparams", "wb") as f:
        f.write(buf.getvalue())
    with open(path + ".json", "w") as f:
        json.dump(meta, f, indent=1)


def read_artifact(api: str, path: str, params_file: str | None = None
                  ) -> tuple[Any, dict[str, Any], dict[str, np.ndarray]]:
    """Read and check the three files (the parameters from ``params_file`` when given, else
    ``path.pdiparams``); a missing file is a ValueError, a damaged one a RuntimeError."""
    if not isinstance(path, str):
        raise TypeError(f"{api}: path must be a str prefix, but received {type(path).__name__}.")
    params_path = path + ".pdiparams" if params_file is None else params_file
    for ext in (".pdmodel", ".pdiparams", ".json"):
        file = params_path if ext == ".pdiparams" else path + ext
        if not os.path.isfile(file):
            raise ValueError(
                f"{api}: the file {file!r} does not exist; pass the prefix given to the save call (the "
                "files are prefix.pdmodel, prefix.pdiparams and prefix.json)."
            )
    try:
        with open(path + ".json") as f:
            meta = json.load(f)
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ValueError(f"format tag {meta.get('format') if isinstance(meta, dict) else None!r}, expected "
                             f"{FORMAT!r}")
    except (ValueError, OSError) as e:
        raise RuntimeError(f"{api}: {path + '.json'!r} is not a description written by save ({e}).") from e
    try:
        with open(path + ".pdmodel", "rb") as f:
            exported = jexport.deserialize(bytearray(f.read()))
    except Exception as e:  # noqa: BLE001 - flatbuffers raises assorted errors on damaged bytes
        raise RuntimeError(f"{api}: {path + '.pdmodel'!r} is damaged or not a serialized export "
                           f"({type(e).__name__}: {e}).") from e
    try:
        with np.load(params_path, allow_pickle=False) as z:
            raw = {k: z[k] for k in z.files}
    except Exception as e:  # noqa: BLE001 - zipfile/numpy raise assorted errors on damaged bytes
        raise RuntimeError(f"{api}: {params_path!r} is damaged or not a parameter archive "
                           f"({type(e).__name__}: {e}).") from e
    arrays = {}
    for p in meta.get("params", []):
        a = raw.get(p["name"])
        if a is None:
            raise RuntimeError(f"{api}: {params_path!r} has no value for the parameter {p['name']!r}.")
        dt = np.dtype(_dtypes.to_np(p["dtype"]))
        if a.dtype != dt:
            a = a.view(dt)
        if list(a.shape) != list(p["shape"]):
            raise RuntimeError(f"{api}: the saved value of {p['name']!r} has shape {list(a.shape)}, but the "
                               f"model expects {p['shape']}.")
        arrays[p["name"]] = a
    n_in = len(meta.get("params", [])) + len(meta.get("inputs", [])) + int(bool(meta.get("rng_arg")))
    if len(exported.in_avals) != n_in:
        raise RuntimeError(f"{api}: {path + '.pdmodel'!r} takes {len(exported.in_avals)} arguments but "
                           f"{path + '.json'!r} describes {n_in}; the files come from different saves.")
    return exported, meta, arrays


# ---- jit.save ------------------------------------------------------------------------------------------
def _arg_name(fn: Any, i: int) -> str:
    """The name of the ``i``-th positional parameter of ``fn`` (Paddle names an input without an InputSpec name
    after it), or ``x{i}`` where there is none (``*args``, a builtin)."""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return params[i].name if i < len(params) else f"x{i}"


def _forward_of(api: str, layer: Any) -> tuple[Callable[..., Any], Any]:
    """(the Python forward to trace, the input_spec given to to_static if any)."""
    target = layer.forward if isinstance(layer, Layer) else layer
    if isinstance(target, StaticFunction):  # without an input_spec: the shapes of its last call, as Paddle saves the
        return target.dygraph_function, target._input_spec or target._last_call_spec  # program that call traced
    if isinstance(layer, Layer) or callable(layer):
        return target, None
    raise TypeError(f"{api}: layer must be a paddle.nn.Layer or a function, but received {type(layer).__name__}.")


def save(layer: Any, path: str, input_spec: Sequence[Any] | None = None, **configs: Any) -> None:
    """Save a Layer's (or a function's) forward as StableHLO plus its parameters, loadable by ``jit.load``.

    ``input_spec`` (a list of ``paddle.static.InputSpec`` or example Tensors) describes the positional
    inputs; without it the ``input_spec`` given to ``to_static`` is used, or else the shapes of the last call of
    the ``to_static`` function (fixed: the loaded model takes those shapes only, where Paddle's runs its
    program on other sizes too). A ``None`` (or -1) dimension is
    exported as a symbolic size, so the loaded model accepts any size there; when the forward needs a
    concrete size, a warning says so and the size is 1. As in Paddle, the forward is traced in eval mode
    (the layer's modes are put back afterwards). Parameters and buffers are arguments of the artifact;
    Tensors a plain function reads from outside are saved as constants.

    >>> import pylayer_jax as paddle
    >>> net = paddle.nn.Linear(3, 2)
    >>> paddle.jit.save(net, "/tmp/doc_jit/linear", [paddle.static.InputSpec([None, 3], "float32", "x")])
    >>> loaded = paddle.jit.load("/tmp/doc_jit/linear")
    >>> loaded(paddle.ones([4, 3])).shape
    [4, 2]
    """
    api = "paddle.jit.save"
    for k in configs:
        if k not in _SAVE_CONFIGS:
            raise ValueError(f"{api}: the additional config {k!r} is not supported; the configs Paddle defines are "
                             f"{list(_SAVE_CONFIGS)}.")
        raise NotImplementedError(f"{api}: the config {k!r} is not supported here; leave it out.")
    fn, spec_default = _forward_of(api, layer)
    if input_spec is None:
        input_spec = spec_default
    if input_spec is None:
        raise ValueError(
            f"{api}: no input_spec for {getattr(fn, '__name__', 'the function')}; pass input_spec=[InputSpec(shape, "
            "dtype, name), ...] (or example Tensors), or give input_spec to paddle.jit.to_static."
        )
    if not isinstance(input_spec, list | tuple):
        raise TypeError(f"{api}: input_spec must be a list of InputSpec, but received {type(input_spec).__name__}.")
    specs = [_spec_of(api, i, s) for i, s in enumerate(input_spec)]
    named: list[tuple[str, Tensor, bool, bool]] = []  # (structured name, tensor, is_param, persistable)
    owner = layer if isinstance(layer, Layer) else getattr(fn, "__self__", None)  # a Layer's method: its Layer
    if isinstance(owner, Layer):
        seen: set[int] = set()
        persistent = set(owner.state_dict().keys())
        for name, t in owner.state_dict(include_non_persistable_buffer=True).items():
            if id(t) not in seen:
                seen.add(id(t))
                named.append((name, t, isinstance(t, Parameter), name in persistent))
    tensors = [t for _, t, _, _ in named]
    n_p = len(tensors)

    drew = [False]

    def pure(*arrays: Any) -> Any:
        old = [(t._v, t._counter.value if t._counter is not None else None) for t in tensors]
        state = generator._state
        try:
            for t, a in zip(tensors, arrays[:n_p]):
                t._v = a
            generator._state = arrays[-1]  # the key random ops (dropout) draw from: an argument of the artifact
            ins = [Tensor(a, True) for a in arrays[n_p:-1]]
            out = fn(*ins)
            drew[0] = generator._state is not arrays[-1]
            new_state = generator._state
            written = [n for (n, _, _, _), t, a in zip(named, tensors, arrays) if t._v is not a]
        finally:
            for t, (v, version) in zip(tensors, old):
                t._v = v
                if version is not None:
                    t._counter.value = version
            generator._state = state
        if written:
            raise _Refused(
                f"{api}: the forward writes {written} (a training-mode update such as a running mean); the artifact "
                "holds a pure forward (traced in eval mode), so the update would be lost; write buffers only when "
                "self.training is True."
            )
        return [jax.tree_util.tree_map(unwrap, out, is_leaf=lambda x: isinstance(x, Tensor)), new_state]

    values = [np.asarray(t._value) for t in tensors]
    fixed = [jax.ShapeDtypeStruct(v.shape, v.dtype) for v in values]
    modes = [(sub, sub.training) for sub in owner.sublayers(include_self=True)] if isinstance(owner, Layer) else []
    for sub, _ in modes:  # Paddle saves the inference forward: traced in eval mode, the modes put back after
        sub.training = False
    try:
        exported, notes = export_flat(api, pure, fixed, specs, [jax.ShapeDtypeStruct((2,), np.int64)])
    finally:
        for sub, mode in modes:
            sub.training = mode
    # arguments: parameters, inputs, the generator's state; results: [outputs, the generator's new state]
    meta: dict[str, Any] = {
        "rng_arg": True,
        "draws_random": drew[0],
        "kind": "layer" if isinstance(owner, Layer) else "function",
        "class": type(owner).__name__ if isinstance(owner, Layer) else getattr(fn, "__name__", "function"),
        "inputs": [{"name": name or _arg_name(fn, i), "shape": [-1 if d is None else d for d in shape],
                    "dtype": np.dtype(dt).name} for i, (shape, dt, name) in enumerate(specs)],
        "params": [{"name": n, "param_name": t.name, "is_param": is_p, "persistable": pers,
                    "trainable": not t.stop_gradient, "shape": list(v.shape), "dtype": np.dtype(v.dtype).name}
                   for (n, t, is_p, pers), v in zip(named, values)],
        "notes": notes,
    }
    write_artifact(api, path, exported, meta, {n: v for (n, _, _, _), v in zip(named, values)}, hidden_outputs=1)


# ---- jit.load ------------------------------------------------------------------------------------------
class _Holder(Layer):
    """A node of a loaded model's parameter tree (``fc`` in ``fc.weight``)."""

    def forward(self, *inputs: Any) -> Any:
        raise RuntimeError("jit.load: a part of a loaded model has no forward of its own; call the loaded model.")


def check_inputs(api: str, specs: Sequence[dict[str, Any]], inputs: Sequence[Any]) -> list[Any]:
    """Check inputs against the saved specs (-1: any size); returns them as arrays or Tensors."""
    if len(inputs) != len(specs):
        raise ValueError(f"{api}: the saved model takes {len(specs)} inputs "
                         f"({', '.join(s['name'] for s in specs)}), but received {len(inputs)}.")
    out = []
    for s, x in zip(specs, inputs):
        shape = list(x.shape) if hasattr(x, "shape") else list(np.shape(x))
        dtype = x.dtype.name if isinstance(x, Tensor) else np.dtype(getattr(x, "dtype", None) or np.asarray(x).dtype).name
        if len(shape) != len(s["shape"]) or any(d >= 0 and d != e for d, e in zip(s["shape"], shape)):
            raise ValueError(f"{api}: input {s['name']!r} has shape {shape}, but the saved model takes shape "
                             f"{s['shape']} (-1: any size).")
        if dtype != s["dtype"]:
            raise ValueError(f"{api}: input {s['name']!r} has dtype {dtype}, but the saved model takes "
                             f"{s['dtype']}; cast it first.")
        out.append(x)
    return out


class TranslatedLayer(Layer):
    """Paddle's class of a model loaded from its legacy (pre-PIR) program files. ``paddle.jit.load`` returns a
    ``PirTranslatedLayer``, which is not one, as in Paddle 3.3.1 (``isinstance(loaded, paddle.jit.TranslatedLayer)``
    is False there too); this package writes no legacy files, so there is nothing to construct one from."""

    def __init__(self, programs: Any = None, persistable_vars: Any = None) -> None:
        raise NotImplementedError(
            "paddle.jit.TranslatedLayer: models saved by paddle.jit.save load as PirTranslatedLayer (as in Paddle "
            "3.3.1); a TranslatedLayer cannot be built from legacy program files here. Use paddle.jit.load(path).")


class PirTranslatedLayer(Layer):
    """A model loaded by ``paddle.jit.load`` (Paddle 3.3.1's class name): runs the saved StableHLO; its parameters
    are Parameters.

    ``state_dict()`` keys are the structured names the model had when it was saved (``fc.weight``);
    ``parameters()`` are trainable Parameters with the saved Paddle names, so an optimizer can fine-tune
    the loaded model after ``train()``: ``loss.backward()`` runs the saved VJP. As in Paddle, the loaded layer
    starts in eval mode, where its forward gives no gradient to the parameters or the inputs (its outputs still
    read ``stop_gradient=False``).
    """

    def __init__(self, exported: Any, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        super().__init__()
        d = self.__dict__
        d["training"] = False  # as Paddle's: the saved forward is the eval-mode one whatever the mode
        d["_handle"] = ExportedHandle(exported)
        d["_meta"] = meta
        d["_paths"] = []
        for p in meta["params"]:
            *parents, leaf = p["name"].split(".")
            owner: Layer = self
            for part in parents:
                sub = owner._sub_layers.get(part)
                if sub is None:
                    sub = owner.add_sublayer(part, _Holder())
                owner = sub
            value = jnp.asarray(arrays[p["name"]])
            if p["is_param"]:
                owner.add_parameter(leaf, Parameter(value, name=p["param_name"], trainable=p["trainable"]))
            else:
                owner.register_buffer(leaf, Tensor(value, True, None, p["param_name"]), persistable=p["persistable"])
            d["_paths"].append((owner, leaf, p["is_param"]))

    def _tensors(self) -> list[Tensor]:
        return [owner._parameters[leaf] if is_p else owner._buffers[leaf] for owner, leaf, is_p in self._paths]

    def forward(self, *inputs: Any) -> Any:
        """Run the saved forward on ``inputs`` (Tensors of the saved shapes and dtypes)."""
        ins = check_inputs("PirTranslatedLayer", self._meta["inputs"], inputs)
        ins = [x if isinstance(x, Tensor) else jnp.asarray(x) for x in ins]  # arrays: constants of the call
        drew = self._meta.get("draws_random")
        keyed = bool(self._meta.get("rng_arg"))  # (a static program saved by save_inference_model takes no key)
        if keyed:
            ins.append(generator.get_state() if drew else _NO_KEY)  # the forward draws from the global generator
        if self.training:
            res = apply_op(_EXPORTED, ([*self._tensors(), *ins], self._handle))
        else:  # as Paddle's loaded layer in eval mode (its default): nothing flows back to the parameters or
            with no_grad():  # the inputs, though the outputs read stop_gradient=False; train() to fine-tune
                res = apply_op(_EXPORTED, ([*self._tensors(), *ins], self._handle))
        out, state = res if keyed else (res, None)
        if drew:  # and moves it on, as the original forward did
            generator.set_state(state._value)
        # as Paddle's loaded program: its outputs flat, one Tensor alone, more as a list (a tuple, a dict, nesting
        # of the original forward's result are not kept)
        flat = jax.tree_util.tree_leaves(out, is_leaf=lambda v: isinstance(v, Tensor))
        if not self.training:
            for t in flat:
                if isinstance(t, Tensor) and jnp.issubdtype(t._value.dtype, jnp.inexact):
                    t.stop_gradient = False
        return flat[0] if len(flat) == 1 else flat

    @property
    def input_spec(self) -> list[dict[str, Any]]:
        """The saved inputs: name, shape (-1 for a symbolic size) and dtype."""
        return [dict(s) for s in self._meta["inputs"]]

    def extra_repr(self) -> str:
        return f"saved from {self._meta.get('class')}, platforms={self._meta.get('platforms')}"


def load(path: str, **configs: Any) -> PirTranslatedLayer:
    """Load what ``paddle.jit.save`` (or ``paddle.static.save_inference_model``: its feeds are the inputs, its
    fetches the outputs) wrote: a ``PirTranslatedLayer`` (no Python model class needed)."""
    api = "paddle.jit.load"
    if configs:
        raise NotImplementedError(f"{api}: the configs {sorted(configs)} are not supported; the files are always "
                                  "path.pdmodel, path.pdiparams and path.json.")
    exported, meta, arrays = read_artifact(api, path)
    return PirTranslatedLayer(exported, meta, arrays)
