"""``paddle.device`` and ``paddle.device.cuda``: without a GPU, the answers and errors of Paddle 3.3.1's CPU build
(recorded by ``tests/record_paddle_device.py``, cases in ``tests/device_cases.py``) but for the documented
differences; with GPUs, JAX's device list and ``memory_stats()`` (checked with stand-in GPU devices whose numbers
the test sets); synchronisation, streams, events, ``device_guard`` and the generator."""

from __future__ import annotations

import json
import os
import time
import warnings

import jax
import numpy as np
import pytest
from device_cases import record

import pylayer_jax as paddle
from pylayer_jax._exec import deferred
from pylayer_jax._runtime import device as _device
from pylayer_jax.device import _query

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_device.json")) as fh:
    PADDLE = json.load(fh)
D, C = paddle.device, paddle.device.cuda


@pytest.fixture
def no_gpu(monkeypatch):
    """JAX sees no GPU, new tensors go to the CPU (as on this CPU machine; on a GPU machine, pretended)."""
    monkeypatch.setattr(_device, "gpus", lambda: [])
    before = jax.config.jax_default_device
    jax.config.update("jax_default_device", jax.devices("cpu")[0])
    yield
    jax.config.update("jax_default_device", before)


@pytest.fixture(scope="module")
def ours_without_gpu():
    mp = pytest.MonkeyPatch()
    mp.setattr(_device, "gpus", lambda: [])
    before = jax.config.jax_default_device
    jax.config.update("jax_default_device", jax.devices("cpu")[0])
    try:
        return record(paddle)
    finally:
        jax.config.update("jax_default_device", before)
        mp.undo()


# Deliberate differences from Paddle's CPU build: (what Paddle gives, what we give, why)
DIFFERENT = {
    "call D.synchronize()": ("TypeError", "ok", "waiting for queued work has a meaning on any device here"),
    "call D.synchronize('cpu')": ("TypeError", "ok", "the same"),
    "call C.synchronize()": ("RuntimeError", "ok", "the same (the current device is the CPU)"),
    "call D.Stream()": ("NameError", "ok", "streams work on any device (one queue per device)"),
    "call C.Stream()": ("RuntimeError", "ok", "the same"),
    "call D.Event()": ("NameError", "ok", "events work on any device"),
    "call C.Event()": ("RuntimeError", "ok", "the same"),
    "call D.current_stream()": ("TypeError", "ok", "the same"),
    "call D.empty_cache()": ("AttributeError", "ok", "defined on every build, as on Paddle's GPU build"),
    "call D.memory_allocated()": ("AttributeError", "ValueError", "defined, raising as the other memory queries"),
    "call D.memory_reserved()": ("AttributeError", "ValueError", "the same"),
    "call D.get_device_name()": ("NameError", "ValueError", "Paddle's CPU build fails on an undefined name"),
    "call D.get_device_properties()": ("NameError", "ValueError", "the same"),
    "call D.get_device_capability()": ("NameError", "ValueError", "the same"),
}
KEYS = sorted(k for k in PADDLE if k != "paddle")


@pytest.mark.parametrize("key", KEYS)
def test_without_a_gpu_matches_paddles_cpu_build(key: str, ours_without_gpu) -> None:
    ours, theirs = ours_without_gpu[key], PADDLE[key]
    if key in DIFFERENT:
        paddle_gives, we_give, _why = DIFFERENT[key]
        assert theirs[:2] == ["raises", paddle_gives] and theirs[2] == ours[2]
        assert ours[0] == we_give if we_give == "ok" else ours[:2] == ["raises", we_give]
    else:
        assert ours == theirs


@pytest.mark.parametrize("call, err, match", [
    (lambda: C.max_memory_allocated(), ValueError,
     r"The API paddle.device.cuda.max_memory_allocated is not supported in CPU-only PaddlePaddle, and JAX sees no "
     r"GPU on this machine"),
    (lambda: D.memory_reserved("gpu:0"), ValueError, r"The API paddle.device.memory_reserved is not supported in "
                                                     r"CPU-only PaddlePaddle"),
    (lambda: C.get_device_name(0), ValueError, r"The API paddle.device.cuda.get_device_properties is not supported"),
    (lambda: D.reset_peak_memory_stats(), ValueError, r"paddle.device.reset_peak_memory_stats is not supported"),
    (lambda: C.synchronize(0), RuntimeError,
     r"paddle.device.cuda.synchronize: JAX sees no GPU on this machine, so GPU 0 cannot be synchronized"),
    (lambda: D.synchronize("gpu:0"), ValueError, r"the device 'gpu:0' is a GPU, but JAX sees no GPU"),
    (lambda: D.device_guard("gpu"), ValueError, r"device_guard: the device 'gpu' is a GPU, but JAX sees no GPU"),
    (lambda: D.device_guard(3), ValueError,
     r"paddle.device.device_guard: 'device' must be a string such as 'cpu' or 'gpu:0', or a Place, but received int"),
    (lambda: D.is_compiled_with_custom_device(3), TypeError,
     r"is_compiled_with_custom_device: device_type must be a str such as 'npu', but received int"),
    (lambda: D.set_rng_state([]), TypeError,
     r"set_rng_state: new_state must be one state from paddle.device.get_rng_state\(\), but received a list"),
])
def test_misuse_without_a_gpu_raises_clearly(no_gpu, call, err, match) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(err, match=match):
            call()


def test_generator_answers_match_paddle(ours_without_gpu) -> None:
    for mod in ("device", "cuda"):
        assert ours_without_gpu[f"{mod}.manual_seed repeats"] is PADDLE[f"{mod}.manual_seed repeats"] is True
        assert ours_without_gpu[f"{mod} rng state round trip"] is PADDLE[f"{mod} rng state round trip"] is True
    # one generator serves every device: the device's state is paddle's
    st = D.get_rng_state()
    np.testing.assert_array_equal(st.numpy(), paddle.get_rng_state()[0].numpy())
    paddle.seed(5)
    a = paddle.rand([3]).numpy()
    D.manual_seed(5)
    np.testing.assert_array_equal(paddle.rand([3]).numpy(), a)


# ---- stand-in GPUs: JAX's device list and memory_stats() ---------------------------------------------------------
class FakeGpu:
    """What ``paddle.device`` reads from a JAX GPU device."""

    platform = "gpu"
    device_kind = "NVIDIA H100 80GB HBM3"
    compute_capability = "9.0"
    core_count = 132

    def __init__(self, stats: dict | None) -> None:
        self.stats = stats

    def memory_stats(self) -> dict | None:
        return None if self.stats is None else dict(self.stats)


@pytest.fixture
def gpus(monkeypatch):
    devs = [FakeGpu({"bytes_in_use": 1000, "peak_bytes_in_use": 5000, "pool_bytes": 8000, "peak_pool_bytes": 9000,
                     "bytes_limit": 64 * 2**30}),
            FakeGpu({"bytes_in_use": 10, "peak_bytes_in_use": 20, "bytes_limit": 2**30})]
    monkeypatch.setattr(_device, "gpus", lambda: devs)
    monkeypatch.setattr(_query, "_since_reset", {})
    return devs


def test_device_lists_follow_jaxs_gpus(gpus) -> None:
    assert (D.device_count(), C.device_count(), D.is_available()) == (2, 2, True)
    assert D.get_all_device_type() == ["gpu"] and D.get_available_device() == ["gpu:0", "gpu:1"]
    assert (D.get_all_custom_device_type(), D.get_available_custom_device()) == ([], [])


@pytest.mark.parametrize("mod", [D, C])
def test_memory_comes_from_memory_stats(gpus, mod) -> None:
    assert mod.memory_allocated() == 1000 and mod.memory_reserved(0) == 8000  # (None: the current GPU, 0)
    assert mod.max_memory_allocated("gpu:0") == 5000 and mod.max_memory_reserved("cuda:0") == 9000
    assert mod.memory_allocated(1) == 10 and mod.memory_reserved(paddle.CUDAPlace(1)) == 10  # (no pool: in use)
    assert mod.max_memory_allocated(1) == mod.max_memory_reserved(1) == 20


def test_reset_peaks_follow_usage_since_the_reset(gpus) -> None:
    C.reset_max_memory_allocated(0)
    assert C.max_memory_allocated(0) == 1000  # (the usage at the reset: the device's peak 5000 is older)
    gpus[0].stats["bytes_in_use"] = 3000
    assert C.max_memory_allocated(0) == 3000  # (seen at this query)
    gpus[0].stats["bytes_in_use"] = 2000
    assert C.max_memory_allocated(0) == 3000
    gpus[0].stats.update(bytes_in_use=100, peak_bytes_in_use=7000)  # the device's peak passed the old one
    assert C.max_memory_allocated(0) == 7000
    assert C.max_memory_reserved(0) == 9000  # (not reset)
    D.reset_peak_memory_stats(0)  # resets both
    assert (D.max_memory_allocated(0), D.max_memory_reserved(0)) == (100, 8000)


@pytest.mark.parametrize("device, match", [
    (-1, r"GPU -1 does not exist; JAX sees 2 GPU\(s\) \(0 .. 1\)"),
    (2, r"GPU 2 does not exist; JAX sees 2 GPU\(s\)"),
    ("gpu", r"the device must be an int, a string like 'gpu:x', or a paddle.CUDAPlace, but received 'gpu'"),
    ("xpu:0", r"the device must be an int, .* but received 'xpu:0'"),
    ("gpu:a", r"the device must be a string like 'gpu:x', but received 'gpu:a'"),
    (1.0, r"the device must be an int, .* but received 1.0"),
])
def test_memory_device_arguments_are_checked(gpus, device, match) -> None:
    with pytest.raises(ValueError, match=r"paddle.device.cuda.memory_allocated: " + match):
        C.memory_allocated(device)


def test_a_gpu_without_statistics_says_so(gpus) -> None:
    gpus[1].stats = None
    with pytest.raises(ValueError, match=r"paddle.device.max_memory_reserved: GPU 1 reports no memory statistics"):
        D.max_memory_reserved(1)


@pytest.mark.parametrize("mod", [D, C])
def test_properties_come_from_the_jax_device(gpus, mod) -> None:
    p = mod.get_device_properties()
    assert repr(p) == ("_gpuDeviceProperties(name='NVIDIA H100 80GB HBM3', major=9, minor=0, total_memory=65536MB, "
                       "multi_processor_count=132)")
    assert (p.total_memory, mod.get_device_name("gpu"), mod.get_device_capability(1)) == \
        (64 * 2**30, "NVIDIA H100 80GB HBM3", (9, 0))


def test_without_a_gpu_the_cpu_answers(no_gpu) -> None:
    assert (D.device_count(), D.current_device(), D.get_cudnn_version(), D.is_available()) == (0, 0, None, False)
    assert C.empty_cache() is None


# ---- synchronisation, streams, events -----------------------------------------------------------------------------
def test_synchronize_runs_the_recorded_ops_and_waits() -> None:
    x = paddle.randn([4])
    x.stop_gradient = False
    y = (x * 2).sum()  # recorded, not run yet
    assert not deferred.idle()
    D.synchronize()
    assert deferred.idle() and y._value.is_ready()
    np.testing.assert_allclose(y.numpy(), 2 * x.numpy().sum(), rtol=1e-6)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        C.synchronize()
    assert [w.category.__name__ for w in got] == ["VisibleDeprecationWarning"]
    assert 'API "pylayer_jax.device.cuda.synchronize" is deprecated since 2.5.0' in str(got[0].message)


def test_current_stream_set_stream_and_guards() -> None:
    s0 = D.current_stream()
    assert D.current_stream() is s0
    assert s0.device == (paddle.CPUPlace() if D.get_device() == "cpu" else paddle.CUDAPlace(D.current_device()))
    s1 = D.Stream(priority=1)
    with D.stream_guard(s1):
        assert D.current_stream() is s1
    assert D.current_stream() is s0
    assert D.set_stream(s1) is s0 and D.current_stream() is s1
    assert D.set_stream(s0) is s1
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        with C.stream_guard(s1):
            assert C.current_stream() is s1
    assert {w.category.__name__ for w in got} == {"VisibleDeprecationWarning"}
    assert D.current_stream() is s0
    s1.wait_event(s1.record_event())
    s1.wait_stream(s0)
    s1.synchronize()
    assert s1.query() and s1.stream_base is s1


@pytest.mark.parametrize("call, err, match", [
    (lambda: D.Stream(priority="high"), TypeError, r"Stream: priority must be an int \(1 high, 2 normal\)"),
    (lambda: D.Stream().wait_event(3), TypeError, r"Stream.wait_event: event must be a paddle.device.Event, but "
                                                  r"received int"),
    (lambda: D.Stream().wait_stream(None), TypeError, r"Stream.wait_stream: stream must be a paddle.device.Stream"),
    (lambda: D.set_stream("s"), TypeError, r"paddle.device.set_stream: stream must be a paddle.device.Stream"),
    (lambda: D.stream_guard(1), TypeError, r"paddle.device.stream_guard: stream must be a paddle.device.Stream"),
    (lambda: C.stream_guard(1).__enter__(), TypeError,
     r"paddle.device.cuda.stream_guard: stream type should be paddle.device.cuda.Stream, but received int"),
    (lambda: C.current_stream(1.5), ValueError, r"current_stream: device must be an int, a str or a paddle.CUDAPlace"),
    (lambda: D.Event(enable_timing=1), TypeError, r"Event: enable_timing must be a bool, but received int"),
    (lambda: D.Event().elapsed_time(D.Event()), RuntimeError,
     r"Event.elapsed_time: both events must be created with enable_timing=True"),
    (lambda: D.Event(True).elapsed_time(D.Event(True)), RuntimeError,
     r"Event.elapsed_time: the start event was never recorded; call record\(\) on both events first"),
])
def test_stream_and_event_misuse(call, err, match) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(err, match=match):
            call()


def test_events_time_the_work_between_them() -> None:
    start, end = D.Event(enable_timing=True), C.Event(enable_timing=True)
    start.record()
    t0 = time.perf_counter()
    time.sleep(0.02)
    t1 = time.perf_counter()
    end.record(D.current_stream())
    end.synchronize()
    assert end.query()
    ms = start.elapsed_time(end)
    assert (t1 - t0) * 1000 <= ms < (t1 - t0) * 1000 + 200


def test_device_guard_places_tensors_and_restores() -> None:
    before = D.get_device()
    with D.device_guard(paddle.CPUPlace()):
        assert D.get_device() == "cpu"
        t = paddle.ones([2])
    assert str(t.place) == "Place(cpu)" and D.get_device() == before
