"""Eager cost of ops whose backward reads saved kernel outputs (layer_norm's statistics, cross_entropy's softmax,
mse_loss's difference, group_norm's statistics) and of functions that switch to another form under saved-tensor
hooks (batch_norm, a 1-D convolution and pool, Paddle's op chains): forward and backward of each, in µs per call.

Run it against two source trees to compare (the tree first on ``PYTHONPATH`` is measured):

    PYTHONPATH=src python benchmarks/saved_outputs.py [--hooks]

``--hooks`` runs every step under a pass-through ``saved_tensors_hooks`` (the packing path).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from _timing import per_call_us  # noqa: E402

import pylayer_jax as paddle  # noqa: E402
import pylayer_jax.nn.functional as F  # noqa: E402
from pylayer_jax.autograd import saved_tensors_hooks  # noqa: E402


def _t(*shape: int, grad: bool = True) -> Any:
    rng = np.random.default_rng(sum(shape))
    return paddle.to_tensor(rng.standard_normal(shape).astype(np.float32), stop_gradient=not grad)


def workloads() -> dict[str, Callable[[], Any]]:
    x, w, b = _t(64, 256), _t(256), _t(256)
    logits, label = _t(64, 100), paddle.to_tensor(np.arange(64) % 100)
    pred, target = _t(64, 256), _t(64, 256, grad=False)
    img, gw, gb = _t(8, 32, 16, 16), _t(32), _t(32)

    def layer_norm() -> Any:
        F.layer_norm(x, 256, w, b).sum().backward()
        return x.grad

    def cross_entropy() -> Any:
        F.cross_entropy(logits, label).backward()
        return logits.grad

    def mse() -> Any:
        F.mse_loss(pred, target).backward()
        return pred.grad

    def group_norm() -> Any:
        F.group_norm(img, 8, weight=gw, bias=gb).sum().backward()
        return img.grad

    rm, rv = _t(32, grad=False), paddle.to_tensor(np.ones(32, np.float32))
    seq, cw = _t(8, 32, 64), _t(16, 32, 3)
    pm = paddle.to_tensor(np.sign(np.random.default_rng(5).standard_normal((64, 256))).astype(np.float32))

    def batch_norm() -> Any:
        F.batch_norm(img, rm, rv, gw, gb, training=True).sum().backward()
        return img.grad

    def conv1d_pool() -> Any:
        F.max_pool1d(F.conv1d(seq, cw, padding=1), 2).sum().backward()
        return seq.grad

    def chains() -> Any:
        (F.soft_margin_loss(pred, pm) + F.glu(pred).sum()).backward()
        return pred.grad

    return {"layer_norm fwd+bwd": layer_norm, "cross_entropy fwd+bwd": cross_entropy, "mse_loss fwd+bwd": mse,
            "group_norm fwd+bwd": group_norm, "batch_norm fwd+bwd": batch_norm, "conv1d+max_pool1d fwd+bwd": conv1d_pool,
            "soft_margin_loss+glu fwd+bwd": chains}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hooks", action="store_true", help="run under a pass-through saved_tensors_hooks")
    args = ap.parse_args()
    print(f"pylayer_jax from {os.path.dirname(paddle.__file__)}; hooks: {args.hooks}")
    for name, fn in workloads().items():
        if args.hooks:
            def run(fn: Callable[[], Any] = fn) -> Any:
                with saved_tensors_hooks(lambda t: t, lambda t: t):
                    return fn()
        else:
            run = fn
        us = per_call_us(run, sync=lambda r: r.numpy())
        print(f"{name:28s} {us:9.1f} us")


if __name__ == "__main__":
    main()
