"""``paddle.distributed`` and ``paddle.DataParallel`` in one process, as Paddle 3.3.1 behaves when a script runs
without a launcher (measured on this machine): ``get_rank()`` 0, ``get_world_size()`` 1, ``is_available()`` True,
``init_parallel_env()`` returns None and ``is_initialized()`` stays False; ``DataParallel(lin)`` has the sublayer
``_layers`` (``lin`` itself), ``state_dict()`` keys ``['weight', 'bias']``, two parameters, ``scale_loss(loss) is
loss``, ``eval()`` reaching ``lin``; ``all_reduce`` and ``barrier`` raise RuntimeError "The global group is not
initialized"."""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.distributed as dist


def test_a_data_parallel_script_trains_as_the_plain_model():
    """The usual data-parallel training script, run in one process: the same parameters as the plain model's loop
    (oracle), and the checkpoint keys of the model."""
    assert (dist.get_rank(), dist.get_world_size(), dist.is_available(), dist.is_initialized()) == (0, 1, True, False)
    assert dist.init_parallel_env() is None and not dist.is_initialized()
    runs = []
    for parallel in (False, True):
        paddle.seed(1)
        net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.Tanh(), paddle.nn.Linear(4, 1))
        model = paddle.DataParallel(net) if parallel else net
        opt = paddle.optimizer.Adam(0.01, parameters=model.parameters())
        x = paddle.to_tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3))
        for _ in range(3):
            loss = (model(x) ** 2).mean()
            if parallel:
                loss = model.scale_loss(loss)
                with model.no_sync():
                    loss.backward()
            else:
                loss.backward()
            opt.step()
            opt.clear_grad()
        runs.append(model.state_dict())
    assert list(runs[0]) == list(runs[1]) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    for k in runs[0]:  # (the wrapper's call may compile to another program: the last bit of a float32 may differ)
        np.testing.assert_allclose(runs[0][k].numpy(), runs[1][k].numpy(), rtol=1e-6, atol=1e-7)


def test_the_wrapper_is_the_model():
    lin = paddle.nn.Linear(2, 2)
    dp = paddle.DataParallel(lin)
    assert dp._layers is lin and [n for n, _ in dp.named_sublayers()] == ["_layers"]
    assert list(dp.state_dict()) == ["weight", "bias"] and len(dp.parameters()) == 2
    dp.set_state_dict({"weight": paddle.ones([2, 2]), "bias": paddle.zeros([2])})
    np.testing.assert_array_equal(lin.weight.numpy(), np.ones((2, 2)))
    dp.eval()
    assert not lin.training
    with pytest.raises(TypeError, match="paddle.DataParallel: layers must be a paddle.nn.Layer, but received int"):
        paddle.DataParallel(3)


@pytest.mark.parametrize("call", [lambda: dist.all_reduce(paddle.ones([2])), lambda: dist.barrier(),
                                  lambda: dist.broadcast(paddle.ones([2]), 0),
                                  lambda: dist.all_gather([], paddle.ones([2])),
                                  lambda: dist.reduce(paddle.ones([2]), 0)])
def test_a_collective_raises_as_without_a_launcher(call):
    with pytest.raises(RuntimeError, match="the global group is not initialized; this package trains in one process"):
        call()
