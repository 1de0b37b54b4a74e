"""Record Paddle 3.3.1's facts for tests/test_paths.py: flag defaults, exception types, dygraph while_loop.

Run with ``/tmp/paddle/bin/python tests/record_paddle_paths.py``; writes ``tests/data/paddle_paths.json``.
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))  # flag names come from our registry
import paddle  # noqa: E402

FLAGS = [
    "FLAGS_allocator_strategy", "FLAGS_benchmark", "FLAGS_call_stack_level", "FLAGS_check_nan_inf",
    "FLAGS_check_nan_inf_level", "FLAGS_eager_delete_scope", "FLAGS_eager_delete_tensor_gb", "FLAGS_enable_pir_api",
    "FLAGS_enable_pir_in_executor", "FLAGS_enable_unique_name", "FLAGS_fast_eager_deletion_mode",
    "FLAGS_fraction_of_cpu_memory_to_use", "FLAGS_fraction_of_gpu_memory_to_use",
    "FLAGS_gpu_memory_limit_mb", "FLAGS_host_trace_level", "FLAGS_init_allocated_mem",
    "FLAGS_initial_cpu_memory_in_mb", "FLAGS_initial_gpu_memory_in_mb", "FLAGS_inner_op_parallelism",
    "FLAGS_log_memory_stats", "FLAGS_max_inplace_grad_add", "FLAGS_memory_fraction_of_eager_deletion",
    "FLAGS_new_executor_sequential_run", "FLAGS_new_executor_serial_run", "FLAGS_new_executor_use_inplace",
    "FLAGS_paddle_num_threads", "FLAGS_prim_backward", "FLAGS_prim_forward", "FLAGS_print_ir",
    "FLAGS_reallocate_gpu_memory_in_mb", "FLAGS_set_to_1d", "FLAGS_sort_sum_gradient", "FLAGS_use_autotune",
    "FLAGS_use_cuda_managed_memory", "FLAGS_use_mkldnn", "FLAGS_use_onednn", "FLAGS_use_pinned_memory",
    "FLAGS_use_stride_kernel", "FLAGS_use_system_allocator",
]


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording the type Paddle raises
        return type(e).__name__
    return None


out = {"flags": paddle.get_flags(FLAGS)}
out["errors"] = {
    "get_flags_unknown": err(lambda: paddle.get_flags("FLAGS_no_such_flag")),
    "set_flags_unknown": err(lambda: paddle.set_flags({"FLAGS_no_such_flag": 1})),
    "get_flags_int": err(lambda: paddle.get_flags(3)),
    "set_flags_str": err(lambda: paddle.set_flags("FLAGS_benchmark")),
    "set_flags_bad_type": err(lambda: paddle.set_flags({"FLAGS_paddle_num_threads": 2.5})),
    "cuda_on_cpu": err(lambda: paddle.to_tensor([1.0]).cuda()),
    "pin_memory_on_cpu": err(lambda: paddle.to_tensor([1.0]).pin_memory()),
    "set_device_gpu_on_cpu": err(lambda: paddle.device.set_device("gpu:0")),
    "set_device_bad": err(lambda: paddle.device.set_device("foo")),
    "to_int": err(lambda: paddle.to_tensor([1.0]).to(3)),
    "while_loop_empty": err(lambda: paddle.static.nn.while_loop(lambda i: i < 3, lambda i: i + 1, [])),
    "while_loop_not_callable": err(lambda: paddle.static.nn.while_loop(3, lambda i: i + 1, [paddle.to_tensor([1.0])])),
    "while_loop_arity": err(lambda: paddle.static.nn.while_loop(lambda i: i < 3, lambda i: [i + 1, i],
                                                                [paddle.to_tensor([1.0])])),
}
out["flags_after_set"] = {}
paddle.set_flags({"FLAGS_paddle_num_threads": 4, "FLAGS_benchmark": 1})
out["flags_after_set"] = paddle.get_flags(["FLAGS_paddle_num_threads", "FLAGS_benchmark"])
x = paddle.to_tensor([1.0, 2.0])
x.backward()
out["backward_stop_gradient"] = {"grad_is_none": x.grad is None}
i, s = paddle.full([1], 0, "int64"), paddle.to_tensor([1.5], stop_gradient=False)
lv = [i, s]
res = paddle.static.nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * 2.0], lv)
res[1].backward()
out["while_loop_eager"] = {"returns_loop_vars": res is lv, "same_tensor": res[1] is s, "i": int(i.item()),
                           "s": float(s.item())}
out["to"] = {"cpu_is_self": x.cpu() is x, "to_cpu_is_self": x.to("cpu") is x,
             "to_dtype": str(x.to("float64").dtype), "to_tensor": str(x.to(paddle.to_tensor([1], dtype="int32")).dtype)}
out["in_dynamic_mode"] = paddle.framework.in_dynamic_mode()
out["grad_var_suffix"] = paddle.base.core.grad_var_suffix()
pathlib.Path(__file__).parent.joinpath("data", "paddle_paths.json").write_text(json.dumps(out, indent=1, sort_keys=True))
print(json.dumps(out, indent=1))
