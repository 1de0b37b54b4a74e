"""``paddle.incubate.inference``: run a Layer's forward (or a method of one) as a compiled inference function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_OPTIONS = {
    "cache_static_model": bool, "save_model_dir": (str, type(None)), "memory_pool_init_size_mb": int,
    "precision_mode": str, "switch_ir_optim": bool, "switch_ir_debug": bool, "enable_cinn": bool, "with_trt": bool,
    "trt_precision_mode": str, "trt_use_static": bool, "collect_shape": bool, "enable_new_ir": bool,
    "exp_enable_use_cutlass": bool, "delete_pass_lists": (list, tuple, type(None)), "skip_prune_program": bool,
}


def inference(function: Any = None, cache_static_model: bool = False, save_model_dir: str | None = None,
              memory_pool_init_size_mb: int = 1000, precision_mode: str = "float32", switch_ir_optim: bool = True,
              switch_ir_debug: bool = False, enable_cinn: bool = False, with_trt: bool = False,
              trt_precision_mode: str = "float32", trt_use_static: bool = False, collect_shape: bool = False,
              enable_new_ir: bool = False, exp_enable_use_cutlass: bool = False, delete_pass_lists: Any = None,
              skip_prune_program: bool = False) -> Any:
    """Make ``function`` (a Layer, whose ``forward`` is replaced, or a Layer's method) run as a compiled inference
    function: without gradients, compiled once per set of input shapes (Paddle converts it to a static model on
    disk and runs it with a Paddle Inference predictor; here ``paddle.jit.to_static`` compiles it with XLA, in
    memory). Used bare or with options as a decorator. ``precision_mode`` 'float16' / 'bfloat16' runs the
    function under ``paddle.amp.auto_cast``; the disk cache, IR, CINN and TensorRT options concern Paddle's
    engine and are checked for type only."""
    options = dict(cache_static_model=cache_static_model, save_model_dir=save_model_dir,
                   memory_pool_init_size_mb=memory_pool_init_size_mb, precision_mode=precision_mode,
                   switch_ir_optim=switch_ir_optim, switch_ir_debug=switch_ir_debug, enable_cinn=enable_cinn,
                   with_trt=with_trt, trt_precision_mode=trt_precision_mode, trt_use_static=trt_use_static,
                   collect_shape=collect_shape, enable_new_ir=enable_new_ir,
                   exp_enable_use_cutlass=exp_enable_use_cutlass, delete_pass_lists=delete_pass_lists,
                   skip_prune_program=skip_prune_program)
    for name, value in options.items():
        if not isinstance(value, _OPTIONS[name]) or (_OPTIONS[name] is int and isinstance(value, bool)):
            raise TypeError(f"paddle.incubate.inference: {name} must be of type {_OPTIONS[name]}, but received "
                            f"{type(value).__name__}.")
    if precision_mode not in ("float32", "float16", "bfloat16"):
        raise ValueError(f"paddle.incubate.inference: precision_mode must be 'float32', 'float16' or 'bfloat16', "
                         f"but received {precision_mode!r}.")
    if getattr(function, "_paddle_inference_mode", False):
        return function

    def decorator(func: Any) -> Callable[..., Any]:
        from .. import amp, jit
        from .._autograd.grad_mode import no_grad
        from ..nn import Layer

        if isinstance(func, Layer):
            func = func.forward
        if not callable(func):
            raise TypeError(f"paddle.incubate.inference: function must be a Layer or a Layer's method, but "
                            f"received {type(func).__name__}.")
        compiled = jit.to_static(func, full_graph=True)

        def run(*args: Any, **kwargs: Any) -> Any:
            with no_grad():
                if precision_mode == "float32":
                    return compiled(*args, **kwargs)
                with amp.auto_cast(level="O2", dtype=precision_mode):
                    return compiled(*args, **kwargs)

        run._paddle_inference_mode = True  # type: ignore[attr-defined]
        return run

    if function is None:
        return decorator
    from ..nn import Layer

    if isinstance(function, Layer):
        function.forward = decorator(function)
        return function
    return decorator(function)
