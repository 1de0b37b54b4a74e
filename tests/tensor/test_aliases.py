"""PyTorch-style keyword aliases (``sum(x, dim=0)``, ``add(input=x, other=y)``) against Paddle 3.3.1's record
(tests/data/paddle_aliases.json, written by tests/record_paddle_aliases.py from tests/alias_cases.py)."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F

sys.path.insert(0, str(Path(__file__).parents[1]))
from alias_cases import CASES, INPUTS, REFUSED, forms  # noqa: E402

_REC = json.loads((Path(__file__).parents[1] / "data" / "paddle_aliases.json").read_text())


def _env() -> dict:
    env = {"P": paddle, "F": F, "np": np, "T": paddle.to_tensor}
    env.update({k: eval(v, env) for k, v in INPUTS.items()})  # noqa: S307
    return env


def _check(expr: str, want: dict) -> None:
    env = _env()
    if "error" in want:
        with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[want["error"]], match=r"alias|unexpected|multiple"):
            eval(expr, env)  # noqa: S307
        return
    r = eval(expr, env)  # noqa: S307
    items = r if isinstance(r, (tuple, list)) else [r]
    assert len(items) == len(want["items"]), expr
    for t, w in zip(items, want["items"], strict=True):
        assert list(t.shape) == w["shape"], expr
        np.testing.assert_allclose(np.asarray(t.numpy(), dtype="float64"), np.asarray(w["values"], dtype="float64"),
                                   rtol=1e-5, atol=1e-6, err_msg=expr)


_FORMS = [(e, _REC["cases"][forms(*c)["named"]][k]) for c in CASES for k, e in forms(*c).items()]


@pytest.mark.parametrize(("expr", "want"), _FORMS, ids=[e for e, _ in _FORMS])
def test_alias_form_matches_paddle(expr: str, want: dict) -> None:
    _check(expr, want)


@pytest.mark.parametrize("expr", REFUSED)
def test_paddle_refuses_these_aliases(expr: str) -> None:
    assert _REC["refused"][expr] == {"error": "TypeError"}
    with pytest.raises(TypeError, match="unexpected keyword argument|missing its required"):
        eval(expr, _env())  # noqa: S307


def test_conflict_message_names_api_both_names_and_fix() -> None:
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match=r"paddle\.sum\(\) got both 'axis' and its alias 'dim'.*pass only one of them \(axis=\.\.\.\)"):
        paddle.sum(x, axis=0, dim=0)
    with pytest.raises(TypeError, match=r"paddle\.mean\(\) got both 'axis' and its alias 'dim'"):
        paddle.mean(x, axis=0, dim=0)
    with pytest.raises(ValueError, match=r"paddle\.concat\(\) got both 'x' and its alias 'tensors'"):
        paddle.concat(x=[x], tensors=[x])


def test_alternative_names() -> None:
    assert paddle.cat is paddle.concat and paddle.concatenate is paddle.concat
    assert {"cat", "concatenate"} <= set(dir(paddle))
