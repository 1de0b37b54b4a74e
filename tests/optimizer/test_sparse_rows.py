"""The optimizers' updates of a sparse embedding gradient (``Embedding(sparse=True)``) against Paddle 3.3.1
(tests/data/paddle_sparse_embedding.json, written by tests/record_paddle_sparse_embedding.py): three steps of a
small model on ids that change each step, the values of every parameter after each step (the rows not looked up
included) and the table's optimizer state, for each optimizer and its variants; the errors where Paddle fails;
AdamW, which Paddle's CPU build cannot run here, against a numpy model of its sparse kernel that reproduces
Paddle's recorded Adam; a compiled step against the eager one; and dense steps still repeated."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import sparse_embedding_cases as cases

import pylayer_jax as paddle

DATA = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                                   "paddle_sparse_embedding.json")))

# where Paddle fails (an exception, or its process ends in a kernel): what is raised here instead
_NO_KERNEL = (NotImplementedError, r"cannot update \(it has no kernel for a sparse gradient\)")
FAILS = {
    "sgd_value": (NotImplementedError, r"which grad_clip=ClipGradByValue cannot clip"),
    "adam_lazy_value": (NotImplementedError, r"which grad_clip=ClipGradByValue cannot clip"),
    "adam_l2": (RuntimeError, r"Adam.step: .* to which Adam cannot add weight_decay=0.1 \(Paddle's Adam raises"),
    "adamax": _NO_KERNEL, "adadelta": _NO_KERNEL, "nadam": _NO_KERNEL, "radam": _NO_KERNEL, "asgd": _NO_KERNEL,
}
# Paddle's CPU build fails on AdamW with a sparse gradient: tested against its kernel's definition below
ADAMW = ("adamw", "adamw_lazy", "adamw_linear", "adamw_lazy_linear")
RECORDED = [n for n in cases.STEPS if n not in FAILS and n not in ADAMW]


def _close(got: dict, want: dict) -> None:
    for g, w in zip(got["steps"], want["steps"], strict=True):
        for k in ("w", "a", "b"):
            np.testing.assert_allclose(g[k], w[k], rtol=1e-5, atol=2e-6, err_msg=k)
    assert sorted(got["state"]) == sorted(want["state"])
    for k, v in want["state"].items():
        np.testing.assert_allclose(got["state"][k], v, rtol=1e-5, atol=2e-6, err_msg=k)


@pytest.mark.parametrize("name", RECORDED)
def test_steps_against_paddle(name: str) -> None:
    _close(cases.run(paddle, name), DATA[name]["value"])


@pytest.mark.parametrize("name", sorted(FAILS))
def test_what_paddle_cannot_update_raises(name: str) -> None:
    rec = DATA[name]
    assert "crash" in rec or rec["raises"][0] in ("OSError", FAILS[name][0].__name__)
    if "raises" in rec and rec["raises"][0] == "RuntimeError":
        assert rec["raises"][1] == "Adam don't support weight_decay with sparse parameters, please set it to None."
    kind, match = FAILS[name]
    with pytest.raises(kind, match=match):
        cases.run(paddle, name)


def _np_sparse_adamw(steps: int, lazy: bool, eps: float, coeff: float, lr: float = 0.1, b1: float = 0.9,
                     b2: float = 0.999) -> list[np.ndarray]:
    """Paddle's CPU sparse AdamW kernel on the linear cases' table, in float32 numpy: every row decays by
    ``lr * coeff``, then Adam's sparse update with the beta powers advanced before they are read; rows not looked up
    keep their moments (lazy) or move by their decayed ones with an unscaled epsilon."""
    f = np.float32
    p, m1, m2 = cases.W0.copy(), np.zeros_like(cases.W0), np.zeros_like(cases.W0)
    b1p, b2p = f(b1), f(b2)
    out = []
    for s in range(steps):
        ids = np.asarray(cases.STEP_IDS[s]).ravel()
        g = np.zeros_like(p)
        np.add.at(g, ids, cases.GCOEF.reshape(-1, cases.D))
        looked = np.zeros((len(p), 1), bool)
        looked[ids] = True
        p = p - f(lr) * f(coeff) * p
        b1p, b2p = b1p * f(b1), b2p * f(b2)
        lr_t = f(lr) * np.sqrt(f(1) - b2p) / (f(1) - b1p)
        m1_r, m2_r = f(b1) * m1 + f(1 - b1) * g, f(b2) * m2 + f(1 - b2) * g * g
        p_r = p - lr_t * (m1_r / (np.sqrt(m2_r) + f(eps) * np.sqrt(f(1) - b2p)))
        if lazy:
            m1_o, m2_o, p_o = m1, m2, p
        else:
            m1_o, m2_o = f(b1) * m1, f(b2) * m2
            p_o = p - lr_t * (m1_o / (np.sqrt(m2_o) + f(eps)))
        m1, m2, p = np.where(looked, m1_r, m1_o), np.where(looked, m2_r, m2_o), np.where(looked, p_r, p_o)
        out.append(p)
    return out


@pytest.mark.parametrize("lazy", [False, True])
def test_numpy_sparse_adam_is_paddles(lazy: bool) -> None:
    """The numpy kernel without decay reproduces Paddle's recorded sparse Adam (so it may stand for Paddle below)."""
    name, eps = ("adam_lazy_linear", 1e-8) if lazy else ("adam_linear", 0.05)
    want = [s["w"] for s in DATA[name]["value"]["steps"]]
    np.testing.assert_allclose(_np_sparse_adamw(3, lazy, eps, 0.0), want, rtol=1e-5, atol=2e-6)


@pytest.mark.parametrize("name", ADAMW)
def test_adamw_follows_paddles_sparse_kernel(name: str) -> None:
    rec = DATA[name]
    assert "crash" in rec or rec["raises"][0] == "OSError"  # (so no values of Paddle's to compare with)
    got = cases.run(paddle, name)
    if name.endswith("_linear"):
        kw = cases.STEPS[name][1]
        want = _np_sparse_adamw(3, kw.get("lazy_mode", False), kw.get("epsilon", 1e-8), kw["weight_decay"])
        np.testing.assert_allclose([s["w"] for s in got["steps"]], want, rtol=1e-5, atol=2e-6)
    else:  # with no decay the kernel is Adam's: Paddle's recorded Adam
        opt, kw, table, extra = cases.STEPS[name]
        cases.STEPS["_adamw0"] = (opt, {**kw, "weight_decay": 0.0}, table, extra)
        try:
            got0 = cases.run(paddle, "_adamw0")
        finally:
            del cases.STEPS["_adamw0"]
        _close(got0, DATA["adam_lazy" if kw.get("lazy_mode") else "adam"]["value"])
        if kw.get("lazy_mode"):  # a row not looked up in a step only decays (lr 0.1, default weight_decay 0.01)
            before = cases.W0
            for ids, step in zip(cases.STEP_IDS, got["steps"]):
                rest = sorted(set(range(cases.N)) - set(np.ravel(ids).tolist()))
                np.testing.assert_allclose(np.asarray(step["w"])[rest], before[rest] * np.float32(1 - 0.1 * 0.01),
                                           rtol=1e-6)
                before = np.asarray(step["w"], np.float32)


def test_compiled_step_updates_as_eager() -> None:
    """A whole step under ``jit.to_static`` (lookups, backward, lazy Adam, clear_grad) gives the eager values."""
    ids = [[1, 2, 2], [3, 4, 1], [5, 5, 0]]

    def run(compiled: bool) -> np.ndarray:
        emb = paddle.nn.Embedding(8, 3, sparse=True)
        emb.weight.set_value(cases.W0)
        a = paddle.create_parameter([3, 2], "float32")
        a.set_value(cases.A0)
        opt = paddle.optimizer.Adam(0.1, parameters=[emb.weight, a], lazy_mode=True)

        def step(x):  # noqa: ANN001, ANN202
            loss = paddle.tanh(paddle.matmul(emb(x), a)).sum()
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        fn = paddle.jit.to_static(step) if compiled else step
        for i in range(6):
            fn(paddle.to_tensor(ids[i % 3]))
        return emb.weight.numpy()

    eager = run(False)
    np.testing.assert_array_equal(eager[6:], cases.W0[6:])  # rows 6 and 7 never looked up
    np.testing.assert_allclose(run(True), eager, rtol=1e-6, atol=1e-6)


def test_dense_steps_still_repeat() -> None:
    """With tables looked up sparsely elsewhere, an optimizer of dense parameters keeps repeating its recorded step,
    and one whose sparse table is updated by the dense rule (SGD) does too."""
    paddle.nn.Embedding(4, 2, sparse=True)(paddle.to_tensor([1])).sum().backward()
    lin = paddle.nn.Linear(3, 2)
    emb = paddle.nn.Embedding(4, 3, sparse=True)
    for params, opt_cls in ((lin.parameters(), paddle.optimizer.Adam), (emb.parameters() + lin.parameters(),
                                                                         paddle.optimizer.SGD)):
        opt = opt_cls(0.1, parameters=params)
        for _ in range(3):
            lin(emb(paddle.to_tensor([0, 2]))).sum().backward()
            opt.step()
            opt.clear_grad()
        assert opt._fast is not None
