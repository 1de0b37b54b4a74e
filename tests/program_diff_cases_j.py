"""Cases found by the programs ``tests/programs/p45_memory_tricks.py`` and ``p46_spectral.py``, written as Paddle
code: ``record(paddle)`` runs them with the given library and returns what they give (values, gradients, the type of
each error). ``record_paddle_program_diffs_j.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_j.json``;
``test_program_diffs_j.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from case_values import _attempt


def _v(t: Any) -> Any:
    a = np.asarray(t.numpy())
    if a.dtype.kind == "c":
        return [a.real.astype(np.float64).tolist(), a.imag.astype(np.float64).tolist()]
    return a.tolist() if a.dtype.kind in "biu" else a.astype(np.float64).tolist()


def _grad(t: Any) -> Any:
    return None if t.grad is None else _v(t.grad)


def _net(paddle: Any, p: float) -> Any:
    nn = paddle.nn
    net = nn.Sequential(nn.Linear(4, 6), nn.GELU(), nn.Dropout(p), nn.Linear(6, 4), nn.LayerNorm(4))
    r = np.random.default_rng(3)
    net.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in net.state_dict().items()})
    return net


def recompute(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.distributed.fleet.utils.recompute`` (p45): the loss and gradients of a recomputed block equal the
    plain block's (both implementations); with dropout the preserved random state redraws the forward's mask (equal
    gradients) and ``preserve_rng_state=False`` draws another (different ones); a reentrant block whose inputs all
    stop gradient gives its parameters no gradient (its output stops gradient); keyword arguments, a tuple of
    Tensors, several outputs; ``recompute_sequential``."""
    rc = importlib.import_module(paddle.__name__ + ".distributed.fleet.utils").recompute
    recompute_sequential = importlib.import_module(paddle.__name__ + ".distributed.fleet.recompute").recompute_sequential

    x0 = np.random.default_rng(0).standard_normal((5, 4)).astype("float32")

    def grads(p: float, **kw: Any) -> Any:
        net = _net(paddle, p)
        x = paddle.to_tensor(x0, stop_gradient=False)
        paddle.seed(4)
        y = net(x) if kw.get("plain") else rc(net, x, **{k: v for k, v in kw.items() if k != "plain"})
        (y * paddle.arange(20, dtype="float32").reshape([5, 4])).sum().backward()
        return y.numpy(), [x.grad.numpy()] + [q.grad.numpy() for q in net.parameters()]

    def same(a: Any, b: Any) -> bool:
        return bool(np.allclose(a[0], b[0], rtol=1e-5, atol=1e-6)) and all(
            np.allclose(u, w, rtol=1e-4, atol=1e-6) for u, w in zip(a[1], b[1]))

    plain = grads(0.0, plain=True)
    out["rc_plain"] = [plain[0].tolist(), plain[1][0].tolist(), plain[1][1].tolist()]
    for name, kw in {"reent": {}, "noreent": {"use_reentrant": False},
                     "nopres": {"preserve_rng_state": False}}.items():
        out[f"rc_{name}_same"] = same(plain, grads(0.0, **kw))
    dplain = grads(0.5, plain=True)
    for name, kw in {"reent": {}, "noreent": {"use_reentrant": False}, "nopres": {"preserve_rng_state": False},
                     "noreent_nopres": {"use_reentrant": False, "preserve_rng_state": False}}.items():
        g = grads(0.5, **kw)
        out[f"rc_drop_{name}"] = [bool(np.allclose(dplain[0], g[0])), same(dplain, g)]

    net = _net(paddle, 0.0)
    y = rc(net, paddle.to_tensor(x0))
    out["rc_no_input_grad"] = [y.stop_gradient, net[0].weight.grad is None]
    y = rc(net, paddle.to_tensor(x0), use_reentrant=False)
    y.sum().backward()
    out["rc_no_input_grad_noreent"] = [y.stop_gradient, _grad(net[0].weight)]

    w = paddle.to_tensor(np.linspace(-1, 1, 16).reshape(4, 4).astype("float32"), stop_gradient=False)

    def two(pair: Any, c: Any, scale: float = 1.0) -> Any:
        a, b = pair
        h = paddle.tanh(a @ w + b)
        return h * scale, (h * c).sum(axis=1)

    a = paddle.to_tensor(x0[:3], stop_gradient=False)
    b = paddle.to_tensor(x0[3:5].mean(0), stop_gradient=False)
    c = paddle.to_tensor(x0[2:5])
    for reent in (True, False):
        for t in (a, b, w):
            t.clear_gradient()
        h, s = rc(two, (a, b), c, scale=3.0, use_reentrant=reent)
        (h.sum() + (s ** 2).sum()).backward()
        out[f"rc_tuple_{reent}"] = [_v(h), _v(s), _grad(a), _grad(b), _grad(w)]
    out["rc_tuple_mixed"] = _attempt(lambda: rc(two, (a, paddle.to_tensor(x0[0])), c))

    def kwonly(x: Any, *, k: float = 1.0) -> Any:
        return x * k

    out["rc_kwonly"] = _attempt(lambda: rc(kwonly, a, k=2.0))

    seq = _net(paddle, 0.0)
    x = paddle.to_tensor(x0, stop_gradient=False)
    y = recompute_sequential({"segments": 1}, seq, x)
    y.sum().backward()
    out["rc_sequential"] = [_v(y), _grad(x), _grad(seq[3].weight)]


def grad_mode_generator(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.no_grad()`` (and ``enable_grad``, ``set_grad_enabled``) decorating a generator function (p45): the
    mode holds inside it and, as in Paddle, from its first ``next`` until it ends, so the loop that consumes it runs
    in that mode too. (Paddle's decorated generator also drops the value its function returns, which a ``yield
    from`` would receive; pylayer_jax passes it on.)"""
    lin = paddle.nn.Linear(2, 2)
    x = paddle.ones([1, 2])

    @paddle.no_grad()
    def batches(n: int) -> Any:
        for _ in range(n):
            yield lin(x).stop_gradient, paddle.is_grad_enabled()

    seen = []
    for inner in batches(2):
        seen.append([*inner, paddle.is_grad_enabled(), lin(x).stop_gradient])
    out["gen_no_grad"] = [seen, paddle.is_grad_enabled(), lin(x).stop_gradient]
    g = batches(3)
    out["gen_unstarted"] = paddle.is_grad_enabled()
    next(g)
    out["gen_suspended"] = paddle.is_grad_enabled()
    g.close()
    out["gen_closed"] = paddle.is_grad_enabled()

    @paddle.enable_grad()
    def on() -> Any:
        yield paddle.is_grad_enabled()

    with paddle.no_grad():
        out["gen_enable_grad"] = [list(on()), paddle.is_grad_enabled()]

    @paddle.set_grad_enabled(False)
    def off() -> Any:
        yield paddle.is_grad_enabled()

    out["gen_set_grad"] = [list(off()), paddle.is_grad_enabled()]


def complex_with_python_numbers(paddle: Any, out: dict[str, Any]) -> None:
    """A complex Tensor with a Python float (p46: ``paddle.angle(f + 1.0)``): the result stays complex (it was cast
    to float32, dropping the imaginary part); the same for ``-``, ``*``, ``/``, ``**`` both ways, an int, a bool, a
    complex number, complex128, and the gradient through them."""
    z = paddle.complex(paddle.to_tensor([1.0, -2.0, 0.5]), paddle.to_tensor([1.0, 0.5, -3.0]))
    z2 = z.astype("complex128")
    cases = {
        "add": lambda: z + 1.5, "radd": lambda: 1.5 + z, "sub": lambda: z - 1.5, "rsub": lambda: 1.5 - z,
        "mul": lambda: z * 2.5, "rmul": lambda: 2.5 * z, "div": lambda: z / 2.0, "rdiv": lambda: 2.0 / z,
        "pow": lambda: z ** 2.0, "pow_int": lambda: z ** 2, "add_int": lambda: z + 2, "mul_bool": lambda: z * True,
        "add_complex": lambda: z + (1 - 2j), "add128": lambda: z2 + 1.5, "mul128": lambda: z2 * 0.5,
        "sub_np": lambda: z - np.float32(0.5),
    }
    for name, f in cases.items():
        r = f()
        out[f"cnum_{name}"] = [str(r.dtype), _v(r)]
    a = paddle.to_tensor([1.0, -2.0, 0.5], stop_gradient=False)
    b = paddle.to_tensor([1.0, 0.5, -3.0], stop_gradient=False)
    w = paddle.complex(a, b)
    y = paddle.abs(w * 2.0 + 1.0) + paddle.imag(1.0 - w) * 3.0 + paddle.real(w / 2.0)
    y.sum().backward()
    out["cnum_grad"] = [_v(y), _grad(a), _grad(b)]


def angle_gradient(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.angle``'s gradient (p46): it reads the input (it was taken at zero, which gave NaN) for a complex
    input, built from real parts or a complex leaf; a real input's angle has a zero gradient."""
    a = paddle.to_tensor([1.0, -2.0, 0.5, -1.0], stop_gradient=False)
    b = paddle.to_tensor([0.5, 1.0, -3.0, -0.25], stop_gradient=False)
    y = paddle.angle(paddle.complex(a, b))
    (y * paddle.to_tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    out["angle_parts"] = [_v(y), _grad(a), _grad(b)]
    z = paddle.to_tensor(np.array([1 + 0.5j, -2 + 1j, 3 - 1j], "complex64"), stop_gradient=False)
    paddle.angle(z * z).sum().backward()
    out["angle_leaf"] = _grad(z)
    r = paddle.to_tensor([1.0, -2.0, 0.0], stop_gradient=False)
    y = paddle.angle(r)
    y.sum().backward()
    out["angle_real"] = [_v(y), _grad(r)]
    f = paddle.fft.fft(paddle.complex(a, b))
    paddle.angle(f + 1.0).sum().backward()
    out["angle_fft"] = [_grad(a), _grad(b)]


def complex_parameter_optimizers(paddle: Any, out: dict[str, Any]) -> None:
    """The adaptive optimizers refuse a complex parameter at ``step`` (p46: Paddle has no complex kernel and raises a
    RuntimeError; pylayer_jax's Adam updated only the real part there), leaving it as it was."""
    nn = paddle.nn
    for name in ("Adam", "AdamW", "RMSProp", "Adagrad", "Adamax", "Lamb"):
        c = paddle.create_parameter([2], "complex64", default_initializer=nn.initializer.Constant(0.5))
        opt = getattr(paddle.optimizer, name)(learning_rate=0.1, parameters=[c])
        (paddle.abs(c * (1 + 1j)) ** 2).sum().backward()
        out[f"copt_{name}"] = [_attempt(opt.step), _v(c)]


CASES = [recompute, grad_mode_generator, complex_with_python_numbers, angle_gradient, complex_parameter_optimizers]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
