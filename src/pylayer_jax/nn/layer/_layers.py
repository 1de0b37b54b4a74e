"""``paddle.nn.Layer``: the base class of every model (layer L5).

Attribute assignment registers Parameters (``_parameters``), sublayers (``_sub_layers``) and,
through ``register_buffer``, buffers (``_buffers``), in order; ``state_dict`` walks them with
Paddle's structured names (``encoder.layers.1.linear1.bias``). ``__call__`` runs the forward
pre-hooks, ``forward`` and the post-hooks.

Beyond Paddle, every Layer class is a JAX pytree (``_pytree``): its parameters' and buffers'
arrays are the leaves, everything else is static, so ``jax.jit(lambda net, x: net(x))``,
``jax.grad`` over a Layer and optax updates work; unflattening builds a copy of the layer tree
whose parameters wrap the new leaves, leaving the original untouched.
"""

from __future__ import annotations

import collections
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..._autograd.grad_mode import no_grad
from ..._runtime import dtypes as _dtypes
from ..._runtime import unique_name as unique_name
from ..._runtime.state import modes
from ..._tensor.facade import Tensor, before_write, unwrap
from ..initializer._base import Initializer
from ._param import Parameter, _rewrap, make_parameter


def _snake(name: str) -> str:
    s = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", s).lower()


def _addindent(text: str, n: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * n + line for line in lines[1:])


class HookRemoveHelper:
    """The handle ``register_forward_*_hook`` returns: ``remove()`` takes the hook out."""

    _next_id = 0

    def __init__(self, hooks: dict[int, Callable[..., Any]], flags: tuple[set, ...] = ()) -> None:
        self._hooks = hooks
        self._flags = flags
        self._hook_id = HookRemoveHelper._next_id
        HookRemoveHelper._next_id += 1

    def remove(self) -> None:
        self._hooks.pop(self._hook_id, None)
        for f in self._flags:
            f.discard(self._hook_id)


class Layer:
    """Base class of layers and models: subclass it, create parameters and sublayers in ``__init__``, write
    ``forward``.

    >>> import pylayer_jax as paddle
    >>> class MLP(paddle.nn.Layer):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc1 = paddle.nn.Linear(4, 8)
    ...         self.fc2 = paddle.nn.Linear(8, 1)
    ...     def forward(self, x):
    ...         return self.fc2(paddle.nn.functional.relu(self.fc1(x)))
    >>> net = MLP()
    >>> list(net.state_dict())
    ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']
    >>> net(paddle.ones([2, 4])).shape
    [2, 1]
    """

    training: bool

    def __init__(self, name_scope: str | None = None, dtype: Any = "float32") -> None:
        d = self.__dict__
        d["training"] = True
        d["_full_name"] = unique_name.generate(name_scope or _snake(type(self).__name__))
        d["_dtype"] = _dtypes.to_paddle(dtype).name if not isinstance(dtype, str) else dtype
        d["_parameters"] = collections.OrderedDict()
        d["_sub_layers"] = collections.OrderedDict()
        d["_buffers"] = collections.OrderedDict()
        d["_non_persistable_buffer_names_set"] = set()
        d["_forward_pre_hooks"] = collections.OrderedDict()
        d["_forward_post_hooks"] = collections.OrderedDict()
        d["_hooks_with_kwargs"] = set()
        d["_hooks_always_called"] = set()
        d["_state_dict_hooks"] = collections.OrderedDict()
        d["_casted_by_pure_fp16"] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        jax.tree_util.register_pytree_node(cls, _flatten_layer, _unflatten_layer)

    # ---- calling ------------------------------------------------------------------------
    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} ({self.full_name()}) has no forward method: a Layer subclass must define "
            "forward(self, ...) with the computation that calling the layer runs."
        )

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        self._layer_check_init("__call__")
        for hid, hook in list(self._forward_pre_hooks.items()):
            if hid in self._hooks_with_kwargs:
                r = hook(self, inputs, kwargs)
                if r is not None:
                    if not (isinstance(r, tuple) and len(r) == 2 and isinstance(r[1], dict)):
                        raise TypeError(
                            f"{type(self).__name__}: a forward pre-hook registered with with_kwargs=True must return "
                            f"None or a tuple (args, kwargs), but returned {type(r).__name__}."
                        )
                    inputs, kwargs = (r[0] if isinstance(r[0], tuple) else (r[0],)), r[1]
            else:
                r = hook(self, inputs)
                if r is not None:
                    inputs = r if isinstance(r, tuple) else (r,)
        try:
            outputs = self.forward(*inputs, **kwargs)
        except BaseException:
            for hid, hook in list(self._forward_post_hooks.items()):
                if hid in self._hooks_always_called:
                    try:
                        hook(self, inputs, kwargs, None) if hid in self._hooks_with_kwargs else hook(self, inputs, None)
                    except Exception:  # the forward's exception is the one to report
                        pass
            raise
        for hid, hook in list(self._forward_post_hooks.items()):
            r = hook(self, inputs, kwargs, outputs) if hid in self._hooks_with_kwargs else hook(self, inputs, outputs)
            if r is not None:
                outputs = r
        return outputs

    def _layer_add_hook(self, hooks: dict, hook: Callable[..., Any], api: str, prepend: bool, with_kwargs: bool,
                  always_call: bool = False) -> HookRemoveHelper:
        if not callable(hook):
            raise TypeError(f"{api}: hook must be callable, but received {type(hook).__name__}.")
        h = HookRemoveHelper(hooks, (self._hooks_with_kwargs, self._hooks_always_called))
        hooks[h._hook_id] = hook
        if prepend:
            hooks.move_to_end(h._hook_id, last=False)
        if with_kwargs:
            self._hooks_with_kwargs.add(h._hook_id)
        if always_call:
            self._hooks_always_called.add(h._hook_id)
        return h

    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookRemoveHelper:
        """``hook(layer, inputs)`` runs before forward; a non-None result replaces the inputs. With
        ``with_kwargs=True`` it is ``hook(layer, args, kwargs)`` returning None or ``(args, kwargs)``;
        ``prepend=True`` runs it before the hooks already registered."""
        return self._layer_add_hook(self._forward_pre_hooks, hook, "register_forward_pre_hook", prepend, with_kwargs)

    def register_forward_post_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                   with_kwargs: bool = False, always_call: bool = False) -> HookRemoveHelper:
        """``hook(layer, inputs, outputs)`` runs after forward; a non-None result replaces the outputs. With
        ``with_kwargs=True`` it is ``hook(layer, args, kwargs, outputs)``; ``always_call=True`` also calls it
        (with outputs None) when forward raises."""
        return self._layer_add_hook(self._forward_post_hooks, hook, "register_forward_post_hook", prepend, with_kwargs,
                              always_call)

    register_forward_hook = register_forward_post_hook

    def register_state_dict_hook(self, hook: Callable[..., Any]) -> HookRemoveHelper:
        """``hook(state_dict)`` runs at the end of this layer's ``state_dict()`` (unless ``use_hook=False``) on the
        dict built so far; a non-None result replaces it. As in Paddle, what a sublayer's hook returns does not
        replace its parent's dict (change the dict in place there)."""
        if not callable(hook):
            raise TypeError(f"register_state_dict_hook: hook must be callable, but received {type(hook).__name__}.")
        hooks = self.__dict__.setdefault("_state_dict_hooks", collections.OrderedDict())
        h = HookRemoveHelper(hooks)
        hooks[h._hook_id] = hook
        return h

    # ---- names and modes ------------------------------------------------------------------
    def full_name(self) -> str:
        """The layer's unique name (``linear_0``): the prefix of its parameters' names."""
        return self._full_name

    def train(self, mode: bool = True) -> Layer:
        """Training mode (``mode=False``: evaluation mode) for this layer and every sublayer."""
        if not isinstance(mode, bool):
            raise ValueError(f"{type(self).__name__}.train: mode must be a bool, but received {type(mode).__name__}.")
        for layer in self.sublayers(include_self=True):
            layer.training = mode
        return self

    def eval(self) -> Layer:
        """Evaluation mode for this layer and every sublayer (``training = False``)."""
        for layer in self.sublayers(include_self=True):
            layer.training = False
        return self

    def apply(self, fn: Callable[[Layer], Any]) -> Layer:
        """Call ``fn`` on every sublayer (children first) and then on this layer."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # ---- registration ---------------------------------------------------------------------
    def _layer_check_init(self, api: str) -> None:
        if "_parameters" not in self.__dict__:
            raise RuntimeError(
                f"{type(self).__name__}.{api}: the Layer was not initialised; call super().__init__() first in "
                f"{type(self).__name__}.__init__."
            )

    def create_parameter(self, shape: Any, attr: Any = None, dtype: Any = None, is_bias: bool = False,
                         default_initializer: Initializer | None = None, device: Any = None) -> Parameter | None:
        """A Parameter named after this layer (``linear_0.w_0``); not registered until assigned to an attribute.
        Without ``dtype`` it has the default dtype at the call (``paddle.get_default_dtype()``, as Paddle: not the
        layer's own ``dtype``)."""
        if device is not None:
            raise NotImplementedError(f"{type(self).__name__}.create_parameter: device={device!r} is not supported; "
                                      "leave it None (parameters live on the default device).")
        if dtype is None or (isinstance(dtype, str) and dtype == ""):
            dtype = _dtypes.get_default_dtype()
        return make_parameter(self._full_name, shape, dtype, attr, is_bias,
                              default_initializer, f"{type(self).__name__}.create_parameter")

    def add_parameter(self, name: str, parameter: Parameter | None) -> Parameter | None:
        """Register ``parameter`` under ``name``; it then appears in ``parameters()`` and ``state_dict()``."""
        self._layer_check_init("add_parameter")
        self._layer_check_name(name, "add_parameter", self._parameters)
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError(
                f"{type(self).__name__}.add_parameter: parameter {name!r} must be a Parameter (from "
                f"create_parameter) or None, but received {type(parameter).__name__}."
            )
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name: str, sublayer: Layer | None) -> Layer | None:
        """Register ``sublayer`` under ``name`` (``str(name)``)."""
        self._layer_check_init("add_sublayer")
        if sublayer is not None and not isinstance(sublayer, Layer):
            raise TypeError(
                f"{type(self).__name__}.add_sublayer: sublayer {name!r} must be a Layer, but received "
                f"{type(sublayer).__name__}."
            )
        self._sub_layers[str(name)] = sublayer
        return sublayer

    add_module = register_module = add_sublayer
    register_parameter = add_parameter

    def register_buffer(self, name: str, tensor: Tensor | None, persistable: bool = True) -> None:
        """Register a non-trainable Tensor kept in ``state_dict()`` (unless ``persistable=False``)."""
        self._layer_check_init("register_buffer")
        if not isinstance(name, str):
            raise TypeError(f"{type(self).__name__}.register_buffer: name must be a str, but received "
                            f"{type(name).__name__}.")
        self._layer_check_name(name, "register_buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"{type(self).__name__}.register_buffer: buffer {name!r} must be a Tensor or None, but received "
                f"{type(tensor).__name__}; wrap it with paddle.to_tensor."
            )
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)
        if tensor is not None:
            tensor.persistable = persistable

    def _layer_check_name(self, name: str, api: str, own: dict) -> None:
        if not isinstance(name, str) or name == "" or "." in name:
            raise KeyError(
                f"{type(self).__name__}.{api}: the name must be a non-empty str without '.', but received {name!r}."
            )
        if name not in own and (name in self.__dict__ or hasattr(type(self), name)
                                or any(name in d for d in (self._parameters, self._sub_layers, self._buffers))):
            raise KeyError(
                f"{type(self).__name__}.{api}: the name {name!r} is already an attribute of the layer; choose "
                "another name."
            )

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise RuntimeError(
                    f"{type(self).__name__}: assigning the Parameter {name!r} before super().__init__() was called; "
                    "call super().__init__() first in __init__."
                )
            # (a parameter replaced keeps its place in the order, as in Paddle)
            self._layer_unregister_name(name, keep="_parameters")
            params[name] = value
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"{type(self).__name__}: attribute {name!r} is a parameter and takes a Parameter or None, but "
                    f"received {type(value).__name__}; delete it first (del layer.{name}) to store something else."
                )
            params[name] = None
            return
        layers = d.get("_sub_layers")
        if isinstance(value, Layer):
            if layers is None:
                raise RuntimeError(
                    f"{type(self).__name__}: assigning the sublayer {name!r} before super().__init__() was called; "
                    "call super().__init__() first in __init__."
                )
            # (a sublayer replaced keeps its place in the order, as in Paddle)
            self._layer_unregister_name(name, keep="_sub_layers")
            layers[name] = value
            return
        if layers is not None and name in layers:
            if value is not None:
                raise TypeError(
                    f"{type(self).__name__}: attribute {name!r} is a sublayer and takes a Layer or None, but "
                    f"received {type(value).__name__}; delete it first (del layer.{name}) to store something else."
                )
            layers[name] = None
            return
        buffers = d.get("_buffers")
        if isinstance(value, Tensor) and not isinstance(getattr(type(self), name, None), property):
            # a Tensor attribute is a buffer, as in Paddle: a new one not persistable (kept out of state_dict, but
            # among buffers(), and cast by to())
            if buffers is None:
                raise RuntimeError(
                    f"{type(self).__name__}: assigning the Tensor {name!r} before super().__init__() was called; "
                    "call super().__init__() first in __init__."
                )
            cap = modes.capture
            if cap is not None and isinstance(value._v, jax.core.Tracer):
                # inside jit.to_static (a weight_norm hook setting the weight): a Tensor of the trace must not outlive
                # it, so the attribute gets back what it held when the trace ends
                cap.undo.append(self._layer_attribute_restorer(name))
            if name not in buffers:
                self._layer_unregister_name(name)
                d["_non_persistable_buffer_names_set"].add(name)
            buffers[name] = value
            return
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"{type(self).__name__}: attribute {name!r} is a buffer and takes a Tensor or None, but received "
                    f"{type(value).__name__}; delete it first (del layer.{name}) to store something else."
                )
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _layer_attribute_restorer(self, name: str) -> Callable[[], None]:
        """A function putting the attribute ``name`` back as it is now (in the instance, among the buffers, its
        persistence)."""
        d = self.__dict__
        buffers, plain = d["_buffers"], name in d
        had, old, old_plain = name in buffers, buffers.get(name), d.get(name)
        non_persistable = name in d["_non_persistable_buffer_names_set"]

        def restore() -> None:
            self._layer_unregister_name(name)
            if had:
                buffers[name] = old
                if non_persistable:
                    d["_non_persistable_buffer_names_set"].add(name)
            elif plain:
                d[name] = old_plain

        return restore

    def _layer_unregister_name(self, name: str, keep: str | None = None) -> None:
        d = self.__dict__
        d.pop(name, None)
        for k in ("_parameters", "_sub_layers", "_buffers"):
            if k != keep:
                d[k].pop(name, None)
        d["_non_persistable_buffer_names_set"].discard(name)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for k in ("_parameters", "_sub_layers", "_buffers"):
            reg = d.get(k)
            if reg is not None and name in reg:
                return reg[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        for k in ("_parameters", "_sub_layers", "_buffers"):
            reg = d.get(k)
            if reg is not None and name in reg:
                del reg[name]
                d["_non_persistable_buffer_names_set"].discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._sub_layers) | set(self._buffers))

    # ---- walking ----------------------------------------------------------------------------
    def named_sublayers(self, prefix: str = "", include_self: bool = False, layers_set: set | None = None,
                        remove_duplicate: bool = True) -> Iterator[tuple[str, Layer]]:
        """``(structured name, layer)`` for every sublayer, depth first, each layer once (unless
        ``remove_duplicate=False``)."""
        if layers_set is None:
            layers_set = set()
        if include_self and (id(self) not in layers_set or not remove_duplicate):
            layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            p = prefix + ("." if prefix else "") + key
            yield from layer.named_sublayers(p, True, layers_set, remove_duplicate)

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Layer]]:
        """``named_sublayers(include_self=True)``."""
        return self.named_sublayers(prefix, True, memo, remove_duplicate)

    def modules(self) -> Iterator[Layer]:
        """This layer and every sublayer."""
        for _, layer in self.named_modules():
            yield layer

    def get_sublayer(self, target: str) -> Layer:
        """The sublayer at the dotted path ``target`` (``"encoder.layers.0"``; ``""`` is this layer)."""
        layer: Any = self
        if target == "":
            return self
        for item in target.split("."):
            if not hasattr(layer, item):
                raise AttributeError(f"{type(layer).__name__} has no attribute `{item}` (looking up {target!r}).")
            layer = getattr(layer, item)
            if not isinstance(layer, Layer):
                raise AttributeError(f"`{item}` is not an nn.Layer (looking up {target!r}).")
        return layer

    get_submodule = get_sublayer

    def get_parameter(self, target: str) -> Tensor:
        """The parameter at the dotted path ``target`` (``"encoder.proj.weight"``)."""
        path, _, name = target.rpartition(".")
        layer = self.get_sublayer(path)
        if not hasattr(layer, name):
            raise AttributeError(f"{type(layer).__name__} has no attribute `{name}` (looking up {target!r}).")
        p = getattr(layer, name)
        if not isinstance(p, Tensor):
            raise AttributeError(f"`{name}` is not an nn.Parameter (looking up {target!r}).")
        return p

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target``."""
        path, _, name = target.rpartition(".")
        layer = self.get_sublayer(path)
        if name not in layer._buffers:
            raise AttributeError(f"{type(layer).__name__} has no buffer `{name}` (looking up {target!r}).")
        return layer._buffers[name]

    def sublayers(self, include_self: bool = False) -> list[Layer]:
        """Every sublayer, depth first (this layer first with ``include_self=True``)."""
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self) -> Iterator[tuple[str, Layer]]:
        """``(name, layer)`` for the direct sublayers, each once."""
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def children(self) -> Iterator[Layer]:
        """The direct sublayers."""
        for _, layer in self.named_children():
            yield layer

    def _layer_named_members(self, kind: str, prefix: str, include_sublayers: bool,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Any]]:
        seen = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True, remove_duplicate=remove_duplicate) \
            if include_sublayers else [(prefix, self)]
        for lp, layer in layers:
            for name, t in getattr(layer, kind).items():
                if t is None or (remove_duplicate and id(t) in seen):
                    continue
                seen.add(id(t))
                yield lp + ("." if lp else "") + name, t

    def named_parameters(self, prefix: str = "", include_sublayers: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(structured name, parameter)`` pairs, each parameter once (unless ``remove_duplicate=False``)."""
        return self._layer_named_members("_parameters", prefix, include_sublayers, remove_duplicate)

    def parameters(self, include_sublayers: bool = True) -> list[Parameter]:
        """Every parameter (of the sublayers too unless ``include_sublayers=False``), each once."""
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix: str = "", include_sublayers: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """``(structured name, buffer)`` pairs, each buffer once (unless ``remove_duplicate=False``)."""
        return self._layer_named_members("_buffers", prefix, include_sublayers, remove_duplicate)

    def buffers(self, include_sublayers: bool = True) -> list[Tensor]:
        """Every buffer, each once."""
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    # ---- gradients and dtypes ---------------------------------------------------------------
    def clear_gradients(self, set_to_zero: bool = True) -> None:
        """Reset the gradients of every trainable parameter (zeros by default, None with ``set_to_zero=False``)."""
        for p in self.parameters():
            if p.trainable:
                p.clear_grad(set_to_zero)

    clear_grad = clear_gradients

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's gradient: to None (default) or to zeros."""
        for p in self.parameters():
            if p.grad is not None:
                p.clear_grad(not set_to_none)

    def requires_grad_(self, requires_grad: bool = True) -> Layer:
        """Make every parameter trainable (or frozen with ``requires_grad=False``)."""
        for p in self.parameters():
            p.stop_gradient = not requires_grad
        return self

    def _layer_cast(self, dtype: Any, api: str, excluded: tuple[type, ...] = ()) -> Layer:
        """Cast the floating parameters and buffers of this layer and its sublayers to ``dtype``, but those of the
        layers whose type is one of ``excluded`` (each layer's own parameters: an excluded container's children are
        still cast, as Paddle's per-layer cast does)."""
        target = _dtypes.to_paddle(dtype)
        if not target.is_floating_point:
            raise TypeError(f"{type(self).__name__}.{api}: dtype must be a floating dtype, but received {target.name}.")
        before_write()  # parameters are rebound below, as an in-place write would
        with no_grad():
            for layer in self.sublayers(include_self=True):
                if type(layer) in excluded:
                    continue
                for t in [*layer._parameters.values(), *layer._buffers.values()]:
                    if t is not None and _dtypes.to_paddle(t._value.dtype).is_floating_point and t.dtype != target:
                        t._value = jnp.asarray(t._value, _dtypes.to_np(target))
                        t._acc = None  # its gradient sink had the old dtype
                        t._version_counter().value += 1
                layer._dtype = target.name
        return self

    def to(self, device: Any = None, dtype: Any = None, blocking: Any = None, non_blocking: Any = None) -> Layer:
        """Cast floating parameters and buffers to ``dtype``; the device is the one JAX runs on (CPU here)."""
        if device is not None and str(device).lower() not in ("cpu", "place(cpu)"):
            if isinstance(device, str) and not re.fullmatch(r"(gpu|cuda|dcu|xpu|npu|ipu|mlu)(:\d+)?", device.lower()):
                try:
                    _dtypes.to_paddle(device)
                    hint = f"; {device!r} is a dtype: pass it by keyword, to(dtype={device!r})"
                except (TypeError, ValueError):
                    hint = ""
                raise ValueError(
                    f"{type(self).__name__}.to: the device must be a string like 'cpu', 'gpu', 'gpu:x', 'xpu:x' or "
                    f"'npu:x' (the first argument of to() is the device), but received {device!r}{hint}."
                )
            raise NotImplementedError(
                f"{type(self).__name__}.to: device={device!r} is not supported; arrays live where JAX puts them "
                "(pass device=None or 'cpu')."
            )
        if dtype is None:
            return self
        return self._layer_cast(dtype, "to")

    def astype(self, dtype: Any = None) -> Layer:
        """Cast floating parameters and buffers to ``dtype`` (None: unchanged)."""
        return self if dtype is None else self._layer_cast(dtype, "astype")

    def _layer_excluded(self, api: str, excluded_layers: Any, default: tuple[type, ...]) -> tuple[type, ...]:
        if excluded_layers is None:
            return default
        if isinstance(excluded_layers, type):
            return (excluded_layers,)
        if isinstance(excluded_layers, list | tuple) and all(isinstance(t, type) for t in excluded_layers):
            return tuple(excluded_layers)
        raise TypeError(f"{type(self).__name__}.{api}: excluded_layers must be a Layer class or a list of Layer "
                        f"classes (the types whose parameters keep their dtype), but received "
                        f"{type(excluded_layers).__name__} ({excluded_layers!r}).")

    def float16(self, excluded_layers: Any = None) -> Layer:
        """Cast floating parameters and buffers to float16, but those of ``excluded_layers`` (a Layer class or a
        list of them; ``nn.BatchNorm`` by default). As Paddle 3.3.1 where float16 is not supported (a CPU,
        ``paddle.amp.is_float16_supported()`` is False): a warning, and the layer keeps its dtype."""
        from ._norm_extra import BatchNorm  # (imported when called: that module imports this one)

        self._layer_excluded("float16", excluded_layers, (BatchNorm,))
        warnings.warn(f"{type(self).__name__}.float16: float16 is not supported here (as Paddle on a CPU, "
                      "paddle.amp.is_float16_supported() is False), so the layer keeps its original data type.",
                      UserWarning, stacklevel=2)
        return self

    def half(self) -> Layer:
        """Cast floating parameters and buffers to float16 (Paddle's ``half`` casts where ``float16`` would not)."""
        return self._layer_cast("float16", "half")

    def bfloat16(self, excluded_layers: Any = None) -> Layer:
        """Cast floating parameters and buffers to bfloat16, but those of ``excluded_layers`` (a Layer class or a
        list of them; ``nn.BatchNorm`` by default, as Paddle)."""
        from ._norm_extra import BatchNorm

        excluded = self._layer_excluded("bfloat16", excluded_layers, (BatchNorm,))
        return self._layer_cast("bfloat16", "bfloat16", excluded)

    def float(self, excluded_layers: Any = None) -> Layer:
        """Cast floating parameters and buffers to float32, but those of ``excluded_layers`` (a Layer class or a
        list of them)."""
        return self._layer_cast("float32", "float", self._layer_excluded("float", excluded_layers, ()))

    def double(self, excluded_layers: Any = None) -> Layer:
        """Cast floating parameters and buffers to float64, but those of ``excluded_layers`` (a Layer class or a
        list of them)."""
        return self._layer_cast("float64", "double", self._layer_excluded("double", excluded_layers, ()))

    # ---- state ------------------------------------------------------------------------------
    def state_dict(self, destination: dict | None = None, include_sublayers: bool = True,
                   structured_name_prefix: str = "", include_non_persistable_buffer: bool = False,
                   use_hook: bool = True, keep_vars: bool = True) -> collections.OrderedDict:
        """Parameters and persistable buffers by structured name (``0.weight``, ``encoder.layers.1.bias``)."""
        dest = destination if destination is not None else collections.OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                dest[structured_name_prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and (include_non_persistable_buffer
                                  or name not in self._non_persistable_buffer_names_set):
                dest[structured_name_prefix + name] = b if keep_vars else b.detach()
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    layer.state_dict(dest, True, structured_name_prefix + name + ".",
                                     include_non_persistable_buffer, use_hook, keep_vars)
        if use_hook:
            for hook in list(self.__dict__.get("_state_dict_hooks", {}).values()):
                r = hook(dest)
                if r is not None:
                    dest = r
        return dest

    def set_state_dict(self, state_dict: dict, use_structured_name: bool = True) -> tuple[list[str], list[str]]:
        """Load values by structured name (or by parameter name with ``use_structured_name=False``).

        As in Paddle, a missing key or a shape mismatch is skipped with a warning; returns
        ``(missing_keys, unexpected_keys)`` (a mismatched key is in both).
        """
        if not isinstance(state_dict, dict):
            raise TypeError(
                f"{type(self).__name__}.set_state_dict: state_dict must be a dict of name -> Tensor/array, but "
                f"received {type(state_dict).__name__}."
            )
        missing, matched, todo = [], set(), []
        for key, t in self.state_dict().items():
            k = key if use_structured_name else t.name
            if k not in state_dict:
                missing.append(k)
                warnings.warn(f"Skip loading for {key}. {k} is not found in the provided dict.", stacklevel=2)
                continue
            value = state_dict[k]
            shape = list(value.shape) if hasattr(value, "shape") else list(np.shape(value))
            if shape != t.shape:
                missing.append(k)
                warnings.warn(f"Skip loading for {key}. {k} receives a shape {shape}, but the expected shape is "
                              f"{t.shape}.", stacklevel=2)
                continue
            matched.add(k)
            todo.append((t, value))
        for t, value in todo:
            # as Paddle (its Tensor.set_value asserts the dtypes are equal): a value of another dtype is not cast
            got = getattr(unwrap(value), "dtype", None) if isinstance(value, Tensor | np.ndarray) else None
            if got is not None and np.dtype(got) != np.dtype(t._v.dtype):
                raise AssertionError(
                    f"{type(self).__name__}.set_state_dict: {t.name} has dtype {np.dtype(t._v.dtype).name}, but the "
                    f"value to load has dtype {np.dtype(got).name} (values are not cast). Cast the value first, "
                    f"e.g. value.astype('{np.dtype(t._v.dtype).name}')."
                )
        with no_grad():
            for t, value in todo:
                t._set_value(unwrap(value) if isinstance(value, Tensor) else np.asarray(value))
        return missing, [k for k in state_dict if k not in matched]

    set_dict = set_state_dict
    load_dict = set_state_dict
    load_state_dict = set_state_dict

    # ---- repr -------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text inside this layer's parentheses in ``repr`` (override it)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr().split("\n")
        subs = [f"({name}): " + _addindent(repr(layer), 2) for name, layer in self._sub_layers.items()]
        s = type(self).__name__ + "("
        if len(extra) > 1:
            s += "\n  " + "\n  ".join(extra) + "\n"
        elif len(extra) == 1:
            s += extra[0]
        if subs:
            s += "\n  " + "\n  ".join(subs) + "\n"
        return s + ")"


Module = Layer


# ---- Layers as JAX pytrees -------------------------------------------------------------------
_PLAIN = (int, float, bool, str, type(None))


class _LayerDef:
    """A layer tree's static side: its layers (as templates), where each parameter and buffer sits, and a key
    (classes, plain attributes, tensor metadata) by which two trees of the same structure compare equal."""

    __slots__ = ("layers", "subs", "slots", "tensors", "key")

    def __init__(self, layers: list, subs: list, slots: list, tensors: list, key: tuple) -> None:
        self.layers, self.subs, self.slots, self.tensors, self.key = layers, subs, slots, tensors, key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _LayerDef) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def _flatten_layer(root: Layer) -> tuple[list[Any], _LayerDef]:
    layers = root.sublayers(include_self=True)
    index = {id(layer): i for i, layer in enumerate(layers)}
    tensors: list[Tensor] = []
    tindex: dict[int, int] = {}
    subs, slots, key = [], [], []
    for layer in layers:
        subs.append(tuple((n, None if s is None else index[id(s)]) for n, s in layer._sub_layers.items()))
        sl = []
        for kind in ("_parameters", "_buffers"):
            for n, t in getattr(layer, kind).items():
                if t is None:
                    sl.append((kind, n, None))
                    continue
                if getattr(t, "_pytree_static", False):  # a placeholder no transform sees (an RNN's dropout state)
                    sl.append((kind, n, ("static", t)))
                    continue
                k = tindex.get(id(t))
                if k is None:
                    k = tindex[id(t)] = len(tensors)
                    tensors.append(t)
                sl.append((kind, n, k))
        slots.append(tuple(sl))
        sl = [(kind, n, ("static", k[1]._name) if isinstance(k, tuple) else k) for kind, n, k in sl]
        plain = tuple(sorted((k, v) for k, v in layer.__dict__.items() if type(v) in _PLAIN and k != "_full_name"))
        key.append((type(layer), plain, subs[-1], tuple(sl)))
    tkey = tuple((type(t), t.stop_gradient, t._name, tuple(sorted(getattr(t, "optimize_attr", {}).items())))
                 for t in tensors)
    return [t._value for t in tensors], _LayerDef(layers, subs, slots, tensors, (tuple(key), tkey))


def _rewrap_tensor(t: Tensor, value: Any) -> Tensor:
    if isinstance(t, Parameter):
        return _rewrap(t, value)
    out = Tensor(value, t.stop_gradient, None, t._name)
    out.persistable = t.persistable
    return out


def _unflatten_layer(ldef: _LayerDef, leaves: Any) -> Layer:
    leaves = list(leaves)
    new_tensors = [_rewrap_tensor(t, v) for t, v in zip(ldef.tensors, leaves)]
    copies = []
    for layer in ldef.layers:
        c = object.__new__(type(layer))
        c.__dict__.update(layer.__dict__)
        for k in ("_parameters", "_sub_layers", "_buffers"):
            c.__dict__[k] = collections.OrderedDict()
        copies.append(c)
    for c, subs, slots in zip(copies, ldef.subs, ldef.slots):
        for n, j in subs:
            c._sub_layers[n] = None if j is None else copies[j]
        for kind, n, k in slots:
            c.__dict__[kind][n] = None if k is None else k[1] if isinstance(k, tuple) else new_tensors[k]
    return copies[0]


jax.tree_util.register_pytree_node(Layer, _flatten_layer, _unflatten_layer)
