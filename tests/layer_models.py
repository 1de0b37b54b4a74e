"""Models built the same way from real Paddle (recording) and from pylayer_jax (tests).

Each function takes the ``paddle`` module to build with, so ``tests/record_paddle_layers_base.py``
and ``tests/test_layer_*.py`` run exactly the same code.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


def define(paddle: Any) -> dict[str, Any]:
    """Layer classes written against ``paddle``."""
    nn = paddle.nn
    F = nn.functional

    class Act(nn.Layer):
        def forward(self, x):
            return F.relu(x)

    class EncoderLayer(nn.Layer):
        def __init__(self, d):
            super().__init__()
            self.linear1 = nn.Linear(d, 2 * d)
            self.linear2 = nn.Linear(2 * d, d, bias_attr=False)
            self.register_buffer("scale", paddle.ones([d]))
            self.register_buffer("cache", paddle.zeros([1]), persistable=False)

        def forward(self, x):
            return self.linear2(F.relu(self.linear1(x))) * self.scale

    class Encoder(nn.Layer):
        def __init__(self, d, n):
            super().__init__()
            self.layers = nn.LayerList([EncoderLayer(d) for _ in range(n)])
            self.norm = nn.Sequential(OrderedDict([("proj", nn.Linear(d, d)), ("act", Act())]))

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return self.norm(x)

    class Model(nn.Layer):
        def __init__(self):
            super().__init__()
            self.encoder = Encoder(3, 2)
            self.head = nn.Sequential(nn.Flatten(), nn.Linear(3, 2), Act(), nn.Identity(), nn.Linear(2, 1))
            self.table = nn.LayerDict({"a": nn.Linear(1, 1), "b": Act()})
            self.extra = nn.ParameterList([self.create_parameter([2]), self.create_parameter([1], is_bias=True)])

        def forward(self, x):
            return self.head(self.encoder(x))

    return {"Act": Act, "EncoderLayer": EncoderLayer, "Encoder": Encoder, "Model": Model}


def build_all(paddle: Any) -> dict[str, Any]:
    """The recorded models, built in one fixed order under fresh unique-name counters."""
    nn = paddle.nn
    cls = define(paddle)
    with paddle.utils.unique_name.guard():
        out = {}
        out["linear"] = nn.Linear(3, 4)
        out["linear_nobias"] = nn.Linear(2, 5, bias_attr=False, name="myfc")
        out["seq"] = nn.Sequential(nn.Linear(2, 3), cls["Act"](), nn.Linear(3, 1))
        out["seq_named"] = nn.Sequential(("first", nn.Linear(2, 2)), ("second", cls["Act"]()))
        out["model"] = cls["Model"]()
        out["plist"] = nn.ParameterList([paddle.create_parameter([2, 2], "float32") for _ in range(2)])
        out["pdict"] = nn.ParameterDict({"w": paddle.create_parameter([3], "float32", is_bias=True)})
        out["attr"] = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="w_attr", learning_rate=0.5, trainable=False,
                                                                    need_clip=False), bias_attr="b_attr")
    return out


def describe(model: Any) -> dict[str, Any]:
    """What the tests compare: names, keys, repr, parameter metadata."""
    return {
        "repr": repr(model),
        "full_name": model.full_name(),
        "state_dict_keys": list(model.state_dict().keys()),
        "state_dict_all_keys": list(model.state_dict(include_non_persistable_buffer=True).keys()),
        "parameter_names": [p.name for p in model.parameters()],
        "named_parameters": [n for n, _ in model.named_parameters()],
        "own_parameters": [n for n, _ in model.named_parameters(include_sublayers=False)],
        "named_sublayers": [n for n, _ in model.named_sublayers()],
        "sublayer_types": [type(sub).__name__ for sub in model.sublayers()],
        "named_children": [n for n, _ in model.named_children()],
        "named_buffers": [n for n, _ in model.named_buffers()],
        "param_meta": [
            [list(p.shape), str(p.dtype).replace("paddle.", ""), p.stop_gradient, p.trainable,
             p.optimize_attr["learning_rate"], p.need_clip, p.persistable, p.is_leaf, p.regularizer is None]
            for p in model.parameters()
        ],
    }
