"""Cases found by the whole programs ``tests/programs/p63_pylayer_zoo.py`` and ``p64_hooks_grad_utils.py``, written
as Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values, gradients,
flags, the type of each error). ``record_paddle_program_diffs_t.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_t.json``; ``test_program_diffs_t.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any


def _v(t: Any) -> Any:
    return None if t is None else t.numpy().astype("float64").tolist()


def _attempt(f: Any) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001  (the type is the result)
        return ["error", type(e).__name__]


def _leaf(paddle: Any, values: list[float]) -> Any:
    return paddle.to_tensor(values, stop_gradient=False)


def pylayer_grad_flags(paddle: Any, out: dict[str, Any]) -> None:
    """What a PyLayer's backward receives (p63): each arriving gradient says ``stop_gradient=False`` (one or several
    outputs, a gradient that flowed through other ops first), a materialised zero gradient for an unused output
    ``True``; grad mode is off inside backward; the gradients themselves."""
    PyLayer = paddle.autograd.PyLayer  # noqa: N806  (the class, as users import it)
    seen: list[Any] = []

    class Double(PyLayer):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2.0

        @staticmethod
        def backward(ctx: Any, dy: Any) -> Any:
            seen.append([dy.stop_gradient, paddle.is_grad_enabled(), _v(dy)])
            return dy * 2.0

    class Pair(PyLayer):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2.0, x * 3.0

        @staticmethod
        def backward(ctx: Any, da: Any, db: Any) -> Any:
            seen.append([da.stop_gradient, db.stop_gradient, _v(da), _v(db)])
            return da * 2.0 + db * 3.0

    x = _leaf(paddle, [1.0, -2.0])
    Double.apply(x).sum().backward()
    out["pl_flag_single"] = [seen.pop(), _v(x.grad)]
    x.clear_gradient()
    (Double.apply(x * 1.5).exp() * x).sum().backward()
    out["pl_flag_chain"] = [seen.pop(), _v(x.grad)]
    x.clear_gradient()
    a, _ = Pair.apply(x)
    a.sum().backward()
    out["pl_flag_materialized"] = [seen.pop(), _v(x.grad)]
    x.clear_gradient()
    a, b = Pair.apply(x)
    (a * b).sum().backward()
    out["pl_flag_both"] = [seen.pop(), _v(x.grad)]
    (g,) = paddle.grad(Double.apply(x * 1.0).sum(), x)
    out["pl_flag_paddle_grad"] = [seen.pop(), _v(g)]

    class Sq(PyLayer):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx: Any, dy: Any) -> Any:
            seen.append([dy.stop_gradient, _v(dy)])
            (t,) = ctx.saved_tensor()
            return 2.0 * t * dy

    # create_graph: the gradient arriving from ``* w`` has w's history (and backward runs again, for the second
    # walk, through the product's double-grad node)
    w = _leaf(paddle, [0.5, 3.0])
    x = _leaf(paddle, [1.0, 2.0])
    (g,) = paddle.grad((Sq.apply(x) * w).sum(), x, create_graph=True)
    g.sum().backward()
    out["pl_flag_create_graph"] = [seen[:], _v(g), _v(w.grad), _v(x.grad)]


def released_graph(paddle: Any, out: dict[str, Any]) -> None:
    """A second ``backward`` through a graph the first one freed (p64): Paddle raises a SystemError, whatever the
    ops; with ``retain_graph=True`` the second one adds to ``.grad``; ``paddle.grad`` keeps the graph."""
    a = _leaf(paddle, [0.5, -1.0, 2.0])
    for name, make in (("lin", lambda: (a * 2.0).sum()), ("exp", lambda: a.exp().sum()),
                       ("mul", lambda: (a * a).mean())):
        f = make()
        f.backward()
        out[f"released_{name}"] = _attempt(lambda f=f: f.backward())
    a.clear_gradient()
    f = (a ** 3).sum()
    f.backward(retain_graph=True)
    f.backward()
    out["released_retained"] = _v(a.grad)
    f = (a ** 3).sum()
    paddle.grad(f, a)
    out["released_after_paddle_grad"] = _attempt(lambda: _v(paddle.grad(f, a)[0]))


def grad_checks(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.grad`` given one Tensor twice among its inputs or its outputs, and a tensor hook that returns its
    gradient in another dtype, raise a RuntimeError in Paddle (p64); seeds that fit give the weighted gradients."""
    x = _leaf(paddle, [1.0, 2.0])
    y = _leaf(paddle, [3.0, 4.0])
    f = (x * y * x).sum()
    out["grad_dup_inputs"] = _attempt(lambda: paddle.grad(f, [x, y, x], retain_graph=True))
    out["grad_dup_outputs"] = _attempt(lambda: paddle.grad([f, f], [x], retain_graph=True))
    out["grad_distinct"] = [_v(g) for g in paddle.grad([f, (x * 2).sum()], [x, y])]
    z = _leaf(paddle, [1.0, 2.0])
    z.register_hook(lambda g: g.astype("float64"))
    out["hook_dtype"] = _attempt(lambda: (z * z).sum().backward())
    z2 = _leaf(paddle, [1.0, 2.0])
    z2.register_hook(lambda g: (g * 3.0).astype("float32"))
    (z2 * z2).sum().backward()
    out["hook_same_dtype"] = [_v(z2.grad), str(z2.grad.dtype)]
    e = _leaf(paddle, [1.0, 2.0])
    (e * e).backward(paddle.to_tensor([0.5, -1.0]))
    out["seed_fits"] = _v(e.grad)
    e.clear_gradient()
    paddle.autograd.backward([e * 2, e.exp()], [paddle.to_tensor([1.0, 2.0]), None])
    out["seed_fits_several"] = _v(e.grad)


def state_dict_hooks(paddle: Any, out: dict[str, Any]) -> None:
    """``Layer.register_state_dict_hook`` (p64): a sublayer's hook adds to the dict in place, the model's hook
    returns a new dict that replaces it; ``state_dict(use_hook=False)`` runs none; ``remove()`` takes a hook out."""
    import collections

    nn = paddle.nn
    net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    for p in net.parameters():
        p.set_value(paddle.ones(p.shape))
    calls: list[Any] = []

    def add_meta(sd: Any) -> None:
        calls.append(sorted(sd))
        sd["meta"] = paddle.to_tensor([7.0])

    def half(sd: Any) -> Any:
        calls.append("half")
        return collections.OrderedDict((k, t * 0.5) for k, t in sd.items())

    h1 = net[0].register_state_dict_hook(add_meta)
    h2 = net.register_state_dict_hook(half)
    sd = net.state_dict()
    out["sd_hooks"] = [sorted(sd), [_v(sd[k]) for k in sorted(sd)], calls[:]]
    calls.clear()
    out["sd_hooks_unused"] = [sorted(net.state_dict(use_hook=False)), calls[:]]
    h2.remove()
    out["sd_hooks_one_removed"] = [sorted(net.state_dict()), _v(net.state_dict()["1.bias"])]
    h1.remove()
    out["sd_hooks_removed"] = sorted(net.state_dict())


def grad_spellings(paddle: Any, out: dict[str, Any]) -> None:
    """``Tensor.gradient()`` (a numpy array, or None before a backward) and ``Tensor.grad_`` (``grad`` again)."""
    x = _leaf(paddle, [1.0, 2.0])
    before = x.gradient()
    (x * x).sum().backward()
    g = x.gradient()
    out["gradient"] = [before is None, type(g).__name__, str(g.dtype), g.tolist(), _v(x.grad_)]
    x.grad_ = paddle.to_tensor([5.0, 6.0])
    out["grad_set"] = [_v(x.grad), x.gradient().tolist()]


CASES = (pylayer_grad_flags, released_graph, grad_checks, state_dict_hooks, grad_spellings)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
