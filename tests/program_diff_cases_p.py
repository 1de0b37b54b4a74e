"""Cases found by the whole programs ``tests/programs/p57_tensor_basics.py`` and ``p58_one_process_distributed.py``,
as Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (printed strings,
values, the type of each error). ``record_paddle_program_diffs_p.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_p.json``; ``test_program_diffs_p.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt


def complex_print(paddle: Any, out: dict[str, Any]) -> None:
    """A complex tensor prints its items with the sign's space as a real one does: where any item is negative (a
    negative real part, or a zero real part and a negative imaginary one: numpy's order) the others get a leading
    space; the widest item sets the width."""
    cases = {
        "mixed": [1 + 2j, -0.5 - 1j],
        "all_negative": [-1 + 2j, -0.5 - 1j],
        "all_positive": [1 + 2j, 0.5 - 1j],
        "zero_real_negative_imag": [[0 - 2j], [-10.5 - 1j]],
        "column": [[1 + 2j], [-10.5 - 1j]],
        "scalar": -1 - 1j,
    }
    for name, v in cases.items():
        out[f"complex_print_{name}"] = str(paddle.to_tensor(np.asarray(v, dtype="complex64")))
    out["complex_print_complex128"] = str(paddle.to_tensor(np.asarray([2.5 + 0j, -1j, 3 - 4j])))
    paddle.set_printoptions(precision=3, sci_mode=True)
    out["complex_print_sci"] = str(paddle.to_tensor(np.asarray([1 + 2j, -0.5 - 1j], dtype="complex64")))
    paddle.set_printoptions(precision=8, sci_mode=False)


def zero_d_len_iter(paddle: Any, out: dict[str, Any]) -> None:
    """``len()`` of and iteration over a 0-D tensor raise an AssertionError, as Paddle's; a 1-D one of one element
    has a length and one item."""
    z = paddle.to_tensor(2.0)
    out["zero_d_len"] = _attempt(lambda: len(z))
    out["zero_d_iter"] = _attempt(lambda: list(z))
    out["zero_d_for"] = _attempt(lambda: [v for v in paddle.to_tensor(3)])
    one = paddle.to_tensor([2.0])
    out["one_elem_len_iter"] = [len(one), [float(v) for v in one]]


def fleet_scaler_and_group(paddle: Any, out: dict[str, Any]) -> None:
    """``fleet.distributed_scaler`` returns the GradScaler it is given (one process: nothing to agree with), and
    training steps through it are the scaler's; the hybrid group has Paddle's ``nranks`` and ``global_rank``
    attributes."""
    fleet = paddle.distributed.fleet
    fleet.init(is_collective=True)
    hcg = fleet.get_hybrid_communicate_group()
    out["hcg_attrs"] = [hcg.nranks, hcg.global_rank]
    m = paddle.nn.Linear(4, 2)
    m.set_state_dict({k: np.full(v.shape, 0.1, "float32") for k, v in m.state_dict().items()})
    opt = fleet.distributed_optimizer(paddle.optimizer.SGD(learning_rate=0.1, parameters=m.parameters()))
    given = paddle.amp.GradScaler(init_loss_scaling=1024.0)
    scaler = fleet.distributed_scaler(given)
    losses = []
    for i in range(3):
        loss = m(paddle.ones([2, 4]) * (i + 1)).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.clear_grad()
        losses.append(float(loss))
    out["distributed_scaler"] = [scaler is given, scaler.is_enable(), losses,
                                 m.weight.numpy().astype(np.float64).tolist()]


def matmul_operator(paddle: Any, out: dict[str, Any]) -> None:
    """``x @ y`` casts ``y`` to ``x``'s dtype (the product has the left Tensor's dtype, a float right operand of an
    integer Tensor is truncated); the right operand's gradient comes back in its own dtype; a numpy array on either
    side takes the Tensor's dtype; a bool Tensor has no matrix product (Paddle: no kernel)."""
    a = [[1.5, 2.0], [0.5, -1.0]]

    def t(d: str) -> Any:
        return paddle.to_tensor(np.asarray(a), dtype=d)

    for dx, dy in [("int32", "int64"), ("int64", "int32"), ("float32", "int64"), ("int64", "float32"),
                   ("float32", "float64"), ("float64", "float32"), ("float32", "bool")]:
        r = t(dx) @ t(dy)
        out[f"matmul_op_{dx}_{dy}"] = [str(r.dtype), r.numpy().astype(np.float64).tolist()]
    x, y = t("float32"), t("float64")
    x.stop_gradient = y.stop_gradient = False
    (x @ y * paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    out["matmul_op_grads"] = [str(x.grad.dtype), str(y.grad.dtype), x.grad.numpy().astype(np.float64).tolist(),
                              y.grad.numpy().astype(np.float64).tolist()]
    r1, r2 = t("float32") @ np.full((2, 1), 0.1), np.full((1, 2), 0.1) @ t("float32")
    out["matmul_op_numpy"] = [str(r1.dtype), r1.numpy().astype(np.float64).tolist(), str(r2.dtype),
                              r2.numpy().astype(np.float64).tolist()]
    out["matmul_op_bool"] = _attempt(lambda: t("bool") @ t("float32"))


CASES = [complex_print, zero_d_len_iter, fleet_scaler_and_group, matmul_operator]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
