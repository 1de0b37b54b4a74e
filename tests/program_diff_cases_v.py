"""Cases found by the whole program ``tests/programs/p67_llama_block.py``, as Paddle code: ``record(paddle)`` runs
them with the given library and returns what they give (values, shapes, the type of each error).
``record_paddle_program_diffs_v.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_v.json``;
``test_program_diffs_v.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np


def _v(t: Any) -> Any:
    return t.numpy().astype("float64").tolist()


def sdpa_unbatched(paddle: Any, out: dict[str, Any]) -> None:
    """scaled_dot_product_attention given unbatched [seq, heads, dim] query / key / value (a batch axis added, then
    removed): outputs with is_causal, with a 2-D additive mask, grouped key heads, and the gradient of the query."""
    F = paddle.nn.functional
    rng = np.random.default_rng(0)
    qn = rng.standard_normal((3, 4, 5)).astype("float32")
    kn = rng.standard_normal((6, 2, 5)).astype("float32")
    vn = rng.standard_normal((6, 2, 5)).astype("float32")
    q = paddle.to_tensor(qn, stop_gradient=False)
    k, v = paddle.to_tensor(kn), paddle.to_tensor(vn)
    o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    (o * o).sum().backward()
    out["sdpa_unbatched_causal"] = [list(o.shape), _v(o), _v(q.grad)]
    mask = np.where(np.arange(6)[None] <= np.arange(3)[:, None] + 3, 0.0, -1e9).astype("float32")
    om = F.scaled_dot_product_attention(q, k, v, attn_mask=paddle.to_tensor(mask))
    out["sdpa_unbatched_mask"] = [list(om.shape), _v(om)]
    batched = F.scaled_dot_product_attention(q[None], k[None], v[None], attn_mask=paddle.to_tensor(mask))
    out["sdpa_unbatched_same_as_batch_of_one"] = float((batched[0] - om).abs().max())


CASES = [sdpa_unbatched]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
