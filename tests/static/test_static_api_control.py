"""``static.nn.case`` / ``switch_case`` (static against Paddle 3.3.1, eager and traced against numpy) and
``static.Print`` (its output against Paddle's).

Paddle's numbers: ``tests/record_paddle_static_api.py`` (case/switch_case in its PIR mode, where ``cond``
works in 3.3.1; Print in the Program IR).
"""

from __future__ import annotations

import collections
import json
import os
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import static_api_cases as cases

import pylayer_jax as paddle

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
with open(os.path.join(DATA, "paddle_static_api.json")) as _f:
    REF = json.load(_f)


@pytest.fixture
def static():
    paddle.enable_static()
    yield
    paddle.disable_static()


def close(a, b, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(a, "float64"), np.asarray(b, "float64"), rtol=rtol, atol=atol)


def test_case_and_switch_case_in_a_program_match_paddle(static):
    main, startup, fetch = cases.branches(paddle)
    kinds = [op.type for op in main.global_block().ops]
    assert kinds.count("case") == 2 and kinds.count("switch_case") == 2  # (one lax.switch each)
    exe = paddle.static.Executor()
    exe.run(startup)
    for (xv, iv), ref in zip(cases.BRANCH_FEEDS, REF["branches"], strict=True):
        got = exe.run(main, feed={"bx": np.array(xv, "float32"), "bi": np.array([iv], "int64")}, fetch_list=fetch)
        for a, b in zip(got, ref, strict=True):
            close(a, b)
    assert len(main._exe_cache) == 1  # every branch choice runs the one compiled program


def _np_case(x):
    s = x.mean() * 3
    c = x * 2 if s < -1 else np.exp(x) if s < 1 else x * x
    c2 = x - 1 if s < 0 else x + 1  # (default None: the last pair's fn, its pred unread)
    return c, c2


def _np_switch(x, i):
    w = {1: x * 3, 3: np.sin(x)}.get(i, x / 2)
    w2 = x + 10 if i == 0 else x ** 3  # (default None: the fn of the largest key)
    return w, w2


def _eager(x, i):
    s = x.mean() * 3.0
    c = paddle.static.nn.case([(s < -1.0, lambda: x * 2.0), (s < 1.0, lambda: paddle.exp(x))], lambda: x * x)
    c2 = paddle.static.nn.case([(s < 0.0, lambda: x - 1.0), (s > 5.0, lambda: x + 1.0)])
    w = paddle.static.nn.switch_case(i, {1: lambda: x * 3.0, 3: lambda: paddle.sin(x)}, lambda: x / 2.0)
    w2 = paddle.static.nn.switch_case(i, [lambda: x + 10.0, lambda: x * x * x])
    return c, c2, w, w2


@pytest.mark.parametrize("xv, iv", cases.BRANCH_FEEDS)
def test_case_and_switch_case_eager_and_traced_match_numpy(xv, iv):
    x = np.array(xv, "float32")
    want = [*_np_case(x), *_np_switch(x, iv)]
    got = _eager(paddle.to_tensor(x), paddle.to_tensor([iv]))
    for a, b in zip(got, want, strict=True):
        close(a.numpy(), b)

    def traced(xa, ia):
        return [t._value for t in _eager(paddle.Tensor(xa), paddle.Tensor(ia))]

    for a, b in zip(jax.jit(traced)(jnp.asarray(x), jnp.asarray([iv])), want, strict=True):
        close(a, b)
    jaxpr = jax.make_jaxpr(traced)(jnp.asarray(x), jnp.asarray([iv])).jaxpr
    assert [e.primitive.name for e in jaxpr.eqns].count("cond") == 4  # one lax.switch per call, not nested conds


def test_eager_case_runs_only_the_chosen_branch():
    ran = []
    x = paddle.to_tensor([1.0])
    out = paddle.static.nn.case([(x > 5.0, lambda: ran.append("a") or x), (x > 0.0, lambda: ran.append("b") or x * 2)],
                                lambda: ran.append("c") or x)
    assert ran == ["b"] and out.item() == 2.0


@pytest.mark.parametrize("call, exc, match", [
    (lambda x, i: paddle.static.nn.case([(x > 0, lambda: x)], default=3), TypeError, "default must be callable"),
    (lambda x, i: paddle.static.nn.case([[x > 0, lambda: x]]), TypeError, "must be a tuple"),
    (lambda x, i: paddle.static.nn.case([(x > 0, lambda: x, 1)]), TypeError, "2-tuple"),
    (lambda x, i: paddle.static.nn.case([(True, lambda: x)]), TypeError, "pred must be a boolean Tensor"),
    (lambda x, i: paddle.static.nn.case([]), ValueError, "must not be empty"),
    (lambda x, i: paddle.static.nn.switch_case(i, {1: lambda: x, 1.5: lambda: x}), TypeError, "must be an int"),
    (lambda x, i: paddle.static.nn.switch_case(i, [(1, lambda: x), (1, lambda: x)]), ValueError,
     "1 appears more than once"),
    (lambda x, i: paddle.static.nn.switch_case(i, {0: 5}), TypeError, "fn for key 0 must be callable"),
    (lambda x, i: paddle.static.nn.switch_case(x, {0: lambda: x}), TypeError, "integer dtype"),
    (lambda x, i: paddle.static.nn.switch_case(3, {0: lambda: x}), TypeError, "int Tensor with one element"),
])
def test_case_misuse_raises(call, exc, match):
    with pytest.raises(exc, match=match):
        call(paddle.to_tensor([1.0]), paddle.to_tensor([1]))


def test_static_branches_must_agree(static):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [3], "float32")
        i = paddle.static.data("i", [1], "int64")
        with pytest.raises(ValueError, match=r"output 0 of branch 0 \(float32\[3\]\) and of branch 1 \(float32\[1\]\)"):
            paddle.static.nn.switch_case(i, [lambda: x, lambda: x[:1]])
        with pytest.raises(ValueError, match="every branch must return the same structure"):
            paddle.static.nn.case([(x.mean() > 0, lambda: [x, x])], lambda: x)


# ---- Print ----------------------------------------------------------------------------------------------
def _records(text, out_name):
    """The lines of the printed records, with the names Paddle gives intermediate Variables normalised."""
    text = text.replace(f"{out_name}@GRAD", "<print out>@GRAD")
    return collections.Counter(re.sub(r"^Variable: (?!px$|<print)\S+$", "Variable: <tmp>", line)
                               for line in text.splitlines())


def test_print_output_matches_paddle(static, capsys):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("px", [2, 3], "float32")
        x.stop_gradient = False
        y = paddle.static.Print(x, message="hello", summarize=4)
        z = paddle.static.Print(y * 2.0, first_n=1, print_tensor_layout=False, print_tensor_lod=False,
                                print_phase="forward")
        paddle.static.Print(paddle.static.data("pi", [2, 2], "int64"), print_tensor_name=False,
                            print_tensor_type=False, summarize=-1)
        loss = paddle.mean(z)
        paddle.static.append_backward(loss)
    assert y.name == REF["print"]["print_out_name"]
    exe = paddle.static.Executor()
    exe.run(startup)
    capsys.readouterr()
    feed = {"px": np.arange(6, dtype="float32").reshape(2, 3), "pi": np.array([[1, -2], [3, 4]], "int64")}
    for ref in REF["print"]["runs"]:
        exe.run(main, feed=feed, fetch_list=[loss])
        got = capsys.readouterr().out
        # Paddle's executor may order independent prints differently from run to run: compare the records
        assert _records(got, y.name) == _records(ref, REF["print"]["print_out_name"])
        assert got.index("Variable: px") < got.index("@GRAD")  # (forward values before the gradient)


def test_print_runs_without_being_fetched_and_passes_the_value_through(static, capsys):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [3], "float32")
        y = paddle.static.Print(x, summarize=2, print_tensor_lod=False, print_tensor_layout=False)
        z = y * 2.0
    exe = paddle.static.Executor()
    out = exe.run(main, feed={"x": np.array([1.5, 2.0, -3.0], "float32")}, fetch_list=[z])[0]
    close(out, [3.0, 4.0, -6.0])
    assert "data: [1.500000 2.000000]" in capsys.readouterr().out
    exe.run(main, feed={"x": np.zeros(3, "float32")}, fetch_list=[])  # nothing fetched: still printed
    assert "data: [0.000000 0.000000]" in capsys.readouterr().out


def test_print_misuse_raises(static):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [3], "float32")
        with pytest.raises(ValueError, match="print_phase must be one of"):
            paddle.static.Print(x, print_phase="sideways")
        with pytest.raises(TypeError, match="first_n must be an int"):
            paddle.static.Print(x, first_n=1.5)
    paddle.disable_static()
    with pytest.raises(RuntimeError, match="Print works in static mode only"):
        paddle.static.Print(paddle.ones([2]))
