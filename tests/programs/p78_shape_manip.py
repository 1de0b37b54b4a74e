"""Shape manipulation as model code writes it: ``reshape`` with ``0`` (Paddle copies that dimension) and ``-1``
entries, ``flatten`` with ``start_axis`` / ``stop_axis``, ``squeeze`` / ``unsqueeze`` with lists and axes of size
other than 1, ``transpose`` / ``moveaxis`` / ``swapaxes`` / ``t``, ``expand`` / ``expand_as`` / ``broadcast_to`` /
``broadcast_tensors`` with ``-1``, ``tile``, ``repeat_interleave`` with tensor repeats and ``axis=None``, ``roll``
with axis lists and ``None``, ``flip``, ``rot90`` (negative ``k``), ``split`` with a ``-1`` section and tensor
sections, uneven ``chunk``, ``tensor_split`` (indices and sections), ``hsplit`` / ``vsplit`` / ``dsplit``,
``unbind``, ``unstack``, ``stack`` / ``concat`` with negative axes, ``hstack`` / ``vstack`` / ``dstack`` /
``column_stack`` / ``row_stack``, ``strided_slice`` with negative strides, ``slice`` with ends past the size,
``crop``, ``as_strided``, ``view`` (a shape and a dtype), ``view_as``, ``Tensor.unfold``, ``diagonal`` with offsets
and axes, ``atleast_1d`` / ``2d`` / ``3d``; the gradient of a weighted sum through each; then a small patch-based
model (patchify by reshape / transpose, a shared MLP over patches, unpatchify back) trained a few steps by Adam.

Left out (known differences, see the README's section on views): ``as_strided``'s ``offset`` counts bytes in Paddle
3.3.1 (an offset of 1 reads misaligned memory) and elements in pylayer_jax, as Paddle's documentation says, so the
program uses offset 0; the gradient through overlapping windows of ``unfold`` / ``as_strided`` counts each element
once in Paddle (and leaves uninitialised memory in the gradient of an element no window holds) while pylayer_jax's is
the derivative, so overlapping windows are recorded without gradients. Not mirrored: ``transpose`` with a
permutation shorter than the rank (``z.transpose([0, 1])`` of a 3-D ``z``) returns ``z`` unchanged in Paddle and is a
ValueError here; ``broadcast_tensors`` where one input needs no gradient crashes Paddle's backward (a segmentation
fault), so both inputs need gradients here."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
rec = {}


def v(t):
    a = np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()


def vs(t):
    return [v(t), list(t.shape)]


def attempt(f):
    try:
        r = f()
        return ["ok", vs(r) if hasattr(r, "numpy") else r]
    except Exception as e:  # the type is what users catch
        return ["error", type(e).__name__]


def leaf(*shape):
    return paddle.to_tensor(rng.standard_normal(shape).astype("float32"), stop_gradient=False)


def through(name, x, f):
    """Records f(x), its shape and the gradient of a weighted sum of it."""
    y = f(x)
    ys = y if isinstance(y, (list, tuple)) else [y]
    total = 0
    for i, t in enumerate(ys):
        w = paddle.to_tensor(np.arange(1, t.size + 1, dtype="float32").reshape(t.shape) / t.size + i)
        total = total + (t * w).sum()
    total.backward()
    rec[name] = [[vs(t) for t in ys], v(x.grad)]
    x.clear_grad()


x = leaf(2, 3, 4)
# --- reshape / flatten / squeeze / unsqueeze ------------------------------------------------------------------
through("reshape_0", x, lambda a: a.reshape([0, -1]))
through("reshape_0_mid", x, lambda a: paddle.reshape(a, [-1, 0, 2]))
through("reshape_0s", x, lambda a: a.reshape([0, 0, 2, 2]))
through("reshape_tensor_shape", x, lambda a: a.reshape([paddle.to_tensor(4), -1]))
through("flatten_mid", x, lambda a: paddle.flatten(a, start_axis=1, stop_axis=2))
through("flatten_neg", x, lambda a: a.flatten(start_axis=0, stop_axis=-2))
through("flatten_all", x, lambda a: a.flatten())
y = leaf(1, 3, 1, 2)
through("squeeze_list", y, lambda a: paddle.squeeze(a, axis=[0, 2]))
through("squeeze_non1", y, lambda a: a.squeeze(axis=1))
through("squeeze_mixed", y, lambda a: a.squeeze(axis=[1, 2]))
through("squeeze_all", y, lambda a: a.squeeze())
through("squeeze_neg", y, lambda a: a.squeeze(-2))
through("unsqueeze_list", x, lambda a: paddle.unsqueeze(a, axis=[0, 4]))
through("unsqueeze_neg", x, lambda a: a.unsqueeze(-1))
through("unsqueeze_tensor", x, lambda a: a.unsqueeze(paddle.to_tensor([1, 2])))

# --- transpose family ----------------------------------------------------------------------------------------
through("transpose", x, lambda a: a.transpose([2, 0, 1]))
through("transpose_neg", x, lambda a: paddle.transpose(a, [-1, -3, -2]))
through("moveaxis", x, lambda a: paddle.moveaxis(a, [0, 2], [2, 0]))
through("moveaxis_one", x, lambda a: paddle.moveaxis(a, -1, 0))
through("swapaxes", x, lambda a: paddle.swapaxes(a, 0, 2))
m = leaf(3, 4)
through("t", m, lambda a: a.t())
through("T_mT", x, lambda a: [a.T, a.mT])

# --- expand / broadcast / tile / repeat_interleave ------------------------------------------------------------
c = leaf(3, 1)
through("expand", c, lambda a: a.expand([2, -1, 4]))
through("expand_as", c, lambda a: paddle.expand_as(a, paddle.ones([2, 3, 5])))
through("broadcast_to", c, lambda a: paddle.broadcast_to(a, [-1, 4]))
bt = leaf(2, 1, 3)
through("broadcast_tensors", c, lambda a: paddle.broadcast_tensors([a, bt]))
rec["broadcast_tensors_other_grad"] = v(bt.grad)
through("tile", c, lambda a: paddle.tile(a, [2, 3]))
through("tile_short", m, lambda a: a.tile([2]))
through("tile_long", c, lambda a: a.tile([2, 1, 2]))
r = leaf(3, 2)
through("repeat_tensor", r, lambda a: paddle.repeat_interleave(a, paddle.to_tensor([2, 0, 1]), axis=0))
through("repeat_none", r, lambda a: paddle.repeat_interleave(a, 2))
through("repeat_axis1", r, lambda a: a.repeat_interleave(3, axis=1))
through("repeat_tensor_none", r, lambda a: paddle.repeat_interleave(a, paddle.to_tensor([1, 2, 0, 1, 1, 3])))

# --- roll / flip / rot90 --------------------------------------------------------------------------------------
through("roll_list", x, lambda a: paddle.roll(a, shifts=[1, -2], axis=[0, 2]))
through("roll_none", x, lambda a: paddle.roll(a, 5))
through("roll_neg_axis", x, lambda a: a.roll(-1, axis=-2))
through("flip", x, lambda a: paddle.flip(a, axis=[0, -1]))
through("flip_int", x, lambda a: a.flip(1))
through("rot90", m, lambda a: paddle.rot90(a))
through("rot90_neg", m, lambda a: paddle.rot90(a, k=-1))
through("rot90_k2_axes", x, lambda a: paddle.rot90(a, k=2, axes=[1, 2]))
through("rot90_k3", x, lambda a: paddle.rot90(a, k=3, axes=[2, 0]))

# --- split family ---------------------------------------------------------------------------------------------
s = leaf(7, 3)
through("split_neg1", s, lambda a: paddle.split(a, [2, -1, 1], axis=0))
through("split_tensor_sections", s, lambda a: paddle.split(a, [paddle.to_tensor(3), 4]))
through("split_int", s, lambda a: a.split(3, axis=1))
through("split_neg_axis", s, lambda a: paddle.split(a, [1, 2], axis=-1))
through("chunk_even", s, lambda a: paddle.chunk(a, 7))
rec["err_chunk_uneven"] = attempt(lambda: paddle.chunk(s, 3))
through("tensor_split_sections", s, lambda a: paddle.tensor_split(a, 3))
through("tensor_split_indices", s, lambda a: paddle.tensor_split(a, [2, 5], axis=0))
through("tensor_split_idx_past", s, lambda a: paddle.tensor_split(a, [1, 9]))
through("tensor_split_ax1", s, lambda a: paddle.tensor_split(a, 2, axis=1))
h = leaf(2, 4, 6)
through("hsplit", h, lambda a: paddle.hsplit(a, 2))
through("vsplit", h, lambda a: paddle.vsplit(a, [1]))
through("dsplit", h, lambda a: paddle.dsplit(a, [2, 3]))
through("unbind", h, lambda a: paddle.unbind(a, axis=1))
through("unbind_neg", h, lambda a: a.unbind(-1))
through("unstack", h, lambda a: paddle.unstack(a, axis=0))
through("unstack_num", h, lambda a: paddle.unstack(a, axis=-2, num=4))

# --- stack / concat family ------------------------------------------------------------------------------------
a1, a2 = leaf(2, 3), leaf(2, 3)
through("stack_neg", a1, lambda a: paddle.stack([a, a2 * 2], axis=-1))
through("stack_neg2", a1, lambda a: paddle.stack([a, a2], axis=-2))
through("concat_neg", a1, lambda a: paddle.concat([a, a2, a], axis=-1))
through("concat_tensor_axis", a1, lambda a: paddle.concat([a, a2], axis=paddle.to_tensor(0)))
through("hstack", a1, lambda a: paddle.hstack([a, a2]))
through("vstack", a1, lambda a: paddle.vstack([a, a2]))
through("dstack", a1, lambda a: paddle.dstack([a, a2]))
vec = leaf(3)
through("column_stack", vec, lambda a: paddle.column_stack([a, a * 3, paddle.ones([3, 2])]))
through("row_stack", vec, lambda a: paddle.row_stack([a, a * a]))
through("hstack_1d", vec, lambda a: paddle.hstack([a, a]))
through("vstack_1d", vec, lambda a: paddle.vstack([a, a]))
through("dstack_1d", vec, lambda a: paddle.dstack([a, a]))

# --- slicing ops ------------------------------------------------------------------------------------------------
g = leaf(4, 6)
through("strided_slice_neg", g, lambda a: paddle.strided_slice(a, axes=[0, 1], starts=[3, 5], ends=[0, 0],
                                                              strides=[-1, -2]))
through("strided_slice_pos", g, lambda a: paddle.strided_slice(a, axes=[1], starts=[1], ends=[100], strides=[2]))
through("strided_slice_neg_start", g, lambda a: paddle.strided_slice(a, axes=[1], starts=[-1], ends=[-7],
                                                                    strides=[-3]))
through("slice_past", g, lambda a: paddle.slice(a, axes=[0, 1], starts=[1, -3], ends=[10, 1000]))
through("slice_neg_end", g, lambda a: paddle.slice(a, axes=[1], starts=[0], ends=[-2]))
through("slice_tensor", g, lambda a: paddle.slice(a, axes=[0], starts=[paddle.to_tensor(1)], ends=[3]))
through("crop", g, lambda a: paddle.crop(a, shape=[2, 3], offsets=[1, 2]))
through("crop_neg1", g, lambda a: paddle.crop(a, shape=[-1, 2], offsets=[0, 4]))
through("as_strided", g, lambda a: paddle.as_strided(a, [3, 2], [6, 2]))
through("as_strided_3d", g, lambda a: paddle.as_strided(a, [2, 2, 3], [12, 3, 1]))
with paddle.no_grad():
    rec["as_strided_overlap"] = vs(paddle.as_strided(g, [3, 3], [1, 1]))
through("view_shape", g, lambda a: a.view([3, 8]))
through("view_neg", g, lambda a: paddle.view(a, [-1, 2, 3]))
through("view_as", g, lambda a: a.view_as(paddle.ones([2, 12])))
with paddle.no_grad():
    gi = paddle.to_tensor(np.arange(8, dtype="int32"))
    rec["view_dtype"] = [vs(gi.view("int16")), vs(paddle.to_tensor([1.0, -2.0]).view("int32")),
                         vs(gi.view(paddle.uint8)[:6])]
u1 = leaf(8)
through("unfold_1d", u1, lambda a: a.unfold(0, 3, 3))
through("unfold_2d", g, lambda a: a.unfold(1, 2, 2))
through("unfold_axis0", g, lambda a: a.unfold(0, 2, 2))
with paddle.no_grad():
    rec["unfold_overlap"] = [vs(u1.unfold(0, 3, 2)), vs(g.unfold(0, 3, 1))]
through("diagonal", g, lambda a: paddle.diagonal(a))
through("diagonal_off", g, lambda a: paddle.diagonal(a, offset=2))
through("diagonal_neg_off", g, lambda a: a.diagonal(offset=-1))
through("diagonal_axes", x, lambda a: paddle.diagonal(a, offset=1, axis1=2, axis2=0))
through("diagonal_axes_neg", x, lambda a: paddle.diagonal(a, axis1=-1, axis2=-2))
sc = paddle.to_tensor(2.5, stop_gradient=False)
through("atleast_1d", sc, lambda a: paddle.atleast_1d(a))
through("atleast_2d", sc, lambda a: paddle.atleast_2d(a))
through("atleast_3d", vec, lambda a: paddle.atleast_3d(a))
through("atleast_3d_2d", m, lambda a: paddle.atleast_3d(a))
through("atleast_multi", vec, lambda a: paddle.atleast_2d(a, a.reshape([3, 1, 1])))

# --- errors code catches --------------------------------------------------------------------------------------
z = paddle.ones([2, 3, 4])
rec["err_reshape_two_neg"] = attempt(lambda: z.reshape([-1, -1]))
rec["err_reshape_size"] = attempt(lambda: z.reshape([5, -1]))
rec["err_reshape_0_past"] = attempt(lambda: z.reshape([0, 0, 0, 0]))
rec["err_flatten_order"] = attempt(lambda: z.flatten(start_axis=2, stop_axis=1))
rec["err_expand_bad"] = attempt(lambda: paddle.ones([3, 2]).expand([3, 4]))
rec["err_split_uneven"] = attempt(lambda: paddle.split(z, 5, axis=2))
rec["err_split_sum"] = attempt(lambda: paddle.split(z, [1, 1], axis=2))
rec["err_split_two_neg"] = attempt(lambda: paddle.split(z, [-1, -1], axis=2))
rec["err_stack_shapes"] = attempt(lambda: paddle.stack([paddle.ones([2]), paddle.ones([3])]))
rec["err_concat_shapes"] = attempt(lambda: paddle.concat([paddle.ones([2, 3]), paddle.ones([3, 2])]))
rec["err_view_size"] = attempt(lambda: z.view([5, 5]))
rec["err_transpose_perm"] = attempt(lambda: z.transpose([0, 1, 1]))
rec["err_stack_empty"] = attempt(lambda: paddle.stack([]))
rec["unbind_empty"] = [len(paddle.unbind(paddle.ones([0, 3]))), len(paddle.unstack(paddle.ones([2, 0]), axis=1))]
rec["err_view_dtype"] = attempt(lambda: paddle.ones([2, 3], dtype="int16").view("int32"))
rec["err_rot90_axes"] = attempt(lambda: paddle.rot90(z, axes=[0, 0]))
rec["err_hsplit_1d"] = attempt(lambda: paddle.vsplit(paddle.ones([4]), 2))
rec["err_unstack_num"] = attempt(lambda: paddle.unstack(z, axis=0, num=3))
rec["err_crop_big"] = attempt(lambda: paddle.crop(paddle.ones([4, 6]), shape=[3, 3], offsets=[2, 0]))
rec["err_tile_neg"] = attempt(lambda: paddle.tile(z, [-1, 1]))
rec["err_repeat_len"] = attempt(lambda: paddle.repeat_interleave(paddle.ones([3, 2]), paddle.to_tensor([1, 2]),
                                                                 axis=0))

# --- a small patch-based model ----------------------------------------------------------------------------------
N, C, HW, P = 4, 2, 8, 4          # images [N, C, 8, 8], 4x4 patches: 4 patches of 32 values
L = (HW // P) ** 2
imgs = rng.standard_normal((N, C, HW, HW)).astype("float32")
target = np.flip(imgs, axis=3).copy()                 # learn to mirror each image horizontally (within patches)


def patchify(img):
    n = img.shape[0]
    t = img.reshape([n, C, HW // P, P, HW // P, P])
    t = t.transpose([0, 2, 4, 1, 3, 5])               # [N, h, w, C, P, P]
    return t.reshape([n, L, C * P * P])


def unpatchify(tok):
    n = tok.shape[0]
    t = tok.reshape([0, HW // P, HW // P, C, P, P])   # 0 copies N
    t = paddle.transpose(t, [0, 3, 1, 4, 2, 5])
    return t.reshape([n, C, HW, HW])


class PatchNet(nn.Layer):
    def __init__(self):
        super().__init__()
        d = C * P * P
        r = np.random.default_rng(5)
        self.fc1 = nn.Linear(d, 24)
        self.fc2 = nn.Linear(24, d)
        self.pos = self.create_parameter([1, L, d], default_initializer=nn.initializer.Constant(0.0))
        for p, a in zip([self.fc1.weight, self.fc1.bias, self.fc2.weight, self.fc2.bias],
                        [r.standard_normal((d, 24)) * 0.2, np.zeros(24), r.standard_normal((24, d)) * 0.2,
                         np.zeros(d)]):
            p.set_value(a.astype("float32"))

    def forward(self, img):
        tok = patchify(img) + self.pos
        tok = tok + self.fc2(F.gelu(self.fc1(tok)))
        left, right = paddle.split(tok, 2, axis=1)                     # two halves of the patch sequence
        tok = paddle.concat([right.flip(1), left], axis=1).roll(1, axis=1)   # a reversible mixing of patches
        return unpatchify(tok)


net = PatchNet()
rt = paddle.to_tensor(imgs)
rec["patch_roundtrip"] = float((unpatchify(patchify(rt)) - rt).abs().max())
rec["patch_shape"] = list(patchify(rt).shape)
rec["patch_first"] = v(patchify(rt)[0, 1, :6])
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=net.parameters())
xt, yt = paddle.to_tensor(imgs), paddle.to_tensor(target)
losses = []
for step in range(15):
    out = net(xt)
    loss = F.mse_loss(out, yt)
    loss.backward()
    if step == 0:
        rec["patch_grad_pos"] = v(net.pos.grad[0, :, :3])
        rec["patch_grad_fc1"] = v(net.fc1.weight.grad[:3, :3])
    opt.step()
    opt.clear_grad()
    losses.append(float(loss))
rec["patch_losses"] = losses
with paddle.no_grad():
    out = net(xt)
    rec["patch_out"] = v(out[0, 0, :2])
    rec["patch_state_keys"] = sorted(net.state_dict().keys())

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
