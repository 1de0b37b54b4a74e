"""``paddle.to_tensor`` of lists holding Tensors (Paddle takes numpy's dtype for such a list, not its default float):
``record(paddle)`` gives each case's dtype and values. ``record_paddle_to_tensor_lists.py`` stores Paddle 3.3.1's
into ``tests/data/paddle_to_tensor_lists.json``; ``tests/tensor/test_to_tensor_lists.py`` compares."""

from __future__ import annotations

from typing import Any

CASES = ["[T(1.5), T(2)]", "[T([1.5]), T([2])]", "[T(1.5), 2]", "[T(1.5), 2.5]", "[T(1), 2.5]",
         "[T(1.5, dtype='float16'), T(1.5)]", "[T(True), T(2)]", "[T(2, dtype='int32'), T(2)]",
         "[T(2, dtype='int32'), T(3, dtype='int32')]", "[T(True), T(False)]", "[[T(1.5)], [T(2)]]",
         "(T(1.5), T(2.5))", "[T(1.5, dtype='float64'), 1]", "[T(2), 3]", "[T(2, dtype='int32'), 3]"]


def record(paddle: Any) -> dict[str, Any]:
    env = {"T": paddle.to_tensor}
    out: dict[str, Any] = {}
    for c in CASES:
        r = paddle.to_tensor(eval(c, env))  # noqa: S307  (the fixed case texts above)
        out[c] = [str(r.dtype).replace("paddle.", ""), r.numpy().astype("float64").tolist()]
    r = paddle.to_tensor([paddle.to_tensor(1.5), paddle.to_tensor(2)], dtype="float32")
    out["explicit float32"] = [str(r.dtype).replace("paddle.", ""), r.numpy().astype("float64").tolist()]
    return out
