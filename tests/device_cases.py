"""Cases for ``paddle.device`` and ``paddle.device.cuda`` on a machine without a GPU, run by
``record_paddle_device.py`` with real Paddle 3.3.1's CPU build and by ``tests/device/test_device_paddle.py`` with
pylayer_jax on a machine where JAX sees no GPU: the same function, ``record``, on either library.

(``paddle.device.cuda.current_stream()`` is left out: Paddle's CPU build crashes on it with a segmentation fault.)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

# (a name, the call as text: evaluated with D = paddle.device, C = paddle.device.cuda)
CALLS = [
    "D.synchronize()", "D.synchronize('cpu')", "D.synchronize('gpu:0')", "C.synchronize()", "C.synchronize(0)",
    "C.empty_cache()", "D.empty_cache()",
    "C.max_memory_allocated()", "C.max_memory_allocated(0)", "C.max_memory_allocated('gpu:0')",
    "C.max_memory_reserved()", "C.memory_allocated()", "C.memory_reserved()",
    "C.reset_max_memory_allocated()", "C.reset_max_memory_reserved()",
    "D.max_memory_allocated()", "D.max_memory_reserved()", "D.memory_allocated()", "D.memory_reserved()",
    "D.reset_max_memory_allocated()", "D.reset_max_memory_reserved()", "D.reset_peak_memory_stats()",
    "C.get_device_name()", "C.get_device_properties()", "C.get_device_capability()", "C.get_device_properties(0)",
    "D.get_device_name()", "D.get_device_properties()", "D.get_device_capability()",
    "D.current_device()", "D.device_count()", "C.device_count()", "D.is_available()",
    "D.get_all_device_type()", "D.get_available_device()", "D.get_all_custom_device_type()",
    "D.get_available_custom_device()", "D.is_compiled_with_cinn()", "D.is_compiled_with_custom_device('npu')",
    "D.is_compiled_with_custom_device(3)", "D.is_compiled_with_distribute()", "D.is_compiled_with_ipu()",
    "D.get_cudnn_version()", "D.manual_seed(3)", "C.manual_seed(3)", "D.manual_seed_all(3)",
    "D.manual_seed('4')", "D.get_device()",
    "paddle.is_compiled_with_cinn()", "paddle.is_compiled_with_distribute()", "paddle.is_compiled_with_ipu()",
    "paddle.is_compiled_with_custom_device('npu')",
    "D.Stream()", "C.Stream()", "D.Event()", "C.Event()", "D.current_stream()",
    "D.device_guard('gpu')", "D.device_guard(3)", "D.set_rng_state([])",
]


def _outcome(paddle: Any, call: str) -> Any:
    env = {"paddle": paddle, "D": paddle.device, "C": paddle.device.cuda}
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        try:
            res: Any = ["ok", repr(eval(call, env))]
        except Exception as e:  # noqa: BLE001  (recording what each library raises)
            res = ["raises", type(e).__name__]
    # Paddle's deprecation warning (C.synchronize etc.)
    res.append(sorted({w.category.__name__ for w in got if "deprecated" in str(w.message)}))
    return res


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {f"call {c}": _outcome(paddle, c) for c in CALLS}
    D, C = paddle.device, paddle.device.cuda
    # the generator: seeding repeats draws; a state read and restored repeats the draws that followed it
    for name, mod in (("device", D), ("cuda", C)):
        mod.manual_seed(11)
        a = paddle.rand([4]).numpy()
        mod.manual_seed(11)
        out[f"{name}.manual_seed repeats"] = bool(np.array_equal(a, paddle.rand([4]).numpy()))
        state = mod.get_rng_state()
        b = paddle.rand([4]).numpy()
        mod.set_rng_state(state)
        out[f"{name} rng state round trip"] = bool(np.array_equal(b, paddle.rand([4]).numpy()))
        out[f"{name} rng state differs from draws"] = not np.array_equal(a, b)
    # device_guard on the CPU: tensors made inside are on the CPU, the device is restored after
    with D.device_guard("cpu"):
        inside = D.get_device()
        t = paddle.ones([2])
    out["device_guard cpu"] = [inside, str(t.place), D.get_device()]
    return out
