"""Cases found by the whole programs ``tests/programs/p33_resume.py`` and ``p34_to_static_flow.py``, written as
Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values, the type of
each error). ``record_paddle_program_diffs_d.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_d.json``; ``test_program_diffs_d.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

import os
import tempfile
import warnings
from typing import Any

import numpy as np
from case_values import _attempt, _v


def state_dict_dtypes(paddle: Any, out: dict[str, Any]) -> None:
    """``Layer.set_state_dict`` with a value of another dtype than the parameter's (a float64 checkpoint into a
    float32 model, p33) raises AssertionError, as Paddle's ``set_value`` asserts equal dtypes: nothing is cast.
    Values of the parameter's dtype load, a missing key and an unexpected one are reported."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lin = paddle.nn.Linear(3, 2)
        w32 = np.arange(6, dtype="float32").reshape(3, 2)
        out["sd_f64_array"] = _attempt(lambda: lin.set_state_dict({"weight": w32.astype("float64")}))
        out["sd_f64_tensor"] = _attempt(lambda: lin.set_state_dict({"weight": paddle.to_tensor(w32, dtype="float64")}))
        out["sd_int_array"] = _attempt(lambda: lin.set_state_dict({"bias": np.array([1, 2], "int64")}))
        out["sd_f16_array"] = _attempt(lambda: lin.set_state_dict({"bias": np.array([1, 2], "float16")}))
        res = lin.set_state_dict({"weight": w32, "extra": np.zeros(2, "float32")})
        out["sd_f32"] = [sorted(res[0]), sorted(res[1]), _v(lin.weight), str(lin.weight.dtype)]
        res = lin.set_state_dict({"weight": paddle.to_tensor(w32 * 2), "bias": np.ones(2, "float32")})
        out["sd_f32_tensor"] = [sorted(res[0]), sorted(res[1]), _v(lin.weight), _v(lin.bias)]
        emb = paddle.nn.Embedding(4, 2)
        out["sd_f64_embedding"] = _attempt(lambda: emb.set_state_dict({"weight": np.ones((4, 2))}))


def save_batch_free(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.jit.save`` with an InputSpec whose first dimension is None, of a forward that reshapes by
    ``x.shape[0]`` (p34): the loaded layer takes any batch size (it was exported with size 1 only)."""
    nn = paddle.nn
    InputSpec = paddle.static.InputSpec  # noqa: N806

    class Head(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(3, 2)

        def forward(self, x: Any) -> Any:
            h = self.fc(x)
            b = x.shape[0]
            return h.reshape([b * 2]), h.reshape([b, 1, -1]).sum(-1)

    net = Head()
    net.set_state_dict({"fc.weight": np.array([[0.5, -1.0], [0.25, 2.0], [1.0, 0.0]], "float32"),
                        "fc.bias": np.array([0.1, -0.2], "float32")})
    net.eval()
    path = os.path.join(tempfile.mkdtemp(), "head")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle.jit.save(net, path, input_spec=[InputSpec([None, 3], "float32", "x")])
        loaded = paddle.jit.load(path)
    loaded.eval()
    x = np.arange(15, dtype="float32").reshape(5, 3) * 0.1
    for n in (1, 2, 5):
        outs = loaded(paddle.to_tensor(x[:n]))
        out[f"save_batch_{n}"] = [[_v(o), list(o.shape)] for o in outs]


def rollback(paddle: Any, out: dict[str, Any]) -> None:
    """``StaticFunction.rollback()`` sets the object's method back to the original (``to_static(layer)``'s
    ``forward``, and a method decorated in the class body for that object only), so later calls run eagerly."""
    nn = paddle.nn

    class Net(nn.Layer):
        def forward(self, x: Any) -> Any:
            return x * 2.0 + 1.0

    class Dec(nn.Layer):
        @paddle.jit.to_static
        def forward(self, x: Any) -> Any:
            return x - 1.0

    x = paddle.to_tensor([1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net = paddle.jit.to_static(Net())
        r = net.forward.rollback()
        out["rollback_layer"] = [type(net.forward).__name__, type(r).__name__, r == net.forward, _v(net(x))]
        d1, d2 = Dec(), Dec()
        r = d1.forward.rollback()
        out["rollback_method"] = [type(d1.forward).__name__, type(d2.forward).__name__ != "method", type(r).__name__,
                                  _v(d1(x)), _v(d2(x))]

        def f(t: Any) -> Any:
            return t * 3.0

        sf = paddle.jit.to_static(f)
        out["rollback_function"] = [sf.rollback() is f, _v(sf(x))]


def static_python_values(paddle: Any, out: dict[str, Any]) -> None:
    """What a to_static function returns besides Tensors (``x.shape[0]``, a string, a list of Python numbers) comes
    back as it is, not as Tensors; a numpy array argument is a constant the function computes with in numpy (p34)."""

    def f(x: Any, flag: bool = True) -> Any:
        if not flag:
            return None
        return {"y": x * 2.0, "meta": (x.shape[0], "rows", [1, 2.5])}

    sf = paddle.jit.to_static(f)
    for i, n in enumerate((2, 3, 2)):  # (the third call reuses the first one's compiled function)
        r = sf(paddle.ones([n, 2]))
        out[f"py_out_{i}_{n}"] = [_v(r["y"]), [type(v).__name__ for v in r["meta"]], r["meta"][0], r["meta"][1],
                              r["meta"][2]]
    out["py_out_none"] = sf(paddle.ones([2, 2]), False)
    out["py_out_list_arg"] = paddle.jit.to_static(lambda v: v * 2)([1, 2])
    g = paddle.jit.to_static(lambda a, t: (a * 2, t + 1.0))
    a, t = g(np.arange(3.0, dtype="float32"), paddle.ones([3]))
    out["np_arg"] = [type(a).__name__, str(a.dtype), a.tolist(), _v(t)]
    a2, _ = g(np.arange(3.0, dtype="float32") + 1, paddle.ones([3]))
    out["np_arg_changed"] = a2.tolist()


def warmup_state(paddle: Any, out: dict[str, Any]) -> None:
    """``LinearWarmup.set_state_dict`` around a scheduler, given a state without the wrapped scheduler's entry
    (a plain scheduler's, p33): KeyError, as Paddle."""
    lr = paddle.optimizer.lr
    w = lr.LinearWarmup(lr.StepDecay(0.1, 2), 2, 0.0, 0.1)
    out["warmup_missing_inner"] = _attempt(lambda: w.set_state_dict({"last_epoch": 3, "last_lr": 0.05}))
    w2 = lr.LinearWarmup(0.1, 2, 0.0, 0.1)
    w2.set_state_dict({"last_epoch": 3, "last_lr": 0.05})
    out["warmup_float_restored"] = [w2.last_epoch, w2.last_lr]


def loaded_outputs(paddle: Any, out: dict[str, Any]) -> None:
    """A layer loaded by ``paddle.jit.load`` gives its outputs flat: one Tensor alone (also from a forward that
    returned ``[y]`` or ``(y,)``), more as a list (a forward that returned a tuple). Not recorded: Paddle 3.3.1's saved
    program of ``x + 1.0`` or ``x - 1.0`` in a function without parameters gives x when loaded (so
    ``{"p": x * 2, "q": (x + 1, x - 1)}`` loads as [2x, x, x]); ours gives the function's values."""
    InputSpec = paddle.static.InputSpec  # noqa: N806

    def pair(x: Any) -> Any:
        return paddle.nn.functional.softmax(x, -1), x.argmax(-1)

    def one_list(x: Any) -> Any:
        return [x * 2.0]

    def one_tuple(x: Any) -> Any:
        return (x * 3.0,)

    x = paddle.to_tensor(np.array([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]], "float32"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn in (pair, one_list, one_tuple):
            sf = paddle.jit.to_static(fn, input_spec=[InputSpec([None, 3], "float32")], full_graph=True)
            path = os.path.join(tempfile.mkdtemp(), fn.__name__)
            paddle.jit.save(sf, path)
            r = paddle.jit.load(path)(x)
            out[f"loaded_{fn.__name__}"] = [type(r).__name__,
                                            [_v(t) for t in r] if isinstance(r, list | tuple) else _v(r)]


CASES = (state_dict_dtypes, save_batch_free, rollback, static_python_values, warmup_state, loaded_outputs)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
