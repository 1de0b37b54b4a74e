"""Bad input raises Paddle's exception type at the call (or, for a deferred index, when its value is
computed), with a message naming the API and the rule; the next training step is unaffected.

Rows: ``bad_input_cases.CASES``; Paddle's behaviour for each: ``tests/data/paddle_bad_input.json``
(recorded by ``tests/record_paddle_bad_input.py``). Each row runs with constant inputs and with the
float inputs trainable (deferred execution), and is followed by a training step checked against its
closed form.
"""

from __future__ import annotations

import builtins
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from bad_input_cases import CASES, PENDING, namespace

import pylayer_jax as paddle

RECORDED = json.loads((Path(__file__).resolve().parents[1] / "data" / "paddle_bad_input.json").read_text())

# Where Paddle answers without an error but the answer is garbage (an out-of-range index read or
# written, a float axis truncated, a hook that is not callable), we raise; the type follows the
# rule (IndexError for indices, TypeError for kinds, ValueError for values).
_GARBAGE = {
    "getitem v[paddle.to_tensor([5])]": IndexError, "getitem v[paddle.to_tensor([-5])]": IndexError,
    "getitem v[paddle.to_tensor([0, 9])]": IndexError, "getitem x[paddle.to_tensor([2])]": IndexError,
    "getitem v[i4 + 1]": IndexError, "setitem v[i4 + 1] = 1.0": IndexError,
    "embedding-neg": ValueError, "gather-axis-3": IndexError,
    "register_hook-int": TypeError,
    # Paddle returns x unchanged for ``x + 'a'``, ignores a perm shorter than the rank, slices some axis for
    # an axis it does not have, and pads with an odd-length pad list as if a 0 followed
    "op-add-str": TypeError, "transpose-perm-len": ValueError, "slice-axes": ValueError, "pad-length": ValueError,
}
# Paddle's own failure is no Python exception of the rule's kind (its C++ EnforceNotMet, an assert, an
# internal AttributeError/UnboundLocalError, or a crashed or hung process): ours by the spec's rule.
_INTERNAL = ("EnforceNotMet", "AssertionError", "UnboundLocalError", "AttributeError", "crash")
OURS_INSTEAD_OF_INTERNAL: dict[str, type[Exception]] = {
    "floor_divide-int-zero": ZeroDivisionError, "remainder-int-zero": ZeroDivisionError,
    "op-floordiv-int-zero": ZeroDivisionError, "op-mod-int-zero": ZeroDivisionError,
    "op-pow-int-neg": ValueError, "pow-int-neg": ValueError, "setitem v[paddle.to_tensor([7])] = 1.0": IndexError,
    "atan2-str": TypeError, "atan2-dict": TypeError, "op-mul-str": TypeError, "norm-axis-float": TypeError,
    "norm-axis-str": TypeError, "backward-grad-shape": ValueError, "moveaxis-range": ValueError,
    "pad-mode": ValueError, "split-axis-3": ValueError,
}
OURS_RAISE = {**_GARBAGE}
# rows whose bad values are an index computed by a deferred op: checked beside the op, raised when it is computed
RAISED_WHEN_COMPUTED = {"getitem v[i4 + 1]", "setitem v[i4 + 1] = 1.0"}


def _run(code: str, ns: dict) -> Any:
    try:
        expr = compile(code, "<row>", "eval")
    except SyntaxError:
        exec(compile(code, "<row>", "exec"), ns)
        return ns.get("y")
    return eval(expr, ns)


def _read(r: Any) -> Any:
    """Compute every Tensor in a result (a deferred error raises here)."""
    if isinstance(r, list | tuple):
        return [_read(e) for e in r]
    return r.numpy() if isinstance(r, paddle.Tensor) else r


def _first(r: Any) -> Any:
    while isinstance(r, list | tuple) and r:
        r = r[0]
    return r


def _training_step_is_right() -> None:
    w = paddle.to_tensor([1.0, -2.0, 3.0], stop_gradient=False)
    loss = (w * w * 0.5).sum() + (w * 3.0).mean()
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), np.array([1.0, -2.0, 3.0]) + 1.0, rtol=1e-6)
    np.testing.assert_allclose(loss.numpy(), 7.0 + 2.0, rtol=1e-6)


def _expected(rec: dict, id_: str) -> Any:
    if id_ in OURS_RAISE:
        return OURS_RAISE[id_]
    if "raises" not in rec and id_.endswith(("-axis-str", "-axis-float")):  # Paddle truncates or ignores it
        return TypeError
    if "raises" not in rec and id_.endswith(("-axis-dup", "-axis-list")):  # an axis twice, or out of range
        return ValueError
    if "raises" in rec:
        name = rec["raises"]
        if name in _INTERNAL:
            return OURS_INSTEAD_OF_INTERNAL.get(id_, ValueError)
        return getattr(builtins, name)
    return None


@pytest.mark.parametrize("mode", ["const", "train"])
@pytest.mark.parametrize(("id_", "code", "fragment"), CASES, ids=[c[0] for c in CASES])
def test_bad_input(id_: str, code: str, fragment: str, mode: str) -> None:
    rec = RECORDED[id_][mode]
    ns = namespace(paddle, mode == "train")
    exc = _expected(rec, id_)
    if exc is None:  # Paddle answers: so do we, with its values
        r = _first(_run(code, ns))
        a = np.asarray(r.numpy() if isinstance(r, paddle.Tensor) else r)
        assert list(a.shape) == rec["shape"]
        got = np.where(np.isfinite(a), a, 0) if a.dtype.kind == "f" else a
        np.testing.assert_allclose(got, np.asarray(rec["result"], dtype=got.dtype), rtol=1e-5)
        if a.dtype.kind == "f":
            assert int(a.size - np.isfinite(a).sum()) == rec["nonfinite"]
    else:
        with pytest.raises(exc, match=re.compile(fragment, re.S)):
            r = _run(code, ns)  # an argument error raises here, before anything is recorded
            assert id_ in RAISED_WHEN_COMPUTED, "the call returned: the error would surface late"
            _read(r)
    _training_step_is_right()


def test_table_is_large_and_recorded() -> None:
    assert len(CASES) >= 300
    assert {c[0] for c in CASES} <= set(RECORDED)
    assert PENDING == []  # every recorded row is run


@pytest.mark.parametrize("code", ["paddle.tile(y, [-1])", "F.conv2d(img, w, stride=-1)", "paddle.slice(y, [4], [0], [1])",
                                  "paddle.transpose(y, [0])", "paddle.gather_nd(y, paddle.to_tensor([[2, 0]]))"])
def test_argument_errors_of_deferred_inputs_raise_at_the_op_not_at_a_later_backward(code: str) -> None:
    # these once returned a Tensor of a nonsense shape that failed at the next, unrelated backward()
    ns = namespace(paddle, True)
    y = ns["y"] = ns["x"] * 2.0  # a deferred (recorded, not yet computed) input
    with pytest.raises(ValueError, match=r"(tile|conv2d|slice|transpose|gather_nd): .*(repeat_times|stride|axes|perm|index)"):
        eval(code, ns)
    y.sum().backward()  # the recorded work is intact: the gradient of sum(2x) is 2
    np.testing.assert_allclose(ns["x"].grad.numpy(), 2.0)
    _training_step_is_right()
