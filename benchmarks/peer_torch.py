"""The benchmark workloads in PyTorch (CPU); run with an interpreter that has torch, prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import torch  # noqa: E402
from _timing import per_call_us  # noqa: E402


class CusTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        return dy * (1 - torch.square(y))


def main() -> None:
    res: dict[str, float] = {}
    a = torch.tensor(np.random.rand(2, 3).astype("float32"))
    b = torch.tensor(np.random.rand(3, 2).astype("float32"))
    res["op tanh [2,3]"] = per_call_us(lambda: torch.tanh(a))
    res["op add [2,3]"] = per_call_us(lambda: a + a)
    res["op matmul [2,3]x[3,2]"] = per_call_us(lambda: torch.matmul(a, b))
    res["op sum [2,3]"] = per_call_us(lambda: torch.sum(a))
    for bsz, w in [(64, 8), (1024, 1024)]:
        x = torch.tensor(np.random.rand(bsz, w).astype("float32"))
        params = [torch.tensor(np.random.rand(*s).astype("float32") * 0.1, requires_grad=True)
                  for s in [(w, w), (w,), (w, w), (w,)]]

        def step(x=x, params=params):
            w1, b1, w2, b2 = params
            out = torch.matmul(torch.tanh(torch.matmul(x, w1) + b1), w2) + b2
            out.mean().backward()
            for p in params:
                p.grad.zero_()
            return w1.grad

        res[f"mlp step {bsz}x{w}"] = per_call_us(step, min_time=0.5 if w < 1000 else 3.0)
    for shape in ((2, 3), (1000, 1000)):
        x = torch.tensor(np.random.rand(*shape).astype("float32"), requires_grad=True)

        def pstep(x=x):
            CusTanh.apply(x).mean().backward()
            return x.grad

        res[f"pylayer step {list(shape)}"] = per_call_us(pstep, min_time=0.5 if shape[0] < 1000 else 2.0)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
