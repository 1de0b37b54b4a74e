"""Cases found by the whole program ``tests/programs/p67_llama_block.py``, as Paddle code: ``record(paddle)`` runs
them with the given library and returns what they give (values, shapes, the type of each error).
``record_paddle_program_diffs_v.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_v.json``;
``test_program_diffs_v.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np


def _attempt(f: Any) -> Any:
    try:
        f()
        return "accepted"
    except Exception as e:  # noqa: BLE001  (the type is the result)
        return type(e).__name__


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


def sdpa_misuse(paddle: Any, out: dict[str, Any]) -> None:
    """The type of error scaled_dot_product_attention raises for head counts that do not fit (AssertionError in
    Paddle), mismatched sizes, and an integer mask (TypeError in Paddle: it is neither a keep mask nor an additive
    one)."""
    F = paddle.nn.functional
    q, k, v4 = paddle.ones([1, 3, 4, 2]), paddle.ones([1, 3, 2, 2]), paddle.ones([1, 3, 4, 2])
    cases = {
        "kv_heads": lambda: F.scaled_dot_product_attention(q, k, v4),
        "no_gqa": lambda: F.scaled_dot_product_attention(q, k, k, enable_gqa=False),
        "q_not_multiple": lambda: F.scaled_dot_product_attention(paddle.ones([1, 3, 3, 2]), k, k),
        "head_dim": lambda: F.scaled_dot_product_attention(q, paddle.ones([1, 3, 4, 3]), v4),
        "kv_seq": lambda: F.scaled_dot_product_attention(q, q, paddle.ones([1, 2, 4, 2])),
        "int_mask": lambda: F.scaled_dot_product_attention(q, q, q, attn_mask=paddle.ones([3, 3], "int64")),
        "value_dim": lambda: F.scaled_dot_product_attention(q, q, paddle.ones([1, 3, 4, 5])),
    }
    for name, f in cases.items():
        out[f"sdpa_bad_{name}"] = _attempt(f)


CASES = [sdpa_unbatched, sdpa_misuse]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
