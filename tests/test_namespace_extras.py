"""Paddle 3.3.1's smaller public names (``paddle.range``, ``positive``, ``ger``, ``tolist``, ``pdist``, ``flops``,
the typed Tensor factories, the dtype aliases, ``manual_seed`` / ``Generator``, the autocast queries, the samplers,
the tensor-array helpers, ``MmapStorage``, ``enable_compat``, ``paddle.device`` / ``jit`` / ``profiler``
additions): the cases of ``tests/namespace_extras_cases.py`` against Paddle's results
(``tests/record_paddle_namespace_extras.py``), the samplers' laws by statistics, and the misuse errors."""

from __future__ import annotations

import os
import sys
import warnings

import jax
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from namespace_extras_cases import record  # noqa: E402
from recorded import Recorded, assert_close, paddle_fixture  # noqa: E402

REF = paddle_fixture("paddle_namespace_extras.json")
OURS = Recorded(record, paddle)
GPU = any(d.platform == "gpu" for d in jax.devices())


def _lists(v: object) -> object:
    """A recorded value with its dicts as sorted [key, value] lists (so numbers in them compare with a tolerance)."""
    if isinstance(v, dict):
        return [[k, _lists(v[k])] for k in sorted(v)]
    return [_lists(x) for x in v] if isinstance(v, list) else v


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    assert_close(_lists(OURS[key]), _lists(REF[key]), key, rtol=1e-6)


def test_pdist_gradient_below_order_one() -> None:
    """For p < 1 Paddle 3.3.1's gradient is NaN everywhere (it takes the norm of every difference, the zero ones on
    the diagonal included, whose derivative is infinite there); here only the pairs are differentiated, so the
    gradient is the true one (checked against jax.grad of the distances written out)."""
    a = np.array([[0.0, 1.0, -2.0], [2.0, 3.0, 0.5], [4.0, 6.0, 1.0]])
    w = np.array([1.0, 2.0, 3.0])

    def f(x: jax.Array) -> jax.Array:
        pairs = [(0, 1), (0, 2), (1, 2)]
        d = jax.numpy.stack([(jax.numpy.abs(x[i] - x[j]) ** 0.5).sum() ** 2.0 for i, j in pairs])
        return (d * w).sum()

    x = paddle.to_tensor(a, stop_gradient=False)
    (paddle.pdist(x, p=0.5) * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), jax.grad(f)(jax.numpy.asarray(a)), rtol=1e-10)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


# ---- the samplers' laws (their draws are this package's, not Paddle's stream) ----------------------------------


def test_binomial_law() -> None:
    paddle.seed(5)
    n = paddle.full([40000], 10, "int64")
    s = paddle.binomial(n, paddle.full([40000], 0.3)).numpy()
    assert s.dtype == np.int64 and s.min() >= 0 and s.max() <= 10
    assert abs(s.mean() - 3.0) < 0.05 and abs(s.var() - 2.1) < 0.1  # n p, n p (1 - p)
    paddle.seed(5)
    again = paddle.binomial(n, paddle.full([40000], 0.3)).numpy()
    assert (again == s).all()  # seeded draws repeat


def test_log_normal_law() -> None:
    paddle.seed(6)
    s = paddle.log_normal(0.5, 0.25, [40000]).numpy().astype(np.float64)
    mean, var = np.exp(0.5 + 0.25**2 / 2), (np.exp(0.25**2) - 1) * np.exp(1 + 0.25**2)
    assert abs(s.mean() - mean) < 0.01 and abs(s.var() - var) / var < 0.05
    np.testing.assert_allclose(np.log(s).std(), 0.25, rtol=0.03)


def test_standard_gamma_law() -> None:
    paddle.seed(7)
    for a in (0.5, 2.0, 7.0):  # (float64 draws are checked in the recorded cases: they compile slowly)
        s = paddle.standard_gamma(paddle.full([40000], a)).numpy().astype(np.float64)
        assert (s > 0).all()
        assert abs(s.mean() - a) / a < 0.03 and abs(s.var() - a) / a < 0.06  # Gamma(a, 1): mean = var = a


# ---- misuse and the differences kept on purpose ----------------------------------------------------------------


def test_range_misuse() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"range: step must be nonzero, but received 0"):
            paddle.range(0, 3, 0)
        with pytest.raises(RuntimeError, match=r"range: from start=5\.0 by step=1\.0, end=0\.0 is never reached"):
            paddle.range(5, 0, 1)
        # (Paddle 3.3.1: a RuntimeError naming its unregistered float16 kernel)
        with pytest.raises(TypeError, match=r"range: dtype must be one of int32, int64, float32, float64, but "
                                            r"received float16"):
            paddle.range(5, dtype="float16")
        with pytest.raises(ValueError, match=r"range: a Tensor end must hold one value, but it has shape \[2\]"):
            paddle.range(0, paddle.to_tensor([1, 2]))
        with pytest.raises(TypeError, match=r"range: step must be a number or a Tensor of one value, but received "
                                            r"str"):
            paddle.range(0, 3, "1")


def test_small_function_misuse() -> None:
    # (Paddle 3.3.1 raises AttributeError from inside: 'list' object has no attribute ...)
    with pytest.raises(TypeError, match=r"tolist: x must be a Tensor, but received list"):
        paddle.tolist([1, 2])
    with pytest.raises(TypeError, match=r"positive: x must be a Tensor, but received int"):
        paddle.positive(3)
    with pytest.raises(TypeError, match=r"The `\+` operator, on a bool tensor is not supported"):
        paddle.positive(paddle.to_tensor([True]))
    # (Paddle 3.3.1: AssertionError "The x must be 2-dimensional")
    with pytest.raises(ValueError, match=r"pdist: x must be 2-dimensional .* received shape \[3\]"):
        paddle.pdist(paddle.ones([3]))
    with pytest.raises(ValueError, match=r"paddle\.FloatTensor: give a list or tuple of values, sizes as ints"):
        paddle.FloatTensor(2, 3.0)


def test_sampler_misuse() -> None:
    with pytest.raises(TypeError, match=r"binomial: prob must be a float32 or float64 Tensor .* but it is int64"):
        paddle.binomial(paddle.to_tensor([10]), paddle.to_tensor([1]))
    with pytest.raises(TypeError, match=r"binomial: prob must be a Tensor, but received list"):
        paddle.binomial(paddle.to_tensor([10]), [0.5])
    with pytest.raises(ValueError, match=r"binomial: count of shape \[3\] and prob of shape \[2\] do not broadcast"):
        paddle.binomial(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([0.5, 0.5]))
    with pytest.raises(TypeError, match=r"standard_gamma: x must be a float32 or float64 Tensor .* float16"):
        paddle.standard_gamma(paddle.to_tensor([1.0], dtype="float16"))
    with pytest.raises(TypeError, match=r"standard_gamma: x must be a Tensor, but received float"):
        paddle.standard_gamma(2.0)
    # (Paddle 3.3.1: AttributeError 'NoneType' object has no attribute 'astype')
    with pytest.raises(ValueError, match=r"log_normal: give a shape, or a Tensor mean or std"):
        paddle.log_normal(0.0, 0.5)
    # (Paddle 3.3.1: SystemError from its reshape)
    with pytest.raises(ValueError, match=r"log_normal: a Tensor mean and a Tensor std must have one shape"):
        paddle.log_normal(paddle.zeros([2]), paddle.ones([3]))


def test_array_misuse() -> None:
    arr = paddle.tensor.create_array("float32")
    # (Paddle 3.3.1: AssertionError "The index 'i' in array_write must be Variable in dygraph mode")
    with pytest.raises(TypeError, match=r"array_write: in dynamic mode the index i must be an int Tensor"):
        paddle.tensor.array_write(paddle.to_tensor([1.0]), 0, arr)
    with pytest.raises(IndexError, match=r"array_write: the index i=3 must be in \[0, 0\]"):
        paddle.tensor.array_write(paddle.to_tensor([1.0]), paddle.to_tensor([3]), arr)
    with pytest.raises(IndexError, match=r"array_read: the index i=0 must be in \[0, 0\)"):
        paddle.tensor.array_read(arr, paddle.to_tensor([0]))
    with pytest.raises(TypeError, match=r"create_array: initialized_list must be a list or tuple of Tensors"):
        paddle.tensor.create_array("float32", paddle.to_tensor([1.0]))


def test_mmap_misuse(tmp_path) -> None:  # noqa: ANN001
    path = str(tmp_path / "m.bin")
    np.arange(4, dtype=np.float32).tofile(path)
    with pytest.raises(RuntimeError, match=r"MmapStorage: file <.*m\.bin> size <16> is smaller than the required "
                                           r"mapping size <32>"):
        paddle.MmapStorage(path, 32)
    m = paddle.MmapStorage(path, 16)
    np.testing.assert_array_equal(m.get_slice("float32").numpy(), np.arange(4, dtype=np.float32))
    with pytest.raises(ValueError, match=r"get_slice: start=0 and stop=9 must satisfy 0 <= start <= stop <= 4"):
        m.get_slice("float32", 0, 9)


def test_dtype_extras() -> None:
    x = paddle.to_tensor([1.0, 2.5])
    assert x.astype(paddle.uint16).dtype == paddle.uint16  # (Paddle 3.3.1 prints this dtype as paddle.bfloat16)
    with pytest.raises(ValueError, match=r"paddle\.pstring is a dtype no tensor can have here"):
        x.astype(paddle.pstring)
    assert paddle.float is paddle.float32 and paddle.double is paddle.float64


def test_generator_and_compat_misuse() -> None:
    with pytest.raises(TypeError, match=r"Generator\.manual_seed: the seed must be an int in \[0, 2\*\*64\), but "
                                        r"received -1"):
        paddle.Generator().manual_seed(-1)
    with pytest.raises(TypeError, match=r"paddle\.Generator: device must be a str, an int or a Place"):
        paddle.Generator(1.5)
    with pytest.raises(NotImplementedError, match=r"enable_compat: scope and blocked_modules .* not supported"):
        paddle.enable_compat(scope={"triton"})
    with pytest.raises(ValueError, match=r"enable_compat: backend must be 'torch'"):
        paddle.enable_compat(backend="jax")
    with pytest.warns(UserWarning, match=r"torch compat is not installed"):
        paddle.disable_compat()


def test_flops_misuse() -> None:
    with pytest.raises(TypeError, match=r"flops: input_size must be a list of ints .* received 'abc'"):
        paddle.flops(paddle.nn.Linear(2, 2), "abc")
    with pytest.raises(TypeError, match=r"flops: custom_ops must be a dict"):
        paddle.flops(paddle.nn.Linear(2, 2), [1, 2], custom_ops=[1])
    with pytest.raises(NotImplementedError, match=r"flops: counting a static Program's FLOPs is not supported"):
        paddle.flops(paddle.static.Program(), [1, 2])


def test_profiler_jit_and_tensor_string() -> None:
    with pytest.raises(NotImplementedError, match=r"export_protobuf\('log'\): Paddle's protobuf trace format"):
        paddle.profiler.export_protobuf("log")
    with pytest.raises(NotImplementedError, match=r"load_profiler_result\('a\.pb'\): Paddle's protobuf trace"):
        paddle.profiler.load_profiler_result("a.pb")
    from pylayer_jax.jit._logging import SETTINGS

    paddle.jit.set_code_level(3, also_to_stdout=True)
    assert SETTINGS["code_level"] == 3 and SETTINGS["code_to_stdout"] is True
    paddle.jit.set_code_level()
    assert SETTINGS["code_level"] == 100
    with pytest.raises(TypeError, match=r"Level is not an integer: a"):
        paddle.jit.set_verbosity("a")
    t = paddle.to_tensor([1.0, 2.0])
    assert paddle.tensor.to_string.to_string(t, "Var") == "Var" + repr(t)[len("Tensor"):]


def test_device_without_or_with_gpu() -> None:
    """What a CPU-only Paddle 3.3.1 answers (recorded by hand: RuntimeError for the pinned place and ipc_collect;
    memory_summary and get_stream_from_external fail there with an AttributeError from inside, refused here with
    a sentence), and what a GPU gives."""
    if GPU:
        assert paddle.CUDAPinnedPlace() == paddle.CUDAPinnedPlace()
        assert paddle.device.ipc_collect() is None
        with pytest.raises(NotImplementedError, match=r"get_stream_from_external: JAX runs its own streams"):
            paddle.device.get_stream_from_external(0)
        return
    with pytest.raises(RuntimeError, match=r"Cannot use CUDAPinnedPlace in CPU only version"):
        paddle.CUDAPinnedPlace()
    with pytest.raises(RuntimeError, match=r"paddle\.device\.ipc_collect: JAX sees no GPU here"):
        paddle.device.ipc_collect()
    with pytest.raises(RuntimeError, match=r"get_stream_from_external: JAX sees no GPU here"):
        paddle.device.get_stream_from_external(0)
    with pytest.raises(ValueError, match=r"paddle\.device\.cuda\.memory_summary is not supported in CPU-only"):
        paddle.device.cuda.memory_summary()
