"""no_grad, enable_grad, set_grad_enabled, is_grad_enabled: context managers, decorators, thread-local."""

from __future__ import annotations

import threading

import pytest

import pylayer_jax as P
from pylayer_jax import autograd


def _x() -> P.Tensor:
    return P.to_tensor([1.0, 2.0], stop_gradient=False)


def test_no_grad_context_records_nothing_and_restores() -> None:
    x = _x()
    assert P.is_grad_enabled()
    with P.no_grad():
        assert not P.is_grad_enabled()
        y = x * 2.0
    assert P.is_grad_enabled()
    assert y.stop_gradient is True and y.is_leaf


def test_no_grad_decorator_and_exception_restore() -> None:
    @P.no_grad()
    def f(t):
        assert not P.is_grad_enabled()
        return t * 2.0

    assert f(_x()).stop_gradient is True
    assert P.is_grad_enabled()

    @P.no_grad()
    def boom():
        raise KeyError("x")

    with pytest.raises(KeyError):
        boom()
    assert P.is_grad_enabled()
    with pytest.raises(KeyError), P.no_grad():
        raise KeyError("y")
    assert P.is_grad_enabled()


def test_enable_grad_inside_no_grad() -> None:
    x = _x()
    with P.no_grad():
        with P.enable_grad():
            assert P.is_grad_enabled()
            y = x * 2.0
        assert not P.is_grad_enabled()
    assert y.stop_gradient is False

    @P.enable_grad()
    def f(t):
        return t * 3.0

    with P.no_grad():
        z = f(x)
    assert z.stop_gradient is False


def test_set_grad_enabled_context_and_call() -> None:
    x = _x()
    with P.set_grad_enabled(False):
        assert not P.is_grad_enabled()
        assert (x * 2.0).stop_gradient
    assert P.is_grad_enabled()
    P.set_grad_enabled(False)  # takes effect as a plain call, like Paddle
    try:
        assert not P.is_grad_enabled()
    finally:
        P.set_grad_enabled(True)
    assert P.is_grad_enabled()

    @P.set_grad_enabled(False)
    def f(t):
        return t * 2.0

    assert f(x).stop_gradient and P.is_grad_enabled()


def test_grad_mode_is_thread_local() -> None:
    seen = {}
    inside = threading.Event()
    release = threading.Event()

    def worker():
        seen["thread_start"] = P.is_grad_enabled()
        with P.no_grad():
            inside.set()
            release.wait(5)
            seen["thread_in"] = P.is_grad_enabled()

    th = threading.Thread(target=worker)
    with P.no_grad():
        th.start()
        inside.wait(5)
        seen["main_in"] = P.is_grad_enabled()
        release.set()
        th.join()
    assert seen == {"thread_start": True, "thread_in": False, "main_in": False}
    assert P.is_grad_enabled()


def test_autograd_module_reexports_modes() -> None:
    assert autograd.no_grad is P.no_grad
    assert autograd.enable_grad is P.enable_grad
    assert autograd.set_grad_enabled is P.set_grad_enabled
    assert autograd.is_grad_enabled is P.is_grad_enabled


def test_backward_runs_with_grad_off_and_create_graph_on() -> None:
    x = _x()
    y = x * x
    modes = []
    y.register_hook(lambda g: modes.append(P.is_grad_enabled()))
    y.sum().backward(retain_graph=True)
    P.grad(y.sum(), x, create_graph=True)
    assert modes == [False, True]
