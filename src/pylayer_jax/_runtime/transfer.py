"""Host arrays to the default device, and whether a JAX transform is tracing (layer L0).

``jax.device_put`` of a small numpy array or Python number costs ~30 µs on this package's CPU machines, nearly all
of it JAX's Python (tree handling, sharding and layout lookups) around one C++ call that takes ~3 µs. ``put`` makes
that call itself where ``jax.device_put(x)`` would make it with nothing else to decide: no transform tracing (there
``device_put`` stages a tracer), no default device set (``paddle.set_device``, ``jax.default_device``), the JAX
internals it needs present (other versions: ``jax.device_put``). The result is what ``jax.device_put(x)`` gives: an
uncommitted array on the first device, the numpy array's dtype as JAX canonicalises it.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

try:  # no JAX transform is tracing (entering ensure_compile_time_eval always would change jit's cache keys)
    from jax._src.core import axis_env_state as _AXES
    from jax._src.core import eval_trace as _EVAL_TRACE
    from jax._src.core import top_axis_env as _TOP_AXES
    from jax._src.core import trace_state_clean as _jax_trace_state_clean
    from jax._src.core import trace_state_strong_ref as _TRACE

    def trace_state_clean() -> bool:
        """``jax._src.core.trace_state_clean()``, without its two calls and two properties (every run asks)."""
        return _TRACE.value is _EVAL_TRACE and _AXES.value is _TOP_AXES

    if trace_state_clean() is not _jax_trace_state_clean():  # pragma: no cover - JAX changed how it is told
        trace_state_clean = _jax_trace_state_clean
except ImportError:  # pragma: no cover - other JAX versions
    try:
        from jax._src.core import trace_state_clean
    except ImportError:  # always run outside any trace
        def trace_state_clean() -> bool:
            return False

try:  # the C++ transfer ``jax.device_put`` ends in, and what it needs
    from jax._src import config as _config
    from jax._src.core import ShapedArray as _ShapedArray
    from jax._src.lib import xla_client as _xc

    _batched_put: Any = _xc.batched_device_put
    _default_device = _config.default_device
    _x64 = _config.enable_x64
except (ImportError, AttributeError):  # pragma: no cover - other JAX versions
    _batched_put = None

_AVALS: dict[tuple, Any] = {}  # (shape, dtype, weak_type) -> its ShapedArray
_FIRST: list[Any] = []  # [the first device, its single-device sharding], made on first use


def put(x: np.ndarray, weak_type: bool = False) -> Any:
    """``jax.device_put(x)`` of a numpy array that the caller owns and never writes again (JAX's CPU client may keep
    using its memory). ``weak_type``: the array stands for a Python number (a 0-d array), as ``jax.device_put`` of the
    number makes it."""
    if (_batched_put is None or _default_device.value is not None or not _x64.value  # (x64 off: JAX narrows types)
            or not trace_state_clean()):
        return jax.device_put(x.item() if weak_type else x)
    k = (x.shape, x.dtype, weak_type)
    aval = _AVALS.get(k)
    if aval is None:
        if len(_AVALS) >= 1024:
            _AVALS.clear()
        aval = _AVALS[k] = _ShapedArray(x.shape, x.dtype, weak_type=weak_type)
    if not _FIRST:
        dev = jax.devices()[0]
        _FIRST[:] = [dev, jax.sharding.SingleDeviceSharding(dev)]
    dev, sharding = _FIRST
    return _batched_put(aval, sharding, [x], [dev], False)


def put_number(v: float | int) -> Any:
    """``jax.device_put(v)`` of a Python float or int (an int within int64): a weakly typed 0-d array."""
    return put(np.asarray(v, np.float64 if type(v) is float else np.int64), True)


def own(x: Any, dtype: Any = None) -> Any:
    """A jax array of the numpy array (or numpy scalar) ``x``, in ``dtype`` (x's own: None), that shares no memory with
    it: JAX's CPU client may keep using the memory of an aligned array it is given (``jax.device_put``,
    ``jnp.asarray(x, dtype)``), so a caller's later write to ``x`` would change the Tensor's value, or the result of a
    deferred op reading it. Copied first, then ``put``."""
    return put(np.array(x, dtype=dtype))
