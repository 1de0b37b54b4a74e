"""A Layer's own helpers do not take names a user gives sublayers and parameters: every name on our ``nn.Layer``
class is one Paddle 3.3.1's has too (recorded by ``tests/record_paddle_layer_names.py``), or starts with
``_layer_``. (A helper called ``_drop`` once hid the ``self._drop = Dropout(...)`` of SqueezeNet and GoogLeNet: the
class attribute wins over the sublayer, so ``forward`` called the helper.)"""

from __future__ import annotations

import json
import os

import numpy as np

import pylayer_jax as paddle
from pylayer_jax import nn

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_layer_names.json")) as _fh:
    PADDLE_NAMES = set(json.load(_fh)["names"])


def test_layer_has_no_names_paddle_lacks_but_its_own_prefix() -> None:
    extra = sorted(n for n in dir(nn.Layer) if n not in PADDLE_NAMES and not n.startswith("_layer_"))
    assert extra == ["clear_grad"]  # (one public extra: Paddle's Layer has clear_gradients only)


def test_sublayers_and_parameters_may_take_private_names() -> None:
    class Net(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self._drop = nn.Dropout(0.5)
            self._cast = nn.Linear(2, 2)
            self._check_name = self.create_parameter([2])

        def forward(self, x):  # noqa: ANN001, ANN202
            return self._drop(self._cast(x)) + self._check_name

    net = Net()
    net.eval()
    x = paddle.ones([1, 2])
    w, b = net._cast.weight.numpy(), net._cast.bias.numpy()
    np.testing.assert_allclose(net(x).numpy(), np.ones((1, 2)) @ w + b + net._check_name.numpy(), rtol=1e-6)
    assert [n for n, _ in net.named_sublayers()] == ["_drop", "_cast"]
