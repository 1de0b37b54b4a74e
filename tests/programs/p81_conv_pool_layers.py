"""The ``paddle.nn`` convolution and pooling LAYER classes with the constructor arguments users pass: Conv1D/2D/3D
with padding_mode 'zeros'/'reflect'/'replicate'/'circular', padding as an int, a list, 'same' and 'valid',
stride/dilation/groups, data_format NLC/NHWC/NDHWC, weight_attr/bias_attr (ParamAttr with an initializer and a
name, bias_attr=False); Conv1DTranspose/2DTranspose/3DTranspose with output_padding, groups, dilation, data_format
and output_size at call; MaxPool1D/2D/3D and AvgPool1D/2D/3D with padding forms, ceil_mode, exclusive,
divisor_override, return_mask and data_format; AdaptiveAvg/MaxPool with None in output_size and return_mask;
MaxUnPool1D/2D/3D fed by pools' masks; LPPool1D/2D; Unfold/Fold; PixelShuffle/PixelUnshuffle, ChannelShuffle,
Upsample/UpsamplingNearest2D/UpsamplingBilinear2D; ZeroPad1D/2D/3D and Pad1D/2D/3D in each mode. Each layer's
parameters are set from numpy; the program records outputs, parameter names and shapes, and the gradients of a
weighted sum of the output with respect to the input and every parameter. Then a small CNN built from these
layers is trained a few steps with Adam and evaluated. (Found here, and fixed: the MaxUnPool layers took their
``indices`` only positionally; Paddle's ``forward(x, indices, output_size=None)`` takes them by keyword too.)

Left out: ``MaxUnPool1D(output_size=[L])`` raises a ValueError in Paddle 3.3.1 (it checks the 1-D size against a
2-D shape); the program passes the whole ``[N, C, L]``. Paddle refuses a list or 'same' padding with a padding_mode
other than 'zeros' (a TypeError; recorded, as pylayer_jax raises the same)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn

rng = np.random.default_rng(0)
rec = {}


def _v(t):
    a = np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else np.round(a.astype(np.float64), 6).tolist()


def set_params(layer, seed):
    r = np.random.default_rng(seed)
    for _, p in layer.named_parameters():
        p.set_value((r.standard_normal(p.shape) * 0.5).astype("float32"))


def probe(name, layer, x, set_from_numpy=True, call_kw=None, seed=0):
    """Output, parameter names/shapes and the gradients of a weighted sum of the output."""
    if set_from_numpy:
        set_params(layer, seed)
    xt = paddle.to_tensor(x, stop_gradient=False)
    out = layer(xt, **(call_kw or {}))
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    y = outs[0]
    w = paddle.to_tensor(np.random.default_rng(7).standard_normal(y.shape).astype("float32"))
    (y * w).sum().backward()
    entry = {
        "shape": [list(o.shape) for o in outs],
        "out": _v(y),
        "params": [[n, list(p.shape), p.stop_gradient] for n, p in layer.named_parameters()],
        "xgrad": None if xt.grad is None else _v(xt.grad),
        "pgrad": {n: _v(p.grad) for n, p in layer.named_parameters() if p.grad is not None},
    }
    if len(outs) > 1:
        entry["mask"] = _v(outs[1])
    rec[name] = entry
    return outs


x1 = rng.standard_normal((2, 4, 9)).astype("float32")
x2 = rng.standard_normal((2, 4, 7, 6)).astype("float32")
x3 = rng.standard_normal((1, 2, 5, 4, 6)).astype("float32")

# ---- convolutions ----
for mode in ("zeros", "reflect", "replicate", "circular"):
    probe(f"conv1d_{mode}", nn.Conv1D(4, 6, 3, padding=2, padding_mode=mode, stride=2), x1)
    probe(f"conv2d_{mode}", nn.Conv2D(4, 4, (3, 2), padding=1, padding_mode=mode, groups=2), x2)
    probe(f"conv3d_{mode}", nn.Conv3D(2, 3, 3, padding=1, padding_mode=mode), x3)
# a list padding with a non-zeros padding_mode is refused
for mode in ("reflect", "zeros"):
    for pad in ([1, 2], "same"):
        try:
            nn.Conv2D(4, 4, 3, padding=pad, padding_mode=mode)
            rec[f"conv2d_pad_{pad}_{mode}"] = "ok"
        except Exception as e:  # noqa: BLE001
            rec[f"conv2d_pad_{pad}_{mode}"] = type(e).__name__
probe("conv1d_same_dil", nn.Conv1D(4, 4, 3, padding="same", dilation=2, groups=4), x1)
probe("conv1d_valid_nlc", nn.Conv1D(4, 5, 2, padding="valid", data_format="NLC"), x1.transpose(0, 2, 1))
probe("conv2d_nhwc", nn.Conv2D(4, 6, 3, stride=(2, 1), padding=1, data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("conv2d_same_stride", nn.Conv2D(4, 2, 3, stride=2, padding="SAME"), x2)
probe("conv2d_pad4", nn.Conv2D(4, 2, 2, padding=[1, 0, 2, 1], dilation=(1, 2)), x2)
probe("conv2d_pad_pairs", nn.Conv2D(4, 2, 3, padding=[[0, 0], [0, 0], [1, 2], [0, 1]]), x2)
probe("conv3d_ndhwc", nn.Conv3D(2, 4, (2, 3, 1), stride=(1, 2, 1), padding=(1, 0, 0), data_format="NDHWC"),
      x3.transpose(0, 2, 3, 4, 1))
probe("conv3d_groups_dil", nn.Conv3D(2, 4, 2, groups=2, dilation=2, padding="same"), x3)
# ParamAttr with initializers, a name and learning rate; bias_attr False
attr_conv = nn.Conv2D(4, 3, 2, weight_attr=paddle.ParamAttr(name="my_conv_w", initializer=nn.initializer.Constant(0.3)),
                      bias_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(-0.1)))
rec["attr_conv_name"] = attr_conv.weight.name
probe("conv2d_attr", attr_conv, x2, set_from_numpy=False)
probe("conv1d_nobias", nn.Conv1D(4, 2, 3, bias_attr=False,
                                 weight_attr=nn.initializer.Assign(np.linspace(-1, 1, 24).reshape(2, 4, 3))), x1,
      set_from_numpy=False)
probe("conv3d_nobias", nn.Conv3D(2, 2, 2, bias_attr=False, weight_attr=paddle.ParamAttr(
    initializer=nn.initializer.Constant(0.2))), x3, set_from_numpy=False)

# ---- transposed convolutions ----
probe("convT1d", nn.Conv1DTranspose(4, 2, 3, stride=2, padding=1, output_padding=1, groups=2), x1)
probe("convT1d_nlc", nn.Conv1DTranspose(4, 3, 2, stride=3, dilation=2, data_format="NLC"), x1.transpose(0, 2, 1))
probe("convT1d_outsize", nn.Conv1DTranspose(4, 2, 3, stride=2), x1, call_kw={"output_size": [20]})
probe("convT2d", nn.Conv2DTranspose(4, 6, (3, 2), stride=(2, 3), padding=(1, 0), output_padding=(1, 2),
                                    groups=2, dilation=1), x2)
probe("convT2d_dil", nn.Conv2DTranspose(4, 2, 3, stride=1, padding=2, dilation=2), x2)
probe("convT2d_nhwc", nn.Conv2DTranspose(4, 3, 2, stride=2, data_format="NHWC", bias_attr=False),
      x2.transpose(0, 2, 3, 1))
probe("convT2d_outsize", nn.Conv2DTranspose(4, 2, 3, stride=2, padding=1), x2, call_kw={"output_size": [14, 12]})
probe("convT2d_same", nn.Conv2DTranspose(4, 2, 3, stride=1, padding="same"), x2)
probe("convT3d", nn.Conv3DTranspose(2, 4, 2, stride=2, padding=(0, 1, 0), output_padding=1, groups=2), x3)
probe("convT3d_ndhwc", nn.Conv3DTranspose(2, 2, (1, 2, 2), stride=(1, 2, 1), data_format="NDHWC"),
      x3.transpose(0, 2, 3, 4, 1))
probe("convT3d_outsize", nn.Conv3DTranspose(2, 1, 3, stride=2, padding=1), x3,
      call_kw={"output_size": [10, 8, 12]})

# ---- pooling ----
probe("maxpool1d", nn.MaxPool1D(3, stride=2, padding=1, ceil_mode=True), x1)
_, m1 = probe("maxpool1d_mask", nn.MaxPool1D(2, stride=2, return_mask=True), x1)
probe("avgpool1d_incl", nn.AvgPool1D(3, stride=2, padding=1, exclusive=False, ceil_mode=True), x1)
probe("avgpool1d_excl", nn.AvgPool1D(4, stride=3, padding=2), x1)
probe("maxpool2d_ceil", nn.MaxPool2D((3, 2), stride=(2, 2), padding=(1, 0), ceil_mode=True), x2)
_, m2 = probe("maxpool2d_mask", nn.MaxPool2D(2, stride=2, return_mask=True), x2)
probe("maxpool2d_nhwc", nn.MaxPool2D(3, stride=2, padding="SAME", data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("maxpool2d_pad4", nn.MaxPool2D(2, stride=1, padding=[1, 0, 0, 1]), x2)
probe("avgpool2d_div", nn.AvgPool2D(3, stride=2, padding=1, divisor_override=4), x2)
probe("avgpool2d_incl_ceil", nn.AvgPool2D(2, stride=2, ceil_mode=True, exclusive=False), x2)
probe("avgpool2d_excl_ceil", nn.AvgPool2D(2, stride=2, ceil_mode=True, exclusive=True), x2)
probe("avgpool2d_nhwc_valid", nn.AvgPool2D(2, padding="VALID", data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("maxpool3d", nn.MaxPool3D(2, stride=(1, 2, 2), padding=(1, 0, 1), ceil_mode=True), x3)
_, m3 = probe("maxpool3d_mask", nn.MaxPool3D(2, stride=2, return_mask=True), x3)
probe("maxpool3d_ndhwc", nn.MaxPool3D(2, stride=2, data_format="NDHWC"), x3.transpose(0, 2, 3, 4, 1))
probe("avgpool3d", nn.AvgPool3D(3, stride=2, padding=1, exclusive=False, divisor_override=5), x3)
probe("avgpool3d_excl", nn.AvgPool3D((2, 3, 2), stride=2, padding=1, ceil_mode=True), x3)
probe("avgpool3d_ndhwc", nn.AvgPool3D(2, stride=2, data_format="NDHWC"), x3.transpose(0, 2, 3, 4, 1))
probe("ad_avg1d", nn.AdaptiveAvgPool1D(4), x1)
probe("ad_max1d", nn.AdaptiveMaxPool1D(4, return_mask=True), x1)
probe("ad_avg2d_none", nn.AdaptiveAvgPool2D((None, 4)), x2)
probe("ad_avg2d_nhwc", nn.AdaptiveAvgPool2D(3, data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("ad_max2d_mask", nn.AdaptiveMaxPool2D((3, None), return_mask=True), x2)
probe("ad_avg3d", nn.AdaptiveAvgPool3D((2, None, 3)), x3)
probe("ad_avg3d_ndhwc", nn.AdaptiveAvgPool3D(2, data_format="NDHWC"), x3.transpose(0, 2, 3, 4, 1))
probe("ad_max3d", nn.AdaptiveMaxPool3D((None, 2, 2), return_mask=True), x3)

# unpooling, fed by the masks above
pooled1, _ = nn.MaxPool1D(2, stride=2, return_mask=True)(paddle.to_tensor(x1))
probe("unpool1d", nn.MaxUnPool1D(2, stride=2), pooled1.numpy(), call_kw={"indices": m1})
pooled1b, m1b = nn.MaxPool1D(2, stride=2, return_mask=True)(paddle.to_tensor(x1))
probe("unpool1d_outsize", nn.MaxUnPool1D(2, stride=2, output_size=[2, 4, 9]), pooled1b.numpy(), call_kw={"indices": m1b})
pooled2, _ = nn.MaxPool2D(2, stride=2, return_mask=True)(paddle.to_tensor(x2))
probe("unpool2d", nn.MaxUnPool2D(2, stride=2), pooled2.numpy(), call_kw={"indices": m2})
probe("unpool2d_outsize", nn.MaxUnPool2D(2, stride=2, output_size=[7, 6]), pooled2.numpy(),
      call_kw={"indices": m2})
pooled3, _ = nn.MaxPool3D(2, stride=2, return_mask=True)(paddle.to_tensor(x3))
probe("unpool3d", nn.MaxUnPool3D(2, stride=2), pooled3.numpy(), call_kw={"indices": m3})

probe("lppool1d", nn.LPPool1D(2, 3, stride=2), np.abs(x1) + 0.1)
probe("lppool1d_ceil", nn.LPPool1D(3, 2, ceil_mode=True), np.abs(x1) + 0.1)
probe("lppool2d", nn.LPPool2D(2, (2, 3), stride=(2, 1)), np.abs(x2) + 0.1)
probe("lppool2d_ceil_nhwc", nn.LPPool2D(1.5, 2, ceil_mode=True, data_format="NHWC"),
      np.abs(x2.transpose(0, 2, 3, 1)) + 0.1)

# ---- unfold / fold / pixel ops / upsampling / padding ----
probe("unfold", nn.Unfold(kernel_sizes=[2, 3], strides=[1, 2], paddings=[1, 0], dilations=[2, 1]), x2)
probe("unfold_pad4", nn.Unfold(kernel_sizes=2, strides=2, paddings=[1, 0, 1, 1]), x2)
fold_in = rng.standard_normal((2, 4 * 2 * 2, 12)).astype("float32")
probe("fold", nn.Fold(output_sizes=[4, 5], kernel_sizes=2, strides=1, paddings=0), fold_in)
fold_in2 = rng.standard_normal((1, 2 * 2 * 2, 9)).astype("float32")
probe("fold_stride", nn.Fold(output_sizes=[5, 6], kernel_sizes=[2, 2], strides=[2, 2], paddings=[1, 0],
                             dilations=1), fold_in2)
x_ps = rng.standard_normal((1, 8, 3, 2)).astype("float32")
probe("pixel_shuffle", nn.PixelShuffle(2), x_ps)
probe("pixel_shuffle_nhwc", nn.PixelShuffle(2, data_format="NHWC"), x_ps.transpose(0, 2, 3, 1))
probe("pixel_unshuffle", nn.PixelUnshuffle(2), rng.standard_normal((1, 2, 4, 6)).astype("float32"))
probe("pixel_unshuffle_nhwc", nn.PixelUnshuffle(2, data_format="NHWC"),
      rng.standard_normal((1, 4, 2, 3)).astype("float32"))
probe("channel_shuffle", nn.ChannelShuffle(2), x_ps)
probe("channel_shuffle_nhwc", nn.ChannelShuffle(4, data_format="NHWC"), x_ps.transpose(0, 2, 3, 1))
probe("upsample_nearest", nn.Upsample(scale_factor=2, mode="nearest"), x2)
probe("upsample_bilinear_ac", nn.Upsample(size=[9, 5], mode="bilinear", align_corners=True), x2)
probe("upsample_bilinear_am0", nn.Upsample(scale_factor=[1.5, 2.0], mode="bilinear", align_mode=0), x2)
probe("upsample_bicubic", nn.Upsample(size=[8, 8], mode="bicubic"), x2)
probe("upsample_linear_ncw", nn.Upsample(scale_factor=2, mode="linear", data_format="NCW"), x1)
probe("upsample_trilinear", nn.Upsample(size=[6, 5, 4], mode="trilinear", align_corners=False), x3)
probe("upsample_nhwc", nn.Upsample(size=[5, 9], mode="bilinear", data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("upsample_area", nn.Upsample(size=[3, 4], mode="area"), x2)
probe("upsampling_nearest2d", nn.UpsamplingNearest2D(size=[10, 7]), x2)
probe("upsampling_bilinear2d", nn.UpsamplingBilinear2D(scale_factor=2), x2)
probe("zeropad1d", nn.ZeroPad1D([1, 2]), x1)
probe("zeropad2d", nn.ZeroPad2D([1, 0, 2, 1]), x2)
probe("zeropad2d_nhwc", nn.ZeroPad2D(1, data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("zeropad3d", nn.ZeroPad3D([0, 1, 1, 0, 2, 1]), x3)
for mode in ("constant", "reflect", "replicate", "circular"):
    probe(f"pad1d_{mode}", nn.Pad1D([2, 1], mode=mode, value=0.5), x1)
    probe(f"pad2d_{mode}", nn.Pad2D([1, 2, 0, 1], mode=mode, value=-1.0), x2)
    probe(f"pad3d_{mode}", nn.Pad3D(1, mode=mode, value=2.0), x3)
probe("pad1d_nlc", nn.Pad1D(2, mode="reflect", data_format="NLC"), x1.transpose(0, 2, 1))
probe("pad2d_nhwc", nn.Pad2D([1, 1, 2, 0], mode="replicate", data_format="NHWC"), x2.transpose(0, 2, 3, 1))
probe("pad3d_ndhwc", nn.Pad3D([1, 0, 0, 1, 1, 1], mode="circular", data_format="NDHWC"),
      x3.transpose(0, 2, 3, 4, 1))

# reprs users see when printing a model
rec["reprs"] = [repr(lay) for lay in (
    nn.Conv2D(4, 6, 3, stride=2, padding=1, padding_mode="reflect", groups=2, data_format="NHWC"),
    nn.Conv1DTranspose(4, 2, 3, stride=2, output_padding=1),
    nn.MaxPool2D(3, stride=2, padding=1, ceil_mode=True),
    nn.AvgPool2D(2, exclusive=False),
    nn.AdaptiveAvgPool2D((None, 4)),
    nn.PixelShuffle(2),
    nn.Upsample(scale_factor=2, mode="bilinear"),
    nn.Pad2D([1, 2, 0, 1], mode="reflect"),
)]


# ---- a small CNN from these layers, trained a few steps ----
class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, padding=1, padding_mode="reflect")
        self.p1 = nn.MaxPool2D(2, stride=2, ceil_mode=True)
        self.c2 = nn.Conv2D(8, 8, 3, padding=1, groups=4, padding_mode="circular", bias_attr=False)
        self.pad = nn.Pad2D([1, 0, 0, 1], mode="replicate")
        self.ps = nn.PixelShuffle(2)
        self.c3 = nn.Conv2D(2, 4, 2, stride=2)
        self.up = nn.Conv2DTranspose(4, 4, 2, stride=2, output_padding=1, dilation=1)
        self.ap = nn.AvgPool2D(3, stride=2, padding=1, exclusive=False)
        self.ad = nn.AdaptiveMaxPool2D((2, 2))
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        h = nn.functional.relu(self.c1(x))
        h = self.p1(h)
        h = nn.functional.relu(self.c2(h))
        h = self.pad(h)
        h = self.ps(h)
        h = self.c3(h)
        h = self.up(h)
        h = self.ap(h)
        h = self.ad(h)
        return self.fc(h.flatten(1))


X = rng.standard_normal((16, 3, 9, 9)).astype("float32")
Y = (X[:, 0].mean((1, 2)) > 0).astype("int64") + (X[:, 1, :4].mean((1, 2)) > 0).astype("int64")
model = Net()
set_params(model, 3)
rec["net_params"] = [[n, list(p.shape)] for n, p in model.named_parameters()]
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
losses = []
for step in range(8):
    i = (step % 2) * 8
    xb, yb = paddle.to_tensor(X[i:i + 8]), paddle.to_tensor(Y[i:i + 8])
    loss = nn.functional.cross_entropy(model(xb), yb)
    loss.backward()
    opt.step()
    opt.clear_grad()
    losses.append(float(loss))
rec["losses"] = losses
model.eval()
with paddle.no_grad():
    logits = model(paddle.to_tensor(X))
rec["eval_logits"] = _v(logits)
rec["eval_acc"] = float((logits.argmax(1).numpy() == Y).mean())

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
