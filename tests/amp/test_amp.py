"""``paddle.amp`` as Paddle 3.3.1 runs it on a CPU place: off. Measured with real Paddle on this machine: inside
``auto_cast()`` (float16 or bfloat16, level O1 or O2) a Linear's output, a softmax, an addition and a matmul stay
float32; ``auto_cast`` warns "amp_guard can only be enabled on CUDAPlace, XPUPlace, and CustomPlace ... so it makes no
effect"; ``GradScaler(init_loss_scaling=1024)`` warns likewise, ``scale(loss) is loss``, the gradients are unscaled,
``state_dict()`` is ``{}``, ``is_enable()`` and ``is_use_dynamic_loss_scaling()`` are False,
``get_init_loss_scaling()`` is 1.0; ``decorate(level='O2', dtype='bfloat16')`` leaves the parameters float32 and
returns the models (and the optimizers when given); ``is_float16_supported()`` is False, ``is_bfloat16_supported()``
True, ``get_autocast_dtype()`` 'float16' and ``is_autocast_enabled()`` False, inside ``auto_cast`` too; a level
other than O0/OD/O1/O2 (``decorate``: O1/O2), a dtype other than float16/bfloat16, and an op in both custom lists
raise ValueError."""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as paddle


def _net_and_data():
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((16, 4)).astype("float32"))
    return net, x


def test_an_amp_training_loop_trains_as_the_plain_loop():
    """The usual mixed-precision loop (auto_cast, GradScaler.scale/step/update, decorate) gives the parameters the
    same loop without AMP gives (oracle), all float32."""
    runs = []
    for use_amp in (False, True):
        net, x = _net_and_data()
        opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=net.parameters())
        if use_amp:
            with pytest.warns(UserWarning, match="GradScaler: loss scaling makes no effect here"):
                scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
            net, opt = paddle.amp.decorate(models=net, optimizers=opt, level="O2", dtype="bfloat16")
        for _ in range(4):
            if use_amp:
                with pytest.warns(UserWarning, match="auto_cast: mixed precision makes no effect here"):
                    with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
                        assert not paddle.amp.is_autocast_enabled()
                        out = net(x)
                        loss = (out ** 2).mean()
                assert out.dtype == paddle.float32
                scaled = scaler.scale(loss)
                assert scaled is loss
                scaled.backward()
                scaler.step(opt)
                scaler.update()
            else:
                loss = (net(x) ** 2).mean()
                loss.backward()
                opt.step()
            opt.clear_grad()
        runs.append([p.numpy() for p in net.parameters()])
    for a, b in zip(*runs, strict=True):
        assert b.dtype == np.float32
        np.testing.assert_array_equal(a, b)


def test_the_scaler_and_queries_answer_as_paddle_on_a_cpu():
    with pytest.warns(UserWarning):
        s = paddle.amp.GradScaler(incr_ratio=3.0, incr_every_n_steps=7)
    assert not s.is_enable() and not s.is_use_dynamic_loss_scaling()
    assert s.get_init_loss_scaling() == 1.0 and s.state_dict() == {}
    assert (s.get_incr_ratio(), s.get_decr_ratio(), s.get_incr_every_n_steps(), s.get_decr_every_n_nan_or_inf()) == (
        3.0, 0.5, 7, 1)  # (Paddle's disabled scaler raises AttributeError for these four)
    s.set_incr_ratio(4.0)
    assert s.get_incr_ratio() == 4.0
    s.load_state_dict({"scale": 3.0})
    assert s.state_dict() == {}
    with pytest.warns(UserWarning):
        assert paddle.amp.AmpScaler().get_incr_every_n_steps() == 1000
    assert paddle.amp.GradScaler(enable=False).get_incr_every_n_steps() == 2000
    assert paddle.amp.is_float16_supported() is False and paddle.amp.is_bfloat16_supported() is True
    assert paddle.amp.get_autocast_dtype() == "float16" and paddle.amp.get_autocast_cpu_dtype() == "float16"
    net, _ = _net_and_data()
    assert paddle.amp.decorate(net) is net
    assert paddle.amp.decorate([net], optimizers=None) == [net]


def test_amp_misuse_raises_as_paddle():
    with pytest.raises(ValueError, match="auto_cast: level must be one of O0, OD, O1, O2, but received 'O3'"):
        with paddle.amp.auto_cast(level="O3"):
            pass
    with pytest.raises(ValueError, match="auto_cast: dtype must be 'float16' or 'bfloat16'.*'float64'"):
        with paddle.amp.auto_cast(dtype="float64"):
            pass
    with pytest.raises(ValueError, match=r"auto_cast: custom_white_list and custom_black_list both hold \['matmul'\]"):
        with paddle.amp.auto_cast(custom_white_list=["matmul"], custom_black_list=["matmul"]):
            pass
    with pytest.raises(ValueError, match="decorate: level must be one of O1, O2, but received 'O5'"):
        paddle.amp.decorate(paddle.nn.Linear(2, 2), level="O5")
    with pytest.raises(TypeError, match="decorate: models must be a Layer or a list of them, but received int"):
        paddle.amp.decorate(3)
    with pytest.raises(TypeError, match="load_state_dict: state_dict must be a dict"):
        paddle.amp.GradScaler(enable=False).load_state_dict([])
    with paddle.amp.auto_cast(enable=False, dtype="float64"):  # (disabled: the dtype is not checked, as in Paddle)
        pass
