"""View cases shared by ``record_paddle_views.py`` (run with Paddle 3.3.1) and ``tensor/test_views.py``.

Each case is Paddle code, run with ``paddle`` bound to Paddle or to pylayer_jax, that sets ``out``: a list of values
(Tensors, numbers, bools, None). ``X(sg)`` is ``arange(6).reshape([2, 3])`` in float32 with stop_gradient ``sg``,
``T(v, sg)`` a float32 tensor. ``run`` gives the values as JSON-ready data, or the exception's type and first line.
"""

from __future__ import annotations

from typing import Any

PRELUDE = """
def X(sg=True):
    x = paddle.arange(6, dtype='float32').reshape([2, 3])
    x.stop_gradient = sg
    return x

def T(v, sg=True):
    return paddle.to_tensor(v, dtype='float32', stop_gradient=sg)

def g(t):
    return None if t is None else t
"""

# which ops give views: a write through the result reaches x (``w_``), and a write to x reaches the result (``r_``)
VIEW_OPS = {
    "int": "x[0]",
    "neg_int": "x[-1]",
    "two_ints": "x[0, 1]",
    "col": "x[:, 1]",
    "slice": "x[0:1]",
    "step_slice": "x[:, ::2]",
    "none": "x[None]",
    "ellipsis": "x[..., 1]",
    "int0d_tensor": "x[paddle.to_tensor(0)]",
    "reshape": "x.reshape([3, 2])",
    "reshape_same": "x.reshape([2, 3])",
    "fn_reshape": "paddle.reshape(x, [6])",
    "view": "x.view([3, 2])",
    "view_as": "x.view_as(paddle.zeros([3, 2]))",
    "flatten": "x.flatten()",
    "fn_flatten": "paddle.flatten(x)",
    "squeeze": "x[None].squeeze(0)",
    "squeeze_noop": "x.squeeze()",
    "unsqueeze": "x.unsqueeze(0)",
    "fn_unsqueeze": "paddle.unsqueeze(x, 1)",
    "transpose": "x.transpose([1, 0])",
    "fn_transpose": "paddle.transpose(x, [1, 0])",
    "t": "x.t()",
    "T": "x.T",
    "moveaxis": "paddle.moveaxis(x, 0, 1)",
    "permute": "x.permute(1, 0)",
    "swapaxes": "paddle.swapaxes(x, 0, 1)",
    "atleast_2d": "paddle.atleast_2d(x)",
    "atleast_3d": "paddle.atleast_3d(x)",
    "detach": "x.detach()",
    "unbind0": "paddle.unbind(x, 0)[1]",
    "unbind1": "paddle.unbind(x, 1)[0]",
    "diagonal": "x.diagonal()",
    "narrow": "x.narrow(1, 1, 2)",
    "slice_fn": "paddle.slice(x, [1], [1], [3])",
    "strided_slice": "paddle.strided_slice(x, [1], [0], [3], [2])",
    "T_int": "x.T[0]",
    "row_slice": "x[0][1:]",
    "col_slice_T": "x[:, 1:].T",
    "rows_reshape": "x[0:1].reshape([3])",
    "detach_reshape": "x.detach().reshape([6])",
    "T_unsqueeze": "x.T.unsqueeze(0)",
    "unfold": "x.unfold(1, 1, 2)",
    "fn_unfold": "paddle.unfold(x, 0, 1, 1)",
    "as_strided": "paddle.as_strided(x, [2, 2], [3, 1])",
    "as_strided_method": "x.as_strided([3], [2], 1)",
    "mT": "x.mT",
    "contiguous": "x.contiguous()",
    # not views: copies
    "list_index": "x[[0]]",
    "tensor_index": "x[paddle.to_tensor([1])]",
    "mask": "x[x > 2]",
    "split": "paddle.split(x, 3, axis=1)[1]",
    "chunk": "paddle.chunk(x, 2, axis=0)[0]",
    "expand": "x[0:1].expand([2, 3])",
    "clone": "x.clone()",
    "cast": "x.cast('float32')",
    "assign": "paddle.assign(x)",
    "T_reshape": "x.T.reshape([6])",
    "T_flatten": "x.T.flatten()",
    "cols_reshape": "x[:, 1:].reshape([4])",
    "index_select": "paddle.index_select(x, paddle.to_tensor([0]))",
    "T_contiguous": "x.T.contiguous()",
}

CASES: dict[str, str] = {}
for _k, _e in VIEW_OPS.items():
    CASES["w_" + _k] = f"x = X(); y = {_e}; y.add_(T(100.)); out = [x, y]"
    CASES["r_" + _k] = f"x = X(); y = {_e}; x.add_(T(100.)); out = [x, y]"

CASES.update({
    # the kinds of write, through a view and to the base
    "w_setitem_col": "x = X(); y = x[:, 1]; y[0] = 55.; out = [x, y]",
    "w_setitem_T": "x = X(); y = x.T; y[0, 1] = 55.; out = [x, y]",
    "w_setitem_reshape": "x = X(); y = x.reshape([6]); y[4] = 55.; out = [x, y]",
    "w_setitem_list": "x = X(); y = x[0]; y[[0, 2]] = 55.; out = [x, y]",
    "w_chained_setitem": "x = X(); x[1][2] = 55.; x[:, 0][1] = 66.; out = [x]",
    "w_scale_T": "x = X(); x.transpose([1, 0]).scale_(2.); out = [x]",
    "w_zero_unsqueeze": "x = X(); x.unsqueeze(0).zero_(); out = [x]",
    "w_zero_detach": "x = X(); x.detach().zero_(); out = [x]",
    "w_fill_flatten": "x = X(); x.flatten().fill_(1.); out = [x]",
    "w_exp_col": "x = X(); y = x[:, 2]; y.exp_(); out = [x, y]",
    "w_copy_": "x = X(); y = x[1]; y.copy_(T([7., 8., 9.])); out = [x, y]",
    "w_set_value": "x = X(); y = x[:, 0]; y.set_value(T([7., 8.])); out = [x, y]",
    "w_clip_": "x = X(); y = x.reshape([3, 2]); y.clip_(1., 4.); out = [x, y]",
    "w_int_dtype": "x = paddle.arange(6).reshape([2, 3]); y = x[1]; y.add_(paddle.to_tensor(10)); out = [x, y]",
    "r_setitem": "x = X(); y = x[0]; z = x.T; x[0, 1] = 77.; out = [y, z]",
    "r_set_value": "x = X(); y = x[:, 1]; x.set_value(T([[9.] * 3] * 2)); out = [y]",
    "r_copy_": "x = X(); y = x.reshape([6]); x.copy_(paddle.full([2, 3], 8.)); out = [y]",
    "r_fill_": "x = X(); y = x.T; x.fill_(3.); out = [y]",
    "r_zero_": "x = X(); y = x[1]; x.zero_(); out = [y]",
    "is_contiguous": ("x = X(); out = [x.is_contiguous(), x.T.is_contiguous(), x[:, 1:].is_contiguous(), "
                      "x[1:].is_contiguous(), x[0].is_contiguous(), x.T.contiguous().is_contiguous(), "
                      "x.reshape([3, 2]).is_contiguous(), x[:, ::2].is_contiguous()]"),
    "r_unfold_overlapping": "x = X(); y = x.unfold(1, 2, 1); x.add_(T(100.)); out = [y]",
    # views of views and siblings
    "siblings": "x = X(); a = x[0]; b = x.reshape([6]); c = x.T; a.add_(T(100.)); out = [x, a, b, c]",
    "view_of_view": "x = X(); a = x[0]; b = a[1:]; b.zero_(); out = [x, a, b]",
    "view_of_view_T": "x = X(); a = x.T; b = a[1]; b.fill_(-1.); out = [x, a, b]",
    "view_of_detach": "x = X(); d = x.detach(); e = d[1]; e.add_(T(10.)); out = [x, d, e]",
    "view_after_write": "x = X(); y = x[0]; y.add_(T(1.)); z = x[0]; z.add_(T(1.)); out = [x, y, z]",
    "base_dropped": "x = X(); y = x[0]; z = x[1]; del x; y.add_(T(5.)); out = [y, z]",
    "two_writes": "x = X(); y = x[:, 0]; y.add_(T(1.)); x.add_(T(10.)); y.add_(T(100.)); out = [x, y]",
    "loop_rows": ("x = X()\nfor r in x:\n    r.scale_(2.)\nout = [x]"),
    # in-place shape ops and a view
    "reshape_base": "x = X(); y = x[0]; x.reshape_([3, 2]); y.add_(T(100.)); out = [x, y]",
    "unsqueeze_base": "x = X(); y = x[1]; x.unsqueeze_(0); y.zero_(); out = [x, y]",
    "cast_base": "x = X(); y = x[0]; x.cast_('float64'); y.add_(T(100.)); out = [x, y]",
    # version counters: shared by a base and its views
    "versions": ("x = X(); y = x[0]; z = x.reshape([6]); out = [x.inplace_version, y.inplace_version, z.inplace_version]\n"
                 "y.add_(T(1.)); out += [x.inplace_version, y.inplace_version, z.inplace_version]\n"
                 "x.add_(T(1.)); out += [x.inplace_version, y.inplace_version, z.inplace_version]\n"
                 "y[0] = 3.; out += [x.inplace_version, y.inplace_version, z.inplace_version]"),
    "versions_later_view": "w = X(); w.add_(T(1.)); v = w[0]; out = [w.inplace_version, v.inplace_version]",
    "versions_detach": "x = X(); y = x.detach(); y.add_(T(1.)); out = [x.inplace_version, y.inplace_version]",
    "versions_copy": "x = X(); y = x[[0]]; y.add_(T(1.)); out = [x.inplace_version, y.inplace_version]",
    # stop_gradient of views
    "sg_views": ("x = X(False); h = x * 1\n"
                 "out = [x[0].stop_gradient, h[0].stop_gradient, x.detach().stop_gradient, "
                 "x.reshape([6]).stop_gradient, x.T.stop_gradient, x.unsqueeze(0).stop_gradient, x[0].is_leaf, "
                 "x.detach().is_leaf]"),
    # autograd: a write through a view of a tensor that requires grad or has a history
    "ag_leaf_view_add": "x = X(False); y = x[0]; y.add_(T(1.)); out = [x, y.stop_gradient, x.is_leaf]",
    "ag_leaf_reshape_add": "x = X(False); y = x.reshape([6]); y.add_(T(1.)); out = [x]",
    "ag_leaf_detach_zero": "x = X(False); d = x.detach(); d.zero_(); (x * x).sum().backward(); out = [x, x.grad]",
    "ag_no_grad_view_add": ("x = X(False); y = x[0]\nwith paddle.no_grad():\n    y.add_(T(1.))\n"
                            "(x * x).sum().backward(); out = [x, x.grad]"),
    "ag_view_loss": "x = X(False); h = x * 1; y = h[0]; y.mul_(T(2.)); (y * y).sum().backward(); out = [h, y, x.grad]",
    "ag_siblings": "x = X(False); h = x * 1; a = h[0]; b = h[1]; a.mul_(T(2.)); (b * a).sum().backward(); out = [h, x.grad]",
    "ag_base_loss": "x = X(False); h = x * 1; y = h[0]; y.mul_(T(2.)); h.sum().backward(); out = [h, x.grad]",
    "ag_base_loss_sq": "x = X(False); h = x * 1; y = h[0]; y.mul_(T(2.)); (h * h).sum().backward(); out = [h, x.grad]",
    "ag_base_loss_w": ("x = X(False); w = T([1., 2., 3.], False); h = x * 1; y = h[0]; y.add_(w)\n"
                       "(h * h).sum().backward(); out = [h, x.grad, w.grad]"),
    "ag_base_write_view_loss": ("x = X(False); h = x * 1; v = h[0]; h.mul_(T(3.)); (v * v).sum().backward(); "
                                "out = [v, x.grad]"),
    "ag_setitem_view": "x = X(False); h = x * 1; v = h[:, 1]; v[0] = 55.; (h * h).sum().backward(); out = [h, x.grad]",
    "ag_scale_T": "x = X(False); h = x * 1; h.transpose([1, 0]).scale_(2.); (h * h).sum().backward(); out = [h, x.grad]",
    "ag_sg_base_w": ("x = X(); v = x[0]; w = T([1., 2., 3.], False); v.mul_(w); (x * x).sum().backward()\n"
                     "out = [x, w.grad, x.stop_gradient, v.stop_gradient, x.is_leaf, v.is_leaf]"),
    "ag_sg_view_w": ("x = X(); v = x[0]; w = T([1., 2., 3.], False); x.mul_(w); (v * v).sum().backward()\n"
                     "out = [v, w.grad, v.stop_gradient]"),
    "ag_saved_stale": "x = X(False); h = x * 1; z = h * h; v = h[0]; v.mul_(T(2.)); z.sum().backward(); out = [x.grad]",
    "ag_saved_out": "x = X(False); h = x * 1; z = h.exp(); v = h[0]; v.mul_(T(2.)); z.sum().backward(); out = [x.grad]",
})


def run(paddle: Any, code: str) -> dict[str, Any]:
    """Run one case: ``{"out": [...]}`` with Tensors as ``{"value", "dtype", "shape"}``, or ``{"error": [type, line]}``."""
    env: dict[str, Any] = {"paddle": paddle}
    try:
        exec(PRELUDE + code, env)  # noqa: S102  (the cases above: Paddle code run with either library)
    except Exception as e:  # noqa: BLE001  (recorded as the case's result)
        return {"error": [type(e).__name__, (str(e).strip().splitlines() or [""])[0][:300]]}
    return {"out": [_plain(v) for v in env["out"]]}


def _plain(v: Any) -> Any:
    if hasattr(v, "numpy") and hasattr(v, "stop_gradient"):
        return {"value": v.numpy().tolist(), "dtype": str(v.dtype).replace("paddle.", ""), "shape": list(v.shape)}
    return v
