"""``weight_norm`` and ``spectral_norm`` (layer L7): a layer's weight recomputed from other parameters before each
forward, by a forward pre-hook, as Paddle 3.3.1's ``paddle.nn.utils`` does.

``weight_norm`` replaces the parameter ``weight`` by ``weight_v`` (its direction) and ``weight_g`` (its norm over
every axis but ``dim``): ``weight = weight_g * weight_v / ||weight_v||``. ``spectral_norm`` keeps the parameter as
``weight_orig`` and the buffers ``weight_u`` and ``weight_v`` (the estimates of its first singular vectors, refined
by power iteration at each forward in training mode): ``weight = weight_orig / sigma``, ``sigma = u . W v`` with
``W`` the weight as a matrix whose rows are the ``dim`` axis. The computed weight is set as a plain Tensor
attribute (a buffer left out of ``state_dict``, as Paddle's Tensor attributes are).
"""

from __future__ import annotations

from typing import Any

from .._api.functional import assign
from .._api.random import normal
from .._autograd.grad_mode import no_grad
from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from ._functional import normalize
from .layer._common import Linear
from .layer._conv import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose
from .layer._layers import Layer


def _op(name: str, *args: Any) -> Tensor:
    return apply_op(TABLE[name], args)


def _swap(rank: int, dim: int) -> list[int]:
    """The permutation exchanging axes 0 and ``dim``."""
    perm = list(range(rank))
    perm[0], perm[dim] = dim, 0
    return perm


def norm_except_dim(p: Tensor, dim: int) -> Tensor:
    """The 2-norm of ``p`` over every axis but ``dim`` (a vector along ``dim``; ``dim`` -1: over all of ``p``, 0-D),
    with 1e-12 added under the square root, as Paddle's."""
    shape = p.shape
    if dim == -1:
        return _op("sqrt", _op("sum", _op("square", p)) + 1e-12)
    if dim == 0:
        return _op("sqrt", _op("sum", _op("square", p.reshape([shape[0], -1])), 1) + 1e-12)
    if dim == len(shape) - 1:
        return _op("sqrt", _op("sum", _op("square", p.reshape([-1, shape[-1]])), 0) + 1e-12)
    return norm_except_dim(p.transpose(_swap(len(shape), dim)), 0)


def _weight_norm(v: Tensor, g: Tensor, dim: int) -> Tensor:
    shape = v.shape
    rank = len(shape)
    if dim == -1:
        return v / (_op("sqrt", _op("sum", _op("square", v))) + 1e-12) * g
    if dim == 0:
        unit = normalize(v.reshape([shape[0], -1]), axis=1).reshape(shape)
    elif dim == rank - 1:
        unit = normalize(v.reshape([-1, shape[-1]]), axis=0).reshape(shape)
    else:
        perm = _swap(rank, dim)
        t = v.transpose(perm)
        unit = normalize(t.reshape([t.shape[0], -1]), axis=1).reshape(t.shape).transpose(perm)
    return unit * g.reshape([shape[dim] if i == dim else 1 for i in range(rank)])


def _hooks_of(layer: Layer, kind: type, name: str) -> list[Any]:
    return [k for k, h in layer._forward_pre_hooks.items() if isinstance(h, kind) and h.name == name]


def _check_layer(layer: Any, name: str, api: str) -> Tensor:
    if not isinstance(layer, Layer):
        raise TypeError(f"{api}: layer must be a paddle.nn.Layer, but received {type(layer).__name__}.")
    w = layer._parameters.get(name) if isinstance(name, str) else None
    if w is None:
        raise ValueError(
            f"{api}: {type(layer).__name__} has no parameter named {name!r}; pass the name of one of "
            f"{list(layer._parameters)}."
        )
    return w


class WeightNorm:
    """The forward pre-hook of ``weight_norm``: sets the weight from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = dim

    def compute_weight(self, layer: Layer) -> Tensor:
        return _weight_norm(getattr(layer, self.name + "_v"), getattr(layer, self.name + "_g"), self.dim)

    def __call__(self, layer: Layer, _: Any) -> None:  # (a forward pre-hook: the inputs are not needed)
        setattr(layer, self.name, self.compute_weight(layer))

    def remove(self, layer: Layer) -> None:
        w = self.compute_weight(layer)
        delattr(layer, self.name)
        del layer._parameters[self.name + "_g"]
        del layer._parameters[self.name + "_v"]
        p = layer.create_parameter(w.shape, dtype=w.dtype)
        layer.add_parameter(self.name, p)
        with no_grad():
            assign(w, p)


def weight_norm(layer: Layer, name: str = "weight", dim: int | None = 0) -> Layer:
    """Reparameterise ``layer``'s parameter ``name`` as ``g * v / ||v||`` (the norm over every axis but ``dim``;
    ``dim`` None or -1: over all of it): parameters ``<name>_g`` and ``<name>_v`` replace it, and a forward pre-hook
    sets ``layer.<name>`` from them before each forward. Returns ``layer``. As Paddle's ``weight_norm``."""
    api = "paddle.nn.utils.weight_norm"
    if isinstance(layer, Layer) and _hooks_of(layer, WeightNorm, name):
        raise RuntimeError(f"{api}: {type(layer).__name__} has a weight_norm hook on {name!r} already; two cannot "
                           "be registered on the same parameter. Call remove_weight_norm first.")
    w = _check_layer(layer, name, api)
    rank = len(w.shape)
    if dim is None:
        dim = -1
    if not isinstance(dim, int) or not -rank <= dim < rank:
        raise ValueError(f"{api}: dim must be in [-{rank}, {rank}) for the {rank}-D {name!r}, but received {dim!r}.")
    if dim != -1:
        dim %= rank
    fn = WeightNorm(name, dim)
    del layer._parameters[name]
    g_value = norm_except_dim(w, dim)
    v = layer.create_parameter(w.shape, dtype=w.dtype)
    layer.add_parameter(name + "_v", v)
    g = layer.create_parameter(g_value.shape, dtype=g_value.dtype)
    layer.add_parameter(name + "_g", g)
    with no_grad():
        assign(w, v)
        assign(g_value, g)
    setattr(layer, name, fn.compute_weight(layer))
    layer.register_forward_pre_hook(fn)
    return layer


def remove_weight_norm(layer: Layer, name: str = "weight") -> Layer:
    """Undo ``weight_norm``: the parameter ``name`` again, holding the weight as last computed; returns ``layer``."""
    for k in _hooks_of(layer, WeightNorm, name) if isinstance(layer, Layer) else ():
        layer._forward_pre_hooks[k].remove(layer)
        del layer._forward_pre_hooks[k]
        layer._hooks_with_kwargs.discard(k)
        return layer
    raise ValueError(f"paddle.nn.utils.remove_weight_norm: no weight_norm of {name!r} on {layer!r}; call "
                     "weight_norm on it first.")


class SpectralNorm:
    """The forward pre-hook of ``spectral_norm``: sets the weight to ``<name>_orig / sigma``."""

    def __init__(self, name: str, n_power_iterations: int, dim: int, eps: float) -> None:
        self.name = name
        self.dim = dim
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        w = weight
        if self.dim != 0:
            w = w.transpose([self.dim] + [d for d in range(len(w.shape)) if d != self.dim])
        return w.reshape([w.shape[0], -1])

    def compute_weight(self, layer: Layer, do_power_iteration: bool) -> Tensor:
        weight = getattr(layer, self.name + "_orig")
        u = getattr(layer, self.name + "_u")
        v = getattr(layer, self.name + "_v")
        mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    assign(normalize(_op("matmul", mat, u, True, False), axis=0, epsilon=self.eps), v)
                    assign(normalize(_op("matmul", mat, v), axis=0, epsilon=self.eps), u)
                u, v = u.clone(), v.clone()
        sigma = _op("dot", u, _op("mv", mat, v))
        return weight / sigma

    def __call__(self, layer: Layer, _: Any) -> None:  # (a forward pre-hook: the inputs are not needed)
        setattr(layer, self.name, self.compute_weight(layer, do_power_iteration=layer.training))


def spectral_norm(layer: Layer, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Layer:
    """Normalise ``layer``'s parameter ``name`` by its largest singular value, estimated by ``n_power_iterations``
    steps of power iteration at each forward in training mode (the weight as a matrix whose rows are its ``dim``
    axis; ``dim`` None: 1 for Linear and transposed convolutions, else 0). The parameter becomes ``<name>_orig``, the
    singular-vector estimates the buffers ``<name>_u`` and ``<name>_v`` (drawn from a normal distribution, then
    normalised). Returns ``layer``. As Paddle's ``spectral_norm``."""
    api = "paddle.nn.utils.spectral_norm"
    if isinstance(layer, Layer) and _hooks_of(layer, SpectralNorm, name):
        raise RuntimeError(f"{api}: {type(layer).__name__} has a spectral_norm hook on {name!r} already; two cannot "
                           "be registered on the same parameter.")
    weight = _check_layer(layer, name, api)
    if not isinstance(n_power_iterations, int) or n_power_iterations <= 0:
        raise ValueError(f"{api}: n_power_iterations must be a positive int, but received {n_power_iterations!r}.")
    if dim is None:
        dim = 1 if isinstance(layer, Conv1DTranspose | Conv2DTranspose | Conv3DTranspose | Linear) else 0
    rank = len(weight.shape)
    if not isinstance(dim, int) or not 0 <= dim < rank:
        raise ValueError(f"{api}: dim must be in [0, {rank}) for the {rank}-D {name!r}, but received {dim!r}.")
    fn = SpectralNorm(name, n_power_iterations, dim, eps)
    with no_grad():
        h, w = fn.reshape_weight_to_matrix(weight).shape
        u = normalize(normal(0.0, 1.0, [h]).astype(weight.dtype), axis=0, epsilon=eps)
        v = normalize(normal(0.0, 1.0, [w]).astype(weight.dtype), axis=0, epsilon=eps)
    del layer._parameters[name]
    layer.add_parameter(name + "_orig", weight)
    setattr(layer, name, weight * 1.0)
    layer.register_buffer(name + "_u", u)
    layer.register_buffer(name + "_v", v)
    layer.register_forward_pre_hook(fn)
    return layer
