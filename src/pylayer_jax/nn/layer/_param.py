"""Parameters: the ``Parameter`` Tensor subclass, ``ParamAttr`` and ``create_parameter`` (layer L5).

A Parameter is a leaf Tensor with ``stop_gradient=False`` that dispatches, records and replays
exactly like a trainable Tensor (``_tensor.EAGER_TYPES`` lists it), plus what optimizers read:
``optimize_attr = {"learning_rate": lr}``, ``regularizer``, ``need_clip``, ``trainable`` (its
setter flips ``stop_gradient``). Its name comes from the shared unique-name counters
(``linear_0.w_0``). It is a JAX pytree of its array, so lists of parameters pass through
``jax.jit``/``jax.grad``/optax.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import numpy as np

from ..._runtime import dtypes as _dtypes
from ..._runtime import unique_name as unique_name
from ..._runtime.state import modes
from ..._tensor.facade import EAGER_TYPES, Tensor
from ..initializer._base import Constant, Initializer, global_initializer
from ..initializer._scaled import XavierInitializer
from ..initializer.lazy_init import lazy_on


class Parameter(Tensor):
    """A trainable leaf Tensor owned by a Layer (Paddle's ``EagerParamBase``).

    >>> import pylayer_jax as paddle
    >>> lin = paddle.nn.Linear(3, 2)
    >>> type(lin.weight).__name__, lin.weight.stop_gradient, lin.weight.trainable
    ('Parameter', False, True)
    """

    def __init__(self, value: Any, name: str | None = None, trainable: bool = True, learning_rate: float = 1.0,
                 regularizer: Any = None, need_clip: bool = True, do_model_average: bool = True) -> None:
        super().__init__(value, not trainable, None, name)
        self._set_attrs(learning_rate, regularizer, need_clip, do_model_average)

    def _set_attrs(self, learning_rate: float, regularizer: Any, need_clip: bool, do_model_average: bool) -> None:
        """The attributes a parameter has beside its value (shared with static programs' parameters)."""
        self.persistable = True
        self.optimize_attr = {"learning_rate": float(learning_rate)}
        self.regularizer = regularizer
        self.need_clip = need_clip
        self.do_model_average = do_model_average
        self.is_distributed = False

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise ValueError(f"Parameter.trainable: must be a bool, but received {type(value).__name__}.")
        self.stop_gradient = not value

    def initialize(self) -> None:
        """Initialise a parameter created under ``paddle.LazyGuard`` (once): its values were drawn with its
        initializer when it was created, so this only marks it initialised (see ``nn/initializer/lazy_init.py``)."""
        if not self.__dict__.get("_lazy", False):
            raise RuntimeError(
                f"Parameter.initialize: parameter {self.name!r} has no pending initialisation; only a parameter "
                "created under paddle.LazyGuard() is initialised with initialize(), and only once."
            )
        self._lazy = False

    def _is_initialized(self) -> bool:
        """True: every parameter holds its values here (under ``LazyGuard`` too)."""
        return True

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> Parameter:
        """A copy named as Paddle names it: this parameter's name with ``_deepcopy_<n>`` added."""
        p = _rewrap(self, self._value)
        p._name = self.name + unique_name.generate("_deepcopy")
        memo[id(self)] = p
        return p


EAGER_TYPES.add(Parameter)


def _rewrap(p: Parameter, value: Any) -> Parameter:
    """A new Parameter with ``p``'s name and attributes around ``value`` (a tracer, a gradient, a copy)."""
    q = Parameter.__new__(Parameter)
    Tensor.__init__(q, value, p.stop_gradient, None, p._name)
    q.persistable = p.persistable
    q.__dict__.update(p.__dict__)
    q.optimize_attr = dict(p.optimize_attr)
    return q


def _flatten_param(p: Parameter) -> tuple[tuple[Any], Any]:
    return (p._value,), _ParamMeta(p)


class _ParamMeta:
    """A parameter's static side in a pytree: compared by name, trainability and attributes."""

    __slots__ = ("p", "key")

    def __init__(self, p: Parameter) -> None:
        self.p = p
        self.key = (p._name, p.stop_gradient, tuple(sorted(p.optimize_attr.items())), id(p.regularizer),
                    p.need_clip)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ParamMeta) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def _unflatten_param(meta: _ParamMeta, children: Sequence[Any]) -> Parameter:
    return _rewrap(meta.p, children[0])


jax.tree_util.register_pytree_node(Parameter, _flatten_param, _unflatten_param)


class ParamAttr:
    """How a layer creates a parameter: ``name``, ``initializer``, ``learning_rate``, ``regularizer``,
    ``trainable``, ``need_clip``. Layers also take ``False`` (no such parameter, e.g. ``bias_attr=False``), a
    str (the name) or an Initializer where a ParamAttr goes.

    >>> import pylayer_jax as paddle
    >>> attr = paddle.ParamAttr(name="w", initializer=paddle.nn.initializer.Constant(0.5), learning_rate=0.1)
    >>> lin = paddle.nn.Linear(2, 2, weight_attr=attr)
    >>> lin.weight.name, lin.weight.optimize_attr, float(lin.weight.sum())
    ('w', {'learning_rate': 0.1}, 2.0)
    """

    def __init__(self, name: str | None = None, initializer: Initializer | None = None, learning_rate: float = 1.0,
                 regularizer: Any = None, trainable: bool = True, do_model_average: bool = True,
                 need_clip: bool = True) -> None:
        if name is not None and not isinstance(name, str):
            raise TypeError(f"ParamAttr: name must be a str or None, but received {type(name).__name__}.")
        if not isinstance(learning_rate, int | float) or isinstance(learning_rate, bool):
            raise TypeError(
                f"ParamAttr: learning_rate must be a float, but received {type(learning_rate).__name__}."
            )
        if not isinstance(trainable, bool):
            raise TypeError(f"ParamAttr: trainable must be a bool, but received {type(trainable).__name__}.")
        if initializer is not None and not callable(initializer):
            raise TypeError(
                f"ParamAttr: initializer must be an Initializer, but received {type(initializer).__name__}."
            )
        self.name = name
        self.initializer = initializer
        self.learning_rate = float(learning_rate)
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    def __repr__(self) -> str:
        return (f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, learning_rate={self.learning_rate}, "
                f"trainable={self.trainable})")

    @staticmethod
    def _to_attr(arg: Any) -> ParamAttr | bool:
        """Paddle's coercion: None -> ParamAttr(), str -> name, Initializer -> initializer, False -> False."""
        if arg is None:
            return ParamAttr()
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, bool):
            if arg:
                return ParamAttr()
            return False
        raise TypeError(
            f"ParamAttr: a parameter attribute must be None, False, a str, an Initializer or a ParamAttr, but "
            f"received {type(arg).__name__}."
        )


# In static mode a parameter is a Variable of the program being built, which this layer cannot make: the
# static package registers its maker here, ``maker(name, shape, np_dtype, initializer, attr)``.
STATIC_PARAMETER: list[Callable[..., Any]] = []


def in_static_build() -> bool:
    """Whether parameters created now belong to a static program (static mode, a program being built)."""
    return modes.static_mode and modes.static_program is not None


def make_parameter(prefix: str, shape: Sequence[int], dtype: Any, attr: Any, is_bias: bool,
                   default_initializer: Initializer | None, api: str) -> Parameter | None:
    """Paddle's parameter creation: name ``prefix.w_n``/``prefix.b_n``; initializer: the attr's, else the global
    one, else ``default_initializer``, else XavierUniform for weights and zeros for biases."""
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    if not isinstance(shape, list | tuple) or not all(
            isinstance(d, int | np.integer) and not isinstance(d, bool) for d in shape):
        raise TypeError(f"{api}: shape must be a list of ints, but received {shape!r}.")
    if any(d < 0 for d in shape):
        raise ValueError(f"{api}: every dimension of the shape must be >= 0, but received {list(shape)}.")
    np_dtype = _dtypes.to_np(dtype if dtype is not None else _dtypes.get_default_dtype())
    default = global_initializer(is_bias) or default_initializer
    init = attr.initializer or default
    if init is None:
        if _dtypes.to_paddle(np_dtype).name not in ("float16", "bfloat16", "float32", "float64"):
            raise TypeError(
                f"{api}: a parameter of dtype {_dtypes.to_paddle(np_dtype).name} has no default initializer; pass "
                "default_initializer (or a ParamAttr with an initializer) that fits the dtype."
            )
        init = Constant(0.0) if is_bias else XavierInitializer()
    name = attr.name or unique_name.generate(f"{prefix}.{'b' if is_bias else 'w'}")
    if in_static_build():
        if not STATIC_PARAMETER:
            raise RuntimeError(f"{api}: static mode is on but pylayer_jax.static is not imported; import it first.")
        return STATIC_PARAMETER[0](name, [int(d) for d in shape], np_dtype, init, attr)
    if not unique_name.take_parameter_name(name):
        raise ValueError(
            f"{api}: a parameter named {name!r} was made already; in dynamic mode (as in Paddle) two parameters "
            "cannot share a name. Give this one another ParamAttr(name=...), or leave the name out for a generated "
            "one (paddle.utils.unique_name.guard() starts a fresh set of names)."
        )
    value = init(list(int(d) for d in shape), np_dtype) if isinstance(init, Initializer) else \
        init(list(int(d) for d in shape), np_dtype, None)
    p = Parameter(value, name, attr.trainable, attr.learning_rate, attr.regularizer, attr.need_clip,
                  attr.do_model_average)
    if lazy_on():
        p._lazy = True  # (initialised already; ``initialize()`` is owed once, see nn/initializer/lazy_init.py)
    return p


def create_parameter(shape: Sequence[int], dtype: Any, name: str | None = None, attr: Any = None,
                     is_bias: bool = False, default_initializer: Initializer | None = None) -> Parameter:
    """A trainable Parameter (dynamic mode): XavierUniform unless ``is_bias`` (zeros) or an initializer is given.

    >>> import pylayer_jax as paddle
    >>> w = paddle.create_parameter([2, 3], "float32")
    >>> w.name.startswith("create_parameter_"), w.stop_gradient
    (True, False)
    """
    if attr is None:
        attr = ParamAttr(name=name)
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        raise ValueError("create_parameter: attr=False creates no parameter; pass None or a ParamAttr.")
    prefix = name if name else unique_name.generate("create_parameter")  # as Paddle's helper names itself
    return make_parameter(prefix, shape, dtype, attr, is_bias, default_initializer, "create_parameter")
