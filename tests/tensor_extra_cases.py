"""The cases of ``Tensor.resize_``, ``Tensor.set_``, ``paddle.tensor.create_tensor`` and ``top_p_sampling``, written as
Paddle code: ``record(paddle)`` runs each with the given library and returns what it gives (shapes, values, dtypes,
versions, stop_gradient, gradients, and the type and first line of each error). ``record_paddle_tensor_extras.py``
runs it with Paddle 3.3.1 into ``data/paddle_tensor_extras.json``; ``tensor/test_storage.py`` and
``tensor/test_top_p_sampling.py`` run it with pylayer_jax and compare. Cases where Paddle reads memory it does not own
(undefined values) are not here: the tests check what pylayer_jax defines there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def st(t: Any) -> dict[str, Any]:
    """What a Tensor shows: shape, dtype, values, version, stop_gradient."""
    a = t.numpy()
    if a.dtype == np.float16:
        a = a.astype(np.float32)
    v = np.stack([a.real, a.imag], -1).tolist() if np.iscomplexobj(a) else a.tolist()
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("paddle.", ""), "values": v,
            "version": t.inplace_version, "stop_gradient": t.stop_gradient}


# ---- resize_ --------------------------------------------------------------------------------------------------------
def resize_plain(P: Any) -> dict[str, Any]:
    out = {}
    x = P.to_tensor([1.0, 2.0, 3.0])
    out["returns_x"] = x.resize_([2, 1]) is x
    out["shrink"] = st(x)
    for label, data, shape, kw in [
        ("grow_fill_zero", [1.0, 2.0, 3.0], [2, 3], {"fill_zero": True}),
        ("shrink_2d", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [5], {}),
        ("to_0d", [1.0, 2.0, 3.0], [], {}),
        ("to_empty", [1.0, 2.0, 3.0], [0], {}),
        ("same_shape", [1.0, 2.0, 3.0], [3], {}),
        ("same_size", [[1.0, 2.0], [3.0, 4.0]], [4, 1], {}),
        ("tuple_shape", [1.0, 2.0, 3.0, 4.0], (2, 2), {}),
        ("numpy_ints", [1.0, 2.0, 3.0, 4.0], [np.int64(2), np.int32(1)], {}),
        ("fill_zero_shrink", [1.0, 2.0, 3.0, 4.0], [3], {"fill_zero": True}),
    ]:
        x = P.to_tensor(data)
        x.resize_(shape, **kw)
        out[label] = st(x)
    for dt, data in [("int64", [1, 2, 3]), ("bool", [True, False, True]), ("float16", [1.0, 2.0, 3.0]),
                     ("complex64", [1 + 2j, 3 - 1j, 0.5j]), ("float64", [1.0, 2.0, 3.0]), ("int32", [4, 5, 6])]:
        x = P.to_tensor(np.array(data).astype(dt))
        x.resize_([2, 2], fill_zero=True)
        out[f"grow_fill_zero_{dt}"] = st(x)
    x = P.to_tensor([1.0, 2.0, 3.0])
    x.resize_([2, 3])  # (without fill_zero the new values are undetermined: only the kept ones are recorded)
    out["grow_kept"] = {"shape": list(x.shape), "kept": x.numpy().ravel()[:3].tolist(), "version": x.inplace_version}
    x = P.to_tensor([1.0, 2.0, 3.0])
    P.tensor.resize_(x, [1]) if hasattr(P, "tensor") else P.resize_(x, [1])
    out["function"] = st(x)
    return out


def resize_views(P: Any) -> dict[str, Any]:
    out = {}
    x = P.to_tensor([1.0, 2.0, 3.0, 4.0])
    v = x[1:3]
    x.resize_([2])  # x keeps its first two elements, which it still shares with v
    x[1] = 100.0
    out["shrink_write_base"] = [st(x), st(v)]
    v[1] = 7.0
    out["shrink_write_view"] = [st(x), st(v)]
    x = P.to_tensor([1.0, 2.0, 3.0, 4.0])
    v = x[1:3]
    x.resize_([6], fill_zero=True)  # new data: v no longer shares it
    x[1] = 100.0
    out["grow_unshares"] = [st(x), st(v)]
    x = P.to_tensor([1.0, 2.0, 3.0, 4.0])
    v = x.reshape([2, 2])
    x.resize_([2, 2])
    x[0, 1] = 100.0
    out["same_size_base"] = [st(x), st(v)]
    x = P.to_tensor([1.0, 2.0, 3.0, 4.0])
    v = x.reshape([2, 2])
    v.resize_([3])
    v[0] = 50.0
    out["view_shrink"] = [st(v), st(x)]
    base = P.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    v = base.T
    v.resize_([3, 2])  # a non-contiguous view keeps its own shape (and its sharing)
    v[0] = 0.0
    out["transposed_same_shape"] = [st(v), st(base)]
    return out


def resize_grads(P: Any) -> dict[str, Any]:
    out = {}
    w = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = w * 2
    y.resize_([3])
    out["y"] = st(y)
    (y * P.to_tensor([1.0, 10.0, 100.0])).sum().backward()
    out["w_grad"] = st(w.grad)["values"]
    return out


def resize_errors(P: Any) -> dict[str, Any]:
    out = {}
    for label, shape in [("shape_int", 3), ("shape_none", None), ("shape_float", [2.0]), ("shape_negative", [-1]),
                         ("shape_negative_second", [2, -1])]:
        out[label] = _error(lambda shape=shape: P.to_tensor([1.0, 2.0, 3.0]).resize_(shape))
    out["leaf_trains"] = _error(lambda: P.to_tensor([1.0, 2.0], stop_gradient=False).resize_([1]))

    def no_grad_leaf() -> None:
        with P.no_grad():
            P.to_tensor([1.0, 2.0], stop_gradient=False).resize_([1])

    out["leaf_trains_no_grad"] = _error(no_grad_leaf)
    base = P.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    out["transposed_other_shape"] = _error(lambda: base.T.resize_([6]))
    out["column_slice_grow"] = _error(lambda: base[:, 1:].resize_([6], fill_zero=True))
    return out


# ---- set_ -----------------------------------------------------------------------------------------------------------
def set_plain(P: Any) -> dict[str, Any]:
    out = {}
    src = P.to_tensor([[11.0, 22.0, 33.0]])
    src2 = P.to_tensor([11.0, 22.0, 33.0, 44.0, 55.0, 66.0])
    x = P.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    out["returns_x"] = x.set_() is x
    out["no_source"] = st(x)
    for label, kw in [("source", {}), ("shape", {"shape": [2, 1]}), ("stride", {"shape": [3], "stride": [2]}),
                      ("offset", {"shape": [5], "offset": 4}), ("shape_stride_2d", {"shape": [2, 2], "stride": [1, 2]}),
                      ("shape_tuple", {"shape": (3,)}), ("zero_stride", {"shape": [2, 3], "stride": [0, 1]})]:
        x = P.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])
        x.set_(src if label == "source" else src2, **kw)
        out[label] = st(x)
    x = P.to_tensor([1.0, 2.0], dtype="float64")
    x.set_(P.to_tensor([1.0, 2.0, 3.0, 4.0], dtype="float64"), shape=[2], offset=8)
    out["offset_float64"] = st(x)
    x = P.to_tensor([1, 2], dtype="int32")
    x.set_(P.to_tensor([7, 8, 9], dtype="int32"), [2], [1], 4)
    out["positional_int32"] = st(x)
    x = P.to_tensor([1.0, 2.0, 3.0, 4.0])
    x.set_(x, [2, 2])
    out["itself"] = st(x)
    x = P.to_tensor([1.0, 2.0, 3.0])
    P.tensor.set_(x, P.to_tensor([5.0])) if hasattr(P, "tensor") else P.set_(x, P.to_tensor([5.0]))
    out["function"] = st(x)
    return out


def set_sharing(P: Any) -> dict[str, Any]:
    out = {}
    src = P.to_tensor([[11.0, 22.0, 33.0]])
    x = P.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    x.set_(src)
    x[0, 0] = 99.0
    out["write_x"] = [st(x), st(src)]
    src[0, 2] = -1.0
    out["write_source"] = [st(x), st(src)]
    src2 = P.to_tensor([11.0, 22.0, 33.0, 44.0, 55.0, 66.0])
    x = P.to_tensor([0.0])
    x.set_(src2, shape=[3], stride=[2])
    x[1] = 0.0
    out["strided_write_x"] = [st(x), st(src2)]
    src2[4] = -5.0
    out["strided_write_source"] = [st(x), st(src2)]
    s = P.to_tensor([1.0, 2.0, 3.0])
    x = P.to_tensor([0.0])
    x.set_(s)
    out["versions"] = [x.inplace_version, s.inplace_version]
    s.add_(P.to_tensor(1.0))
    out["versions_after_source_write"] = [st(x), st(s)]
    x = P.to_tensor([1.0, 2.0, 3.0])
    vv = x[1:]
    x.set_(P.to_tensor([7.0, 8.0]))
    x[0] = 70.0
    out["old_views_unshared"] = [st(x), st(vv)]
    x = P.to_tensor([1.0, 2.0, 3.0, 4.0])
    v = x[2:]
    x.set_(x, [2])
    out["itself_with_view"] = [st(x), st(v)]
    return out


def set_grads(P: Any) -> dict[str, Any]:
    out = {}
    w = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    x = P.to_tensor([0.0, 0.0, 0.0])
    x.set_(w)
    out["from_trained"] = st(x)
    w = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    u = P.to_tensor([5.0, 6.0, 7.0], stop_gradient=False)
    x = u * 1
    x.set_(w * 2)  # x keeps its history: the gradient reaches u (of x's old values), not w
    out["non_leaf"] = st(x)
    (x * 2).sum().backward()
    out["non_leaf_w_grad"] = None if w.grad is None else st(w.grad)["values"]
    out["non_leaf_u_grad"] = st(u.grad)["values"]
    return out


def set_errors(P: Any) -> dict[str, Any]:
    return {
        "source_list": _error(lambda: P.to_tensor([1.0, 2.0]).set_([1.0, 2.0])),
        "source_array": _error(lambda: P.to_tensor([1.0, 2.0]).set_(np.ones(2, np.float32))),
        "leaf_trains": _error(lambda: P.to_tensor([1.0, 2.0], stop_gradient=False).set_(P.to_tensor([1.0]))),
        "leaf_trains_no_source": _error(lambda: P.to_tensor([1.0, 2.0], stop_gradient=False).set_()),
    }


# ---- a Tensor saved for backward, then changed in place ----------------------------------------------------------------
def saved(P: Any) -> dict[str, Any]:
    out = {}
    for how in ["resize_same", "resize_shrink", "set_same"]:
        w = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        a = w * 1
        b = a * a  # (a is saved for the gradient)
        if how == "resize_same":
            a.resize_([3])
        elif how == "resize_shrink":
            a.resize_([2])
        else:
            a.set_(P.to_tensor([5.0, 6.0, 7.0]))
        out[how] = _error(lambda b=b: b.sum().backward())
    return out


# ---- create_tensor ----------------------------------------------------------------------------------------------------
def create(P: Any) -> dict[str, Any]:
    make = P.tensor.create_tensor if hasattr(P, "tensor") else P.create_tensor
    out = {}
    for dt in ["float32", "int64", "bool", "float16", "int8", "complex64", "float", None]:
        t = make(dt)
        out[f"dtype_{dt}"] = {"shape": list(t.shape), "dtype": str(t.dtype).replace("paddle.", ""),
                              "named": t.name.startswith("create_tensor_"), "persistable": t.persistable,
                              "stop_gradient": t.stop_gradient}
    t = make("float32", name="abc", persistable=True)
    out["named"] = [t.name, t.persistable]
    P.assign(P.to_tensor([1.0, 2.0]), t)
    out["assigned"] = st(t)
    t = make("float32")
    P.assign(np.ones([2, 3], "float64"), t)
    out["assigned_other_dtype"] = st(t)
    t = make("float32")
    t.set_(P.to_tensor([3.0, 4.0]))
    out["set_"] = st(t)
    out["bad_dtype"] = _error(lambda: make("xx"))
    out["int_dtype"] = _error(lambda: make(5))
    return out


# ---- top_p_sampling ---------------------------------------------------------------------------------------------------
def top_p(P: Any) -> dict[str, Any]:
    fn = P.tensor.top_p_sampling if hasattr(P, "tensor") else P.top_p_sampling
    x = P.to_tensor([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]])
    return {"cpu_call": _error(lambda: fn(x, P.to_tensor([0.9, 0.5]))),
            "signature": [p for p in __import__("inspect").signature(fn).parameters]}


def _error(f: Callable[[], Any]) -> list[str] | None:
    try:
        f()
    except Exception as e:  # noqa: BLE001  (the type and first line are the record)
        return [type(e).__name__, str(e).split("\n")[0][:300]]
    return None


CASES = {"resize_plain": resize_plain, "resize_views": resize_views, "resize_grads": resize_grads,
         "resize_errors": resize_errors, "set_plain": set_plain, "set_sharing": set_sharing, "set_grads": set_grads,
         "set_errors": set_errors, "saved": saved, "create": create, "top_p": top_p}


def record(paddle: Any) -> dict[str, Any]:
    return {name: f(paddle) for name, f in CASES.items()}
