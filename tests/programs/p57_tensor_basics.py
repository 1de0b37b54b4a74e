"""What notebook users see of tensors: ``print``/``repr``/``str`` of tensors of each dtype and rank (float32,
float64, int32/int64, bool, complex64, float16, 0-D, empty, large enough to be summarized, with
``stop_gradient=False``), again after ``paddle.set_printoptions`` (precision, threshold, edgeitems, sci_mode,
linewidth); ``x.grad`` printed after ``backward``; ``.numpy()``, ``.item()``, ``.tolist()``, ``float``/``int``/
``bool``/``len``, iterating over a tensor; the attributes users print (shape, ndim, size, dtype, place,
stop_gradient, is_leaf, persistable); the dtype of mixed arithmetic (int + float tensors, int / int, bool + int,
float32 with Python floats and ints, float16 with float32, in-place forms); ``paddle.to_tensor`` of mixed lists,
nested lists, numpy scalars, other tensors, with and without dtype; ``astype``/``cast``; and the exceptions users
catch when converting (the type recorded).

Known differences (not mirrored, see the README's list of deliberate differences), left out here: a dtype equals its
name here (``x.dtype == 'float32'`` is True; Paddle's ``DataType`` never equals a string, and its repr is
``<DataType.FLOAT32: 10>``); ``x.grad`` has ``stop_gradient=True`` here (Paddle hands out gradients with
``stop_gradient=False``, so their repr's header says False and an in-place op on them raises), so only the values
of printed gradients are recorded; ``paddle.matmul`` of two dtypes promotes here (Paddle raises a ValueError; its ``@``
casts the right operand to the left one's dtype, as ours does); ``x / 7.0`` of float32 may
differ from Paddle's in the last bit (XLA divides by a broadcast scalar as a multiply by its reciprocal), so the
summarized tensor is divided in numpy."""
import json
import os

import numpy as np
import paddle

rec = {}
rng = np.random.default_rng(0)


def attempt(f):
    try:
        r = f()
        return ["ok", r if isinstance(r, (int, float, str, bool, list)) else str(r)]
    except Exception as e:  # the type is what users catch
        return ["error", type(e).__name__]


# --- printing, default options -------------------------------------------------------------------------------
f32 = paddle.to_tensor(rng.standard_normal((2, 3)).astype("float32"))
f64 = paddle.to_tensor(rng.standard_normal((3,)), dtype="float64")
i64 = paddle.to_tensor([[1, 2, 3], [40, 500, -6]])
i32 = paddle.to_tensor([7, -8], dtype="int32")
bl = paddle.to_tensor([True, False, True])
cx = paddle.to_tensor(np.array([1 + 2j, -0.5 - 1j], dtype="complex64"))
f16 = paddle.to_tensor([0.1, 2.5, -3.0], dtype="float16")
zero_d = paddle.to_tensor(3.5)
zero_d_int = paddle.to_tensor(4)
empty = paddle.zeros([0, 3])
big = paddle.to_tensor((np.arange(2000, dtype="float32") / np.float32(7.0)).reshape([40, 50]))
big_int = paddle.arange(1500).reshape([3, 500])
sg = paddle.to_tensor([1.5, -2.25], stop_gradient=False)
small = paddle.to_tensor([1e-8, 1.0, 12345.678])
wide = paddle.to_tensor(np.linspace(-1, 1, 30).astype("float32"))
three_d = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
named = {"f32": f32, "f64": f64, "i64": i64, "i32": i32, "bool": bl, "complex": cx, "f16": f16, "zero_d": zero_d,
         "zero_d_int": zero_d_int, "empty": empty, "big": big, "big_int": big_int, "stop_grad_false": sg,
         "small": small, "wide": wide, "three_d": three_d}
rec["str"] = {k: str(v) for k, v in named.items()}
rec["repr_same_as_str"] = {k: repr(v) == str(v) for k, v in named.items()}

# --- attributes users print ------------------------------------------------------------------------------------
rec["attrs"] = {k: [str(v.shape), v.ndim, int(v.size), str(v.dtype), str(v.place), v.stop_gradient, v.is_leaf,
                    v.persistable, list(v.shape) == v.shape]
                for k, v in named.items()}
rec["shape_type"] = [type(f32.shape).__name__, type(f32.ndim).__name__]
rec["dtype_compare"] = [f32.dtype == paddle.float32, i64.dtype == paddle.int64, str(paddle.float32),
                        f32.dtype != paddle.float64, str(f16.dtype), str(cx.dtype)]

# --- conversions -----------------------------------------------------------------------------------------------
rec["numpy"] = {k: [str(v.numpy().dtype), list(v.numpy().shape)] for k, v in named.items()}
rec["item"] = [zero_d.item(), zero_d_int.item(), type(zero_d.item()).__name__, type(zero_d_int.item()).__name__,
               bl[0].item(), type(bl[0].item()).__name__, f32[1, 2].item(), i64.item(4), str(cx[0].item())]
rec["tolist"] = [i64.tolist(), bl.tolist(), zero_d.tolist(), f16.tolist(), empty.tolist(), str(cx.tolist())]
rec["builtins"] = [float(zero_d), int(zero_d), bool(zero_d), int(zero_d_int), float(i32[0]), bool(bl[1]),
                   len(f32), len(three_d), len(empty)]
rec["iteration"] = [[str(r.shape) for r in three_d], [r.tolist() for r in i64], [x.item() for x in bl],
                    [str(type(r).__name__) for r in f32][:1]]
rec["conversion_errors"] = {
    "float_of_vector": attempt(lambda: float(f32)),
    "int_of_vector": attempt(lambda: int(i64)),
    "bool_of_vector": attempt(lambda: bool(bl)),
    "item_of_vector": attempt(lambda: f32.item()),
    "len_of_0d": attempt(lambda: len(zero_d)),
    "iter_0d": attempt(lambda: list(zero_d)),
    "to_tensor_ragged": attempt(lambda: paddle.to_tensor([[1, 2], [3]])),
    "to_tensor_str": attempt(lambda: paddle.to_tensor("abc")),
    "astype_bad": attempt(lambda: f32.astype("floaty")),
    "index_out_of_range": attempt(lambda: f32[5]),
    "float_of_empty": attempt(lambda: float(empty)),
    "float_of_one_element": attempt(lambda: float(paddle.to_tensor([2.5]))),
    "int_of_one_element": attempt(lambda: int(paddle.to_tensor([[7]]))),
    "item_of_one_element": attempt(lambda: paddle.to_tensor([[7]]).item()),
}

# --- dtype promotion -------------------------------------------------------------------------------------------
fa = paddle.to_tensor([1.5, 2.0, -3.0])
ia = paddle.to_tensor([3, 4, 5])
ib = paddle.to_tensor([2, 3, 2])
i32b = paddle.to_tensor([2, 3, 2], dtype="int32")
f64a = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")
f16a = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float16")
promo = {
    "int_plus_float": lambda: ia + fa,
    "float_plus_int": lambda: fa + ia,
    "int_div_int": lambda: ia / ib,
    "int_floordiv_int": lambda: ia // ib,
    "int_mod_int": lambda: ia % ib,
    "int_pow_int": lambda: ia ** ib,
    "int_times_pyfloat": lambda: ia * 1.5,
    "int_plus_pyint": lambda: ia + 2,
    "int_div_pyint": lambda: ia / 2,
    "pyint_div_int": lambda: 7 / ib,
    "bool_plus_int": lambda: bl + paddle.to_tensor([1, 2, 3]),
    "bool_plus_pyint": lambda: bl + 1,
    "bool_times_float": lambda: bl * fa,
    "bool_and_bool": lambda: bl & paddle.to_tensor([True, True, False]),
    "f32_plus_pyfloat": lambda: fa + 0.1,
    "f32_plus_pyint": lambda: fa + 3,
    "pyfloat_minus_f32": lambda: 0.5 - fa,
    "f32_plus_f64": lambda: fa + f64a,
    "f16_plus_f32": lambda: f16a + fa,
    "f16_times_pyfloat": lambda: f16a * 2.5,
    "i32_plus_i64": lambda: i32b + ia,
    "i32_times_pyfloat": lambda: i32b * 0.5,
    "int_compare_float": lambda: ia > fa,
    "neg_int": lambda: -ia,
    "abs_bool_sum": lambda: bl.sum(),
    "int_mean_cast": lambda: ia.astype("float32").mean(),
    "f32_pow_pyint": lambda: fa ** 2,
    "pyint_pow_int": lambda: 2 ** ia,
    "complex_plus_f32": lambda: cx + paddle.to_tensor([1.0, 2.0]),
}


def show(v):
    vals = v.numpy().astype("complex128")
    return [str(v.dtype), vals.real.tolist(), vals.imag.tolist()]


rec["promotion"] = {k: attempt(lambda f=f: show(f())) for k, f in promo.items()}
rec["matmul_same_dtype"] = [str(paddle.matmul(ia.reshape([1, 3]), ib.reshape([3, 1])).dtype),
                             str((f64a.reshape([1, 3]) @ f64a.reshape([3, 1])).dtype)]
# the @ operator casts its right operand to the left one's dtype
rec["matmul_operator"] = {k: attempt(lambda f=f: show(f())) for k, f in {
    "f32_at_f64": lambda: fa.reshape([1, 3]) @ f64a.reshape([3, 1]),
    "f64_at_f32": lambda: f64a.reshape([1, 3]) @ fa.reshape([3, 1]),
    "i32_at_i64": lambda: i32b.reshape([1, 3]) @ ia.reshape([3, 1]),
    "f32_at_i64": lambda: fa.reshape([1, 3]) @ ia.reshape([3, 1]),
    "f32_at_numpy64": lambda: fa.reshape([1, 3]) @ np.full((3, 1), 0.1),
    "numpy64_at_f32": lambda: np.full((1, 3), 0.1) @ fa.reshape([3, 1]),
}.items()}
x = paddle.to_tensor([1, 2, 3])
x += 1
rec["inplace_int_plus_int"] = [str(x.dtype), x.tolist()]
y = paddle.to_tensor([1.0, 2.0])
y *= 3
rec["inplace_float_times_int"] = [str(y.dtype), y.tolist()]


def iadd_float_to_int():
    t = paddle.to_tensor([1, 2, 3])
    t += 1.5
    return [str(t.dtype), t.tolist()]


def iadd_int_tensor_to_float():
    t = paddle.to_tensor([1.0, 2.0, 3.0])
    t += paddle.to_tensor([1, 2, 3])
    return [str(t.dtype), t.tolist()]


def iadd_f64_to_f32():
    t = paddle.to_tensor([1.0, 2.0, 3.0])
    t += paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64")
    return [str(t.dtype), t.tolist()]


rec["inplace_mixed"] = [attempt(iadd_float_to_int), attempt(iadd_int_tensor_to_float), attempt(iadd_f64_to_f32)]

# --- to_tensor -------------------------------------------------------------------------------------------------
made = {
    "mixed_int_float": paddle.to_tensor([1, 2.5, 3]),
    "mixed_bool_int": paddle.to_tensor([True, 2, 3]),
    "nested": paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]),
    "nested_int": paddle.to_tensor([[[1], [2]], [[3], [4]]]),
    "np_float64_scalar": paddle.to_tensor(np.float64(2.5)),
    "np_float32_scalar": paddle.to_tensor(np.float32(2.5)),
    "np_int32_scalar": paddle.to_tensor(np.int32(3)),
    "np_int64_array": paddle.to_tensor(np.arange(3)),
    "np_float64_array": paddle.to_tensor(np.ones(2)),
    "np_bool_array": paddle.to_tensor(np.array([True, False])),
    "list_of_np_scalars": paddle.to_tensor([np.float32(1.0), np.float32(2.0)]),
    "from_tensor": paddle.to_tensor(f32),
    "from_tensor_dtype": paddle.to_tensor(i64, dtype="float32"),
    "list_of_0d_tensors": paddle.to_tensor([paddle.to_tensor(1.0), paddle.to_tensor(2.0)]),
    "py_float": paddle.to_tensor(1.0),
    "py_bool": paddle.to_tensor(True),
    "py_complex": paddle.to_tensor(1 + 1j),
    "dtype_int32_from_floats": paddle.to_tensor([1.7, -2.7], dtype="int32"),
    "dtype_float64": paddle.to_tensor([1, 2], dtype=paddle.float64),
    "dtype_bool_from_ints": paddle.to_tensor([0, 3], dtype="bool"),
    "dtype_np": paddle.to_tensor([1, 2], dtype=np.float32),
    "empty_list": paddle.to_tensor([]),
    "tuple": paddle.to_tensor((1, 2)),
}
rec["to_tensor"] = {k: [str(v.dtype), str(v.shape), v.stop_gradient, str(v)] for k, v in made.items()}
src = paddle.to_tensor([1.0, 2.0])
cp = paddle.to_tensor(src)
cp[0] = 9.0
rec["to_tensor_copies"] = [src.tolist(), cp.tolist()]
sgt = paddle.to_tensor([1.0], stop_gradient=False)
rec["to_tensor_keeps_sg"] = [paddle.to_tensor(sgt).stop_gradient, paddle.to_tensor(sgt, stop_gradient=False).stop_gradient]

# --- astype / cast -------------------------------------------------------------------------------------------
fv = paddle.to_tensor([-1.7, -0.2, 0.0, 0.5, 2.9, 300.0])
rec["astype"] = {
    "to_int32": fv.astype("int32").tolist(),
    "to_int64": fv.astype(paddle.int64).tolist(),
    "to_bool": fv.astype("bool").tolist(),
    "to_uint8": fv[:5].abs().astype("uint8").tolist(),
    "to_float16": fv.astype("float16").astype("float32").tolist(),
    "to_complex": str(fv[:2].astype("complex64")),
    "bool_to_float": bl.astype("float32").tolist(),
    "int_to_float64": str(ia.astype(np.float64).dtype),
    "cast_fn": str(paddle.cast(ia, "float16").dtype),
    "f64_to_f32_print": str(f64a.astype("float32")),
}
rec["astype_dtypes"] = [str(fv.astype(d).dtype) for d in ("int8", "int16", "uint8", "float64", "bfloat16", "bool")]

# --- gradients ----------------------------------------------------------------------------------------------
w = paddle.to_tensor([[0.5, -1.0], [2.0, 0.25]], stop_gradient=False)
v = paddle.to_tensor([1.0, 3.0], stop_gradient=False)
loss = (paddle.matmul(w, v) ** 2).sum()
rec["before_backward"] = [str(w.grad), str(loss)]
loss.backward()
# (the values of the printed gradients: their header's stop_gradient differs, see the docstring)
rec["grads"] = [str(w.grad).split("\n", 1)[1], str(v.grad).split("\n", 1)[1], str(loss), str(w.grad.dtype),
                w.grad.shape, w.grad.is_leaf]
rec["loss_print"] = [f"{loss.item():.4f}", "loss: %.3f" % loss, f"{float(loss)}", f"{loss:.2f}",  # noqa: UP031
                     "{:.5f}".format(loss)]  # noqa: UP032
h = w * 2
rec["nonleaf"] = [str(h), h.is_leaf, h.stop_gradient]
d = w.detach()
rec["detach"] = [str(d), d.stop_gradient]

# --- set_printoptions ----------------------------------------------------------------------------------------
pt = paddle.to_tensor(rng.standard_normal((4, 6)).astype("float32") * 100)
opts = {}
paddle.set_printoptions(precision=2)
opts["precision2"] = [str(pt), str(f64), str(zero_d)]
paddle.set_printoptions(precision=8)
opts["precision8"] = [str(pt[:2]), str(f64)]
paddle.set_printoptions(precision=4, sci_mode=True)
opts["sci_mode"] = [str(pt[:2]), str(small), str(i64)]
paddle.set_printoptions(sci_mode=False)
opts["sci_off"] = [str(small)]
paddle.set_printoptions(threshold=10, edgeitems=2)
opts["threshold10"] = [str(pt), str(wide), str(i64), str(three_d)]
paddle.set_printoptions(threshold=1000, edgeitems=3)
opts["threshold_back"] = [str(pt)]
paddle.set_printoptions(linewidth=40)
opts["linewidth40"] = [str(pt), str(wide)]
paddle.set_printoptions(linewidth=80)
paddle.set_printoptions(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
opts["reset"] = [str(f32), str(big)]
rec["printoptions"] = opts

with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh, indent=1)
