"""Record Paddle 3.3.1's results for call forms and APIs of ordinary code into tests/data/paddle_surface.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_surface.py``. Each case is an expression over
``a`` (float32 [2, 3]), ``c`` (float32 [2, 3, 4]), ``v`` (float32 [4]), ``x`` (float32 [3, 4]), ``m`` (a bool
[3, 4] mask), ``n`` / ``n2`` (float32 with NaN), ``T`` (to_tensor), ``P`` (the library) and the helpers below;
the fixture stores the result's dtype, shape and values (an int result is stored as a 0-D int64).
``tests/tensor/test_surface_paddle.py`` evaluates the same expressions with pylayer_jax.

The cases: shapes and axes given one by one (``a.reshape(3, 2)``, ``a.view(-1, 2)``, ``a.expand(2, 2, 3)``,
``c.transpose(0, 2)`` swapping two axes, ``a.repeat(2, 1)``, ``P.zeros(2, 3)``) and a trailing positional
``name`` (``a.tile(2, 1)`` is ``tile(a, 2, name=1)``: the last axis repeated twice); ``norm`` with every ``p``
over vectors and matrices (``p=None`` over two axes is the spectral norm), ``vector_norm`` and ``matrix_norm``;
``searchsorted``, ``index_put``, ``masked_scatter``, ``scatter_nd``, ``cartesian_prod``, ``polar``,
``shard_index``, ``block_diag`` of a Tensor; the Tensor methods ``masked_select``, ``rank``, ``element_size``,
``copy_``; writes ``y[index] = value`` whose value has extra leading size-1 dimensions; ``assign`` of a Python
bool or numpy scalar (shape [1]); and ``argmax``/``argmin`` over NaN (skipped: an all-NaN row gives 0).
"""

import json
from pathlib import Path

import numpy as np

INF = float("inf")


def setitem(P, shape, index, vshape):  # noqa: ANN001, ANN201, N803
    """zeros(shape) with ``[index] = arange(1, ...)`` of shape ``vshape`` written in."""
    y = P.zeros(shape)
    y[index] = P.to_tensor(np.arange(1, int(np.prod(vshape)) + 1, dtype="float32").reshape(vshape))
    return y


def copied(P, dst_shape, src):  # noqa: ANN001, ANN201, N803
    y = P.zeros(dst_shape)
    y.copy_(src)
    return y


def put_(P, x, indices, value):  # noqa: ANN001, ANN201, N803
    y = x.clone()
    y.index_put_(indices, value)
    return y


S = slice(None)
CASES = [
    "a.reshape(3, 2)", "P.reshape(a, 3, 2)", "a.reshape(-1)", "c.reshape(4, -1)", "c.reshape(0, -1)",
    "a.reshape(T(3), 2)", "a.reshape([3, 2], None)", "a.view(3, 2)", "P.view(a, 3, 2)", "a.view(-1, 2)",
    "a.expand(2, 2, 3)", "P.expand(a, 2, 2, 3)", "a.expand(-1, 3)", "c.expand(2, -1, -1, -1)",
    "c.transpose(0, 2)", "c.transpose(-1, 0)", "P.transpose(c, 2, 1)", "c.transpose([2, 0, 1])",
    "c.transpose([2, 0, 1], None)", "a.permute(1, 0)", "P.permute(c, 2, 0, 1)",
    "a.tile(2, 1)", "a.tile(2)", "P.tile(a, 2, 1)", "a.tile([2, 1], None)", "a.repeat(2, 1)", "a.repeat(2, 1, 3)",
    "P.zeros(2, 3)", "P.ones(2, 3, 4)", "P.zeros(size=[2, 3])", "P.zeros(2, 3, dtype='int32')", "P.empty(3, 2).shape",
    "P.rand(2, 3).shape", "P.randn(2, 3).shape", "P.broadcast_to(a, [2, 2, 3], None)", "a.flip([0], None)",
    "a.unsqueeze(0, None)",
]
for x in ("v", "x", "c"):
    for p in (None, "fro", "nuc", INF, -INF, 0, 1, 2, -1, -2, 3, 0.5):
        for ax in (None, 0, -1, [0, 1], [-2, -1], [1]):
            if x == "v" and (ax in ([0, 1], [-2, -1], [1]) or p == "nuc"):
                continue  # (Paddle's results for a 1-D input over two axes are no norm)
            if p == "nuc" and (ax is None and x == "c" or isinstance(ax, int) or ax == [1]):
                continue  # (Paddle raises)
            if isinstance(ax, list) and len(ax) == 2 and p in (0, 3, 0.5):
                continue  # (Paddle raises)
            CASES.append(f"P.linalg.norm({x}, p={p!r}, axis={ax!r})")
CASES += ["P.norm(x, p=1, axis=1, keepdim=True)", "x.norm(p='fro')", "P.linalg.norm(x, ord=INF)",
          "P.linalg.norm(x, dim=1)", "P.linalg.norm(x, 2, 1)", "P.linalg.norm(x, dtype='float64')"]
for p in (INF, -INF, 0, 1, 2, 3, 0.5, -1):
    for ax in (None, 0, -1, [0, 1]):
        CASES.append(f"P.linalg.vector_norm(c, p={p!r}, axis={ax!r})")
CASES += ["P.linalg.vector_norm(x)", "P.linalg.vector_norm(x, 2, 1, True)", "P.linalg.vector_norm(x, ord=1)",
          "P.linalg.vector_norm(x, dtype='float64')"]
for p in ("fro", "nuc", INF, -INF, 1, -1, 2, -2):
    for ax in ([-2, -1], [0, 1], [1, 0], (0, 2)):
        CASES.append(f"P.linalg.matrix_norm(c, p={p!r}, axis={ax!r})")
    CASES.append(f"P.linalg.matrix_norm(x, p={p!r})")
CASES += ["P.linalg.matrix_norm(x, 'fro', [0, 1], True)"]
CASES += [
    "P.searchsorted(T([1.0, 3.0, 5.0, 7.0]), T([[0.0, 3.0, 6.0], [7.0, 8.0, 1.0]]))",
    "P.searchsorted(T([1.0, 3.0, 5.0, 7.0]), T([[0.0, 3.0, 6.0], [7.0, 8.0, 1.0]]), right=True)",
    "P.searchsorted(T([1.0, 3.0, 5.0, 7.0]), T([3.0, 4.0]), out_int32=True)",
    "P.searchsorted(T([1.0, 3.0, 5.0, 7.0]), T([3.0, 4.0]), side='right')",
    "P.searchsorted(T([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]), T([[3.0], [3.0]]))",
    "P.searchsorted(T([1, 3, 5]), T([3, 4]))", "P.bucketize(T([[0.0, 3.0], [7.0, 8.0]]), T([1.0, 3.0, 5.0, 7.0]))",
    "P.index_put(x, (T([0, 2]), T([1, 3])), T([10.0, 20.0]))", "P.index_put(x, (T([0, 2]),), T([1.0, 2.0, 3.0, 4.0]))",
    "P.index_put(x, (T([0, 2]), T([1, 3])), T(5.0))", "P.index_put(x, [T([-1]), T([-1])], T([10.0]))",
    "P.index_put(x, (T([0, 0]), T([1, 1])), T([10.0, 20.0]), accumulate=True)",
    "P.index_put(x, (T([True, False, True]),), T([10.0]))", "x.index_put((T([0]),), T([1.0]))",
    "put_(P, x, (T([1]),), T([7.0]))", "P.index_put_(x.clone(), (T([1]), T([2])), T([7.0]))",
    "P.masked_scatter(x, m, T(np.arange(100, 112, dtype='float32')))",
    "P.masked_scatter(x, T([True, False, True, False]), T(np.arange(100, 112, dtype='float32')))",
    "x.masked_scatter(m, T(np.arange(100, 112, dtype='float32').reshape(3, 4)))",
    "x.clone().masked_scatter_(m, T(np.arange(100, 112, dtype='float32')))",
    "P.scatter_nd(T([[1], [3], [1]]), T([9.0, 10.0, 11.0]), [5])",
    "P.scatter_nd(T([[1], [0]]), T([[9.0, 1.0, 2.0], [10.0, 3.0, 4.0]]), [2, 3])",
    "P.cartesian_prod([T([1, 2]), T([3, 4, 5])])", "P.cartesian_prod([T([1, 2, 3])])",
    "P.cartesian_prod([T([1.0, 2.0]), T([3.0, 4.0]), T([5.0])])", "P.cartesian_prod((T([1, 2]), T([3])))",
    "P.polar(T([1.0, 2.0]), T([0.0, 1.5]))", "P.polar(T(np.array([1.0, 2.0])), T(np.array([0.5, 1.0])))",
    "P.polar(T([[1.0], [2.0]]), T([0.0, 1.0]))", "T([1.0, 2.0]).polar(T([0.5, 1.0]))",
    "P.shard_index(T([[16], [1], [8], [19]]), 20, 2, 0)", "P.shard_index(T([[16], [1], [8], [19]]), 20, 2, 1)",
    "P.shard_index(T([[16], [1], [8], [19]]), 20, 3, 1, ignore_value=-5)",
    "P.shard_index(T(np.array([[16], [1]], 'int32')), 20, 2, 0)", "T([[16], [1]]).shard_index(20, 2, 0)",
    "P.block_diag([T([[1.0, 2.0]]), T([[3.0], [4.0]])])", "P.block_diag([T(1.0), T([2.0, 3.0])])",
    "P.block_diag([a, a], None)", "a.block_diag()", "P.block_diag(a, a)",
    "x.masked_select(m)", "x.masked_select(T([True, False, True, False]))", "x.rank()", "P.rank(c)",
    "x.element_size()", "T(np.zeros(2)).element_size()", "T([1]).element_size()", "T([True]).element_size()",
    "x.astype('float16').element_size()", "x.astype('bfloat16').element_size()", "T([1]).astype('uint8').element_size()",
    "copied(P, [3, 4], x)", "copied(P, [4], x)", "copied(P, [3, 4], T([1.0, 2.0]))",
]
for shape, index, vshape in [
        ([3, 3], (0, S), [1, 3]), ([3, 3], (0, S), [1, 1, 3]), ([3, 3], 0, [1, 3]), ([3, 3], (0, 1), [1]),
        ([3, 3], (0, 1), [1, 1]), ([3, 3], (0, 1), [1, 1, 1]), ([2, 3, 4], (0,), [1, 3, 4]),
        ([2, 3, 4], (0, S, 1), [1, 3]), ([2, 3, 4], (0, 1), [1, 1, 4]), ([2, 3, 4], (S, 0), [1, 2, 4]),
        ([3, 3], (S, 0), [1, 3]), ([3, 3], (slice(0, 2), S), [1, 2, 3]), ([3, 3], (slice(0, 2), S), [1, 3]),
        ([3], (0,), [1, 1]), ([3], (S,), [1, 3]), ([3], (S,), [1, 1, 3]), ([3, 3], (Ellipsis, 0), [1, 3]),
        ([3, 3], (None, 0), [1, 3]), ([3, 3], (None, 0), [1, 1, 3]), ([3, 3], (0, S), [3]), ([3, 3], (0, S), [1])]:
    CASES.append(f"setitem(P, {shape}, {index!r}, {vshape})".replace("slice(None, None, None)", "S"))
CASES += [f"P.assign({v})" for v in ("True", "False", "np.float32(1.5)", "np.float64(1.5)", "np.int64(3)",
                                     "np.int32(3)", "np.bool_(True)", "np.float16(1.5)", "np.array(True)",
                                     "np.array(1.5)", "1.5", "[True]")]
for f in ("argmax", "argmin"):
    CASES += [f"P.{f}(n)", f"P.{f}(n2, 0)", f"P.{f}(n2, 1)", f"P.{f}(n2)", f"P.{f}(n2, 1, keepdim=True)",
              f"P.{f}(T(np.array([INF, np.nan, -INF], 'float32')))", f"P.{f}(T(np.array([np.nan, np.nan], 'float32')))",
              f"P.{f}(T(np.array([np.nan, -INF], 'float32')))", f"P.{f}(T(np.array([-INF, np.nan], 'float32')))",
              f"P.{f}(T(np.array([np.nan, INF, 2.0], 'float32')))", f"P.{f}(n.astype('float64'))"]


def namespace(lib):  # noqa: ANN001, ANN201
    """The operands and helpers every case may use (fresh for each case)."""
    t = lib.to_tensor
    return {"P": lib, "np": np, "T": t, "INF": INF, "inf": INF, "S": S, "setitem": setitem, "copied": copied, "put_": put_,
            "a": t(np.arange(6, dtype="float32").reshape(2, 3)),
            "c": t(np.arange(24, dtype="float32").reshape(2, 3, 4) - 10),
            "v": t(np.array([1.5, -2.0, 0.0, 3.0], "float32")),
            "x": t(np.array([[1.5, -2.0, 3.0, 0.5], [0.5, 3.0, -1.0, 2.0], [-4.0, 1.0, 0.0, 2.5]], "float32")),
            "m": t(np.array([[True, False, True, False], [False, True, False, False], [True, True, True, True]])),
            "n": t(np.array([1.0, np.nan, 3.0, np.nan, 0.5], "float32")),
            "n2": t(np.array([[1.0, np.nan, 2.0], [3.0, 0.5, np.nan], [np.nan, 5.0, 1.0]], "float32"))}


def as_record(r, lib):  # noqa: ANN001, ANN201
    """(dtype, shape, values) of a case's result: a Tensor, an int, or a shape (a list of ints)."""
    if isinstance(r, lib.Tensor):
        v = r.numpy()
        if np.iscomplexobj(v):
            return str(r.dtype).replace("paddle.", ""), list(v.shape), [v.real.tolist(), v.imag.tolist()]
        return str(r.dtype).replace("paddle.", ""), list(v.shape), v.astype(np.float64).tolist()
    if isinstance(r, int):
        return "int", [], r
    return "shape", [len(r)], [int(d) for d in r]


if __name__ == "__main__":
    import paddle

    out = []
    for code in CASES:
        dtype, shape, values = as_record(eval(code, namespace(paddle)), paddle)
        out.append({"expr": code, "dtype": dtype, "shape": shape, "values": values})
    path = Path(__file__).parent / "data" / "paddle_surface.json"
    path.write_text(json.dumps({"cases": out}, indent=1))
