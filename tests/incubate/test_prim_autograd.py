"""``paddle.incubate.autograd.grad`` / ``forward_grad`` / ``prim2orig`` in static programs.

``grad`` without prim, and the errors of dynamic mode and of ``forward_grad`` without prim, against Paddle 3.3.1's
recorded by ``tests/record_paddle_graph_datasets.py`` (``tests/graph_dataset_cases.py::prim_autograd``). With
``enable_prim()``, Paddle 3.3.1's own path raises in its default (PIR) programs, so ``forward_grad`` is checked
against ``jax.jvp`` and ``grad`` against ``jax.vjp`` of the same function, as Paddle documents them.
"""

from __future__ import annotations

import json
import pathlib

import graph_dataset_cases as G
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

REC = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_graph_datasets.json").read_text())
ia = paddle.incubate.autograd


def test_recorded_cases_match_paddle():
    ours = json.loads(json.dumps(G.prim_autograd(paddle)))
    ref = REC["prim_autograd"]
    assert set(ours) == set(ref)
    for key in ("grad_single", "grad_list"):
        assert ours[key][:-1] == ref[key][:-1]
        np.testing.assert_allclose(np.array(ours[key][-1]), np.array(ref[key][-1]), rtol=1e-6)
    assert ours["prim_enabled_default"] is ref["prim_enabled_default"] is False
    for key in ("dynamic_grad", "dynamic_forward_grad", "forward_grad_without_prim", "grad_bad_outputs"):
        assert ours[key][0] == ref[key][0], key
    assert ours["dynamic_grad"][1] == ref["dynamic_grad"][1]  # (the same sentence as Paddle's static_only)
    assert "call paddle.incubate.autograd.enable_prim() first" in ours["forward_grad_without_prim"][1]


def _f(x, z):
    return jnp.tanh(x) * z + x * x * z


@pytest.fixture
def static_prim():
    paddle.enable_static()
    ia.enable_prim()
    try:
        yield
    finally:
        ia.disable_prim()
        paddle.disable_static()


def _run(build, feed):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        ins = {k: paddle.static.data(k, shape=list(np.shape(v)), dtype="float32") for k, v in feed.items()}
        for v in ins.values():
            v.stop_gradient = False
        fetch = build(ins)
        ia.prim2orig()
    exe = paddle.static.Executor()
    exe.run(start)
    return exe.run(main, feed=feed, fetch_list=fetch)


XV = np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]], "float32")
ZV = np.array([[1.0, 2.0, -1.0], [0.5, 3.0, 2.0]], "float32")
VV = np.array([[1.0, 0.0, 2.0], [-1.0, 0.5, 1.0]], "float32")


def test_forward_grad_is_jvp(static_prim):
    def build(d):
        y = paddle.tanh(d["x"]) * d["z"] + d["x"] * d["x"] * d["z"]
        w = paddle.sum(y)
        return [ia.forward_grad(y, [d["x"], d["z"]], [d["v"], None]), ia.forward_grad(w, d["x"]),
                *ia.forward_grad([y, w], [d["z"]])]

    got = _run(build, {"x": XV, "z": ZV, "v": VV})
    _, want = jax.jvp(_f, (XV, ZV), (VV, np.ones_like(ZV)))
    np.testing.assert_allclose(got[0], want, rtol=1e-5)
    _, want_w = jax.jvp(lambda x: jnp.sum(_f(x, ZV)), (XV,), (np.ones_like(XV),))
    np.testing.assert_allclose(got[1], want_w, rtol=1e-5)
    _, want_z = jax.jvp(lambda z: _f(XV, z), (ZV,), (np.ones_like(ZV),))
    np.testing.assert_allclose(got[2], want_z, rtol=1e-5)
    np.testing.assert_allclose(got[3], np.sum(want_z), rtol=1e-5)


def test_grad_with_prim_is_vjp(static_prim):
    got = _run(lambda d: ia.grad([paddle.tanh(d["x"]) * d["z"] + d["x"] * d["x"] * d["z"]], [d["x"], d["z"]],
                                 [d["v"]]), {"x": XV, "z": ZV, "v": VV})
    _, pull = jax.vjp(_f, XV, ZV)
    for g, w in zip(got, pull(VV)):
        np.testing.assert_allclose(g, w, rtol=1e-5)


@pytest.mark.parametrize("call, exc, match", [
    (lambda d: ia.forward_grad(d["x"] * 2.0, d["x"], [d["x"], d["x"]]), ValueError,
     "grad_inputs must have one tangent per input \\(1\\), but received 2"),
    (lambda d: ia.forward_grad(d["x"] * 2.0, d["x"], d["s"]), ValueError,
     "each of grad_inputs must have its input's shape, but s has \\[3\\] for x of shape \\[2, 3\\]"),
    (lambda d: ia.forward_grad(d["x"] * 2.0, 5), TypeError,
     "inputs must be a Tensor or a sequence of Tensors \\(static Variables\\), but received int"),
    (lambda d: ia.grad(d["x"] * 2.0, "x"), TypeError, "inputs must be a Tensor or a sequence of Tensors"),
])
def test_misuse(static_prim, call, exc, match):
    main, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, start):
        d = {"x": paddle.static.data("x", [2, 3], "float32"), "s": paddle.static.data("s", [3], "float32")}
        with pytest.raises(exc, match=match):
            call(d)


def test_prim2orig_is_static_only():
    with pytest.raises(AssertionError, match="'prim2orig\\(\\)' is only supported in static graph mode"):
        ia.prim2orig()
