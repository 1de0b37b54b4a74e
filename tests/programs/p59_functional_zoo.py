"""A small image model written with ``paddle.nn.functional`` only (parameters from ``paddle.create_parameter``, no
Layers), touching functional ops with their less common arguments: conv2d with 'SAME'/'VALID'/4-number/pair
paddings, groups, dilation and NHWC, conv2d_transpose with output_size/output_padding, conv1d/conv3d and their
transposes, max_pool2d/3d with ceil_mode and return_mask feeding max_unpool2d/1d/3d, avg_pool with
exclusive=False, ceil_mode and divisor_override, adaptive pools with masks and None sizes, lp_pool (also p=inf),
interpolate/upsample (nearest, linear, bilinear and trilinear with align_corners/align_mode, bicubic, area,
scale_factor lists, NHWC/NCW), pad in all modes and layouts (also pad_from_left_axis=False), unfold/fold,
pixel_shuffle/unshuffle, channel_shuffle, temporal_shift, affine_grid + grid_sample in 2-D and 3-D,
local_response_norm, batch_norm (updating running statistics in place) / instance_norm / group_norm / layer_norm,
normalize (p=1, 2, 3, inf, a large epsilon), cosine_similarity, pairwise_distance, dropout/dropout2d/3d and
alpha_dropout in eval, glu, label_smooth with a prior, one_hot, embedding with padding_idx, sparse and max_norm.
Trained a few steps with Adam; then each op is probed alone with the gradient of a weighted sum of its output.

Left out, not mirrored: ``F.group_norm`` without ``weight`` has a wrong input gradient in Paddle 3.3.1's CPU kernel
(it differs from the exact one, and from Paddle's own with ``weight=ones``); pylayer_jax gives the exact one, so
the probes pass a weight. A ``sparse=True`` embedding's ``grad`` is a SelectedRows in Paddle (one row per
lookup); pylayer_jax keeps it dense, so the program reads it through the update an optimizer makes. ``F.pad`` in
constant mode with an odd number of pads (``[1, 2, 3]`` on a 4-D input) runs in Paddle (the last listed axis
padded before only); pylayer_jax raises a ValueError naming the rule (pairs of pads), as the odd count is
almost surely a mistake. ``diag_embed`` (``F.diag_embed`` and ``paddle.diag_embed``) has no gradient in
Paddle 3.3.1 (its output stops it); pylayer_jax differentiates it, so only its value is recorded."""
import json
import os

import numpy as np
import paddle
import paddle.nn.functional as F

rng = np.random.default_rng(0)
X = rng.standard_normal((6, 3, 8, 8)).astype("float32")
TOK = rng.integers(0, 10, size=(6, 5)).astype("int64")
TOK[:, -1] = 0                                       # padding index 0 at the end of every sequence
Y = rng.integers(0, 4, size=(6,)).astype("int64")

r = np.random.default_rng(1)


def param(shape, scale=0.3):
    return paddle.create_parameter(
        shape, "float32", default_initializer=paddle.nn.initializer.Assign(
            (r.standard_normal(shape) * scale).astype("float32")))


P = {
    "w1": param([8, 3, 3, 3]), "b1": param([8], 0.1),
    "w2": param([8, 2, 3, 3]),                       # groups=4
    "gn_w": param([8], 0.1), "gn_b": param([8], 0.1),
    "wt": param([2, 4, 3, 3]),                       # conv2d_transpose weight [in, out/groups, k, k]
    "emb": param([10, 4]),
    "ln_w": param([4], 0.1), "ln_b": param([4], 0.1),
    "fc": param([4 * 3 * 3 + 4, 4]), "fc_b": param([4], 0.1),
}
with paddle.no_grad():
    P["gn_w"].add_(paddle.ones([8]))
    P["ln_w"].add_(paddle.ones([4]))


def forward(x, tok, training):
    h = F.conv2d(x, P["w1"], P["b1"], padding="SAME")                          # [N, 8, 8, 8]
    h = F.conv2d(h, P["w2"], padding=2, dilation=2, groups=4)                  # [N, 8, 8, 8]
    h = F.relu(h)
    h = F.local_response_norm(h, size=3, alpha=1e-2, beta=0.75, k=1.0)
    h = F.group_norm(h, num_groups=2, weight=P["gn_w"], bias=P["gn_b"])
    h = F.channel_shuffle(h, groups=2)
    p, mask = F.max_pool2d(h, 2, stride=2, return_mask=True)                   # [N, 8, 4, 4]
    h = F.max_unpool2d(p, mask, 2, stride=2, output_size=[8, 8]) + 0.5 * h
    h = F.pixel_unshuffle(h, 2)                                                # [N, 32, 4, 4]
    h = F.pixel_shuffle(h, 4)                                                  # [N, 2, 16, 16]
    h = F.avg_pool2d(h, 3, stride=2, padding=1, ceil_mode=True, exclusive=False)  # [N, 2, 9, 9]
    h = F.conv2d_transpose(h, P["wt"], stride=2, padding=1, output_size=[18, 18])  # [N, 4, 18, 18]
    h = F.interpolate(h, size=[7, 7], mode="bilinear", align_corners=False, align_mode=0)
    h = F.pad(h, [1, 1, 1, 1], mode="reflect")                                 # [N, 4, 9, 9]
    h = F.instance_norm(h)
    h = F.dropout2d(h, p=0.3, training=training)
    h = F.adaptive_avg_pool2d(h, [3, 3])
    h = F.alpha_dropout(h.flatten(1), p=0.2, training=training)
    e = F.embedding(tok, P["emb"], padding_idx=0, sparse=True)                 # [N, 5, 4]
    e = F.layer_norm(e, 4, weight=P["ln_w"], bias=P["ln_b"])
    notpad = (tok != 0).astype("float32").unsqueeze(-1)
    e = (e * notpad).sum(1) / notpad.sum(1).clip(min=1.0)
    z = paddle.concat([h, F.normalize(e, axis=1)], axis=1)
    return F.linear(z, P["fc"], P["fc_b"])


opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=list(P.values()))
rec = {"loss": [], "gnorm": []}
soft = F.label_smooth(F.one_hot(paddle.to_tensor(Y), num_classes=4), epsilon=0.1)
rec["soft_label"] = soft.numpy().tolist()
for _step in range(8):
    logits = forward(paddle.to_tensor(X), paddle.to_tensor(TOK), training=False)
    loss = F.cross_entropy(logits, soft, soft_label=True)
    loss.backward()
    # the embedding's gradient is sparse (Paddle's SelectedRows): its rows are checked through the values after
    rec["gnorm"].append({k: float((v.grad ** 2).sum()) for k, v in P.items() if k != "emb"})
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))
rec["emb_after"] = P["emb"].numpy().tolist()
rec["final_logits"] = forward(paddle.to_tensor(X[:2]), paddle.to_tensor(TOK[:2]), training=False).numpy().tolist()


# each op alone: value, shape, and the gradient of a fixed weighting of its output
def probe(name, f, *arrays):
    ts = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    out = f(*ts)
    outs = out if isinstance(out, (tuple, list)) else [out]
    first = outs[0]
    wgt = paddle.to_tensor(np.cos(np.arange(first.size)).reshape(first.shape).astype("float32"))
    (first * wgt).sum().backward()
    rec[name] = {"out": [o.numpy().tolist() for o in outs], "shape": [list(o.shape) for o in outs],
                 "dtype": [str(o.dtype) for o in outs],
                 "grad": [None if t.grad is None else t.grad.numpy().tolist() for t in ts]}


img = rng.standard_normal((2, 4, 6, 6)).astype("float32")
img7 = rng.standard_normal((1, 2, 7, 7)).astype("float32")
w44 = rng.standard_normal((4, 2, 3, 3)).astype("float32") * 0.3
probe("conv_valid_stride", lambda x, w: F.conv2d(x, w, stride=2, padding="VALID", groups=2), img, w44)
probe("conv_same_stride", lambda x, w: F.conv2d(x, w, stride=2, padding="SAME", groups=2), img7[:, :, :, :].repeat(2, 1), w44)
probe("conv_pairs_pad", lambda x, w: F.conv2d(x, w, padding=[[0, 0], [0, 0], [1, 2], [0, 1]], groups=2), img, w44)
probe("conv_nhwc", lambda x, w: F.conv2d(x, w, padding=1, data_format="NHWC"),
      img.transpose(0, 2, 3, 1), rng.standard_normal((3, 4, 2, 2)).astype("float32"))
probe("convT_groups_dil", lambda x, w: F.conv2d_transpose(x, w, stride=2, padding=1, output_padding=1, dilation=2,
                                                          groups=2), img, w44)
probe("convT_same", lambda x, w: F.conv2d_transpose(x, w, stride=2, padding="SAME"), img,
      rng.standard_normal((4, 3, 3, 3)).astype("float32") * 0.3)
probe("convT_outsize", lambda x, w: F.conv2d_transpose(x, w, stride=3, output_size=[19, 20]), img,
      rng.standard_normal((4, 1, 3, 3)).astype("float32") * 0.3)
seq = rng.standard_normal((2, 4, 9)).astype("float32")
probe("conv1d", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding="SAME", dilation=1, groups=2), seq,
      rng.standard_normal((6, 2, 3)).astype("float32"), rng.standard_normal(6).astype("float32"))
probe("conv1d_nlc", lambda x, w: F.conv1d(x, w, padding=[1, 2], data_format="NLC"), seq.transpose(0, 2, 1),
      rng.standard_normal((3, 4, 2)).astype("float32"))
probe("conv1d_transpose", lambda x, w: F.conv1d_transpose(x, w, stride=2, padding=1, output_size=18), seq,
      rng.standard_normal((4, 2, 3)).astype("float32"))
vol = rng.standard_normal((1, 2, 5, 5, 5)).astype("float32")
probe("conv3d", lambda x, w: F.conv3d(x, w, stride=[1, 2, 2], padding="SAME", dilation=[2, 1, 1]), vol,
      rng.standard_normal((3, 2, 2, 3, 3)).astype("float32") * 0.3)
probe("maxpool_ceil", lambda x: F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True), img7)
probe("maxpool_same", lambda x: F.max_pool2d(x, 2, stride=2, padding="SAME"), img7)
probe("maxpool_mask_pad", lambda x: F.max_pool2d(x, 3, stride=2, padding=1, return_mask=True), img7)
probe("unpool", lambda x: F.max_unpool2d(*F.max_pool2d(x, 2, stride=2, return_mask=True), 2, stride=2,
                                          output_size=[7, 7]), img7)
probe("unpool1d", lambda x: F.max_unpool1d(*F.max_pool1d(x, 2, stride=2, return_mask=True), 2, stride=2), seq)
probe("avgpool_excl", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, exclusive=True), img7)
probe("avgpool_incl", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, exclusive=False), img7)
probe("avgpool_divisor", lambda x: F.avg_pool2d(x, 2, stride=2, padding=[0, 1], divisor_override=3), img7)
probe("avgpool_nhwc", lambda x: F.avg_pool2d(x, 2, stride=1, padding="VALID", data_format="NHWC"),
      img7.transpose(0, 2, 3, 1))
probe("avgpool3d", lambda x: F.avg_pool3d(x, 2, stride=2, ceil_mode=True), vol)
probe("maxpool1d", lambda x: F.max_pool1d(x, 3, stride=2, padding=1, ceil_mode=True), seq)
probe("adaptive_max", lambda x: F.adaptive_max_pool2d(x, [3, 2], return_mask=True), img7)
probe("adaptive_avg_none", lambda x: F.adaptive_avg_pool2d(x, [None, 3]), img7)
probe("adaptive_avg1d", lambda x: F.adaptive_avg_pool1d(x, 4), seq)
probe("adaptive_max1d", lambda x: F.adaptive_max_pool1d(x, 4), seq)
probe("adaptive_avg3d", lambda x: F.adaptive_avg_pool3d(x, [2, 3, 2]), vol)
probe("lp_pool2d", lambda x: F.lp_pool2d(x.abs() + 0.1, 2.0, 3, stride=2), img7)
probe("lp_pool1d", lambda x: F.lp_pool1d(x.abs() + 0.1, 3.0, 2, stride=2), seq)
for mode, kw in [("nearest", {}), ("bilinear", {"align_corners": True}), ("bilinear", {"align_mode": 1}),
                 ("bicubic", {"align_corners": False}), ("bicubic", {"align_corners": True})]:
    key = f"interp_{mode}_{'_'.join(f'{k}{v}' for k, v in kw.items())}"
    probe(key + "_size", lambda x, mode=mode, kw=kw: F.interpolate(x, size=[5, 9], mode=mode, **kw), img7)
    probe(key + "_scale", lambda x, mode=mode, kw=kw: F.interpolate(x, scale_factor=[1.5, 0.7], mode=mode, **kw),
          img7)
probe("interp_nhwc", lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", data_format="NHWC"),
      img7.transpose(0, 2, 3, 1))
probe("interp_linear", lambda x: F.interpolate(x, size=[13], mode="linear", align_corners=False), seq)
probe("interp_trilinear", lambda x: F.interpolate(x, scale_factor=0.6, mode="trilinear"), vol)
probe("interp_area", lambda x: F.interpolate(x, size=[3, 4], mode="area"), img7)
probe("upsample", lambda x: F.upsample(x, scale_factor=2, mode="nearest"), img7)
for mode in ["constant", "reflect", "replicate", "circular"]:
    probe(f"pad_{mode}", lambda x, mode=mode: F.pad(x, [1, 2, 2, 0], mode=mode, value=0.5), img7)
    probe(f"pad_{mode}_nhwc", lambda x, mode=mode: F.pad(x, [2, 1, 0, 1], mode=mode, data_format="NHWC"),
          img7.transpose(0, 2, 3, 1))
probe("pad_all_dims", lambda x: F.pad(x, [0, 0, 1, 0, 2, 1, 0, 1], value=-1.0), img7)
probe("pad_1d_reflect", lambda x: F.pad(x, [2, 3], mode="reflect", data_format="NCL"), seq)
probe("zeropad2d", lambda x: F.zeropad2d(x, [1, 0, 0, 2]), img7)
probe("unfold", lambda x: F.unfold(x, [2, 3], strides=[2, 1], paddings=[1, 0, 1, 1], dilations=[1, 2]), img7)
probe("fold", lambda x: F.fold(x, [5, 6], [2, 3], strides=1, paddings=[1, 0], dilations=[2, 1]),
      rng.standard_normal((2, 2 * 6, 5 * 4)).astype("float32"))
probe("pixel_shuffle_nhwc", lambda x: F.pixel_shuffle(x, 2, data_format="NHWC"), img.transpose(0, 2, 3, 1))
probe("pixel_unshuffle", lambda x: F.pixel_unshuffle(x, 3), img)
probe("channel_shuffle_nhwc", lambda x: F.channel_shuffle(x, 2, data_format="NHWC"), img.transpose(0, 2, 3, 1))
theta = np.array([[[0.9, 0.2, 0.1], [-0.1, 1.1, -0.2]], [[1.2, 0.0, 0.3], [0.1, 0.8, 0.0]]], "float32")
for ac in [True, False]:
    probe(f"affine_grid_{ac}", lambda t, ac=ac: F.affine_grid(t, [2, 4, 5, 6], align_corners=ac), theta)
    for mode in ["bilinear", "nearest"]:
        for pm in ["zeros", "border", "reflection"]:
            probe(f"grid_sample_{mode}_{pm}_{ac}",
                  lambda x, t, ac=ac, mode=mode, pm=pm: F.grid_sample(
                      x, F.affine_grid(t, [2, 4, 5, 6], align_corners=ac) * 1.3, mode=mode, padding_mode=pm,
                      align_corners=ac), img, theta)
probe("lrn", lambda x: F.local_response_norm(x, size=4, alpha=0.1, beta=0.5, k=2.0), img)
probe("lrn_nhwc", lambda x: F.local_response_norm(x, size=3, data_format="NHWC"), img.transpose(0, 2, 3, 1))
probe("lrn_3d", lambda x: F.local_response_norm(x, size=3, alpha=0.2, data_format="NCL"), seq)
probe("instance_norm_affine", lambda x, w, b: F.instance_norm(x, weight=w, bias=b, eps=1e-3), img,
      np.linspace(0.5, 1.5, 4).astype("float32"), np.linspace(-0.2, 0.2, 4).astype("float32"))
probe("instance_norm_1d", lambda x: F.instance_norm(x, data_format="NCL"), seq)
probe("group_norm_nhwc", lambda x, w: F.group_norm(x, 2, weight=w, data_format="NHWC"), img.transpose(0, 2, 3, 1),
      np.linspace(0.5, 1.5, 4).astype("float32"))
probe("group_norm_3d", lambda x, w: F.group_norm(x, 2, epsilon=1e-3, weight=w), seq,
      np.linspace(0.5, 1.5, 4).astype("float32"))
probe("layer_norm_2axes", lambda x, w, b: F.layer_norm(x, [6, 6], weight=w, bias=b, epsilon=1e-3), img,
      rng.standard_normal(36).astype("float32"), rng.standard_normal(36).astype("float32"))
probe("normalize_p1", lambda x: F.normalize(x, p=1, axis=-1), img)
probe("normalize_axis0", lambda x: F.normalize(x, axis=0, epsilon=1e-6), img)
probe("normalize_p3", lambda x: F.normalize(x, p=3, axis=0, epsilon=1e-6), img)
probe("normalize_p1_eps", lambda x: F.normalize(x, p=1, axis=1, epsilon=2.0), img)
a2, b2 = rng.standard_normal((5, 6)).astype("float32"), rng.standard_normal((5, 6)).astype("float32")
probe("cosine_similarity", lambda a, b: F.cosine_similarity(a, b, axis=1), a2, b2)
probe("cosine_similarity_bcast", lambda a, b: F.cosine_similarity(a, b[:1], axis=-1, eps=1e-3), a2, b2)
probe("pairwise_distance", lambda a, b: F.pairwise_distance(a, b), a2, b2)
probe("pairwise_distance_p1_keep", lambda a, b: F.pairwise_distance(a, b, p=1.0, keepdim=True), a2, b2)
probe("pairwise_distance_inf", lambda a, b: F.pairwise_distance(a, b, p=float("inf")), a2, b2)
probe("pairwise_distance_p0", lambda a, b: F.pairwise_distance(a, b, p=0.0), a2, b2)
probe("dropout_eval", lambda x: [F.dropout(x, 0.4, training=False), F.dropout(x, 0.4, training=False,
                                                                                mode="downscale_in_infer")], img)
probe("dropout2d_eval", lambda x: F.dropout2d(x, 0.4, training=False), img)
probe("dropout3d_eval", lambda x: F.dropout3d(x, 0.4, training=False), vol)
probe("alpha_dropout_eval", lambda x: F.alpha_dropout(x, 0.4, training=False), img)
probe("label_smooth_prior", lambda y, pr: F.label_smooth(y, prior_dist=pr, epsilon=0.2),
      np.eye(4, dtype="float32")[[0, 2, 3]][None], np.array([[0.1, 0.2, 0.3, 0.4]], "float32"))
# more arguments: explicit 4-number paddings, NHWC with groups, 3-D transposed convs and pools with masks,
# functional batch_norm updating running statistics in place, instance_norm with running statistics
probe("conv_pad4_nhwc_groups", lambda x, w: F.conv2d(x, w, stride=[2, 1], padding=[1, 2, 0, 1], groups=2,
                                                     data_format="NHWC"), img.transpose(0, 2, 3, 1), w44)
probe("convT_nhwc_valid", lambda x, w: F.conv2d_transpose(x, w, stride=[1, 2], padding="VALID", output_padding=[0, 1],
                                                          data_format="NHWC"), img.transpose(0, 2, 3, 1),
      rng.standard_normal((4, 2, 2, 2)).astype("float32") * 0.3)
probe("convT_pad4", lambda x, w: F.conv2d_transpose(x, w, stride=2, padding=[0, 1, 1, 2], groups=2), img, w44)
probe("conv3d_transpose", lambda x, w: F.conv3d_transpose(x, w, stride=2, padding=1, output_padding=1), vol,
      rng.standard_normal((2, 3, 3, 3, 3)).astype("float32") * 0.3)
probe("conv1d_transpose_groups_dil", lambda x, w: F.conv1d_transpose(x, w, stride=3, padding=2, groups=2, dilation=2),
      seq, rng.standard_normal((4, 3, 3)).astype("float32"))
probe("maxpool3d_mask", lambda x: F.max_pool3d(x, 2, stride=2, return_mask=True, ceil_mode=True), vol)
probe("unpool3d", lambda x: F.max_unpool3d(*F.max_pool3d(x, 2, stride=2, return_mask=True), 2, stride=2,
                                            output_size=[5, 5, 5]), vol)
probe("maxpool_nhwc", lambda x: F.max_pool2d(x, 3, stride=2, padding="SAME", data_format="NHWC"),
      img7.transpose(0, 2, 3, 1))
probe("adaptive_avg_nhwc", lambda x: F.adaptive_avg_pool2d(x, 4, data_format="NHWC"), img7.transpose(0, 2, 3, 1))
probe("adaptive_max3d", lambda x: F.adaptive_max_pool3d(x, [3, 2, 4], return_mask=True), vol)
probe("avgpool1d", lambda x: F.avg_pool1d(x, 4, stride=3, padding=2, exclusive=False, ceil_mode=True), seq)
probe("lp_pool_ceil_inf", lambda x: F.lp_pool2d(x.abs() + 0.1, float("inf"), 2, stride=2, ceil_mode=True), img7)
probe("interp_linear_align1", lambda x: F.interpolate(x, scale_factor=1.7, mode="linear", align_mode=1,
                                                      data_format="NCW"), seq)
probe("interp_nearest3d", lambda x: F.interpolate(x, size=[3, 7, 4], mode="nearest"), vol)
probe("interp_trilinear_ac", lambda x: F.interpolate(x, size=[4, 6, 3], mode="trilinear", align_corners=True), vol)
probe("interp_bicubic_down", lambda x: F.interpolate(x, size=[3, 4], mode="bicubic"), img7)
probe("interp_scale_list_nearest", lambda x: F.interpolate(x, scale_factor=[2, 1.5], mode="nearest"), img7)
probe("pad_ndhwc_replicate", lambda x: F.pad(x, [1, 0, 2, 1, 0, 2], mode="replicate", data_format="NDHWC"),
      vol.transpose(0, 2, 3, 4, 1))
probe("pad_ncdhw_circular", lambda x: F.pad(x, [1, 2, 0, 1, 2, 0], mode="circular"), vol)
probe("pad_right_axis", lambda x: F.pad(x, [1, 2, 0, 1, 0, 0, 0, 0], pad_from_left_axis=False), img7)
probe("grid_sample_3d", lambda x, g: F.grid_sample(x, g, mode="bilinear", padding_mode="border", align_corners=False),
      vol, rng.uniform(-1.2, 1.2, (1, 2, 3, 4, 3)).astype("float32"))
probe("affine_grid_3d", lambda t: F.affine_grid(t, [1, 2, 2, 3, 4], align_corners=False),
      np.array([[[1.0, 0.1, 0.0, 0.2], [0.0, 0.9, 0.1, 0.0], [0.1, 0.0, 1.1, -0.1]]], "float32"))
probe("lrn_5d", lambda x: F.local_response_norm(x, size=2, alpha=0.3, data_format="NCDHW"), vol)
probe("instance_norm_running", lambda x: F.instance_norm(x, running_mean=paddle.zeros([4]),
                                                         running_var=paddle.ones([4]), use_input_stats=True), img)
probe("layer_norm_noaffine", lambda x: F.layer_norm(x, [4, 6, 6]), img)
probe("normalize_inf", lambda x: F.normalize(x, p=float("inf"), axis=2), img)
probe("dropout_axis_eval", lambda x: F.dropout(x, 0.5, axis=[0, 1], training=False), img)
probe("temporal_shift", lambda x: F.temporal_shift(x, seg_num=2, shift_ratio=0.25), img)
probe("glu", lambda x: F.glu(x, axis=1), img)
probe("unfold_ints", lambda x: F.unfold(x, 3, strides=2, paddings=1, dilations=1), img7)
probe("embedding_max_norm", lambda w: F.embedding(paddle.to_tensor([[0, 2], [2, 4]]), w * 1.0, max_norm=1.0),
      rng.standard_normal((5, 3)).astype("float32"))
rm, rv = paddle.zeros([4]), paddle.ones([4])
probe("batch_norm_train", lambda x, w, b: F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.8, epsilon=1e-3),
      img, np.linspace(0.5, 1.5, 4).astype("float32"), np.linspace(-0.2, 0.2, 4).astype("float32"))
rec["batch_norm_running"] = [rm.numpy().tolist(), rv.numpy().tolist()]
probe("batch_norm_eval", lambda x: F.batch_norm(x, rm, rv, training=False), img)
probe("batch_norm_nhwc_global", lambda x: F.batch_norm(x, rm, rv, training=True, use_global_stats=True,
                                                        data_format="NHWC"), img.transpose(0, 2, 3, 1))
rec["batch_norm_running_after"] = [rm.numpy().tolist(), rv.numpy().tolist()]
# a third batch: SAME with dilation, strided SAME transposes with output_size, masks with 4-number paddings,
# interpolate's recompute_scale_factor, Tensor shapes and sizes as arguments
probe("conv_same_dilated", lambda x, w: F.conv2d(x, w, stride=1, padding="SAME", dilation=2, groups=2),
      img7.repeat(2, 1), w44)
probe("conv_same_stride3", lambda x, w: F.conv2d(x, w, stride=3, padding="same", groups=2), img7.repeat(2, 1), w44)
probe("convT_same_outsize", lambda x, w: F.conv2d_transpose(x, w, stride=2, padding="SAME", output_size=[12, 13]),
      img, rng.standard_normal((4, 3, 3, 3)).astype("float32") * 0.3)
probe("maxpool_mask_pad4", lambda x: F.max_pool2d(x, [3, 2], stride=[2, 1], padding=[1, 1], return_mask=True), img7)
probe("maxpool_ceil_mask", lambda x: F.max_pool2d(x, 2, stride=2, ceil_mode=True, return_mask=True), img7)
probe("unpool_ceil", lambda x: F.max_unpool2d(*F.max_pool2d(x, 2, stride=2, ceil_mode=True, return_mask=True), 2,
                                               stride=2, output_size=[8, 8]), img7)
probe("avgpool_ceil_nhwc", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, exclusive=False,
                                                  data_format="NHWC"), img7.transpose(0, 2, 3, 1))
probe("interp_recompute", lambda x: F.interpolate(x, scale_factor=1.3, mode="bilinear", recompute_scale_factor=True),
      img7)
probe("interp_tensor_size", lambda x: F.interpolate(x, size=paddle.to_tensor([4, 5]), mode="bilinear"), img7)
probe("interp_tensor_scale", lambda x: F.interpolate(x, scale_factor=paddle.to_tensor([1.5, 2.0]), mode="nearest"),
      img7)
probe("interp_list_tensor_size", lambda x: F.interpolate(x, size=[paddle.to_tensor(4), 6], mode="bicubic"), img7)
probe("affine_grid_tensor_shape", lambda t: F.affine_grid(t, paddle.to_tensor([2, 4, 3, 5])), theta)
probe("pairwise_distance_neg_inf", lambda a, b: F.pairwise_distance(a, b, p=float("-inf")), a2, b2)
probe("pairwise_distance_bcast", lambda a, b: F.pairwise_distance(a, b[0], p=3.0), a2, b2)
probe("cosine_similarity_axis0", lambda a, b: F.cosine_similarity(a, b, axis=0), a2, b2)
probe("fold_ints", lambda x: F.fold(x, 4, 2, strides=2), rng.standard_normal((1, 8, 4)).astype("float32"))
probe("adaptive_max_uneven", lambda x: F.adaptive_max_pool2d(x, [4, 5]), img7)
probe("adaptive_avg_uneven", lambda x: F.adaptive_avg_pool2d(x, [5, 4]), img7)
probe("lp_pool1d_ceil_pad", lambda x: F.lp_pool1d(x.abs() + 0.1, 2.0, 3, stride=2, padding=1, ceil_mode=True), seq)
rec["diag_embed"] = F.diag_embed(paddle.to_tensor(a2), offset=1, dim1=0, dim2=2).numpy().tolist()
rec["sequence_mask"] = F.sequence_mask(paddle.to_tensor([1, 3, 0]), maxlen=4, dtype="float32").numpy().tolist()
oh = F.one_hot(paddle.to_tensor([[0, 3], [2, 1]]), 5)
rec["one_hot"] = [oh.numpy().tolist(), str(oh.dtype), list(oh.shape)]
ids = paddle.to_tensor([[1, 0, 3], [3, 3, 0]])
table = rng.standard_normal((5, 3)).astype("float32")
for pad_idx in [0, -2, None]:
    for sparse in [False, True]:
        w = paddle.create_parameter([5, 3], "float32", default_initializer=paddle.nn.initializer.Assign(table))
        out = F.embedding(ids, w, padding_idx=pad_idx, sparse=sparse)
        (out * paddle.arange(18, dtype="float32").reshape([2, 3, 3])).sum().backward()
        # a sparse gradient is a SelectedRows in Paddle (one row per lookup): seen through the update it makes
        dense = None if sparse else w.grad.numpy().tolist()
        paddle.optimizer.SGD(learning_rate=0.5, parameters=[w]).step()
        rec[f"embedding_{pad_idx}_{sparse}"] = [out.numpy().tolist(), dense, w.numpy().tolist()]

# what common mistakes raise
t4 = paddle.to_tensor(img)
mistakes = {
    "conv_groups": lambda: F.conv2d(t4, paddle.to_tensor(w44), groups=3),
    "conv_channels": lambda: F.conv2d(t4, paddle.ones([2, 3, 3, 3])),
    "conv_bad_padding_str": lambda: F.conv2d(t4, paddle.ones([2, 4, 3, 3]), padding="FULL"),
    "interp_size_and_scale": lambda: F.interpolate(t4, size=[3, 3], scale_factor=2),
    "interp_bad_mode": lambda: F.interpolate(t4, size=[3, 3], mode="cubic"),
    "interp_nearest_align": lambda: F.interpolate(t4, size=[3, 3], mode="nearest", align_corners=True),
    "interp_linear_4d": lambda: F.interpolate(t4, size=[3, 3], mode="linear"),
    "pad_reflect_too_big": lambda: F.pad(t4, [6, 6, 0, 0], mode="reflect"),
    "pad_bad_mode": lambda: F.pad(t4, [1, 1, 1, 1], mode="edge"),
    "pool_bad_format": lambda: F.max_pool2d(t4, 2, data_format="NCWH"),
    "pixel_shuffle_bad": lambda: F.pixel_shuffle(t4, 3),
    "channel_shuffle_bad": lambda: F.channel_shuffle(t4, 3),
    "group_norm_bad": lambda: F.group_norm(t4, 3),
    "grid_sample_bad_mode": lambda: F.grid_sample(t4, paddle.zeros([2, 3, 3, 2]), mode="bicubic"),
    "unfold_bad_kernel": lambda: F.unfold(t4, [7, 7]),
    "one_hot_range": lambda: F.one_hot(paddle.to_tensor([0, 5]), 4).numpy(),
    "label_smooth_eps": lambda: F.label_smooth(paddle.ones([2, 3]), epsilon=1.5),
    "dropout_p": lambda: F.dropout(t4, 1.5),
    "lrn_bad_dim": lambda: F.local_response_norm(paddle.ones([2, 3]), 3),
}
errs = {}
for key, f in mistakes.items():
    try:
        f()
        errs[key] = "ok"
    except Exception as e:  # noqa: BLE001
        errs[key] = type(e).__name__
rec["errors"] = errs

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
