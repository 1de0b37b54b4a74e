"""``paddle.get_flags`` / ``paddle.set_flags``: a registry of Paddle's common flags (layer L0).

Names and defaults are those of Paddle 3.3.1's CPU build. Most flags tune Paddle's own
allocator, executor or kernels and have nothing to tune under XLA: they are kept and read
back as Paddle would. Flags that would change results (``FLAGS_check_nan_inf`` turns NaNs
into errors, ...) raise ``NotImplementedError`` when set away from their default, rather
than being accepted and ignored. Unknown names raise ``ValueError`` as in Paddle.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_DEFAULTS: dict[str, Any] = {
    "FLAGS_allocator_strategy": "auto_growth",
    "FLAGS_benchmark": False,
    "FLAGS_call_stack_level": 1,
    "FLAGS_check_nan_inf": False,
    "FLAGS_check_nan_inf_level": 0,
    "FLAGS_eager_delete_scope": True,
    "FLAGS_eager_delete_tensor_gb": 0.0,
    "FLAGS_enable_pir_api": True,
    "FLAGS_enable_pir_in_executor": True,
    "FLAGS_enable_unique_name": False,
    "FLAGS_fast_eager_deletion_mode": True,
    "FLAGS_fraction_of_cpu_memory_to_use": 1.0,
    "FLAGS_fraction_of_gpu_memory_to_use": 0.9200000166893005,
    "FLAGS_gpu_memory_limit_mb": 0,
    "FLAGS_host_trace_level": 1,
    "FLAGS_init_allocated_mem": False,
    "FLAGS_initial_cpu_memory_in_mb": 500,
    "FLAGS_initial_gpu_memory_in_mb": 0,
    "FLAGS_inner_op_parallelism": 0,
    "FLAGS_log_memory_stats": False,
    "FLAGS_max_inplace_grad_add": 0,
    "FLAGS_memory_fraction_of_eager_deletion": 1.0,
    "FLAGS_new_executor_sequential_run": False,
    "FLAGS_new_executor_serial_run": False,
    "FLAGS_new_executor_use_inplace": False,
    "FLAGS_paddle_num_threads": 1,
    "FLAGS_prim_backward": False,
    "FLAGS_prim_forward": False,
    "FLAGS_print_ir": False,
    "FLAGS_reallocate_gpu_memory_in_mb": 0,
    "FLAGS_set_to_1d": False,
    "FLAGS_sort_sum_gradient": False,
    "FLAGS_use_autotune": False,
    "FLAGS_use_cuda_managed_memory": False,
    "FLAGS_use_mkldnn": False,
    "FLAGS_use_onednn": False,
    "FLAGS_use_pinned_memory": True,
    "FLAGS_use_stride_kernel": True,
    "FLAGS_use_system_allocator": False,
}

# flags whose non-default values would change results here; setting them so is not supported
_BEHAVIOURAL = ("FLAGS_check_nan_inf", "FLAGS_check_nan_inf_level", "FLAGS_set_to_1d", "FLAGS_use_stride_kernel",
                "FLAGS_prim_backward", "FLAGS_prim_forward", "FLAGS_sort_sum_gradient")

_values: dict[str, Any] = dict(_DEFAULTS)


def _names(flags: Any, api: str) -> list[str]:
    if isinstance(flags, str):
        return [flags]
    if isinstance(flags, list | tuple):
        return list(flags)
    raise TypeError(f"{api}: flags must be a str or a list or tuple of str, but received {type(flags).__name__}.")


def _known(name: Any, verb: str) -> str:
    if not isinstance(name, str) or name not in _values:
        raise ValueError(
            f"Flag {name} cannot {verb} its value through this function: it is not one of the flags pylayer_jax "
            f"knows (Paddle's names such as 'FLAGS_check_nan_inf'; see paddle.get_flags on a list of names)."
        )
    return name


def get_flags(flags: str | Iterable[str]) -> dict[str, Any]:
    """The values of the named flags as ``{name: value}`` (``paddle.get_flags('FLAGS_check_nan_inf')``)."""
    return {_known(n, "get"): _values[n] for n in _names(flags, "get_flags")}


def _coerce(name: str, value: Any) -> Any:
    default = _DEFAULTS[name]
    kind = type(default)
    if kind is bool and isinstance(value, bool | int):
        return bool(value)
    if kind is int and isinstance(value, int):
        return int(value)
    if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if kind is str and isinstance(value, str):
        return value
    raise RuntimeError(
        f"set_flags: {name} holds a {kind.__name__}, but received {value!r} of type {type(value).__name__}; pass a "
        f"{kind.__name__}."
    )


def set_flags(flags: dict[str, Any]) -> None:
    """Set flags from ``{name: value}`` (``paddle.set_flags({'FLAGS_benchmark': True})``)."""
    if not isinstance(flags, dict):
        raise TypeError(f"set_flags: flags must be a dict of {{name: value}}, but received {type(flags).__name__}.")
    new = {}
    for name, value in flags.items():
        _known(name, "set")
        v = _coerce(name, value)
        if name in _BEHAVIOURAL and v != _DEFAULTS[name]:
            raise NotImplementedError(
                f"set_flags: {name}={value!r} would change how Paddle computes, which pylayer_jax does not "
                f"implement; only its default {_DEFAULTS[name]!r} is supported."
            )
        new[name] = v
    _values.update(new)


def disable_signal_handler() -> None:
    """Paddle's switch to remove its own handlers of SIGSEGV, SIGBUS and the like (for code that installs its
    own): this package installs none, so there is nothing to remove."""
    return None
