"""Inputs of the nn.functional large-model kernels that Paddle 3.3.1 also runs on its CPU, and their recording
(``tests/record_paddle_fused.py`` writes ``tests/data/paddle_fused.json``; ``tests/nn/test_functional_fused.py``
reads it).

flash_attn_qkvpacked runs there as Paddle's math path (the flash kernel is CUDA only), class_center_sample as its
CPU kernel. The other eight functions have no CPU kernel in Paddle 3.3.1; their tests use references of the
documented formulas. The signatures of all ten are recorded too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_rng = np.random.default_rng(20251)

# flash_attn_qkvpacked: qkv [batch, seq, 3, heads, head_dim] (one query group), a cotangent of out
QKV = _rng.uniform(-1.0, 1.0, (2, 5, 3, 2, 4))
QKV_CT = _rng.uniform(-1.0, 1.0, (2, 5, 2, 4))
# (label, kwargs): causal, an eval-mode dropout (no mask drawn), and the weights returned
QKV_CASES: dict[str, dict[str, Any]] = {
    "plain": {"return_softmax": True},
    "causal": {"causal": True, "return_softmax": True},
    "eval_dropout": {"dropout": 0.5, "training": False, "causal": True, "return_softmax": True},
    "no_softmax": {},
}

# class_center_sample: cases whose positive classes fill num_samples (nothing drawn at random), and one that draws
LABELS = np.array([17, 10, 5, 18, 8, 8, 19, 14, 10, 14])
CCS_CASES: dict[str, tuple[str, int, int]] = {  # label dtype, num_classes, num_samples
    "fills_int64": ("int64", 20, 6),
    "fills_int32": ("int32", 20, 7),
    "exact": ("int64", 20, 7),
    "draws": ("int64", 20, 12),
}
CCS_ERRORS: dict[str, tuple[Any, ...]] = {  # label (or shape), num_classes, num_samples, group
    "too_many_samples": (LABELS, 20, 21, None),
    "two_d": (LABELS.reshape(2, 5), 20, 5, None),
    "zero_samples": (LABELS, 20, 0, None),
    "bad_group": (LABELS, 20, 5, 3),
}


NAMES = ["rms_norm", "flash_attn_qkvpacked", "flash_attn_varlen_qkvpacked", "flash_attention_v3_varlen",
         "flashmask_attention", "sparse_attention", "margin_cross_entropy", "class_center_sample", "moe_permute",
         "moe_unpermute"]


def signature(fn: Any) -> list[list[str]]:
    """Each parameter's name, kind and default (repr)."""
    import inspect

    return [[p.name, str(p.kind), repr(p.default)] for p in inspect.signature(fn).parameters.values()]


def _err(fn: Any) -> list[str] | None:
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type and message are the record)
        return [type(e).__name__, str(e).split("\n")[0][:300]]
    return None


def record(paddle: Any) -> dict[str, Any]:
    import paddle.nn.functional as F  # noqa: N812

    out: dict[str, Any] = {f"signature|{n}": signature(getattr(F, n)) for n in NAMES}
    for dt in ("float32", "float64"):
        for label, kw in QKV_CASES.items():
            qkv = paddle.to_tensor(QKV.astype(dt), stop_gradient=False)
            res, sm = F.flash_attn_qkvpacked(qkv, **kw)
            (res * paddle.to_tensor(QKV_CT.astype(dt))).sum().backward()
            out[f"qkvpacked|{label}|{dt}"] = {
                "out": res.numpy().tolist(), "dtype": str(res.dtype).replace("paddle.", ""),
                "softmax": None if sm is None else sm.numpy().tolist(), "grad": qkv.grad.numpy().tolist()}
    for label, (dt, nc, ns) in CCS_CASES.items():
        remapped, sampled = F.class_center_sample(paddle.to_tensor(LABELS.astype(dt)), nc, ns)
        out[f"ccs|{label}"] = {"remapped": remapped.numpy().tolist(), "sampled": sampled.numpy().tolist(),
                               "dtypes": [str(t.dtype).replace("paddle.", "") for t in (remapped, sampled)]}
    for label, (lab, nc, ns, group) in CCS_ERRORS.items():
        out[f"ccs_error|{label}"] = _err(lambda lab=lab, nc=nc, ns=ns, group=group: F.class_center_sample(
            paddle.to_tensor(lab), nc, ns, group=group))
    return out
