"""Cases found by the second set of whole programs (``tests/programs/p21_*`` to ``p30_*``), written as Paddle code:
``record(paddle)`` runs them with the given library and returns what they give (values, gradients, the type of
each error). ``record_paddle_program_diffs_b.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_b.json``; ``test_program_diffs_b.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _grad, _v


def fill_diagonal(paddle: Any, out: dict[str, Any]) -> None:
    """``Tensor.fill_diagonal_`` (p25: masking a similarity matrix's diagonal) by Paddle's kernel: offsets within
    a row, a tall matrix filled every ``cols + 1`` rows with ``wrap``, a tensor of more than 2 dimensions at flat
    steps of the sum of its strides; the filled entries' gradient is zero. ``fill_diagonal_tensor`` gives no
    gradient to ``y``."""
    x = paddle.arange(12, dtype="float32").reshape([4, 3])
    y = paddle.arange(21, dtype="float32").reshape([7, 3])
    cases = {
        "plain": lambda: x.clone().fill_diagonal_(-1.0),
        "offset1": lambda: x.clone().fill_diagonal_(-1.0, offset=1),
        "offset_neg": lambda: x.clone().fill_diagonal_(-1.0, offset=-1),
        "wide": lambda: x.T.clone().fill_diagonal_(-1.0, offset=-1),
        "wrap": lambda: y.clone().fill_diagonal_(-1.0, wrap=True),
        "nowrap": lambda: y.clone().fill_diagonal_(-1.0, wrap=False),
        "wrap_offset": lambda: y.clone().fill_diagonal_(-1.0, offset=1, wrap=True),
        "cube": lambda: paddle.arange(27, dtype="float32").reshape([3, 3, 3]).fill_diagonal_(-1.0),
        "uneven_3d": lambda: paddle.arange(24, dtype="float32").reshape([2, 3, 4]).fill_diagonal_(-1.0),
        "int_float_value": lambda: paddle.arange(6).reshape([2, 3]).fill_diagonal_(2.7),
        "bool_value": lambda: paddle.ones([2, 2]).fill_diagonal_(True),
        "far_offset": lambda: paddle.zeros([3, 3]).fill_diagonal_(1.0, offset=5),
    }
    for name, f in cases.items():
        r = f()
        out[f"fill_diag_{name}"] = [_v(r), str(r.dtype)]
    a = paddle.ones([3, 3])
    a.stop_gradient = False
    b = a * 2
    r = b.fill_diagonal_(5.0)
    (b * paddle.arange(9, dtype="float32").reshape([3, 3])).sum().backward()
    out["fill_diag_grad"] = [_v(b), _grad(a), r is b]
    leaf = paddle.ones([2, 2])
    leaf.stop_gradient = False
    out["fill_diag_leaf"] = _attempt(lambda: leaf.fill_diagonal_(1.0))

    x = paddle.zeros([3, 4])
    x.stop_gradient = False
    yv = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    o = x.fill_diagonal_tensor(yv)
    (o * paddle.arange(12, dtype="float32").reshape([3, 4])).sum().backward()
    out["fdt_grad"] = [_v(o), _grad(x), _grad(yv)]
    z = paddle.zeros([2, 3, 4])
    out["fdt_3d"] = [_v(z.fill_diagonal_tensor(paddle.ones([4, 2]))),
                     _v(z.fill_diagonal_tensor(paddle.ones([3, 2]) * 5, offset=1, dim1=0, dim2=2)),
                     _v(z.fill_diagonal_tensor(paddle.ones([2, 3]) * 5, dim1=1, dim2=2))]
    w = paddle.zeros([3, 3])
    r = w.fill_diagonal_tensor_(paddle.to_tensor([1.0, 2.0, 3.0]))
    out["fdt_inplace"] = [_v(w), r is w]
    out["fdt_bad_shape"] = [_attempt(lambda: paddle.zeros([3, 3]).fill_diagonal_tensor(paddle.ones([2]))),
                            _attempt(lambda: paddle.zeros([3, 3]).fill_diagonal_tensor(paddle.ones([1])))]


def linalg_additions(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.linalg`` functions a scientific program (p27) reaches for: ``svdvals``, ``matrix_exp``, ``vecdot``
    (conjugating x), ``lu_solve`` with the pivots of ``lu`` ('N' and 'T', batches broadcast) and their gradients;
    ``cholesky_inverse`` / ``cholesky_solve`` / ``matrix_transpose`` under ``paddle.linalg``.

    Not mirrored: Paddle's gradient of ``lu_solve(..., trans='T')`` with respect to the factor is wrong (it does not
    match finite differences of ``solve(A.T, b)``; that of b is right): pylayer_jax differentiates the solve, so
    that case records the value and b's gradient only."""
    la = paddle.linalg
    w = paddle.to_tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0], [0.3, -0.2, 1.0]])

    def grads(f: Any, *vals: Any) -> Any:
        ts = [paddle.to_tensor(v, stop_gradient=False) for v in vals]
        r = f(*ts)
        (r * paddle.linspace(0.5, 1.5, int(np.prod(r.shape))).reshape(r.shape)).sum().backward()
        return [_v(r), *[_grad(t) for t in ts]]

    a = np.array([[2.0, 1.0, 0.5], [0.3, 3.0, 1.0], [0.2, -0.4, 1.5]], "float32")
    b = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]], "float32")
    out["svdvals"] = grads(la.svdvals, a)
    out["svdvals_batch"] = _v(la.svdvals(paddle.to_tensor(np.stack([a, a.T * 2, a[:, ::-1]]))))
    out["matrix_exp"] = grads(la.matrix_exp, a * 0.5)
    out["matrix_exp_f64"] = _v(la.matrix_exp(paddle.to_tensor(a.astype("float64"))))
    x = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], "float32")
    out["vecdot"] = grads(la.vecdot, x, np.array([2.0, -1.0, 0.5], "float32"))
    out["vecdot_axis0"] = _v(la.vecdot(paddle.to_tensor(x), paddle.to_tensor(x), axis=0))
    vc = la.vecdot(paddle.to_tensor(np.array([1 + 2j, 3 - 1j])), paddle.to_tensor(np.array([2 - 1j, 1j])))
    out["vecdot_complex"] = [float(vc.real()), float(vc.imag())]
    out["vecdot_top"] = _v(paddle.vecdot(paddle.to_tensor(x), paddle.to_tensor(x)))
    vi = la.vecdot(paddle.ones([2], "int64"), paddle.ones([2], "int64"))
    out["vecdot_int"] = [_v(vi), str(vi.dtype)]
    out["vecdot_bad"] = _attempt(lambda: la.vecdot(paddle.to_tensor(x), paddle.ones([2])))
    for trans in ("N", "T"):
        def solve(at: Any, bt: Any, trans: str = trans) -> Any:
            lu, piv = la.lu(at)
            return la.lu_solve(bt, lu, piv, trans=trans)
        r = grads(solve, a, b)
        out[f"lu_solve_{trans}"] = r if trans == "N" else [r[0], r[2]]
    ab = np.stack([np.eye(3) * 2 + 0.1 * np.arange(9).reshape(3, 3), np.eye(3) + 0.2]).astype("float32")
    lub, pb = la.lu(paddle.to_tensor(ab))
    out["lu_solve_batch"] = [_v(la.lu_solve(paddle.ones([2, 3, 1]), lub, pb)), _v(la.lu_solve(paddle.ones([3, 1]), lub, pb))]
    L = la.cholesky(paddle.to_tensor([[4.0, 1.0], [1.0, 3.0]]))
    out["cholesky_linalg"] = [_v(la.cholesky_inverse(L)), _v(la.cholesky_solve(paddle.to_tensor([[1.0], [2.0]]), L)),
                              list(la.matrix_transpose(w[:2]).shape)]


def geometric(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.geometric`` (p24, a GNN): segment reductions over sorted ids (rows ``0..max(id)``, an empty segment
    zero, an integer mean truncated), message passing ``send_u_recv`` / ``send_ue_recv`` / ``send_uv`` (out_size,
    1-D inputs as columns, feature dims broadcast after the first axis, 'div' as a product with ``1 / (y + 1e-12)``),
    their gradients (max and min give every tied input the whole cotangent), ``reindex_graph`` /
    ``reindex_heter_graph``, and the errors. Not mirrored: Paddle's ``send_ue_recv`` backward fails when y needs no
    gradient or when ``out_size`` is not x's row count, and ``out_size`` given as a Tensor is a SystemError there (here
    it is read as an int)."""
    G = paddle.geometric
    T = paddle.to_tensor
    xv = [[1.0, 5.0], [4.0, 2.0], [2.0, 3.0], [0.5, 0.5]]
    src, dst = T([0, 1, 2, 0, 3]), T([1, 1, 0, 2, 1])

    done: list[tuple[str, Any, list[Any]]] = []

    def run(name: str, f: Any, *vals: Any) -> None:
        """``f`` on fresh leaves of ``vals``; recorded with the leaves' gradients of one backward over every result
        (weighted), taken at the end (each case has leaves of its own)."""
        ts = [T(v, stop_gradient=False) for v in vals]
        done.append((name, f(*ts), ts))

    for k in ("sum", "mean", "max", "min"):
        f = getattr(G, f"segment_{k}")
        run(f"seg_{k}", lambda x, f=f: f(x, T([0, 0, 2, 2])), xv)
        run(f"recv_{k}", lambda x, k=k: G.send_u_recv(x, src, dst, k), xv)
        run(f"ue_mul_{k}", lambda x, y, k=k: G.send_ue_recv(x, y, src, dst, "mul", k), xv, [[1.0], [2.0], [0.5], [3.0], [-1.0]])
    for k in ("max", "min"):
        f = getattr(G, f"segment_{k}")
        run(f"seg_{k}_ties", lambda x, f=f: f(x, T([0, 0, 0, 1], dtype="int32")), [[1.0, 2.0], [1.0, 3.0], [0.0, 3.0], [4.0, 4.0]])
        run(f"ue_add_{k}_ties", lambda x, y, k=k: G.send_ue_recv(x, y, src, dst, "add", k), [[1.0, 2.0], [2.0, 1.0], [1.0, 1.0], [0.0, 0.0]],
            [[1.0], [0.0], [0.5], [3.0], [1.0]])
    run("seg_mean_int", lambda: G.segment_mean(T([[1, 5], [4, 2], [2, 3], [7, -1]]), T([0, 0, 1, 1])))
    run("seg_max_1d", lambda: G.segment_max(T([1.0, 2.0, 3.0]), T([0, 2, 2])))
    run("recv_max_out6", lambda x: G.send_u_recv(x, src, dst, "max", out_size=6), xv)
    run("recv_mean_int", lambda: G.send_u_recv(T([[1], [2], [4], [7]]), src, dst, "mean"))
    run("recv_mean_1d", lambda x: G.send_u_recv(x, src.astype("int32"), dst.astype("int32"), "mean"), [1.0, 2.0, 4.0, 7.0])
    for m in ("add", "sub", "div"):
        run(f"ue_{m}_sum", lambda x, y, m=m: G.send_ue_recv(x, y, src, dst, m, "sum"), xv, [[1.0], [2.0], [0.5], [3.0], [-1.0]])
    for m in ("add", "sub", "mul", "div"):
        run(f"uv_{m}", lambda x, y, m=m: G.send_uv(x, y, src, dst, m), xv, [[1.0], [2.0], [3.0], [4.0]])
    run("ue_div_1d", lambda x, y: G.send_ue_recv(x, y, src, dst, "div", "sum", out_size=5), [1.0, 2.0, 4.0, 7.0],
        [[1.0, 2.0], [0.5, 1.0], [2.0, 2.0], [1.0, 3.0], [4.0, 0.5]])
    run("ue_int_mean", lambda: G.send_ue_recv(T([[1], [2], [4], [7]]), T([1, 2, 3, 4, 5]), src, dst, "mul", "mean"))
    run("uv_3d", lambda x, y: G.send_uv(x, y, src, dst, "mul"), [[[1.0, 2.0]], [[3.0, 4.0]], [[5.0, 6.0]], [[7.0, 8.0]]],
        [[1.0, 2.0], [0.5, 1.0], [2.0, 2.0], [1.0, 3.0]])
    run("ue_3d", lambda x, y: G.send_ue_recv(x, y, src, dst), [[[1.0, 2.0]], [[3.0, 4.0]], [[5.0, 6.0]], [[7.0, 8.0]]],
        [[3.0], [1.0], [2.0], [0.5], [1.5]])
    loss = sum((r * paddle.linspace(0.5, 2.0, int(np.prod(r.shape))).reshape(r.shape)).sum()
               for _, r, _ in done if paddle.is_floating_point(r))
    loss.backward()
    for name, r, ts in done:
        out[f"geo_{name}"] = [_v(r), str(r.dtype), list(r.shape), *[_grad(t) for t in ts]]
    x0 = T(xv)
    for name, f in {
        "unsorted": lambda: G.segment_sum(x0, T([1, 0, 1, 0])), "negative": lambda: G.segment_max(x0, T([-1, 0, 0, 1])),
        "badlen": lambda: G.segment_mean(x0, T([0, 0, 1])), "float_ids": lambda: G.segment_min(x0, T([0.0, 0.0, 1.0, 1.0])),
        "ids_2d": lambda: G.segment_sum(x0, T([[0, 0], [1, 1]])), "badop": lambda: G.send_u_recv(x0, src, dst, "prod"),
        "oob_dst": lambda: G.send_u_recv(x0, src, T([1, 1, 0, 2, 9])), "oob_src": lambda: G.send_u_recv(x0, T([0, 1, 2, 0, 9]), dst),
        "mixed_idx": lambda: G.send_u_recv(x0, src.astype("int32"), dst), "edge_len": lambda: G.send_u_recv(x0, src, dst[:3]),
        "small_out": lambda: G.send_u_recv(x0, src, dst, out_size=2), "bad_msg": lambda: G.send_ue_recv(x0, T([1.0] * 5), src, dst, "pow"),
        "y_rows": lambda: G.send_ue_recv(x0, T([1.0] * 4), src, dst), "y_feat": lambda: G.send_ue_recv(x0, T([[1.0, 2.0, 3.0]] * 5), src, dst),
        "y_dtype": lambda: G.send_ue_recv(x0, T([1.0] * 5, dtype="float64"), src, dst), "int_div": lambda: G.send_uv(T([[1], [2], [4], [7]]), T([[1], [2], [4], [7]]), src, dst, "div"),
        "count_int64": lambda: G.reindex_graph(T([0, 1, 2]), T([8, 9, 0, 4, 7, 6, 7]), T([2, 3, 2])),
        "nb_dtype": lambda: G.reindex_graph(T([0, 1, 2]), T([8, 9, 0, 4, 7, 6, 7], dtype="int32"), T([2, 3, 2], dtype="int32")),
    }.items():
        out[f"geo_err_{name}"] = _attempt(f)
    c = T([2, 3, 2], dtype="int32")
    for dt in ("int64", "int32"):
        r = G.reindex_graph(T([0, 1, 2], dtype=dt), T([8, 9, 0, 4, 7, 6, 7], dtype=dt), c)
        out[f"geo_reindex_{dt}"] = [[_v(t) for t in r], [str(t.dtype) for t in r]]
    r = G.reindex_heter_graph(T([0, 1, 2]), [T([8, 9, 0, 4, 7, 6, 7]), T([0, 2, 3, 5, 1])], [c, T([1, 3, 1], dtype="int32")])
    out["geo_reindex_heter"] = [_v(t) for t in r]


def compat_names(paddle: Any, out: dict[str, Any]) -> None:
    """Paddle 3's PyTorch- and NumPy-style names, which code written for 3.x uses: ``x.float()`` / ``x.long()`` /
    ``x.half()`` / ... (``astype``, x itself when the dtype is x's), ``vstack`` / ``row_stack`` / ``hstack`` /
    ``dstack`` / ``column_stack`` with their gradients, ``from_numpy`` (a copy), ``as_tensor`` / ``asarray``
    (``requires_grad``), ``paddle.pi`` / ``e`` / ``inf`` / ``nan`` / ``newaxis``. (A negative float cast to uint8
    is left out: Paddle's C++ cast wraps it, 254 for -2.7, where XLA's saturates to 0.)"""
    x = paddle.to_tensor([1.5, 2.7], stop_gradient=False)
    names = ("bool", "byte", "char", "double", "float", "float16", "float32", "float64", "half", "int", "int16", "int32",
             "int64", "int8", "long", "short", "uint8", "cfloat", "cdouble", "complex64", "complex128")
    out["compat_dtypes"] = [[str(getattr(x, n)().dtype), getattr(x, n)().stop_gradient] for n in names]
    for n in ("bool", "byte", "half", "long", "cfloat"):
        out[f"compat_{n}"] = np.real(getattr(x, n)().numpy()).astype(np.float64).tolist()
    out["compat_same"] = [x.float() is x, x.double() is x]
    (x.double() * 2).sum().backward()
    out["compat_grad"] = _grad(x)
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = paddle.to_tensor([[3.0, 4.0], [5.0, 6.0]], stop_gradient=False)
    for f in ("vstack", "row_stack", "column_stack", "hstack", "dstack"):
        args = [b, b] if f == "hstack" else [a, a] if f == "dstack" else [a, b]
        r = getattr(paddle, f)(args)
        (r * paddle.arange(int(np.prod(r.shape)), dtype="float32").reshape(r.shape)).sum().backward()
        out[f"compat_{f}"] = [_v(r), _grad(a), _grad(b)]
        a.clear_grad()
        b.clear_grad()
    s1, s2 = paddle.to_tensor(1.0), paddle.to_tensor(2.0)
    out["compat_stack_0d"] = [_v(paddle.hstack([s1, s2])), list(paddle.vstack([s1, s2]).shape),
                              list(paddle.column_stack([s1, s2]).shape), list(paddle.dstack([a, a]).shape),
                              _v(paddle.vstack(paddle.to_tensor([1.0, 2.0])))]
    n = np.array([1, 2], dtype="int32")
    t = paddle.from_numpy(n)
    n[0] = 9
    out["compat_from_numpy"] = [_v(t), str(t.dtype)]
    c = paddle.asarray(a)
    c[0] = 5.0
    out["compat_as"] = [paddle.as_tensor([1.0], requires_grad=True).stop_gradient, str(paddle.as_tensor(2.5).dtype),
                        str(paddle.as_tensor(a, dtype="float64").dtype), str(paddle.asarray(np.array([1.0])).dtype),
                        str(paddle.asarray(3).dtype), paddle.asarray([1, 2], dtype="float32", requires_grad=True).stop_gradient,
                        _v(a)]
    out["compat_constants"] = [paddle.pi, paddle.e, str(paddle.inf), str(paddle.nan), paddle.newaxis,
                               list(b[paddle.newaxis].shape)]
    out["compat_errors"] = [_attempt(lambda: paddle.from_numpy([1, 2])), _attempt(lambda: paddle.vstack([]))]


def tensor_members(paddle: Any, out: dict[str, Any]) -> None:
    """Paddle 3's PyTorch-style Tensor members: ``requires_grad`` (a bool property over ``stop_gradient``),
    ``requires_grad_()``, ``data`` (``detach()``: a write to it changes the tensor, and assigning a Tensor of the same
    shape and dtype writes its values), ``type_as``, ``is_same_shape``, ``ndimension``, ``is_cuda``,
    ``get_device``, ``itemsize``."""
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    r = [x.requires_grad]
    x.requires_grad = True
    r += [x.stop_gradient, x.requires_grad]
    y = paddle.ones([2])
    r += [y.requires_grad_() is y, y.stop_gradient]
    y.requires_grad_(False)
    r += [y.stop_gradient, _attempt(lambda: setattr(x, "requires_grad", "yes"))]
    d = x.data
    d[0, 0] = 9.0
    r += [d.stop_gradient, d is x, _v(x)]
    x.data = paddle.zeros([2, 2])
    r += [_v(x), x.stop_gradient]
    lin = paddle.nn.Linear(2, 2)
    lin.weight.data = paddle.ones([2, 2])
    r += [_v(lin.weight), lin.weight.stop_gradient, sum(int(p.numel()) for p in lin.parameters() if p.requires_grad)]
    out["members_grad_data"] = r
    out["members_misc"] = [str(x.type_as(paddle.ones([1], "int64")).dtype), x.type_as(x) is x, x.ndimension(),
                           x.is_cuda, x.get_device(), x.itemsize,
                           [paddle.ones([2], dt).itemsize for dt in ("int64", "bfloat16", "complex128", "bool", "int8")],
                           x.is_same_shape(paddle.ones([2, 2])), x.is_same_shape(paddle.ones([3])),
                           _attempt(lambda: x.is_same_shape([1, 2]))]


def detach_writes(paddle: Any, out: dict[str, Any]) -> None:
    """A write through ``detach()`` or ``.data`` of a tensor with a history changes its values and leaves its
    history as it was (data shared outside autograd), as in Paddle: the gradient of ``(w * 3).sum()`` stays 3s. (It
    was zero: the tensor took the detached write's history.) A write through an ordinary view keeps this package's
    rule (the gradient of the new values), which the README describes."""
    def run(f: Any) -> Any:
        w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        h = w * 3
        f(h)
        h.sum().backward()
        return [_v(h), _grad(w)]

    def setitem(h: Any) -> None:
        d = h.detach()
        d[0] = 100.0

    def slice_mul(h: Any) -> None:
        v = h.detach()[0:1]
        v.mul_(paddle.to_tensor(10.0))

    out["detach_set"] = run(setitem)
    out["detach_add"] = run(lambda h: h.detach().add_(paddle.to_tensor(1.0)))
    out["detach_slice_mul"] = run(slice_mul)
    out["data_add"] = run(lambda h: h.data.add_(paddle.to_tensor(1.0)))
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    h = w * 3
    h2 = h[1:]
    d = h.detach()
    d[1] = 5.0
    (h2 * h2).sum().backward()
    out["detach_sibling_view"] = [_v(h2), _grad(w)]


CASES = (fill_diagonal, linalg_additions, geometric, compat_names, tensor_members, detach_writes)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
