"""Cases found by the whole programs ``tests/programs/p71_param_attr_training.py`` (per-parameter training settings)
and ``tests/programs/p72_initializers.py`` (initializers and parameter creation), written as Paddle code:
``record(paddle)`` runs them with the given library and returns what they give (values, the type of each error).
``record_paddle_program_diffs_y.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_y.json``;
``test_program_diffs_y.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

from case_values import _attempt, _v


def initializer_shape_checks(paddle: Any, out: dict[str, Any]) -> None:
    """``Dirac`` on a kernel that is not 3-, 4- or 5-D, with groups that do not divide its dimension 0 or are not
    positive, and ``Orthogonal`` on a 1-D parameter are AssertionErrors (Paddle's asserts); the checks next to them
    keep their ValueError (``Bilinear``'s shape, Kaiming's mode and nonlinearity). The valid forms give values."""
    init = paddle.nn.initializer

    def make(shape: list[int], initializer: Any) -> Any:
        return paddle.create_parameter(shape, "float32", default_initializer=initializer)

    out["dirac_2d"] = _attempt(lambda: make([3, 3], init.Dirac()))
    out["dirac_6d"] = _attempt(lambda: make([2, 2, 1, 1, 1, 1], init.Dirac()))
    out["dirac_divisible"] = _attempt(lambda: make([3, 2, 3], init.Dirac(groups=2)))
    out["dirac_groups0"] = _attempt(lambda: init.Dirac(groups=0))
    out["orthogonal_1d"] = _attempt(lambda: make([4], init.Orthogonal()))
    out["bilinear_2d"] = _attempt(lambda: make([3, 3], init.Bilinear()))
    out["kaiming_mode"] = _attempt(lambda: make([3, 3], init.KaimingNormal(mode="fan_avg")))
    out["kaiming_fan_in_fan_out"] = _attempt(lambda: init.KaimingUniform(fan_in=4.0, mode="fan_out"))
    out["dirac_groups2"] = _v(make([4, 2, 3], init.Dirac(groups=2)))
    w = make([3, 2], init.Orthogonal(gain=2.0))
    out["orthogonal_gram"] = _v(paddle.matmul(w, w, transpose_x=True).round())


def optimizer_without_parameters(paddle: Any, out: dict[str, Any]) -> None:
    """In dynamic mode an optimizer made without ``parameters`` is an AttributeError when it is made (not at its
    first step); with them, every rule is made."""
    for name in ("SGD", "Momentum", "Adam", "AdamW", "RMSProp", "Adagrad", "Lamb"):
        out[f"no_params_{name}"] = _attempt(lambda n=name: getattr(paddle.optimizer, n)(0.1))
    lin = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.Adam(0.1, parameters=lin.parameters())
    out["with_params"] = [type(opt).__name__, opt.get_lr()]


CASES = [initializer_shape_checks, optimizer_without_parameters]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
