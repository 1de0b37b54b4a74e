"""The static-mode layer programs, built by both sides.

``tests/record_paddle_static_layers.py`` builds and trains them with real Paddle (Program IR) and stores the
numbers in ``tests/data/paddle_static_layers.json``; ``tests/static/test_static_layers.py`` builds the same
programs with pylayer_jax and compares. Each builder takes the library module (``paddle`` or ``pylayer_jax``)
and the initial weights by name (fixed with ``ParamAttr(initializer=Assign(...))``), and returns the programs
and the Variables and layers the two sides fetch or check.
"""

from __future__ import annotations

from typing import Any


def attr(paddle: Any, weights: dict[str, Any], key: str) -> Any:
    """A ParamAttr that starts the parameter at ``weights[key]``."""
    return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(weights[key]))


def programs(paddle: Any) -> tuple[Any, Any]:
    return paddle.static.Program(), paddle.static.Program()


def run(paddle: Any, main: Any, startup: Any, feed: dict[str, Any], fetch: list[Any], n: int = 5,
        between: Any = None) -> tuple[list[Any], Any, Any]:
    """Run the startup program, then ``main`` ``n`` times in a new scope (calling ``between()`` after each);
    returns the fetched values of each run, the scope and the executor."""
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    out = []
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for _ in range(n):
            out.append(exe.run(main, feed=feed, fetch_list=fetch))
            if between is not None:
                between()
    return out, scope, exe


def linear_sgd(paddle: Any, weights: dict[str, Any]) -> tuple[Any, ...]:
    """A Linear trained with SGD: (main, startup, layer, loss)."""
    main, startup = programs(paddle)
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3], "float32")
        lin = paddle.nn.Linear(3, 2, weight_attr=attr(paddle, weights, "lin_w"),
                               bias_attr=attr(paddle, weights, "lin_b"))
        loss = lin(x).mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    return main, startup, lin, loss


MLP_OPTIMIZERS = ("sgd", "momentum_decay_clip", "adam_l2_param", "sgd_step_decay")


def mlp(paddle: Any, weights: dict[str, Any], opt_name: str) -> tuple[Any, ...]:
    """A Sequential MLP with the optimizer ``opt_name`` (one of MLP_OPTIMIZERS): (main, startup, net, loss,
    the learning-rate scheduler or None)."""
    main, startup = programs(paddle)
    sched = None
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 3], "float32")
        net = paddle.nn.Sequential(
            paddle.nn.Linear(4, 8, weight_attr=attr(paddle, weights, "mlp_w1"),
                             bias_attr=attr(paddle, weights, "mlp_b1")),
            paddle.nn.ReLU(),
            paddle.nn.Linear(8, 3, weight_attr=attr(paddle, weights, "mlp_w2"),
                             bias_attr=attr(paddle, weights, "mlp_b2")),
        )
        loss = paddle.nn.functional.mse_loss(net(x), y)
        if opt_name == "sgd":
            opt = paddle.optimizer.SGD(0.1)
        elif opt_name == "momentum_decay_clip":
            opt = paddle.optimizer.Momentum(0.1, momentum=0.9, weight_decay=0.01,
                                            grad_clip=paddle.nn.ClipGradByNorm(0.5))
        elif opt_name == "adam_l2_param":
            opt = paddle.optimizer.Adam(0.05)
        elif opt_name == "sgd_step_decay":
            sched = paddle.optimizer.lr.StepDecay(0.2, step_size=2, gamma=0.5)
            opt = paddle.optimizer.SGD(sched)
        else:
            raise ValueError(f"mlp: no optimizer case {opt_name!r}; the cases are {MLP_OPTIMIZERS}.")
        opt.minimize(loss)
    return main, startup, net, loss, sched


def mlp_param_regularizer(paddle: Any, weights: dict[str, Any]) -> tuple[Any, ...]:
    """A ParamAttr(regularizer=L2Decay, learning_rate=2.0) on one weight, Adam elsewhere without decay:
    (main, startup, net, loss)."""
    main, startup = programs(paddle)
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 3], "float32")
        w1 = paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(weights["mlp_w1"]),
                              regularizer=paddle.regularizer.L2Decay(0.5), learning_rate=2.0)
        net = paddle.nn.Sequential(
            paddle.nn.Linear(4, 8, weight_attr=w1, bias_attr=attr(paddle, weights, "mlp_b1")), paddle.nn.ReLU(),
            paddle.nn.Linear(8, 3, weight_attr=attr(paddle, weights, "mlp_w2"),
                             bias_attr=attr(paddle, weights, "mlp_b2")),
        )
        loss = paddle.nn.functional.mse_loss(net(x), y)
        paddle.optimizer.Adam(0.05).minimize(loss)
    return main, startup, net, loss


def conv_bn(paddle: Any, weights: dict[str, Any]) -> tuple[Any, ...]:
    """Conv2D then BatchNorm2D trained with SGD, and the test clone taken before the optimizer:
    (main, startup, test, bn, out, loss)."""
    main, startup = programs(paddle)
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        img = paddle.static.data("img", [None, 1, 5, 5], "float32")
        conv = paddle.nn.Conv2D(1, 2, 3, weight_attr=attr(paddle, weights, "conv_w"),
                                bias_attr=attr(paddle, weights, "conv_b"))
        bn = paddle.nn.BatchNorm2D(2)
        out = bn(conv(img))
        loss = (out * out).mean() + out.mean()
        test = main.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
    return main, startup, test, bn, out, loss


def emb_ln(paddle: Any, weights: dict[str, Any]) -> tuple[Any, ...]:
    """Embedding, LayerNorm and a Linear head trained with SGD: (main, startup, layer norm, loss)."""
    main, startup = programs(paddle)
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [None, 3], "int64")
        emb = paddle.nn.Embedding(5, 3, weight_attr=attr(paddle, weights, "emb_w"))
        ln = paddle.nn.LayerNorm(3)
        head = paddle.nn.Linear(3, 1, weight_attr=attr(paddle, weights, "head_w"))
        loss = head(ln(emb(ids))).pow(2).mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    return main, startup, ln, loss


def dropout(paddle: Any) -> tuple[Any, ...]:
    """Dropout(0.5) on a [64, 64] input, and its test clone: (main, startup, test, out)."""
    main, startup = programs(paddle)
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [64, 64], "float32")
        out = paddle.nn.Dropout(0.5)(x)
        test = main.clone(for_test=True)
    return main, startup, test, out
