"""Sparse embedding gradients (``Embedding(sparse=True)``) and the optimizers' updates of them: the cases that
``record_paddle_sparse_embedding.py`` records with Paddle 3.3.1 and ``tests/optimizer/test_sparse_rows.py`` runs
with pylayer_jax. Each case runs with either library (``run(paddle, name, view)``); ``view(table)`` turns a
table's gradient into plain data (Paddle's SelectedRows merged into the dense array it stands for, with its rows).

Gradient cases: a table of 8 rows looked up by ids with repeats (one batch, two lookups in one loss, ids of three
dims, with a padding row, with a dense use of the same table, through the functional form on a plain Tensor),
accumulated over two backwards, and cleared in each way. Step cases: a small model (that table and a dense
``A``, ``b``: ``sum(tanh(emb(ids) @ A + b) * coef)``) trained for three steps on ids that change each step (rows
looked up in one step and not the next), by each optimizer, with regularizers and gradient clips; the values of
every parameter after each step and the table's optimizer state at the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

N, D = 8, 3
W0 = ((np.arange(N * D, dtype=np.float32).reshape(N, D) - 10) / 7).astype(np.float32)
A0 = np.array([[0.5, -0.3], [0.2, 0.4], [-0.6, 0.1]], np.float32)
B0 = np.array([0.1, -0.2], np.float32)
COEF = np.linspace(-2.0, 3.0, 12, dtype=np.float32).reshape(2, 3, 2)
GCOEF = np.linspace(-1.0, 2.0, 2 * 3 * D, dtype=np.float32).reshape(2, 3, D)
# ids per step: row 0 only in step 3, rows 5 and 6 from step 2, row 2 (the padding row of the padded cases) in steps 1
# and 3, row 1 three times in step 2 and row 7 three times in step 3; each step looks up the last row, 7: Paddle's CPU
# Adam kernel with lazy_mode=False reads past the end of the rows looked up for a row after the last of them, which
# makes its values there change from run to run (see optimizer.Adam)
STEP_IDS = [[[1, 3, 1], [4, 2, 7]], [[5, 6, 1], [1, 1, 7]], [[7, 7, 7], [2, 0, 3]]]

# (optimizer, its arguments, table arguments, what else the case does)
STEPS: dict[str, tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "sgd": ("SGD", {"learning_rate": 0.1}, {}, {}),
    "sgd_padding": ("SGD", {"learning_rate": 0.1}, {"padding_idx": 2}, {}),
    "sgd_l2": ("SGD", {"learning_rate": 0.1, "weight_decay": 0.1}, {}, {}),
    "sgd_l1": ("SGD", {"learning_rate": 0.1, "weight_decay": ("L1Decay", 0.05)}, {}, {}),
    "sgd_global_norm": ("SGD", {"learning_rate": 0.1, "grad_clip": ("ClipGradByGlobalNorm", 0.5)}, {}, {}),
    "sgd_norm": ("SGD", {"learning_rate": 0.1, "grad_clip": ("ClipGradByNorm", 0.5)}, {}, {}),
    "sgd_value": ("SGD", {"learning_rate": 0.1, "grad_clip": ("ClipGradByValue", 0.5)}, {}, {}),
    "momentum": ("Momentum", {"learning_rate": 0.1, "momentum": 0.9}, {}, {}),
    "momentum_nesterov_l2": ("Momentum", {"learning_rate": 0.1, "momentum": 0.9, "use_nesterov": True,
                                          "weight_decay": 0.1}, {}, {}),
    "adam": ("Adam", {"learning_rate": 0.1}, {}, {}),
    "adam_lazy": ("Adam", {"learning_rate": 0.1, "lazy_mode": True}, {}, {}),
    "adam_eps": ("Adam", {"learning_rate": 0.1, "epsilon": 0.05}, {}, {}),
    "adam_lazy_eps": ("Adam", {"learning_rate": 0.1, "epsilon": 0.05, "lazy_mode": True}, {}, {}),
    "adam_betas": ("Adam", {"learning_rate": 0.1, "beta1": 0.8, "beta2": 0.9}, {}, {}),
    "adam_amsgrad": ("Adam", {"learning_rate": 0.1, "amsgrad": True, "epsilon": 0.05}, {}, {}),
    "adam_lazy_amsgrad": ("Adam", {"learning_rate": 0.1, "amsgrad": True, "lazy_mode": True}, {}, {}),
    "adam_lazy_padding": ("Adam", {"learning_rate": 0.1, "lazy_mode": True}, {"padding_idx": 2}, {}),
    "adam_lazy_global_norm": ("Adam", {"learning_rate": 0.1, "lazy_mode": True,
                                       "grad_clip": ("ClipGradByGlobalNorm", 0.5)}, {}, {}),
    "adam_norm": ("Adam", {"learning_rate": 0.1, "grad_clip": ("ClipGradByNorm", 0.5)}, {}, {}),
    "adam_lazy_value": ("Adam", {"learning_rate": 0.1, "lazy_mode": True,
                                 "grad_clip": ("ClipGradByValue", 0.5)}, {}, {}),
    "adam_lazy_schedule": ("Adam", {"learning_rate": ("StepDecay", 0.1), "lazy_mode": True}, {}, {}),
    # a dense use of the table besides its lookups: Paddle's gradient is dense then (its dense kernel)
    "adam_lazy_mixed": ("Adam", {"learning_rate": 0.1, "lazy_mode": True}, {}, {"dense_use": True}),
    # a regularizer of the parameter makes the gradient dense too
    "adam_lazy_param_l2": ("Adam", {"learning_rate": 0.1, "lazy_mode": True}, {"regularizer": 0.1}, {}),
    "adam_l2": ("Adam", {"learning_rate": 0.1, "lazy_mode": True, "weight_decay": 0.1}, {}, {}),
    # two backwards (the step's ids and the next step's) before each step: the rows of both
    "adam_lazy_accumulate": ("Adam", {"learning_rate": 0.1, "lazy_mode": True}, {}, {"accumulate": True}),
    # no clear_grad between the steps: the gradient (and its rows) accumulates over them
    "adam_lazy_no_clear": ("Adam", {"learning_rate": 0.1, "lazy_mode": True}, {}, {"no_clear": True}),
    # clear_grad between the forward and the backward
    "adam_lazy_clear_late": ("Adam", {"learning_rate": 0.1, "lazy_mode": True}, {}, {"clear_late": True}),
    # the loss linear in the table (its gradient known whatever the parameters): the oracle of AdamW's cases below
    "adam_linear": ("Adam", {"learning_rate": 0.1, "epsilon": 0.05}, {}, {"linear": True}),
    "adam_lazy_linear": ("Adam", {"learning_rate": 0.1, "lazy_mode": True}, {}, {"linear": True}),
    "adamw_linear": ("AdamW", {"learning_rate": 0.1, "epsilon": 0.05, "weight_decay": 0.2}, {}, {"linear": True}),
    "adamw_lazy_linear": ("AdamW", {"learning_rate": 0.1, "lazy_mode": True, "weight_decay": 0.2}, {},
                          {"linear": True}),
    "adamw": ("AdamW", {"learning_rate": 0.1}, {}, {}),
    "adamw_lazy": ("AdamW", {"learning_rate": 0.1, "lazy_mode": True}, {}, {}),
    "adagrad": ("Adagrad", {"learning_rate": 0.1, "initial_accumulator_value": 0.1}, {}, {}),
    "rmsprop": ("RMSProp", {"learning_rate": 0.05, "centered": True, "momentum": 0.5}, {}, {}),
    "lamb": ("Lamb", {"learning_rate": 0.1}, {}, {}),
    "rprop": ("Rprop", {"learning_rate": 0.01}, {}, {}),
    "adamax": ("Adamax", {"learning_rate": 0.1}, {}, {}),
    "adadelta": ("Adadelta", {"learning_rate": 0.1}, {}, {}),
    "nadam": ("NAdam", {"learning_rate": 0.1}, {}, {}),
    "radam": ("RAdam", {"learning_rate": 0.1}, {}, {}),
    "asgd": ("ASGD", {"learning_rate": 0.1}, {}, {}),
}

GRADS = ("grad_basic", "grad_padding", "grad_ids_3d", "grad_two_lookups", "grad_accumulate", "grad_clears",
         "grad_clear_late", "grad_dense_use", "grad_functional", "grad_scale_by_freq")


def _np(t: Any) -> list:
    return np.asarray(t.numpy(), np.float64).tolist()


def _table(paddle: Any, **kw: Any) -> Any:
    emb = paddle.nn.Embedding(N, D, sparse=True, **kw)
    emb.weight.set_value(W0)
    return emb


def _grad_case(paddle: Any, name: str, view: Any) -> list:
    F = paddle.nn.functional  # noqa: N806
    ids = paddle.to_tensor(STEP_IDS[0])
    coef = paddle.to_tensor(GCOEF)
    if name == "grad_functional":
        w = paddle.to_tensor(W0, stop_gradient=False)
        (F.embedding(ids, w, sparse=True) * coef).sum().backward()
        out = [view(w)]
        w.clear_grad()
        return out + [w.grad is None]
    emb = _table(paddle, padding_idx=2) if name == "grad_padding" else _table(paddle)
    if name == "grad_scale_by_freq":
        F.embedding(ids, emb.weight, sparse=True, scale_grad_by_freq=True)
        return []
    if name in ("grad_basic", "grad_padding"):
        (emb(ids) * coef).sum().backward()
        return [view(emb.weight)]
    if name == "grad_ids_3d":
        ids3 = paddle.to_tensor([STEP_IDS[0], STEP_IDS[1]])
        (emb(ids3) * paddle.concat([coef, coef * 2]).reshape([2, 2, 3, D])).sum().backward()
        return [view(emb.weight)]
    if name == "grad_two_lookups":
        ((emb(ids) * coef).sum() + (emb(paddle.to_tensor(STEP_IDS[1])) * coef * coef).sum()).backward()
        return [view(emb.weight)]
    if name == "grad_accumulate":
        (emb(ids) * coef).sum().backward()
        first = view(emb.weight)
        (emb(paddle.to_tensor(STEP_IDS[1])) * coef * coef).sum().backward()
        return [first, view(emb.weight)]
    if name == "grad_dense_use":
        ((emb(ids) * coef).sum() + (emb.weight * emb.weight).sum()).backward()
        return [view(emb.weight)]
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=emb.parameters())
    if name == "grad_clear_late":  # cleared between the forward and the backward: only the later lookups count
        (emb(ids) * coef).sum().backward()
        loss = (emb(paddle.to_tensor(STEP_IDS[1])) * coef).sum()
        opt.clear_grad()
        loss.backward()
        return [view(emb.weight)]
    out = []  # grad_clears: each way of clearing, then a fresh backward
    for clear in ("tensor", "tensor_keep", "optimizer", "optimizer_keep"):
        (emb(ids) * coef).sum().backward()
        if clear == "tensor":
            emb.weight.clear_grad()
        elif clear == "tensor_keep":
            emb.weight.clear_gradient(False)
        elif clear == "optimizer":
            opt.clear_grad()
        else:
            opt.clear_grad(set_to_zero=False)
        out.append(emb.weight.grad is None)
    (emb(paddle.to_tensor(STEP_IDS[2])) * coef).sum().backward()
    return out + [view(emb.weight)]


def _make(paddle: Any, spec: Any) -> Any:
    if isinstance(spec, tuple):
        kind, v = spec
        if kind in ("L1Decay", "L2Decay"):
            return getattr(paddle.regularizer, kind)(v)
        if kind == "StepDecay":
            return paddle.optimizer.lr.StepDecay(v, step_size=1, gamma=0.5)
        return getattr(paddle.nn, kind)(v)
    return spec


def _step_case(paddle: Any, name: str) -> dict:
    opt_name, opt_kw, table_kw, extra = STEPS[name]
    if "regularizer" in table_kw:
        attr = paddle.ParamAttr(regularizer=paddle.regularizer.L2Decay(table_kw["regularizer"]))
        emb = paddle.nn.Embedding(N, D, sparse=True, weight_attr=attr)
        emb.weight.set_value(W0)
    else:
        emb = _table(paddle, **table_kw)
    a = paddle.create_parameter([D, 2], "float32")
    a.set_value(A0)
    b = paddle.create_parameter([2], "float32", is_bias=True)
    b.set_value(B0)
    kw = {k: _make(paddle, v) for k, v in opt_kw.items()}
    opt = getattr(paddle.optimizer, opt_name)(parameters=[emb.weight, a, b], **kw)
    coef = paddle.to_tensor(COEF)

    def loss_of(ids: Any) -> Any:
        if extra.get("linear"):
            return (emb(paddle.to_tensor(ids)) * paddle.to_tensor(GCOEF)).sum()
        loss = (paddle.tanh(paddle.matmul(emb(paddle.to_tensor(ids)), a) + b) * coef).sum()
        if extra.get("dense_use"):
            loss = loss + 0.01 * (emb.weight * emb.weight).sum()
        return loss

    steps = []
    for s, ids in enumerate(STEP_IDS):
        if extra.get("clear_late"):
            loss = loss_of(ids)
            opt.clear_grad()
            loss.backward()
        else:
            loss_of(ids).backward()
            if extra.get("accumulate"):
                loss_of(STEP_IDS[(s + 1) % len(STEP_IDS)]).backward()
        opt.step()
        if not extra.get("no_clear"):
            opt.clear_grad()
        if isinstance(kw["learning_rate"], paddle.optimizer.lr.LRScheduler):
            kw["learning_rate"].step()
        steps.append({"w": _np(emb.weight), "a": _np(a), "b": _np(b)})
    prefix = emb.weight.name + "_"
    state = {k[len(prefix):].rsplit("_", 1)[0]: _np(v) for k, v in opt.state_dict().items()
             if k.startswith(prefix)}
    return {"steps": steps, "state": state}


def run(paddle: Any, name: str, view: Any = None) -> Any:
    """The case ``name`` run with ``paddle`` (either library): a gradient case's observations (gradients through
    ``view``, and whether ``.grad`` is None after each clear), or a step case's trajectory and state."""
    if name in GRADS:
        return _grad_case(paddle, name, view)
    return _step_case(paddle, name)
