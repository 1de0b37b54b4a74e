"""Record Paddle 3.3.1's Layer / parameter / initializer behaviour into tests/data/paddle_layers_base.json.

Run with the Paddle interpreter: ``/tmp/paddle/bin/python tests/record_paddle_layers_base.py``.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).parent))
from layer_models import build_all, describe  # noqa: E402

I = paddle.nn.initializer  # noqa: E741


def init_values(init, shape, dtype="float32"):
    p = paddle.create_parameter(shape, dtype, default_initializer=init)
    return np.asarray(p.numpy(), dtype=np.float64).tolist()


def stats(init, shape):
    paddle.seed(2024)
    v = np.asarray(paddle.create_parameter(shape, "float64", default_initializer=init).numpy())
    return {"mean": float(v.mean()), "std": float(v.std()), "min": float(v.min()), "max": float(v.max())}


def load_cases():
    out = {}
    models = build_all(paddle)
    seq = models["seq"]
    good = {k: paddle.full(v.shape, 0.5, v.dtype) for k, v in seq.state_dict().items()}
    cases = {
        "extra_key": dict(good, extra=paddle.ones([1])),
        "missing_key": {k: v for k, v in good.items() if k != "0.bias"},
        "bad_shape": dict(good, **{"0.bias": paddle.ones([5])}),
        "numpy_values": {k: np.full(v.shape, 0.25, "float32") for k, v in seq.state_dict().items()},
    }
    for name, sd in cases.items():
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            missing, unexpected = seq.set_state_dict(sd)
        out[name] = {
            "missing": list(missing), "unexpected": list(unexpected),
            "warnings": [str(x.message) for x in w if "Skip loading" in str(x.message)],
            "values": {k: np.asarray(v.numpy(), np.float64).tolist() for k, v in seq.state_dict().items()},
        }
    by_name = {p.name: paddle.full(p.shape, 2.0, p.dtype) for p in seq.parameters()}
    missing, unexpected = seq.set_state_dict(by_name, use_structured_name=False)
    out["by_param_name"] = {"missing": list(missing), "unexpected": list(unexpected),
                            "values": {k: np.asarray(v.numpy(), np.float64).tolist() for k, v in seq.state_dict().items()}}
    return out


def main():
    rec = {}
    models = build_all(paddle)
    rec["models"] = {k: describe(m) for k, m in models.items()}
    s = models["seq"]
    rec["seq_slice_repr"] = repr(s[1:])
    rec["seq_slice_type"] = type(s[1:]).__name__
    rec["seq_len"] = len(s)
    rec["model_head_sliced_keys"] = list(models["model"].head[1:3].state_dict().keys())
    rec["to_float64"] = [str(p.dtype).replace("paddle.", "") for p in models["model"].to(dtype="float64").parameters()]
    rec["load"] = load_cases()
    with paddle.utils.unique_name.guard():
        rec["create_parameter_names"] = [
            paddle.create_parameter([2], "float32").name,
            paddle.create_parameter([2], "float32", is_bias=True).name,
            paddle.create_parameter([2], "float32", name="given").name,
            paddle.nn.Linear(1, 1).weight.name,
        ]
        rec["unique_names"] = [paddle.utils.unique_name.generate("fc") for _ in range(2)]
    un = paddle.utils.unique_name
    with un.guard("pre_"):
        rec["guard_prefix_names"] = [un.generate("a"), un.generate("a"), un.generate("b"),
                                     paddle.nn.Linear(1, 1).full_name()]
    rec["initializers"] = {
        "constant": init_values(I.Constant(0.75), [2, 3]),
        "constant_default": init_values(I.Constant(), [2]),
        "assign_list": init_values(I.Assign([[1.0, 2.0], [3.0, 4.0]]), [2, 2]),
        "assign_numpy": init_values(I.Assign(np.arange(6, dtype="float32").reshape(2, 3)), [2, 3]),
        "numpy_array": init_values(I.NumpyArrayInitializer(np.ones([3], "float32") * 4), [3]),
        "dirac_3d": init_values(I.Dirac(), [4, 2, 3]),
        "dirac_4d": init_values(I.Dirac(), [3, 5, 3, 3]),
        "dirac_groups": init_values(I.Dirac(groups=2), [4, 3, 3, 3]),
        "dirac_5d": init_values(I.Dirac(), [2, 2, 3, 1, 3]),
        "bilinear_4": init_values(I.Bilinear(), [2, 1, 4, 4]),
        "bilinear_3": init_values(I.Bilinear(), [1, 2, 3, 3]),
    }
    rec["gains"] = {n: I.calculate_gain(n) for n in ["sigmoid", "linear", "conv2d", "tanh", "relu", "leaky_relu", "selu"]}
    rec["gains"]["leaky_relu_0.2"] = I.calculate_gain("leaky_relu", 0.2)
    rec["stats"] = {
        "xavier_uniform_conv": stats(I.XavierUniform(), [64, 32, 3, 3]),
        "xavier_normal_conv": stats(I.XavierNormal(), [64, 32, 3, 3]),
        "xavier_uniform_fans": stats(I.XavierUniform(fan_in=10, fan_out=20, gain=2.0), [300, 300]),
        "kaiming_uniform_conv": stats(I.KaimingUniform(), [64, 32, 3, 3]),
        "kaiming_normal_conv": stats(I.KaimingNormal(), [64, 32, 3, 3]),
        "kaiming_normal_fan_out": stats(I.KaimingNormal(mode="fan_out", nonlinearity="leaky_relu", negative_slope=0.1),
                                        [64, 32, 3, 3]),
        "kaiming_uniform_fan_in": stats(I.KaimingUniform(fan_in=50), [200, 300]),
        "normal": stats(I.Normal(1.0, 3.0), [300, 300]),
        "uniform": stats(I.Uniform(-2.0, 5.0), [300, 300]),
        "truncated_normal": stats(I.TruncatedNormal(1.0, 2.0, -1.0, 3.0), [300, 300]),
        "linear_default_weight": (lambda: (paddle.seed(3), {
            "max": float(np.abs(paddle.nn.Linear(300, 200).weight.numpy()).max())})[1])(),
    }
    ortho = paddle.create_parameter([30, 50], "float64", default_initializer=I.Orthogonal(gain=2.0)).numpy()
    rec["orthogonal_wwt"] = np.round(ortho @ ortho.T, 8).tolist()
    rec["initializer_classes"] = [n for n in dir(I) if not n.startswith("_") and isinstance(getattr(I, n), type)]
    rec["identity_repr"] = repr(paddle.nn.Identity())
    rec["flatten_repr"] = repr(paddle.nn.Flatten())
    Path(__file__).with_name("data").joinpath("paddle_layers_base.json").write_text(json.dumps(rec, indent=1))


if __name__ == "__main__":
    main()
