"""Comparisons, logical and bitwise ops: boolean (or integer) results, no gradients."""

from __future__ import annotations

import jax.numpy as jnp

from ._promote import alias, binary
from .rows import MAP, POINTWISE
from .table import defop


def _compare(name, f, doc):
    def fn(x, y):
        x, y = binary(name, x, y)
        return f(x, y)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return defop(2, name=name, differentiable=False, inplace=True, rows=MAP, axes=POINTWISE)(fn)


equal = _compare("equal", jnp.equal, "True where ``x == y`` (with broadcasting).")
not_equal = _compare("not_equal", jnp.not_equal, "True where ``x != y``.")
greater_than = _compare("greater_than", jnp.greater, "True where ``x > y``.")
greater_equal = _compare("greater_equal", jnp.greater_equal, "True where ``x >= y``.")
less_than = _compare("less_than", jnp.less, "True where ``x < y``.")
less_equal = _compare("less_equal", jnp.less_equal, "True where ``x <= y``.")
for _op, _names in {
    equal: ("eq",),
    not_equal: ("ne",),
    greater_than: ("gt", "greater"),
    greater_equal: ("ge",),
    less_than: ("lt", "less"),
    less_equal: ("le",),
}.items():
    for _n in _names:
        alias(_op, _n)


@defop(2, differentiable=False)
def equal_all(x, y):
    """A 0-D bool: True when ``x`` and ``y`` have the same shape and all elements are equal."""
    if jnp.shape(x) != jnp.shape(y):
        return jnp.asarray(False)
    x, y = binary("equal_all", x, y)
    return jnp.all(jnp.equal(x, y))


@defop(2, differentiable=False)
def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True where ``|x - y| <= atol + rtol * |y|``."""
    x, y = binary("isclose", x, y)
    return jnp.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)


@defop(2, differentiable=False)
def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False):
    """A 0-D bool: True when ``isclose`` holds everywhere."""
    x, y = binary("allclose", x, y)
    return jnp.all(jnp.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


# ---- logical: any dtype, nonzero is true ----------------------------------------------------
def _truth(v):
    return jnp.asarray(v).astype(bool)


@defop(2, differentiable=False, inplace=True, rows=MAP, axes=POINTWISE)
def logical_and(x, y):
    """Elementwise ``x and y`` (nonzero counts as true); bool result."""
    return jnp.logical_and(_truth(x), _truth(y))


@defop(2, differentiable=False, inplace=True)
def logical_or(x, y):
    """Elementwise ``x or y``; bool result."""
    return jnp.logical_or(_truth(x), _truth(y))


@defop(2, differentiable=False, inplace=True)
def logical_xor(x, y):
    """Elementwise ``x xor y``; bool result."""
    return jnp.logical_xor(_truth(x), _truth(y))


@defop(1, differentiable=False, inplace=True)
def logical_not(x):
    """Elementwise ``not x``; bool result."""
    return jnp.logical_not(_truth(x))


# ---- bitwise: integers and bools (on bools they are the logical ops) ------------------------
def _bits(api, *xs):
    for v in xs:
        if jnp.issubdtype(jnp.result_type(v), jnp.inexact):
            raise TypeError(
                f"{api}: bitwise ops need integer or bool tensors, but received dtype {jnp.result_type(v)}. "
                "Cast with .astype('int64') or use the logical_* ops."
            )


@defop(2, differentiable=False, inplace=True)
def bitwise_and(x, y):
    """Elementwise ``x & y`` on integers or bools."""
    _bits("bitwise_and", x, y)
    x, y = binary("bitwise_and", x, y)
    return jnp.bitwise_and(x, y)


@defop(2, differentiable=False, inplace=True)
def bitwise_or(x, y):
    """Elementwise ``x | y`` on integers or bools."""
    _bits("bitwise_or", x, y)
    x, y = binary("bitwise_or", x, y)
    return jnp.bitwise_or(x, y)


@defop(2, differentiable=False, inplace=True)
def bitwise_xor(x, y):
    """Elementwise ``x ^ y`` on integers or bools."""
    _bits("bitwise_xor", x, y)
    x, y = binary("bitwise_xor", x, y)
    return jnp.bitwise_xor(x, y)


@defop(1, differentiable=False, inplace=True)
def bitwise_not(x):
    """Elementwise ``~x`` on integers (two's complement) or bools (logical not)."""
    _bits("bitwise_not", x)
    return jnp.bitwise_not(x)


@defop(1, differentiable=False)
def is_empty(x):
    """A 0-D bool: True when ``x`` has no elements."""
    return jnp.asarray(x.size == 0)
