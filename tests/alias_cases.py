"""The keyword-alias cases shared by tests/record_paddle_aliases.py (run with Paddle) and tests/tensor/test_aliases.py.

Each case is ``(call, {parameter: value expression}, {alias: parameter})`` over ``T`` (to_tensor), ``P`` (the
library), ``F`` (its nn.functional), ``np`` and the inputs ``X`` (float32 [2, 3]), ``Y`` (float32 [2, 3]),
``M`` (float32 [3, 2]), ``B`` (bool [2, 3]). ``call`` names the function (``P.sum``) or a method of ``X``
(``X.sum``). The forms: every parameter by its name; every aliased one by its alias; each alias together with
its parameter (the conflict); ``REFUSED`` are calls Paddle rejects.
"""

INPUTS = {"X": "T(np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], 'float32'))",
          "Y": "T(np.array([[2.0, 1.0, -3.0], [1.5, 0.25, 2.0]], 'float32'))",
          "M": "T(np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]], 'float32'))",
          "B": "T(np.array([[True, False, True], [False, False, True]]))"}

_XY = {"input": "x", "other": "y"}
_XD = {"input": "x", "dim": "axis"}
CASES = [
    ("P.sum", {"x": "X", "axis": "0", "keepdim": "True"}, _XD),
    ("P.mean", {"x": "X", "axis": "1"}, _XD),
    ("P.prod", {"x": "X", "axis": "1"}, _XD),
    ("P.argmax", {"x": "X", "axis": "1", "keepdim": "True"}, _XD),
    ("P.argmin", {"x": "X", "axis": "0"}, _XD),
    ("P.amax", {"x": "X", "axis": "0"}, _XD),
    ("P.logsumexp", {"x": "X", "axis": "1"}, _XD),
    ("P.all", {"x": "B", "axis": "0"}, _XD),
    ("P.any", {"x": "B", "axis": "1"}, _XD),
    ("P.cumsum", {"x": "X", "axis": "1"}, _XD),
    ("P.var", {"x": "X", "axis": "1"}, _XD),
    ("P.argsort", {"x": "X", "axis": "1"}, _XD),
    ("P.squeeze", {"x": "X.unsqueeze(0)", "axis": "0"}, _XD),
    ("P.unsqueeze", {"x": "X", "axis": "1"}, _XD),
    ("P.concat", {"x": "[X, Y]", "axis": "1"}, {"tensors": "x", "dim": "axis"}),
    ("P.cat", {"x": "[X, Y]", "axis": "0"}, {"tensors": "x", "dim": "axis"}),
    ("P.stack", {"x": "[X, Y]", "axis": "1"}, {"tensors": "x", "dim": "axis"}),
    ("P.add", {"x": "X", "y": "Y"}, _XY),
    ("P.subtract", {"x": "X", "y": "Y"}, _XY),
    ("P.multiply", {"x": "X", "y": "Y"}, _XY),
    ("P.divide", {"x": "X", "y": "Y"}, _XY),
    ("P.maximum", {"x": "X", "y": "Y"}, _XY),
    ("P.equal", {"x": "X", "y": "Y"}, _XY),
    ("P.greater_than", {"x": "X", "y": "Y"}, _XY),
    ("P.remainder", {"x": "X", "y": "Y"}, _XY),
    ("P.matmul", {"x": "X", "y": "M"}, _XY),
    ("P.bmm", {"x": "X.unsqueeze(0)", "y": "M.unsqueeze(0)"}, {"input": "x", "mat2": "y"}),
    ("P.dot", {"x": "X[0]", "y": "Y[0]"}, {"input": "x", "tensor": "y"}),
    ("P.abs", {"x": "X"}, {"input": "x"}),
    ("P.exp", {"x": "X"}, {"input": "x"}),
    ("P.sqrt", {"x": "Y.abs()"}, {"input": "x"}),
    ("P.tril", {"x": "X"}, {"input": "x"}),
    ("P.roll", {"x": "X", "shifts": "1", "axis": "1"}, {"input": "x", "dims": "axis"}),
    ("P.diagonal", {"x": "X", "axis1": "1", "axis2": "0"}, {"input": "x", "dim1": "axis1", "dim2": "axis2"}),
    ("P.clip", {"x": "X", "min": "0.0"}, {"input": "x"}),
    ("P.flatten", {"x": "X.unsqueeze(0)", "start_axis": "1", "stop_axis": "2"},
     {"input": "x", "start_dim": "start_axis", "end_dim": "stop_axis"}),
    ("P.tile", {"x": "X", "repeat_times": "[2, 1]"}, {"input": "x", "dims": "repeat_times"}),
    ("P.broadcast_to", {"x": "X[0]", "shape": "[2, 3]"}, {"input": "x", "size": "shape"}),
    ("P.pow", {"x": "Y.abs()", "y": "2.0"}, {"input": "x", "exponent": "y"}),
    ("P.where", {"condition": "B", "x": "X", "y": "Y"}, _XY),
    ("P.topk", {"x": "X", "k": "2", "axis": "1"}, _XD),
    ("P.take_along_axis", {"arr": "X", "indices": "T([[0], [2]])", "axis": "1"}, {"input": "arr", "dim": "axis"}),
    ("P.outer", {"x": "X[0]", "y": "Y[1]"}, {"input": "x", "vec2": "y"}),
    ("P.norm", {"x": "X", "p": "1.0", "axis": "1"}, {"input": "x", "ord": "p", "dim": "axis"}),
    ("P.zeros_like", {"x": "X"}, {"input": "x"}),
    ("P.full", {"shape": "[2, 2]", "fill_value": "1.5"}, {"size": "shape"}),
    ("F.softmax", {"x": "X", "axis": "0"}, _XD),
    ("F.gelu", {"x": "X"}, {"input": "x"}),
    ("F.silu", {"x": "X"}, {"input": "x"}),
    ("F.normalize", {"x": "X", "axis": "0", "epsilon": "1e-6"}, {"input": "x", "dim": "axis", "eps": "epsilon"}),
    ("F.glu", {"x": "X[:, :2]", "axis": "1"}, _XD),
    ("X.sum", {"axis": "1"}, {"dim": "axis"}),
    ("X.mean", {"axis": "0", "keepdim": "True"}, {"dim": "axis"}),
    ("X.add", {"y": "Y"}, {"other": "y"}),
    ("X.matmul", {"y": "M"}, {"other": "y"}),
    ("X.prod", {"axis": "0"}, {"dim": "axis"}),
    ("X.argmax", {"axis": "0"}, {"dim": "axis"}),
]

REFUSED = ["P.max(X, dim=0)", "P.min(X, dim=0)", "P.std(X, dim=0)", "P.max(input=X)", "P.std(input=X)"]


def forms(call: str, params: dict[str, str], aliases: dict[str, str]) -> dict[str, str]:
    """The expressions of one case: ``"named"``, ``"aliased"`` and ``"both:<alias>"`` (an alias beside its
    parameter)."""
    def text(kw: dict[str, str]) -> str:
        return f"{call}({', '.join(f'{k}={v}' for k, v in kw.items())})"

    back = {p: a for a, p in aliases.items() if p in params}
    out = {"named": text(params), "aliased": text({back.get(k, k): v for k, v in params.items()})}
    for a, p in aliases.items():
        if p in params:
            out[f"both:{a}"] = text({**params, a: params[p]})
    return out
