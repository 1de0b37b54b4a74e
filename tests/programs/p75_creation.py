"""Tensor creation as real code does it: ``paddle.full`` / ``full_like`` / ``zeros`` / ``ones`` / ``empty`` /
``empty_like`` with the dtype given as a string, a paddle dtype, a numpy dtype and None (the dtype inferred from the
fill value: Python int, float, bool, numpy scalar, 0-D Tensor); ``arange`` with int / float / Tensor start, stop and
step and the dtype of its result; ``linspace`` / ``logspace`` (num=1, integer dtype, base); ``eye`` (num_columns,
dtype); ``diag`` / ``diagflat`` / ``diag_embed`` with offsets and ``padding_value``; ``tril_indices`` /
``triu_indices`` with offsets; ``meshgrid`` (a list vs varargs); ``to_tensor`` from Python scalars, nested lists and
tuples, mixed int-float-bool, numpy arrays of every dtype, numpy scalars and Tensors (is the result a new tensor,
does ``stop_gradient`` carry), with ``place=`` and ``stop_gradient=``; ``paddle.assign`` of numpy arrays, lists and
tensors with ``output=``; ``paddle.clone``; ``Tensor.astype`` to the same dtype; ``paddle.complex`` / ``polar`` /
``vander``; ``tril`` / ``triu`` diagonals; shapes given as a list, tuple, Tensor or list with Tensor entries for
``empty`` / ``zeros`` / ``full`` / ``reshape`` / ``expand``; and a small model whose parameters are made from these
creation functions, trained a few steps by SGD.

Left out: Paddle 3.3.1's ``paddle.eye(n, dtype="bool")`` fails (RuntimeError: no kernel for bool); pylayer_jax
gives the boolean identity matrix. Paddle's ``to_tensor`` refuses a ``range`` and ``dtype=float`` (a Python type)
with a TypeError; pylayer_jax takes them as numpy does. Paddle's ``diag_embed`` has no gradient (its result has
``stop_gradient=True`` whatever the input); pylayer_jax's has one. ``paddle.to_tensor`` of a parameter is a parameter
again (persistable) in Paddle, a plain tensor here."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rec = {}
rng = np.random.default_rng(0)


def d(t):
    """dtype, shape and values of a tensor (complex as [real, imag])."""
    a = t.numpy()
    if a.dtype.kind == "c":
        vals = [a.real.astype("float64").tolist(), a.imag.astype("float64").tolist()]
    elif a.dtype.kind in "biu":
        vals = a.tolist()
    else:
        vals = a.astype("float64").tolist()
    return [str(t.dtype), list(t.shape), vals]


def attempt(f):
    try:
        return ["ok", f()]
    except Exception as e:  # the type is what users catch
        return ["error", type(e).__name__]


# --- full / zeros / ones with each way of giving the dtype ----------------------------------------------------
dtypes = {"str": "float64", "paddle": paddle.int32, "numpy": np.float16, "numpy_dtype_obj": np.dtype("int64"),
          "none": None, "bool_str": "bool"}
rec["full_dtype"] = {k: attempt(lambda v=v: d(paddle.full([2, 2], 3, dtype=v))) for k, v in dtypes.items()}
rec["zeros_dtype"] = {k: attempt(lambda v=v: d(paddle.zeros([2], dtype=v))) for k, v in dtypes.items()}
rec["ones_dtype"] = {k: attempt(lambda v=v: d(paddle.ones((1, 3), dtype=v))) for k, v in dtypes.items()}
fills = {"int": 7, "float": 2.5, "bool": True, "np_int32": np.int32(4), "np_float64": np.float64(1.25),
         "np_float32": np.float32(0.5), "np_bool": np.bool_(False), "tensor_f32": paddle.to_tensor(1.5),
         "tensor_i64": paddle.to_tensor(9), "tensor_f64": paddle.to_tensor(2.0, dtype="float64"),
         "tensor_i32": paddle.to_tensor(3, dtype="int32"), "neg_int": -2, "big_float": 1e20}
rec["full_infer"] = {k: attempt(lambda v=v: d(paddle.full([2], v))) for k, v in fills.items()}
rec["full_infer_dtype_given"] = {k: attempt(lambda v=v: d(paddle.full([2], v, dtype="float32")))
                                 for k, v in fills.items()}
base = paddle.to_tensor([[1, 2, 3]], dtype="int32")
basef = paddle.to_tensor([1.0, 2.0], dtype="float64")
rec["full_like"] = {
    "int_base_float_fill": attempt(lambda: d(paddle.full_like(base, 2.7))),
    "int_base_dtype": attempt(lambda: d(paddle.full_like(base, 2.7, dtype="float32"))),
    "float_base_int_fill": attempt(lambda: d(paddle.full_like(basef, 3))),
    "bool_fill": attempt(lambda: d(paddle.full_like(basef, True))),
    "tensor_fill": attempt(lambda: d(paddle.full_like(basef, paddle.to_tensor(4.5)))),
    "np_dtype": attempt(lambda: d(paddle.full_like(basef, 1, dtype=np.int64))),
    "zeros_like": attempt(lambda: d(paddle.zeros_like(base, dtype="bool"))),
    "ones_like": attempt(lambda: d(paddle.ones_like(basef, dtype=paddle.float32))),
    "ones_like_none": attempt(lambda: d(paddle.ones_like(base))),
}
rec["empty"] = {
    "list": attempt(lambda: [str((t := paddle.empty([2, 3])).dtype), t.shape]),
    "tuple": attempt(lambda: [str((t := paddle.empty((4,), dtype="int32")).dtype), t.shape]),
    "tensor_shape": attempt(lambda: paddle.empty(paddle.to_tensor([2, 5])).shape),
    "tensor_shape_i32": attempt(lambda: paddle.empty(paddle.to_tensor([3, 1], dtype="int32")).shape),
    "list_with_tensor": attempt(lambda: paddle.empty([paddle.to_tensor(2), 3]).shape),
    "np_dtype": attempt(lambda: str(paddle.empty([1], dtype=np.float64).dtype)),
    "like": attempt(lambda: [str((t := paddle.empty_like(base)).dtype), t.shape]),
    "like_dtype": attempt(lambda: [str((t := paddle.empty_like(base, dtype="float16")).dtype), t.shape]),
    "zero_size": attempt(lambda: paddle.empty([0, 2]).shape),
}
rec["shape_tensors"] = {
    "zeros_tensor_shape": attempt(lambda: d(paddle.zeros(paddle.to_tensor([2, 1])))),
    "ones_list_tensor": attempt(lambda: d(paddle.ones([paddle.to_tensor(2), paddle.to_tensor([1])]))),
    "full_tensor_shape": attempt(lambda: d(paddle.full(paddle.to_tensor([1, 2]), 5.0))),
    "full_int_shape": attempt(lambda: d(paddle.full(3, 1))),
    "zeros_int_shape": attempt(lambda: d(paddle.zeros(2))),
    "reshape_tensor": attempt(lambda: d(paddle.arange(6).reshape(paddle.to_tensor([3, 2])))),
    "reshape_list_tensor": attempt(lambda: d(paddle.arange(6).reshape([paddle.to_tensor(2), -1]))),
    "reshape_zero": attempt(lambda: d(paddle.reshape(paddle.arange(6).reshape([2, 3]), [0, 3]))),
    "expand_tensor": attempt(lambda: d(paddle.to_tensor([1, 2]).expand(paddle.to_tensor([3, 2])))),
    "expand_list_tensor": attempt(lambda: d(paddle.to_tensor([[1], [2]]).expand([2, paddle.to_tensor(3)]))),
    "expand_minus1": attempt(lambda: d(paddle.to_tensor([[1], [2]]).expand([-1, 2]))),
    "broadcast_to": attempt(lambda: d(paddle.broadcast_to(paddle.to_tensor([1.0]), [2, 2]))),
    "tile_tensor": attempt(lambda: d(paddle.tile(paddle.to_tensor([1, 2]), paddle.to_tensor([2, 1])))),
}

# --- arange / linspace / logspace ---------------------------------------------------------------------------------
rec["arange"] = {
    "int": attempt(lambda: d(paddle.arange(5))),
    "int_start_stop": attempt(lambda: d(paddle.arange(2, 7, 2))),
    "float_step": attempt(lambda: d(paddle.arange(0, 1, 0.25))),
    "float_end": attempt(lambda: d(paddle.arange(3.0))),
    "negative_step": attempt(lambda: d(paddle.arange(5, 0, -2))),
    "dtype_str": attempt(lambda: d(paddle.arange(4, dtype="float64"))),
    "dtype_int_from_float": attempt(lambda: d(paddle.arange(0.5, 4, 1.5, dtype="int32"))),
    "dtype_int_neg_float": attempt(lambda: d(paddle.arange(0, -4.9, -1.5, dtype="int64"))),
    "dtype_int_step_truncated_to_0": attempt(lambda: d(paddle.arange(0, 4, 0.5, dtype="int64"))),
    "tensor_end": attempt(lambda: d(paddle.arange(paddle.to_tensor(4)))),
    "tensor_float_end": attempt(lambda: d(paddle.arange(paddle.to_tensor(2.0)))),
    "tensor_start_stop": attempt(lambda: d(paddle.arange(paddle.to_tensor(1), paddle.to_tensor(6), 2))),
    "tensor_i32": attempt(lambda: d(paddle.arange(paddle.to_tensor(3, dtype="int32")))),
    "np_int": attempt(lambda: d(paddle.arange(np.int64(3)))),
    "bool_start": attempt(lambda: d(paddle.arange(True, 4))),
    "empty": attempt(lambda: d(paddle.arange(3, 3))),
    "fractional": attempt(lambda: d(paddle.arange(0.1, 0.5, 0.1))),
    "start_none_end": attempt(lambda: d(paddle.arange(3, None))),
}
rec["linspace"] = {
    "basic": attempt(lambda: d(paddle.linspace(0, 1, 5))),
    "num1": attempt(lambda: d(paddle.linspace(2, 7, 1))),
    "int_dtype": attempt(lambda: d(paddle.linspace(0, 10, 4, dtype="int32"))),
    "int64_dtype": attempt(lambda: d(paddle.linspace(-3, 3, 4, dtype="int64"))),
    "float64": attempt(lambda: d(paddle.linspace(0, 1, 3, dtype=paddle.float64))),
    "reverse": attempt(lambda: d(paddle.linspace(1, -1, 5))),
    "tensor_args": attempt(lambda: d(paddle.linspace(paddle.to_tensor(0.0), paddle.to_tensor(2.0),
                                                     paddle.to_tensor(3)))),
    "logspace": attempt(lambda: d(paddle.logspace(0, 3, 4))),
    "logspace_base2": attempt(lambda: d(paddle.logspace(0, 4, 5, base=2.0))),
    "logspace_num1": attempt(lambda: d(paddle.logspace(1, 5, 1))),
    "logspace_int": attempt(lambda: d(paddle.logspace(0, 2, 3, base=3, dtype="int64"))),
    "logspace_float64": attempt(lambda: d(paddle.logspace(-1, 1, 3, dtype="float64"))),
}

# --- eye / diag / tril / triu -------------------------------------------------------------------------------------
rec["eye"] = {
    "square": attempt(lambda: d(paddle.eye(3))),
    "rect": attempt(lambda: d(paddle.eye(2, 4))),
    "rect_tall": attempt(lambda: d(paddle.eye(3, num_columns=2, dtype="int32"))),
    "np_dtype": attempt(lambda: d(paddle.eye(2, dtype=np.float64))),
    "tensor_rows": attempt(lambda: d(paddle.eye(paddle.to_tensor(2)))),
}
v = paddle.to_tensor([1.0, 2.0, 3.0])
m = paddle.arange(12, dtype="float32").reshape([3, 4])
rec["diag"] = {
    "vector": attempt(lambda: d(paddle.diag(v))),
    "vector_offset": attempt(lambda: d(paddle.diag(v, offset=1))),
    "vector_neg_offset_pad": attempt(lambda: d(paddle.diag(v, offset=-1, padding_value=9))),
    "matrix": attempt(lambda: d(paddle.diag(m))),
    "matrix_offset": attempt(lambda: d(paddle.diag(m, offset=2))),
    "matrix_neg": attempt(lambda: d(paddle.diag(m, offset=-1))),
    "int_vector_pad": attempt(lambda: d(paddle.diag(paddle.to_tensor([4, 5]), padding_value=-1))),
    "diagflat": attempt(lambda: d(paddle.diagflat(paddle.to_tensor([[1, 2], [3, 4]])))),
    "diagflat_offset": attempt(lambda: d(paddle.diagflat(v, offset=-2))),
    "diag_embed": attempt(lambda: d(paddle.diag_embed(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])))),
    "diag_embed_offset": attempt(lambda: d(paddle.diag_embed(v, offset=1))),
    "diag_embed_dims": attempt(lambda: d(paddle.diag_embed(paddle.to_tensor([[1.0, 2.0]]), offset=-1, dim1=0,
                                                           dim2=2))),
    "diagonal": attempt(lambda: d(paddle.diagonal(m, offset=1))),
}
rec["tri"] = {
    "tril": attempt(lambda: d(paddle.tril(m))),
    "tril_1": attempt(lambda: d(paddle.tril(m, 1))),
    "tril_neg": attempt(lambda: d(paddle.tril(m, diagonal=-1))),
    "triu": attempt(lambda: d(paddle.triu(m))),
    "triu_2": attempt(lambda: d(paddle.triu(m, diagonal=2))),
    "triu_neg": attempt(lambda: d(paddle.triu(m, -2))),
    "tril_batch": attempt(lambda: d(paddle.tril(paddle.ones([2, 2, 3], dtype="int32")))),
    "tril_indices": attempt(lambda: d(paddle.tril_indices(3, 3))),
    "tril_indices_off": attempt(lambda: d(paddle.tril_indices(4, 3, 1))),
    "tril_indices_neg": attempt(lambda: d(paddle.tril_indices(3, 4, -1, dtype="int32"))),
    "triu_indices": attempt(lambda: d(paddle.triu_indices(3))),
    "triu_indices_col": attempt(lambda: d(paddle.triu_indices(3, 5, 2))),
    "triu_indices_neg": attempt(lambda: d(paddle.triu_indices(4, 2, -1))),
}

# --- meshgrid / complex / polar / vander ---------------------------------------------------------------------------
xs, ys = paddle.to_tensor([1, 2, 3]), paddle.to_tensor([10.0, 20.0])
rec["meshgrid"] = {
    "varargs": attempt(lambda: [d(t) for t in paddle.meshgrid(xs, paddle.to_tensor([4, 5]))]),
    "list": attempt(lambda: [d(t) for t in paddle.meshgrid([ys, ys * 2])]),
    "tuple": attempt(lambda: [d(t) for t in paddle.meshgrid((ys, ys))]),
    "three": attempt(lambda: [list(t.shape) for t in paddle.meshgrid(ys, ys, paddle.to_tensor([0.0]))]),
    "mixed_dtypes": attempt(lambda: [list(t.shape) for t in paddle.meshgrid(xs, ys)]),
    "one": attempt(lambda: [d(t) for t in paddle.meshgrid(ys)]),
    "zero_d": attempt(lambda: [d(t) for t in paddle.meshgrid(paddle.to_tensor(1.0), ys)]),
}
re, im = paddle.to_tensor([1.0, -2.0]), paddle.to_tensor([0.5, 3.0])
rec["complex"] = {
    "complex": attempt(lambda: d(paddle.complex(re, im))),
    "complex64_f64": attempt(lambda: d(paddle.complex(re.astype("float64"), im.astype("float64")))),
    "complex_broadcast": attempt(lambda: d(paddle.complex(re.reshape([2, 1]), im))),
    "polar": attempt(lambda: d(paddle.polar(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([0.0, np.pi / 2])))),
    "vander": attempt(lambda: d(paddle.vander(paddle.to_tensor([1.0, 2.0, 3.0])))),
    "vander_n": attempt(lambda: d(paddle.vander(paddle.to_tensor([1, 2, 3]), n=2))),
    "vander_inc": attempt(lambda: d(paddle.vander(paddle.to_tensor([2.0, 3.0]), n=4, increasing=True))),
    "vander_n0": attempt(lambda: d(paddle.vander(paddle.to_tensor([2.0, 3.0]), n=0))),
}

# --- to_tensor ----------------------------------------------------------------------------------------------------
srcs = {
    "py_int": 3, "py_float": 2.5, "py_bool": False, "py_complex": 1 - 2j, "nested_tuple": ((1, 2), (3, 4)),
    "list_of_tuples": [(1.0, 2), (3, 4)], "mixed_bool_float": [True, 1.5], "mixed_all": [[1, 2.0], [True, 0]],
    "tuple_bools": (True, False), "empty_list": [], "list_of_arrays": [np.ones(2, "float32"), np.zeros(2, "float32")],
    "np_uint8": np.array([1, 255], dtype="uint8"), "np_int8": np.array([-1, 2], dtype="int8"),
    "np_int16": np.array([3], dtype="int16"), "np_int32": np.array([3], dtype="int32"),
    "np_float16": np.array([0.5], dtype="float16"), "np_float64": np.array([0.1]),
    "np_complex128": np.array([1 + 1j]), "np_complex64": np.array([2j], dtype="complex64"),
    "np_bool": np.array([[True]]), "np_0d": np.array(5.0), "np_scalar_i16": np.int16(7),
    "np_scalar_u8": np.uint8(200), "np_scalar_bool": np.bool_(True), "np_scalar_c64": np.complex64(1 + 3j),
    "np_noncontig": np.arange(12, dtype="float32").reshape(3, 4)[:, ::2],
    "int_beyond_int64": [2 ** 70], "int64_max": [2 ** 63 - 1],
}
rec["to_tensor"] = {k: attempt(lambda v=v: d(paddle.to_tensor(v))) for k, v in srcs.items()}
rec["to_tensor_dtype"] = {
    "float_list_int64": attempt(lambda: d(paddle.to_tensor([1.9, -1.9], dtype="int64"))),
    "int_list_float16": attempt(lambda: d(paddle.to_tensor([1, 2], dtype=np.float16))),
    "np_f64_to_f32": attempt(lambda: d(paddle.to_tensor(np.array([0.1, 0.2]), dtype="float32"))),
    "complex_from_real": attempt(lambda: d(paddle.to_tensor([1.0, 2.0], dtype="complex64"))),
    "bool_from_float": attempt(lambda: d(paddle.to_tensor([0.0, 0.3], dtype=paddle.bool))),
    "uint8_from_int": attempt(lambda: d(paddle.to_tensor([3, 4], dtype="uint8"))),
}
src = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
cp = paddle.to_tensor(src)
cp2 = paddle.to_tensor(src, stop_gradient=False)
cp3 = paddle.to_tensor(src, dtype="float64")
arr = np.array([1.0, 2.0], dtype="float32")
from_np = paddle.to_tensor(arr)
arr[0] = 100.0
rec["to_tensor_copy"] = {
    "stop_gradient": [src.stop_gradient, cp.stop_gradient, cp2.stop_gradient, cp3.stop_gradient],
    "is_new": [cp is src, cp2 is src],
    "np_copied": from_np.numpy().tolist(),
    "leaf": [cp.is_leaf, cp2.is_leaf],
    "detach_param": [(dp := nn.Linear(2, 2).weight.detach()).persistable, dp.stop_gradient, type(dp).__name__],
    "place_cpu": attempt(lambda: str(paddle.to_tensor([1.0], place=paddle.CPUPlace()).place)),
    "place_str": attempt(lambda: paddle.to_tensor([1.0], place="cpu").place.is_cpu_place()),
    "sg_false_int": attempt(lambda: paddle.to_tensor([1, 2], stop_gradient=False).stop_gradient),
}
with paddle.no_grad():
    pass
cp.set_value(np.array([5.0, 6.0], "float32"))
rec["to_tensor_independent"] = [src.numpy().tolist(), cp.numpy().tolist()]
# a gradient does not flow back from a to_tensor copy
(cp2 * 3).sum().backward()
rec["to_tensor_grad"] = [src.grad is None, cp2.grad.numpy().tolist()]

# --- assign / clone / astype ----------------------------------------------------------------------------------------
out = paddle.zeros([2, 2])
r = paddle.assign(np.array([[1, 2], [3, 4]], dtype="float32"), output=out)
rec["assign_output"] = [r is out, d(out)]
rec["assign"] = {
    "numpy_f64": attempt(lambda: d(paddle.assign(np.array([1.5, 2.5])))),
    "numpy_int": attempt(lambda: d(paddle.assign(np.array([1, 2])))),
    "numpy_bool": attempt(lambda: d(paddle.assign(np.array([True, False])))),
    "list_float": attempt(lambda: d(paddle.assign([1.0, 2.0]))),
    "list_int": attempt(lambda: d(paddle.assign([[1, 2]]))),
    "py_float": attempt(lambda: d(paddle.assign(3.5))),
    "py_int": attempt(lambda: d(paddle.assign(3))),
    "tuple": attempt(lambda: d(paddle.assign((1.0, 2.0)))),
    "tensor": attempt(lambda: d(paddle.assign(paddle.to_tensor([1, 2], dtype="int32")))),
}
a_src = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
a_out = paddle.assign(a_src * 2)
(a_out * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
rec["assign_grad"] = [a_out.stop_gradient, a_src.grad.numpy().tolist()]
o2 = paddle.ones([3], dtype="float64")
paddle.assign(paddle.to_tensor([7.0, 8.0, 9.0]), output=o2)
rec["assign_output_dtype"] = d(o2)
c_src = paddle.to_tensor([1.0, -1.0], stop_gradient=False)
cl = paddle.clone(c_src)
cl2 = c_src.clone()
(cl * cl + cl2).sum().backward()
rec["clone"] = [cl is c_src, cl.stop_gradient, cl.is_leaf, c_src.grad.numpy().tolist(), d(cl)]
t32 = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
same = t32.astype("float32")
same2 = t32.astype(paddle.float32)
cast64 = t32.astype(np.float64)
(same * 2 + same2 + cast64.astype("float32")).sum().backward()
rec["astype_same"] = [same is t32, same.stop_gradient, str(cast64.dtype), t32.grad.numpy().tolist(),
                      str(paddle.cast(t32, "int64").dtype), d(t32.astype("bool"))]


# --- a small model whose parameters come from creation functions ---------------------------------------------------
class PolyNet(nn.Layer):
    """y = vander(x) @ coef + diag-scaled linear map; parameters from full / eye / linspace / zeros."""

    def __init__(self, degree, width):
        super().__init__()
        self.coef = self.create_parameter([degree], default_initializer=nn.initializer.Assign(
            paddle.linspace(0.1, 0.5, degree)))
        self.scale = self.create_parameter([width], default_initializer=nn.initializer.Constant(1.0))
        self.mix = paddle.create_parameter([width, width], "float32",
                                           default_initializer=nn.initializer.Assign(paddle.eye(width) * 0.5))
        self.bias = paddle.create_parameter([width], "float32", is_bias=True)
        self.degree, self.width = degree, width
        self.register_buffer("mask", paddle.triu(paddle.ones([width, width])))

    def forward(self, x):
        feats = paddle.vander(x, n=self.degree, increasing=True)  # [B, degree]
        poly = feats @ self.coef  # [B]
        h = poly.unsqueeze(-1) * paddle.ones([1, self.width]) + paddle.arange(self.width, dtype="float32") * 0.1
        h = h @ (paddle.diag(self.scale) @ (self.mix * self.mask)) + self.bias
        return h.sum(-1)


paddle.seed(0)
net = PolyNet(4, 3)
rec["net_params"] = {n: [str(p.dtype), list(p.shape), p.numpy().astype("float64").tolist()]
                     for n, p in net.named_parameters()}
rec["net_buffers"] = list(net.state_dict().keys())
opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=net.parameters())
xs_np = np.linspace(-1, 1, 8).astype("float32")
ys_np = (np.sin(2 * xs_np) * 3).astype("float32")
losses = []
for step in range(15):
    xb = paddle.to_tensor(xs_np)
    loss = ((net(xb) - paddle.to_tensor(ys_np)) ** 2).mean()
    loss.backward()
    if step == 0:
        rec["net_grads"] = {n: p.grad.numpy().astype("float64").tolist() for n, p in net.named_parameters()}
    opt.step()
    opt.clear_grad()
    losses.append(loss.item())
rec["net_losses"] = losses
rec["net_final"] = {n: p.numpy().astype("float64").tolist() for n, p in net.named_parameters()}

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
