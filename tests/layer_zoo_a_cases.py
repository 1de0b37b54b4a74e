"""Layer cases built the same way from real Paddle (recording) and from pylayer_jax (tests).

Each case is ``(id, build, inputs, mode)``: ``build(paddle, np_dtype)`` makes the layer, ``inputs`` lists
input specs turned into identical numpy arrays on both sides by ``make_inputs``, ``mode`` is 'train' or 'eval'.
Spec kinds: 'f' floats in [-2, 2] (differentiable), 'pos' floats in [0.1, 0.9] (differentiable),
'bin' 0/1 floats, 'sign' -1/+1 floats, 'isign' -1/+1 int64, 'soft' rows summing to 1, 'int' int64 in
[0, high), 'const' a given int64 array (the last three are labels: not differentiable).
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np


def _w(p: Any, dt: Any, values: list[float]) -> Any:
    return p.to_tensor(np.asarray(values, dt))


def _cases() -> list[tuple[str, Any, list[tuple], str]]:
    F2 = [("f", [2, 3, 4])]
    c: list[tuple[str, Any, list[tuple], str]] = []

    def add(cid: str, build: Any, inputs: list[tuple] = F2, mode: str = "train") -> None:
        c.append((cid, build, inputs, mode))

    # ---- activations ----
    for n in ["ReLU", "ReLU6", "SELU", "GELU", "Hardsigmoid", "Hardswish", "LogSigmoid", "Mish", "Sigmoid",
              "Silu", "SiLU", "Softsign", "Swish", "Tanh", "Tanhshrink", "LogSoftmax", "Softmax", "Hardtanh",
              "LeakyReLU", "ELU", "CELU", "Hardshrink", "Softshrink", "Softplus", "ThresholdedReLU", "GLU",
              "PReLU"]:
        add(n, lambda p, dt, n=n: getattr(p.nn, n)())
    add("ReLU6_big", lambda p, dt: p.nn.ReLU6(name="r6"), [("f", [2, 3, 4], 4.0)])
    add("ELU_alpha", lambda p, dt: p.nn.ELU(alpha=0.5))
    add("CELU_alpha", lambda p, dt: p.nn.CELU(alpha=1.5))
    add("SELU_args", lambda p, dt: p.nn.SELU(scale=1.2, alpha=1.4))
    add("GELU_tanh", lambda p, dt: p.nn.GELU(approximate=True))
    add("GLU_axis1", lambda p, dt: p.nn.GLU(axis=1), [("f", [2, 4, 3])])
    add("Hardshrink_t", lambda p, dt: p.nn.Hardshrink(threshold=0.3))
    add("Softshrink_t", lambda p, dt: p.nn.Softshrink(threshold=0.3))
    add("Hardtanh_mm", lambda p, dt: p.nn.Hardtanh(min=-0.5, max=0.7))
    add("LeakyReLU_s", lambda p, dt: p.nn.LeakyReLU(negative_slope=0.1))
    add("LogSoftmax_ax", lambda p, dt: p.nn.LogSoftmax(axis=1))
    add("Softmax_ax0", lambda p, dt: p.nn.Softmax(axis=0))
    add("Softmax2D", lambda p, dt: p.nn.Softmax2D(), [("f", [2, 3, 2, 2])])
    add("Softmax2D_3d", lambda p, dt: p.nn.Softmax2D(), [("f", [3, 2, 2])])
    add("Maxout", lambda p, dt: p.nn.Maxout(groups=2), [("f", [2, 4, 3, 3])])
    add("Maxout_ax", lambda p, dt: p.nn.Maxout(groups=3, axis=-1), [("f", [2, 2, 1, 6])])
    add("Softplus_bt", lambda p, dt: p.nn.Softplus(beta=2, threshold=1.5))
    add("ThresholdedReLU_tv", lambda p, dt: p.nn.ThresholdedReLU(threshold=0.5, value=0.1))
    add("PReLU_ch", lambda p, dt: p.nn.PReLU(num_parameters=3, init=0.1), [("f", [2, 3, 2, 2])])
    add("PReLU_nhwc", lambda p, dt: p.nn.PReLU(num_parameters=4, data_format="NHWC", name="pr"),
        [("f", [2, 2, 2, 4])])
    add("RReLU_eval", lambda p, dt: p.nn.RReLU(0.1, 0.3), mode="eval")

    # ---- losses ----
    X23 = [("f", [2, 3]), ("f", [2, 3])]
    add("MSELoss", lambda p, dt: p.nn.MSELoss(), X23)
    add("MSELoss_none", lambda p, dt: p.nn.MSELoss(reduction="none"), X23)
    add("L1Loss_sum", lambda p, dt: p.nn.L1Loss(reduction="sum"), X23)
    add("BCELoss", lambda p, dt: p.nn.BCELoss(), [("pos", [2, 3]), ("bin", [2, 3])])
    add("BCELoss_w", lambda p, dt: p.nn.BCELoss(weight=_w(p, dt, [0.5, 1.0, 2.0]), reduction="sum"),
        [("pos", [2, 3]), ("bin", [2, 3])])
    add("BCEWithLogitsLoss", lambda p, dt: p.nn.BCEWithLogitsLoss(), [("f", [2, 3]), ("bin", [2, 3])])
    add("BCEWithLogitsLoss_pw", lambda p, dt: p.nn.BCEWithLogitsLoss(
        weight=_w(p, dt, [1.0, 0.5, 2.0]), pos_weight=_w(p, dt, [2.0, 1.0, 0.5]), reduction="none"),
        [("f", [2, 3]), ("bin", [2, 3])])
    add("CrossEntropyLoss", lambda p, dt: p.nn.CrossEntropyLoss(), [("f", [4, 5]), ("int", [4], 5)])
    add("CrossEntropyLoss_w", lambda p, dt: p.nn.CrossEntropyLoss(
        weight=_w(p, dt, [1.0, 2.0, 0.5, 1.0, 1.5]), ignore_index=1), [("f", [4, 5]), ("const", [0, 1, 4, 2])])
    add("CrossEntropyLoss_soft", lambda p, dt: p.nn.CrossEntropyLoss(soft_label=True, reduction="sum"),
        [("f", [3, 4]), ("soft", [3, 4])])
    add("CrossEntropyLoss_ls", lambda p, dt: p.nn.CrossEntropyLoss(label_smoothing=0.1),
        [("f", [4, 5]), ("int", [4], 5)])
    add("CrossEntropyLoss_axis1", lambda p, dt: p.nn.CrossEntropyLoss(axis=1, reduction="none"),
        [("f", [2, 3, 4]), ("int", [2, 1, 4], 3)])
    add("NLLLoss", lambda p, dt: p.nn.NLLLoss(), [("f", [3, 4]), ("int", [3], 4)])
    add("NLLLoss_4d", lambda p, dt: p.nn.NLLLoss(weight=_w(p, dt, [1.0, 2.0, 0.5]), reduction="sum"),
        [("f", [2, 3, 2, 2]), ("int", [2, 2, 2], 3)])
    add("KLDivLoss", lambda p, dt: p.nn.KLDivLoss(reduction="batchmean"), [("f", [2, 3]), ("soft", [2, 3])])
    add("KLDivLoss_log", lambda p, dt: p.nn.KLDivLoss(reduction="none", log_target=True), X23)
    add("MarginRankingLoss", lambda p, dt: p.nn.MarginRankingLoss(margin=0.1),
        [("f", [3]), ("f", [3]), ("sign", [3])])
    add("SmoothL1Loss", lambda p, dt: p.nn.SmoothL1Loss(), X23)
    add("SmoothL1Loss_d", lambda p, dt: p.nn.SmoothL1Loss(reduction="sum", delta=0.5), X23)
    add("SmoothL1Loss_nh", lambda p, dt: p.nn.SmoothL1Loss(delta=0.5, is_huber=False), X23)
    add("HuberLoss", lambda p, dt: p.nn.HuberLoss(delta=0.7), X23)
    add("MultiLabelSoftMarginLoss", lambda p, dt: p.nn.MultiLabelSoftMarginLoss(), [("f", [2, 4]), ("bin", [2, 4])])
    add("MultiLabelSoftMarginLoss_w", lambda p, dt: p.nn.MultiLabelSoftMarginLoss(
        weight=_w(p, dt, [1.0, 2.0, 0.5, 1.0]), reduction="none"), [("f", [2, 4]), ("bin", [2, 4])])
    add("HingeEmbeddingLoss", lambda p, dt: p.nn.HingeEmbeddingLoss(margin=0.5), [("f", [2, 3]), ("sign", [2, 3])])
    add("CosineEmbeddingLoss", lambda p, dt: p.nn.CosineEmbeddingLoss(margin=0.2),
        [("f", [3, 4]), ("f", [3, 4]), ("isign", [3])])
    add("TripletMarginLoss", lambda p, dt: p.nn.TripletMarginLoss(), [("f", [3, 4])] * 3)
    add("TripletMarginLoss_swap", lambda p, dt: p.nn.TripletMarginLoss(margin=2.0, p=1.0, swap=True,
                                                                         reduction="none"), [("f", [3, 4])] * 3)
    add("TripletMarginWithDistanceLoss", lambda p, dt: p.nn.TripletMarginWithDistanceLoss(margin=2.0),
        [("f", [3, 4])] * 3)
    add("MultiMarginLoss", lambda p, dt: p.nn.MultiMarginLoss(), [("f", [3, 4]), ("int", [3], 4)])
    add("MultiMarginLoss_p2", lambda p, dt: p.nn.MultiMarginLoss(p=2, margin=0.5, weight=_w(p, dt, [1.0, 2.0, 0.5, 1.0]),
                                                                reduction="sum"), [("f", [3, 4]), ("int", [3], 4)])
    add("MultiLabelMarginLoss", lambda p, dt: p.nn.MultiLabelMarginLoss(),
        [("f", [2, 4]), ("const", [[3, 0, -1, 1], [1, 2, 3, -1]])])
    add("SoftMarginLoss", lambda p, dt: p.nn.SoftMarginLoss(), [("f", [2, 3]), ("sign", [2, 3])])
    add("PoissonNLLLoss", lambda p, dt: p.nn.PoissonNLLLoss(), [("f", [2, 3]), ("pos", [2, 3])])
    add("PoissonNLLLoss_full", lambda p, dt: p.nn.PoissonNLLLoss(log_input=False, full=True, reduction="sum"),
        [("pos", [2, 3]), ("pos", [2, 3], 4.0)])
    add("GaussianNLLLoss", lambda p, dt: p.nn.GaussianNLLLoss(), [("f", [3, 2]), ("f", [3, 2]), ("pos", [3, 2])])
    add("GaussianNLLLoss_full", lambda p, dt: p.nn.GaussianNLLLoss(full=True, reduction="none"),
        [("f", [3, 2]), ("f", [3, 2]), ("pos", [3, 1])])

    # ---- dropouts: eval mode is deterministic; p=0 in training is the identity ----
    add("Dropout_eval", lambda p, dt: p.nn.Dropout(0.3), mode="eval")
    add("Dropout_down_eval", lambda p, dt: p.nn.Dropout(0.3, mode="downscale_in_infer"), mode="eval")
    add("Dropout_p0", lambda p, dt: p.nn.Dropout(0.0, axis=1))
    add("Dropout2D_eval", lambda p, dt: p.nn.Dropout2D(0.4, data_format="NHWC"), [("f", [2, 2, 2, 3])], "eval")
    add("Dropout3D_eval", lambda p, dt: p.nn.Dropout3D(0.4), [("f", [1, 2, 2, 2, 2])], "eval")
    add("AlphaDropout_eval", lambda p, dt: p.nn.AlphaDropout(0.2), mode="eval")
    add("FeatureAlphaDropout_eval", lambda p, dt: p.nn.FeatureAlphaDropout(0.2), mode="eval")

    # ---- common layers ----
    add("Embedding", lambda p, dt: p.nn.Embedding(5, 3), [("int", [2, 3], 5)])
    add("Embedding_pad", lambda p, dt: p.nn.Embedding(5, 3, padding_idx=1),
        [("const", [[1, 2, 1], [0, 4, 1]])])
    add("Embedding_negpad", lambda p, dt: p.nn.Embedding(4, 2, padding_idx=-1, name="emb"),
        [("const", [[3, 2], [0, 3]])])
    add("Embedding_maxnorm", lambda p, dt: p.nn.Embedding(6, 4, max_norm=1.0, norm_type=1.5),
        [("const", [[0, 2, 5], [2, 3, 0]])])
    add("Bilinear", lambda p, dt: p.nn.Bilinear(3, 4, 2), [("f", [2, 3]), ("f", [2, 4])])
    add("Bilinear_nobias", lambda p, dt: p.nn.Bilinear(2, 2, 3, bias_attr=False, name="bl"),
        [("f", [3, 2]), ("f", [3, 2])])
    add("CosineSimilarity", lambda p, dt: p.nn.CosineSimilarity(), [("f", [3, 4]), ("f", [3, 4])])
    add("CosineSimilarity_ax0", lambda p, dt: p.nn.CosineSimilarity(axis=0, eps=0.1), [("f", [3, 4]), ("f", [3, 4])])
    add("PairwiseDistance", lambda p, dt: p.nn.PairwiseDistance(), [("f", [3, 4]), ("f", [3, 4])])
    add("PairwiseDistance_p1", lambda p, dt: p.nn.PairwiseDistance(p=1.0, epsilon=1e-3, keepdim=True, name="pd"),
        [("f", [3, 4]), ("f", [3, 4])])
    add("Unflatten", lambda p, dt: p.nn.Unflatten(1, [2, 3]), [("f", [2, 6, 2])])
    add("Unflatten_neg", lambda p, dt: p.nn.Unflatten(-1, (2, -1)), [("f", [2, 3, 4])])
    add("PixelShuffle", lambda p, dt: p.nn.PixelShuffle(2), [("f", [1, 8, 2, 2])])
    add("PixelShuffle_nhwc", lambda p, dt: p.nn.PixelShuffle(2, "NHWC"), [("f", [1, 2, 2, 8])])
    add("PixelUnshuffle", lambda p, dt: p.nn.PixelUnshuffle(2), [("f", [1, 2, 4, 4])])
    add("ChannelShuffle", lambda p, dt: p.nn.ChannelShuffle(3), [("f", [1, 6, 2, 2])])
    add("ChannelShuffle_nhwc", lambda p, dt: p.nn.ChannelShuffle(2, "NHWC", name="cs"), [("f", [1, 2, 2, 4])])
    add("Upsample", lambda p, dt: p.nn.Upsample(scale_factor=2), [("f", [1, 2, 2, 3])])
    add("Upsample_linear", lambda p, dt: p.nn.Upsample(size=[5], mode="linear", align_corners=True),
        [("f", [1, 2, 3])])
    add("Upsample_bilinear", lambda p, dt: p.nn.Upsample(scale_factor=1.5, mode="BILINEAR"), [("f", [1, 1, 2, 4])])
    add("Upsample_trilinear", lambda p, dt: p.nn.Upsample(size=[3, 4, 4], mode="trilinear", data_format="NCDHW"),
        [("f", [1, 1, 2, 2, 2])])
    add("Upsample_bicubic", lambda p, dt: p.nn.Upsample(size=[4, 5], mode="bicubic", align_corners=False),
        [("f", [1, 1, 3, 3])])
    add("UpsamplingNearest2D", lambda p, dt: p.nn.UpsamplingNearest2D(size=4), [("f", [1, 2, 2, 3])])
    add("UpsamplingBilinear2D", lambda p, dt: p.nn.UpsamplingBilinear2D(scale_factor=2), [("f", [1, 2, 2, 3])])
    add("UpsamplingBilinear2d", lambda p, dt: p.nn.UpsamplingBilinear2d(size=[3, 5]), [("f", [1, 1, 2, 3])])
    add("UpsamplingNearest2d", lambda p, dt: p.nn.UpsamplingNearest2d(scale_factor=[2, 1], name="up"),
        [("f", [1, 1, 2, 3])])

    # ---- padding ----
    x3, x4, x5 = [("f", [2, 3, 4])], [("f", [1, 2, 3, 3])], [("f", [1, 1, 2, 3, 3])]
    add("Pad1D_reflect", lambda p, dt: p.nn.Pad1D([1, 2], mode="reflect"), x3)
    add("Pad1D_value", lambda p, dt: p.nn.Pad1D(1, value=2.5, data_format="NLC"), x3)
    add("Pad2D_replicate", lambda p, dt: p.nn.Pad2D(1, mode="replicate"), x4)
    add("Pad2D_nhwc", lambda p, dt: p.nn.Pad2D([1, 0, 2, 1], mode="reflect", data_format="NHWC"), [("f", [1, 3, 3, 2])])
    add("Pad3D_const", lambda p, dt: p.nn.Pad3D([1, 0, 0, 1, 1, 0], value=2.0, name="p3"), x5)
    add("Pad3D_circular", lambda p, dt: p.nn.Pad3D(1, mode="circular"), x5)
    for dim, x in ((1, x3), (2, x4), (3, x5)):
        for kind, arg in (("Zero", 2), ("Reflection", 1), ("Replication", [1, 2] * dim), ("Circular", 1)):
            add(f"{kind}Pad{dim}D", lambda p, dt, k=kind, d=dim, a=arg: getattr(p.nn, f"{k}Pad{d}D")(a), x)
        add(f"ConstantPad{dim}D", lambda p, dt, d=dim: getattr(p.nn, f"ConstantPad{d}D")([1, 0] * d, -1.5), x)
        add(f"ZeroPad{dim}d", lambda p, dt, d=dim: getattr(p.nn, f"ZeroPad{d}d")(1), x)
        add(f"ReflectionPad{dim}d", lambda p, dt, d=dim: getattr(p.nn, f"ReflectionPad{d}d")([1, 0] * d), x)
        add(f"ReplicationPad{dim}d", lambda p, dt, d=dim: getattr(p.nn, f"ReplicationPad{d}d")(1), x)
        add(f"CircularPad{dim}d", lambda p, dt, d=dim: getattr(p.nn, f"CircularPad{d}d")([0, 1] * d), x)
        add(f"ConstantPad{dim}d", lambda p, dt, d=dim: getattr(p.nn, f"ConstantPad{d}d")(1, 0.5), x)
    return c


CASES = _cases()


def make_inputs(case_id: str, specs: list[tuple], dt: Any) -> list[tuple[np.ndarray, bool]]:
    """The inputs of a case as ``(array, differentiable)`` pairs, the same on every run and side."""
    rng = np.random.RandomState(zlib.crc32(case_id.encode()))
    out = []
    for spec in specs:
        kind, shape = spec[0], spec[1]
        if kind == "const":
            out.append((np.asarray(shape, np.int64), False))
            continue
        scale = spec[2] if len(spec) > 2 else None
        if kind == "f":
            a = rng.uniform(-1, 1, shape) * (scale or 2.0)
        elif kind == "pos":
            a = rng.uniform(0.1, 0.9, shape) * (scale or 1.0)
        elif kind == "bin":
            a = (rng.uniform(0, 1, shape) > 0.5).astype(np.float64)
        elif kind in ("sign", "isign"):
            a = np.where(rng.uniform(0, 1, shape) > 0.5, 1.0, -1.0)
        elif kind == "soft":
            e = np.exp(rng.uniform(-1, 1, shape))
            a = e / e.sum(-1, keepdims=True)
        elif kind == "int":
            out.append((rng.randint(0, scale, shape).astype(np.int64), False))
            continue
        else:
            raise ValueError(f"unknown input kind {kind!r}")
        if kind == "isign":
            out.append((a.astype(np.int64), False))
        else:
            out.append((a.astype(dt), kind in ("f", "pos")))
    return out


def cotangent(shape: list[int], dt: Any) -> np.ndarray:
    """The fixed output weights ``w`` of the backward pass ``sum(out * w)``."""
    return np.random.RandomState(7).uniform(-1, 1, shape).astype(dt)


def run(p: Any, layer: Any, inputs: list[tuple[np.ndarray, bool]], dt: Any) -> dict[str, Any]:
    """Forward and backward of ``layer`` on ``inputs`` with the paddle-like module ``p``: output, input grads,
    parameter grads (by state_dict key), all as float64 numpy arrays."""
    ts = []
    for a, diff in inputs:
        t = p.to_tensor(a)
        t.stop_gradient = not diff
        ts.append(t)
    out = layer(*ts)
    w = cotangent(list(out.shape), dt)
    (out * p.to_tensor(w)).sum().backward()
    res = {"out": np.asarray(out.numpy(), np.float64), "out_dtype": str(out.dtype).replace("paddle.", ""),
           "grads": [None if t.stop_gradient or t.grad is None else np.asarray(t.grad.numpy(), np.float64)
                     for t in ts],
           "param_grads": {k: None if v.grad is None else np.asarray(v.grad.numpy(), np.float64)
                           for k, v in layer.named_parameters()}}
    return res
