"""A short tour: ``python -m pylayer_jax``.

Eager Paddle-style code with ``.backward()``, a custom PyLayer (eager and inside
``jax.jit``/``jax.grad``), saved-tensor hooks, and a static program run by the Executor.
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import numpy as np

import pylayer_jax as paddle

from .autograd import PyLayer


def section(title: str) -> None:
    print(f"\n=== {title} ===")


class cus_tanh(PyLayer):  # noqa: N801  (the name Paddle's documentation uses)
    @staticmethod
    def forward(ctx, x, func1, func2=paddle.square):
        ctx.func = func2
        y = func1(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * (1 - ctx.func(y))


def eager() -> None:
    section("eager tensors and .backward()")
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype="float64")
    x.stop_gradient = False
    y = paddle.tanh(x * 0.5).sum()
    y.backward()
    print("x =", x)
    print("d sum(tanh(x/2)) / dx =", x.grad)
    print("defaults: 1.5 ->", paddle.to_tensor(1.5).dtype, "| 3 ->", paddle.to_tensor(3).dtype)


def pylayer() -> None:
    section("PyLayer (the documented cus_tanh), eager")
    paddle.seed(2023)
    data = paddle.randn([2, 3], dtype="float64")
    data.stop_gradient = False
    z = cus_tanh.apply(data, func1=paddle.tanh)
    z.mean().backward()
    print("data.grad =", data.grad)

    section("the same PyLayer inside jax.jit(jax.grad(...)) on jax arrays")
    g = jax.jit(jax.grad(lambda v: jnp.mean(cus_tanh.apply(v, func1=paddle.tanh))))
    print(np.asarray(g(data._value)))

    section("saved_tensors_hooks: pack/unpack around multiply")

    def pack(t):
        print("  pack", t.shape)
        return t.numpy()

    def unpack(a):
        print("  unpack", a.shape)
        return paddle.to_tensor(a)

    a = paddle.ones([3, 3])
    b = paddle.ones([3, 3]) * 2
    a.stop_gradient = False
    b.stop_gradient = False
    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        y = paddle.multiply(a, b)
    y.sum().backward()
    print("a.grad[0] =", a.grad[0].numpy(), " b.grad[0] =", b.grad[0].numpy())


def static() -> None:
    section("static program with static_pylayer, compiled by XLA")
    paddle.enable_static()
    try:
        main_program, start_program = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_program, start_program):
            data = paddle.static.data(name="X", shape=[None, 5], dtype="float32")
            data.stop_gradient = False
            ret = paddle.static.nn.static_pylayer(lambda x: paddle.exp(x), [data], lambda dy: 2 * paddle.exp(dy))
            data_grad = paddle.static.gradients([ret], data)[0]
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start_program)
        x = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]], dtype=np.float32)
        x, x_grad, y = exe.run(main_program, feed={"X": x}, fetch_list=[data.name, data_grad.name, ret.name])
        print(main_program)
        print("x      =", x)
        print("x_grad =", x_grad)
        print("y      =", y)
    finally:
        paddle.disable_static()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m pylayer_jax",
        description="A short tour of pylayer_jax: eager tensors and .backward(), a custom PyLayer eagerly and "
        "under jax.jit/jax.grad, saved-tensor hooks, and a static program run by the Executor.",
    )
    parser.add_argument("--version", action="version", version=f"pylayer_jax {paddle.__version__}")
    parser.parse_args(argv)
    eager()
    pylayer()
    static()


if __name__ == "__main__":
    main()
