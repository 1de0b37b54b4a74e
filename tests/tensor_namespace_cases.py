"""Cases for ``paddle.LazyGuard`` and for calling ``paddle.tensor`` (the module is callable: ``paddle.tensor(data)``
makes a Tensor) and its functions, run by ``record_paddle_tensor_namespace.py`` with real Paddle and by
``tests/tensor/test_tensor_namespace.py`` with pylayer_jax: the same function, ``record``, on either library."""

from __future__ import annotations

from typing import Any

import numpy as np


def _outcome(fn: Any) -> Any:
    try:
        return ["ok", fn()]
    except Exception as e:  # noqa: BLE001  (recording what each library raises)
        return ["raises", type(e).__name__]


def _t(t: Any) -> list[Any]:
    """A Tensor as [dtype name, shape, values, stop_gradient]."""
    return [str(t.dtype).replace("paddle.", ""), list(t.shape), np.asarray(t.numpy()).tolist(), bool(t.stop_gradient)]


def _lazy(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    paddle.seed(1)
    with paddle.LazyGuard():
        lin = paddle.nn.Linear(3, 2)
        p = paddle.create_parameter([2, 3], "float32")
    for q in lin.parameters():
        q.initialize()
    lazy_w = lin.weight.numpy()
    p.initialize()
    paddle.seed(1)
    eager = paddle.nn.Linear(3, 2)
    out["lazy then initialize equals eager"] = bool(np.array_equal(lazy_w, eager.weight.numpy()))
    out["names"] = [lin.weight.name.split(".")[1], lin.bias.name.split(".")[1]]
    out["initialized"] = [bool(lin.weight._is_initialized()), bool(p._is_initialized())]
    out["forward after initialize"] = list(lin(paddle.ones([1, 3])).shape)
    out["initialize twice"] = _outcome(lambda: lin.weight.initialize())
    out["initialize a parameter made outside"] = _outcome(lambda: eager.weight.initialize())
    with paddle.LazyGuard():
        with paddle.LazyGuard():
            inner = paddle.nn.Linear(2, 2)
        after_inner = paddle.nn.Linear(2, 2)
    out["nested: inner is lazy"] = _outcome(lambda: inner.weight.initialize())
    out["nested: after the inner guard is not"] = _outcome(lambda: after_inner.weight.initialize())
    out["guard takes no arguments"] = _outcome(lambda: paddle.LazyGuard(3))
    out["guard enter returns"] = repr(paddle.LazyGuard().__enter__())
    paddle.LazyGuard().__exit__(None, None, None)
    out["trainable and stop_gradient"] = [bool(lin.weight.trainable), bool(lin.weight.stop_gradient)]
    return out


def _calls(paddle: Any) -> dict[str, Any]:
    T = paddle.tensor
    out: dict[str, Any] = {}
    out["tensor(list)"] = _t(T([1, 2, 3]))
    out["tensor(floats)"] = _t(T([1.5, 2.0]))
    out["tensor(dtype)"] = _t(T([1, 2], dtype="float64"))
    out["tensor(requires_grad)"] = _t(T([1.0], requires_grad=True))
    src = paddle.to_tensor([1.0, 2.0])
    copy = T(src)
    copy[0] = 9.0
    out["tensor(Tensor) copies"] = [_t(src), _t(copy)]
    out["tensor(scalar)"] = _t(T(3.0))
    out["fill_constant"] = _t(T.creation.fill_constant([2, 3], "int32", 7))
    out["fill_constant float"] = _t(T.fill_constant([2], "float32", 0.5))
    dest = paddle.zeros([2], "float32")
    got = T.creation.fill_constant([2], "float32", 4.0, out=dest)
    out["fill_constant out"] = [_t(dest), got is dest]
    x, y = paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 5.0])
    out["math.add"] = _t(T.math.add(x, y))
    out["add"] = _t(T.add(x, y))
    out["linalg.matmul"] = _t(T.linalg.matmul(paddle.ones([2, 3]), paddle.ones([3, 2])))
    out["manipulation.reshape"] = _t(T.manipulation.reshape(paddle.arange(6), [2, 3]))
    out["search.argmax"] = _t(T.search.argmax(y))
    out["stat.mean"] = _t(T.stat.mean(y))
    out["logic.equal"] = _t(T.logic.equal(x, x))
    out["attribute.rank"] = _t(T.attribute.rank(x))
    out["creation.ones"] = _t(T.creation.ones([2], "int64"))
    out["random.rand shape"] = list(T.random.rand([2, 3]).shape)
    out["math.add_ in place"] = _t(T.math.add_(paddle.to_tensor([1.0]), paddle.to_tensor([2.0])))
    out["no such name"] = _outcome(lambda: T.no_such_function_q7)
    out["no such name in math"] = _outcome(lambda: T.math.no_such_function_q7)
    return out


def record(paddle: Any) -> dict[str, Any]:
    return {**{f"lazy {k}": v for k, v in _lazy(paddle).items()}, **{f"call {k}": v for k, v in _calls(paddle).items()}}
