"""Record how Paddle 3.3.1 takes PyTorch-style keyword aliases into tests/data/paddle_aliases.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_aliases.py``. For each case of
``tests/alias_cases.py`` the fixture stores each form's result (values, dtype, shape; a tuple result one record
per item) or the type of the exception Paddle raised; ``REFUSED`` calls store their exception type.
"""

import json
import sys
from pathlib import Path

import numpy as np
import paddle
import paddle.nn.functional as F

sys.path.insert(0, str(Path(__file__).parent))
from alias_cases import CASES, INPUTS, REFUSED, forms  # noqa: E402


def record(expr: str, env: dict) -> dict:
    try:
        r = eval(expr, env)
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}
    items = r if isinstance(r, (tuple, list)) else [r]
    return {"items": [{"dtype": str(t.numpy().dtype), "shape": list(t.shape), "values": t.numpy().tolist()} for t in items]}


def main() -> None:
    out = {"cases": {}, "refused": {}}
    for call, params, aliases in CASES:
        env = {"P": paddle, "F": F, "np": np, "T": paddle.to_tensor}
        env.update({k: eval(v, env) for k, v in INPUTS.items()})
        out["cases"][forms(call, params, aliases)["named"]] = {k: record(e, env) for k, e in forms(call, params, aliases).items()}
    env = {"P": paddle, "F": F, "np": np, "T": paddle.to_tensor}
    env.update({k: eval(v, env) for k, v in INPUTS.items()})
    out["refused"] = {e: record(e, env) for e in REFUSED}
    path = Path(__file__).parent / "data" / "paddle_aliases.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
