"""Integer and unsigned tensors as real code uses them: index arithmetic and bucketing with ``//``/``%``
(floor_divide, remainder, mod, divide with rounding_mode, with negative operands and divisors, int and float), true
division of ints (also in place: ``x.divide_(y)`` makes an int tensor float32, as ``exp_``/``log_`` do, while
``sqrt_`` of ints is a RuntimeError), pow of ints (negative base, large exponents, int32 wrap), overflow wrap of
int8/int16/int32/int64/uint8 in add/cumsum/sum, abs/neg of ints, bitwise and/or/xor/not and shifts (arithmetic and
logical, uint8 and int8), gcd/lcm, the result dtypes of sum/prod/cumsum of int and bool tensors (with and without
``dtype=``), mean/var/std of ints (Paddle truncates the mean and the variance to the dtype), argmax/argmin dtypes
(and the ValueError of a float ``dtype``), clip of ints with float bounds, ``paddle.where`` of ints, ``astype``
round trips, int tensors with Python floats, ``arange`` with float arguments and an int dtype, ``to_tensor`` of ints
past int64 (a ValueError); then a small model trained on features made by such ops (hashed ids bucketed with ``%``
into an Embedding, counts from bincount, bit features), and its evaluation with integer metrics.

Left out (Paddle 3.3.1's CPU build has no kernel, a RuntimeError, where pylayer_jax computes the value): ``*``,
``prod``, ``cumprod``, ``%`` of int8/int16/uint8, ``-`` and ``abs`` of uint8, ``abs`` of int8, ``prod``/``cumsum``/
``cumprod``/``argmax``/``max`` of bool, ``%`` of bools, ``quantile``/``isclose``/``lerp`` of ints; ``nan_to_num`` and
``frexp`` of ints (Paddle rejects them, pylayer_jax passes ints through / computes in float32); ``int ** -1`` (Paddle
loops without end); an embedding id out of range (Paddle reads memory outside the table, pylayer_jax raises a
ValueError)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rec = {}
rng = np.random.default_rng(0)


def attempt(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def v(t):
    a = t.numpy()
    return [a.tolist(), str(t.dtype).replace("paddle.", "")]


a = paddle.to_tensor([7, -7, 7, -7, 0, 5, -5, 9])
b = paddle.to_tensor([2, 2, -2, -2, 3, -3, 3, 4])
rec["floordiv"] = v(a // b)
rec["floor_divide"] = v(paddle.floor_divide(a, b))
rec["mod"] = v(a % b)
rec["remainder"] = v(paddle.remainder(a, b))
rec["pmod"] = [v(paddle.mod(a, b)), v(paddle.floor_mod(a, b))]
rec["div_modes"] = [v(paddle.divide(a, b, rounding_mode="floor")), v(paddle.divide(a, b, rounding_mode="trunc")),
                    v(paddle.divide(a.astype("float32") + 0.5, b.astype("float32"), rounding_mode="trunc")),
                    v(paddle.divide(a.astype("float32") + 0.5, b.astype("float32"), rounding_mode="floor")),
                    attempt(lambda: v(paddle.divide(a, b, rounding_mode="round")))]
rec["floordiv_scalar"] = [v(a // 3), v(a // -3), v(a % -3), v(20 // b), v(20 % b), v(a // 2.5), v(a % 2.5),
                          v(20.5 % b)]
rec["truediv"] = [v(a / b), v(a / 2), v(paddle.true_divide(a, b))]
fa = paddle.to_tensor([7.5, -7.5, 7.5, -7.5, -0.0, 1e-3])
fb = paddle.to_tensor([2.0, 2.0, -2.0, -2.0, 3.0, -1.0])
rec["ffloordiv"] = v(fa // fb)
rec["frem_neg"] = v(paddle.remainder(fa, -fb))
rec["fremainder"] = [v(fa % fb), v(paddle.to_tensor([5.5, -5.5]) % -2)]
rec["int32_ops"] = [v(a.astype("int32") // b.astype("int32")), v(a.astype("int32") % b.astype("int32")),
                    attempt(lambda: v(a.astype("int32") // b))]
rec["int8_floordiv"] = v(a.astype("int8") // b.astype("int8"))

# in place on integers
rec["inplace"] = [attempt(lambda: v(a.clone().divide_(b))), attempt(lambda: v(a.clone().divide_(b, rounding_mode="trunc"))),
                  attempt(lambda: v(a.clone().floor_divide_(b))), attempt(lambda: v(a.clone().remainder_(b))),
                  attempt(lambda: v(paddle.to_tensor([4, 1]).exp_())), attempt(lambda: v(paddle.to_tensor([4, 1]).log_())),
                  attempt(lambda: v(paddle.to_tensor([4, 1]).sqrt_())), attempt(lambda: v(paddle.to_tensor([4, 1]).sigmoid_())),
                  attempt(lambda: v(a.clone().clip_(-1.5, 2.5))), attempt(lambda: v(paddle.to_tensor([4, 1]).scale_(0.5)))]
c = a.clone()
c //= b
c2 = a.clone()
c2 %= b
c3 = a.clone()
c3 /= b
rec["augmented"] = [v(c), v(c2), v(c3)]

# pow
base = paddle.to_tensor([-3, -2, 2, 3, 0, 1])
rec["pow_int"] = v(base ** 3)
rec["pow_int_t"] = v(paddle.pow(base, paddle.to_tensor([3, 4, 40, 2, 0, 7])))
rec["pow_float_exp"] = v(base ** 2.0)
rec["pow_int32"] = v(base.astype("int32") ** 20)
rec["rpow"] = v(2 ** paddle.to_tensor([0, 1, 10, 62]))

# overflow wrap
for dt, big in (("int8", 100), ("int16", 30000), ("int32", 2 ** 30), ("uint8", 200)):
    x = paddle.to_tensor([big, big, 3], dtype=dt)
    rec[f"wrap_{dt}"] = [v(x + x), v(paddle.cumsum(x)), v(paddle.sum(x)), v(paddle.sum(x, dtype="int64"))]
rec["wrap_mul_int32"] = [v(paddle.to_tensor([2 ** 30, 3], dtype="int32") * 4),
                         v(paddle.prod(paddle.to_tensor([2 ** 30, 4], dtype="int32")))]
big64 = paddle.to_tensor([2 ** 62, 2 ** 62], dtype="int64")
rec["wrap_int64"] = [v(big64 + big64), v(big64.sum()), v(paddle.prod(paddle.to_tensor([2 ** 40, 2 ** 40])))]
u = paddle.to_tensor([3, 250, 0], dtype="uint8")
rec["uint8_neg"] = v(-u)
i8 = paddle.to_tensor([-128, -5, 0, 127], dtype="int8")
rec["int8_neg"] = v(-i8)
rec["int64_abs"] = [v(paddle.abs(a)), v(paddle.abs(paddle.to_tensor([-2 ** 63]))),
                    v(-paddle.to_tensor([-2 ** 31], dtype="int32"))]
rec["sign_int"] = [v(paddle.sign(a)), v(paddle.sign(paddle.to_tensor([0, 3], dtype="uint8")))]
rec["int_rounding"] = [v(paddle.floor(a)), v(paddle.ceil(a)), v(paddle.round(a)), v(paddle.trunc(a)),
                       v(paddle.square(a)), v(paddle.exp(paddle.to_tensor([0, 1]))), v(paddle.sqrt(a))]

# bitwise
p = paddle.to_tensor([12, -7, 255, 0, 1 << 20])
q = paddle.to_tensor([10, 3, 15, -1, 7])
rec["band"] = v(p & q)
rec["bor"] = v(p | q)
rec["bxor"] = v(p ^ q)
rec["bnot"] = [v(~p), v(paddle.bitwise_invert(p))]
rec["bitwise_fns"] = [v(paddle.bitwise_and(p, q)), v(paddle.bitwise_or(p, q)), v(paddle.bitwise_xor(p, q)),
                      v(paddle.bitwise_not(p))]
sh = paddle.to_tensor([1, 2, 3, 0, 4])
rec["lshift"] = v(paddle.bitwise_left_shift(p, sh))
rec["rshift_arith"] = v(paddle.bitwise_right_shift(p, sh))
rec["rshift_logic"] = v(paddle.bitwise_right_shift(p, sh, is_arithmetic=False))
rec["lshift_logic"] = v(paddle.bitwise_left_shift(p, sh, is_arithmetic=False))
rec["shift_ops"] = [v(p << sh), v(p >> sh)]
rec["shift_edges"] = [v(paddle.bitwise_left_shift(paddle.to_tensor([1, 1]), paddle.to_tensor([62, 63]))),
                      v(paddle.bitwise_right_shift(paddle.to_tensor([-16], dtype="int32"),
                                                   paddle.to_tensor([2], dtype="int32"), is_arithmetic=False))]
u8 = paddle.to_tensor([200, 17, 255, 1], dtype="uint8")
rec["u8_bits"] = [v(~u8), v(u8 << paddle.to_tensor([1, 2, 3, 7], dtype="uint8")),
                  v(paddle.bitwise_right_shift(u8, paddle.to_tensor([1, 2, 3, 7], dtype="uint8")))]
i8s = paddle.to_tensor([-128, -3, 64, 5], dtype="int8")
rec["i8_shift"] = [v(paddle.bitwise_right_shift(i8s, paddle.to_tensor([1, 1, 1, 1], dtype="int8"))),
                   v(paddle.bitwise_right_shift(i8s, paddle.to_tensor([1, 1, 1, 1], dtype="int8"),
                                                is_arithmetic=False)),
                   v(paddle.bitwise_left_shift(i8s, paddle.to_tensor([1, 1, 1, 2], dtype="int8")))]
bb = paddle.to_tensor([True, False, True])
rec["bool_bits"] = [v(bb & paddle.to_tensor([True, True, False])), v(~bb), attempt(lambda: v(bb ^ True))]
rec["gcd"] = v(paddle.gcd(paddle.to_tensor([12, -18, 0, 7, 0]), paddle.to_tensor([8, 24, 5, -21, 0])))
rec["lcm"] = v(paddle.lcm(paddle.to_tensor([4, -6, 0, 7]), paddle.to_tensor([6, 4, 5, -3])))

# reduction dtypes
ii = paddle.to_tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")
bo = paddle.to_tensor([[True, False, True], [True, True, False]])
rec["red_i32"] = [v(ii.sum()), v(ii.sum(axis=0)), v(paddle.prod(ii)), v(paddle.cumsum(ii, axis=1)),
                  v(ii.sum(dtype="float32")), v(paddle.cumsum(ii, axis=0, dtype="int64")), v(paddle.prod(ii, dtype="int64")),
                  v(paddle.cumprod(ii, dim=1)), v(paddle.cumsum(ii, dtype="int32"))]
rec["red_bool"] = [v(bo.sum()), v(bo.sum(axis=0)), v(bo.sum(dtype="float32")), v(paddle.cumsum(bo, axis=0, dtype="int64")),
                   v(paddle.prod(bo, dtype="int64")), v(paddle.sum(bo, dtype="int32")), v(bo.sum(axis=1, keepdim=True))]
for name, t in (("i16", ii.astype("int16")), ("u8", ii.astype("uint8"))):
    rec[f"red_{name}"] = [v(t.sum()), v(t.sum(axis=0)), v(paddle.cumsum(t, axis=1)), v(t.sum(dtype="float32")),
                          v(paddle.cumsum(t, axis=0, dtype="int64")), v(paddle.prod(t, dtype="int64"))]
rec["mean_int"] = [v(ii.mean()), v(bo.mean()), v(paddle.to_tensor([-7, 0]).mean()),
                   v(paddle.to_tensor([[1, 2], [4, 7]]).mean(axis=0)), attempt(lambda: v(paddle.nanmean(paddle.to_tensor([1, 2])))),
                   attempt(lambda: v(paddle.median(paddle.to_tensor([1, 2, 4, 5]))))]
rec["var_int"] = [v(paddle.var(paddle.to_tensor([1, 2, 4]))), v(paddle.var(paddle.to_tensor([1, 2, 4]), unbiased=False)),
                  v(paddle.std(paddle.to_tensor([1, 2, 4]))), v(paddle.std(ii)),
                  v(paddle.var(paddle.to_tensor([[1, -2], [4, 7]]), axis=0)), v(ii.var(axis=1, keepdim=True))]
rec["argmax"] = [v(paddle.argmax(ii)), v(paddle.argmax(ii, axis=1)), v(paddle.argmin(ii, axis=0, keepdim=True)),
                 v(paddle.argmax(ii, axis=1, dtype="int32")), v(paddle.argmax(paddle.to_tensor([3, 9, 9, 1]))),
                 v(paddle.argmin(paddle.to_tensor([3, 1, 9, 1])))]
rec["argmax_dtype"] = [attempt(lambda: v(paddle.argmax(ii, dtype="float32"))),
                       attempt(lambda: v(paddle.argmin(ii, dtype="int16")))]
rec["max_int"] = [v(ii.max()), v(ii.min(axis=1)), v(paddle.amax(ii, axis=0))]
rec["count_nonzero"] = v(paddle.count_nonzero(bo, axis=1))
rec["any_all"] = [v(paddle.any(bo, axis=1)), v(paddle.all(bo))]
rec["order_stats"] = [[v(t) for t in paddle.kthvalue(paddle.to_tensor([4, 1, 3]), 2)],
                      [v(t) for t in paddle.mode(paddle.to_tensor([4, 1, 4, 1, 3]))],
                      [v(t) for t in paddle.cummax(paddle.to_tensor([1, 3, 2, 5]))]]

# clip, where, astype, python floats
rec["clip_int"] = [v(paddle.clip(a, -2, 4)), v(paddle.clip(a, min=0)), v(paddle.clip(a, max=3)),
                   v(paddle.clip(a, paddle.to_tensor(0), paddle.to_tensor(4)))]
rec["clip_int_float"] = [v(paddle.clip(a, -2.5, 4.7)), v(paddle.clip(a.astype("int32"), 0.5, 3.5))]
rec["where_int"] = [v(paddle.where(a > 0, a, b)), v(paddle.where(a > 0, a, paddle.zeros_like(a))),
                    v(paddle.where(a > 0, a, 0)), attempt(lambda: v(paddle.where(a > 0, a, 0.5))), v(paddle.where(a > 0, 1, 0)),
                    attempt(lambda: v(paddle.where(a > 0, a.astype("int32"), b)))]
rec["where_int_float"] = attempt(lambda: v(paddle.where(a > 0, a, paddle.to_tensor(0.5))))
f = paddle.to_tensor([-2.7, -0.5, 0.5, 1.5, 2.9, 300.0, -129.0])
rec["astype"] = [v(f.astype("int32")), v(f.astype("int64")), v(f.astype("int8")), v(f.astype("uint8")),
                 v(f.astype("int32").astype("float32")), v(f.astype("bool")), v(f.astype("bool").astype("int64"))]
rec["int_plus_float"] = [v(a + 0.5), v(a * 1.5), v(0.5 - a), v(a * 2), v(a + True),
                         attempt(lambda: v(a + paddle.to_tensor(0.5, dtype="float64"))), attempt(lambda: v(a.astype("int32") * paddle.to_tensor(1.5)))]
rec["int32_plus_float"] = [v(a.astype("int32") + 0.5), v(a.astype("int32") + 1), v(a.astype("int16") * 2.5)]
rec["bool_arith"] = [v(paddle.to_tensor([True]) + paddle.to_tensor([True])), v(paddle.to_tensor([True, False]) * 2.5)]
rec["int_cmp"] = [v(a > 2.5), v(a == 7.0), attempt(lambda: v(paddle.equal(a, paddle.to_tensor([7.0]))))]
rec["int_logic"] = [attempt(lambda: v(paddle.logical_and(a, b))), v(paddle.logical_not(a)), v(paddle.isnan(a)), v(paddle.isfinite(a))]
rec["int_math"] = [attempt(lambda: v(paddle.atan2(a, b))), attempt(lambda: v(paddle.fmax(a, b))), attempt(lambda: v(paddle.heaviside(a, b))), attempt(lambda: v(paddle.copysign(a, -b))),
                   attempt(lambda: v(paddle.hypot(a, b))), v(paddle.signbit(a)), attempt(lambda: v(paddle.logsumexp(paddle.to_tensor([1, 2]))))]
rec["isin"] = v(paddle.isin(a, paddle.to_tensor([7, 0, 9])))
rec["arange"] = [v(paddle.arange(0.5, 5, 1.5, dtype="int64")), v(paddle.arange(-3.7, 2, 1, dtype="int32")),
                 v(paddle.arange(5.9, dtype="int64")), v(paddle.arange(0, -5, -1.5, dtype="int64")),
                 attempt(lambda: v(paddle.arange(0, 2, 0.5, dtype="int64"))), v(paddle.arange(0, 5, 2)),
                 v(paddle.linspace(0, 10, 4, dtype="int32"))]
rec["to_tensor_ints"] = [attempt(lambda: v(paddle.to_tensor(2 ** 63))), attempt(lambda: v(paddle.to_tensor([2 ** 63]))),
                         attempt(lambda: v(paddle.to_tensor(-2 ** 63 - 1))), attempt(lambda: v(paddle.to_tensor([1, 2 ** 64]))),
                         v(paddle.to_tensor(2 ** 63 - 1)), v(paddle.to_tensor([1, 2 ** 63])),
                         v(paddle.to_tensor(2 ** 40, dtype="int32")), v(paddle.to_tensor([-1], dtype="uint8"))]
rec["item_types"] = [type(a[0].item()).__name__, int(a[1]), float(a[2]), type(a.tolist()[0]).__name__]
rec["bincount"] = [v(paddle.bincount(paddle.to_tensor([0, 3, 3, 1, 7]))),
                   v(paddle.bincount(paddle.to_tensor([0, 3, 3, 1]), minlength=6)),
                   v(paddle.bincount(paddle.to_tensor([0, 1, 1]), weights=paddle.to_tensor([0.5, 1.0, 2.0])))]
rec["bucketize"] = v(paddle.bucketize(paddle.to_tensor([-1.0, 0.5, 2.0, 9.0]), paddle.to_tensor([0.0, 1.0, 2.0, 4.0])))
rec["searchsorted"] = [v(paddle.searchsorted(paddle.to_tensor([1, 3, 5, 7]), paddle.to_tensor([0, 3, 6, 8]))),
                       v(paddle.searchsorted(paddle.to_tensor([1, 3, 5, 7]), paddle.to_tensor([3, 5]), right=True,
                                             out_int32=True))]
rec["unique"] = [v(x) for x in paddle.unique(paddle.to_tensor([3, 1, 3, -2, 1]), return_counts=True,
                                             return_inverse=True)]
rec["histogram"] = v(paddle.histogram(paddle.to_tensor([1, 2, 2, 5, 9]), bins=4, min=0, max=8))
rec["diff_int"] = v(paddle.diff(paddle.to_tensor([1, 4, 9, 16], dtype="int32")))
rec["topk_int"] = [v(x) for x in paddle.topk(paddle.to_tensor([4, 9, 1, 9, 3]), k=3)]
rec["sort_int"] = [v(paddle.sort(a, descending=True)), v(paddle.argsort(a, stable=True))]

# a model on hashed integer features
N, V, H = 64, 16, 8
ids = paddle.to_tensor(rng.integers(-1000, 1000, size=(N, 3)))
h = (ids * 2654435761) % V                        # multiplicative hash into V buckets (wraps in int64)
hb = ((ids >> paddle.full_like(ids, 2)) ^ ids) & paddle.full_like(ids, V - 1)   # a second bucket from bits
rec["and_int"] = attempt(lambda: v(ids[:2] & 3))  # Paddle: a ValueError (y must be a Tensor)
rec["shift_int"] = v(ids[:2] >> 2)
cnt = paddle.bincount(h.flatten(), minlength=V)
rec["hash_ids"] = [v(h[:4]), v(hb[:4]), v(cnt)]
sign_bits = (ids < 0).astype("float32")
y = paddle.to_tensor(((ids.numpy() % 5).sum(1) % 2).astype("float32")).unsqueeze(1)


class HashNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.emb2 = nn.Embedding(V, H)
        self.fc = nn.Linear(2 * H + 3, 1)

    def forward(self, h, hb, s):
        e = self.emb(h).mean(axis=1)
        e2 = self.emb2(hb).sum(axis=1) / 3
        return self.fc(paddle.concat([e, e2, s], axis=1))


model = HashNet()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(t.shape) * 0.3).astype("float32") for k, t in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
rec["loss"] = []
for step in range(20):
    logits = model(h, hb, sign_bits)
    loss = nn.functional.binary_cross_entropy_with_logits(logits, y)
    loss.backward()
    if step == 0:
        rec["emb_grad"] = model.emb.weight.grad.numpy().tolist()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(loss.item())
with paddle.no_grad():
    pred = (model(h, hb, sign_bits) > 0).astype("int64")
    correct = (pred == y.astype("int64")).astype("int32").sum()
    rec["acc"] = [v(correct), float(correct) / N]
    conf = paddle.zeros([2, 2], dtype="int64")
    idx = pred.flatten() * 2 + y.astype("int64").flatten()
    rec["confusion"] = (v(paddle.bincount(idx, minlength=4).reshape([2, 2]) + conf))

with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh)
