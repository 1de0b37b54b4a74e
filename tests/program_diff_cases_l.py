"""Cases found by the whole programs ``tests/programs/p49_segmentation_losses.py`` and ``p50_wgan_style.py`` (and
the probes written around them), as Paddle code: ``record(paddle)`` runs them with the given library and returns
what they give (values, gradients, the type of each error). ``record_paddle_program_diffs_l.py`` runs it with
Paddle 3.3.1 into ``data/paddle_program_diffs_l.json``; ``test_program_diffs_l.py`` runs it with pylayer_jax and
compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _grad, _v


def lerp_weight(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.lerp``'s backward gives ``x`` and ``y`` their gradients and the weight tensor none (p50's
    ``lerp`` of a learnable weight); an output whose only input needing a gradient is the weight needs none."""
    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    b = paddle.to_tensor([3.0, 0.0, -1.0], stop_gradient=False)
    w = paddle.to_tensor([0.2, 0.5, 0.9], stop_gradient=False)
    o = paddle.lerp(a, b, w) * paddle.to_tensor([1.0, 2.0, 3.0])
    o.sum().backward()
    out["lerp_grads"] = [_v(o), _grad(a), _grad(b), _grad(w), o.stop_gradient]
    w2 = paddle.to_tensor(0.3, stop_gradient=False)
    o2 = paddle.lerp(a.detach(), b.detach(), w2)
    out["lerp_only_weight"] = [o2.stop_gradient, _v(o2)]
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    wb = paddle.to_tensor([[0.25], [0.75]], stop_gradient=False)
    ga, gw = paddle.grad(paddle.lerp(x, paddle.zeros([2, 2]), wb).sum(), [x, wb], allow_unused=True)
    out["lerp_grad_fn"] = [_v(ga), gw is None]


def cross_entropy_shapes(paddle: Any, out: dict[str, Any]) -> None:
    """A class weight must hold one value per class and a hard label must have the input's shape with 1 (or no
    axis) on the class axis: Paddle raises ValueError where a wrong weight gave nan or a silently wrong loss and a
    label of the wrong shape was broadcast. The accepted forms keep their values and gradients."""
    F = paddle.nn.functional
    r = np.random.default_rng(0)
    lg = paddle.to_tensor(r.standard_normal((2, 3, 2, 2)).astype("float32"), stop_gradient=False)
    lab = paddle.to_tensor(r.integers(0, 3, (2, 2, 2)))
    w = paddle.to_tensor([0.5, 1.0, 2.0])
    bad = {
        "weight_short": lambda: F.cross_entropy(lg, lab, axis=1, weight=paddle.to_tensor([1.0, 2.0])),
        "weight_long": lambda: F.cross_entropy(lg, lab, axis=1, weight=paddle.to_tensor([1.0, 2.0, 3.0, 4.0])),
        "weight_2d": lambda: F.cross_entropy(lg, lab, axis=1, weight=paddle.ones([3, 1])),
        "weight_soft": lambda: F.cross_entropy(lg, F.softmax(lg, 1), axis=1, soft_label=True,
                                               weight=paddle.to_tensor([1.0, 2.0])),
        "label_broadcast": lambda: F.cross_entropy(lg, lab[:, :1], axis=1),
        "label_axis0": lambda: F.cross_entropy(lg, lab[:1], axis=0),
        "label_dims": lambda: F.cross_entropy(lg, lab[0], axis=1),
        "layer_weight": lambda: paddle.nn.CrossEntropyLoss(weight=paddle.ones([2]), axis=1)(lg, lab),
        "nll_weight": lambda: F.nll_loss(F.log_softmax(lg, 1), lab, weight=paddle.to_tensor([1.0, 2.0])),
    }
    out["ce_bad"] = {k: _attempt(f) for k, f in bad.items()}
    good = {
        "weight": lambda: F.cross_entropy(lg, lab, axis=1, weight=w),
        "label_unsq": lambda: F.cross_entropy(lg, lab.unsqueeze(1), axis=1, weight=w, reduction="sum"),
        "soft_w": lambda: F.cross_entropy(lg.transpose([0, 2, 3, 1]),
                                          F.softmax(lg.detach() * 2, 1).transpose([0, 2, 3, 1]), soft_label=True,
                                          weight=w),
        "ls_last": lambda: F.cross_entropy(lg.transpose([0, 2, 3, 1]), lab, weight=w, label_smoothing=0.1),
        "nll_w": lambda: F.nll_loss(F.log_softmax(lg, 1), lab, weight=w),
    }
    for k, f in good.items():
        lg.clear_gradient()
        loss = f()
        loss.backward()
        out[f"ce_good_{k}"] = [_v(loss), _grad(lg)]


def focal_normalizer(paddle: Any, out: dict[str, Any]) -> None:
    """``sigmoid_focal_loss``'s normalizer is divided in elementwise (broadcast) before the reduction, so a 1-D
    normalizer of more than one entry works as in Paddle; a 2-D one is a ValueError."""
    F = paddle.nn.functional
    r = np.random.default_rng(1)
    logit = paddle.to_tensor(r.standard_normal((2, 2, 3)).astype("float32"), stop_gradient=False)
    label = paddle.to_tensor((r.random((2, 2, 3)) > 0.5).astype("float32"))
    nz = paddle.to_tensor([1.0, 2.0, 4.0])
    s = F.sigmoid_focal_loss(logit, label, normalizer=nz)
    s.backward()
    out["focal_norm_sum"] = [_v(s), _grad(logit)]
    out["focal_norm_none"] = _v(F.sigmoid_focal_loss(logit, label, normalizer=nz, reduction="none"))
    out["focal_norm_mean"] = _v(F.sigmoid_focal_loss(logit, label, normalizer=paddle.to_tensor([3.0]),
                                                     reduction="mean", alpha=0.4, gamma=1.0))
    out["focal_norm_2d"] = _attempt(lambda: F.sigmoid_focal_loss(logit, label, normalizer=paddle.ones([2, 3])))


def grid_sample_3d(paddle: Any, out: dict[str, Any]) -> None:
    """``grid_sample`` of a 5-D input ([N, C, D, H, W] at a [N, Do, Ho, Wo, 3] grid): trilinear and nearest, each
    padding mode, both align_corners, with the gradients of the input and of the affine grid's theta."""
    F = paddle.nn.functional
    r = np.random.default_rng(2)
    x = paddle.to_tensor(r.standard_normal((2, 2, 3, 4, 5)).astype("float32"), stop_gradient=False)
    th = paddle.to_tensor((np.eye(3, 4)[None] + r.standard_normal((2, 3, 4)) * 0.3).astype("float32"),
                          stop_gradient=False)
    for ac in (True, False):
        g = F.affine_grid(th, [2, 2, 2, 3, 4], align_corners=ac) * 1.3
        for pad in ("zeros", "border", "reflection"):
            o = F.grid_sample(x, g, mode="bilinear", padding_mode=pad, align_corners=ac)
            gx, gt = paddle.grad((o * o).sum(), [x, th])
            n = F.grid_sample(x, g, mode="nearest", padding_mode=pad, align_corners=ac)
            out[f"gs3d_{ac}_{pad}"] = [_v(o), _v(n), _v(gx), _v(gt)]
    out["gs3d_bad_grid"] = _attempt(lambda: F.grid_sample(x, paddle.zeros([2, 2, 3, 4, 2])))


def conv_transpose_output_size(paddle: Any, out: dict[str, Any]) -> None:
    """``Conv2DTranspose`` / ``Conv3DTranspose`` called with ``output_size`` use it instead of the layer's
    ``output_padding`` (p50: a generator layer built with output_padding=1, called for an exact size); the
    functional form refuses the pair, as does ``Conv1DTranspose``. A padding string other than 'same'/'valid' is
    refused when the layer is built."""
    nn = paddle.nn
    r = np.random.default_rng(3)
    x = paddle.to_tensor(r.standard_normal((1, 2, 3, 3)).astype("float32"))
    ct = nn.Conv2DTranspose(2, 3, 3, stride=2, padding=1, output_padding=1)
    ct.weight.set_value(r.standard_normal(ct.weight.shape).astype("float32"))
    a, b = ct(x), ct(x, output_size=[5, 5])
    out["convT2d_os"] = [a.shape, b.shape, _v(b), _v(ct(x, output_size=[6, 6]))]
    x3 = paddle.to_tensor(r.standard_normal((1, 2, 2, 2, 2)).astype("float32"))
    ct3 = nn.Conv3DTranspose(2, 1, 3, stride=2, output_padding=1)
    ct3.weight.set_value(r.standard_normal(ct3.weight.shape).astype("float32"))
    out["convT3d_os"] = [ct3(x3).shape, _v(ct3(x3, output_size=[5, 6, 5]))]
    ct1 = nn.Conv1DTranspose(2, 1, 3, stride=2, output_padding=1)
    out["convT1d_os"] = _attempt(lambda: ct1(x[:, :, 0], output_size=[7]).shape)
    out["convT_f_os"] = _attempt(lambda: paddle.nn.functional.conv2d_transpose(
        x, ct.weight, stride=2, output_padding=1, output_size=[6, 6]).shape)
    out["conv_bad_padding"] = [_attempt(lambda: type(nn.Conv2D(2, 2, 3, padding="full")).__name__),
                               _attempt(lambda: type(nn.Conv2DTranspose(2, 2, 3, padding="causal")).__name__),
                               _attempt(lambda: nn.Conv2D(2, 2, 3, padding="Same")(x).shape)]


CASES = (lerp_weight, cross_entropy_shapes, focal_normalizer, grid_sample_3d, conv_transpose_output_size)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
