"""``paddle.device``: where tensors live (``set_device``, ``get_device``, ``device_guard``), what the machine has
(device counts and types, GPU properties and memory), synchronisation, streams and events, the generator.

JAX's devices stand for Paddle's (``gpu:n`` is ``jax.devices("gpu")[n]``); where JAX sees no GPU, the answers and
errors are those of Paddle 3.3.1's CPU build. Two deliberate differences: ``synchronize`` waits for the queued work
on any device (Paddle's CPU build raises TypeError; here ops are recorded and run later, so waiting has a meaning
everywhere), and ``Stream``, ``Event``, ``current_stream`` and ``stream_guard`` work on any device, with one queue
per device since JAX has no user streams (see ``_streams``).
"""

from .._api.namespace_extras import BFloat16Tensor as BFloat16Tensor
from .._api.namespace_extras import BoolTensor as BoolTensor
from .._api.namespace_extras import ByteTensor as ByteTensor
from .._api.namespace_extras import CharTensor as CharTensor
from .._api.namespace_extras import DoubleTensor as DoubleTensor
from .._api.namespace_extras import FloatTensor as FloatTensor
from .._api.namespace_extras import HalfTensor as HalfTensor
from .._api.namespace_extras import IntTensor as IntTensor
from .._api.namespace_extras import LongTensor as LongTensor
from .._api.namespace_extras import ShortTensor as ShortTensor
from .._runtime.device import get_device as get_device
from .._runtime.device import is_compiled_with_cuda as is_compiled_with_cuda
from .._runtime.device import is_compiled_with_rocm as is_compiled_with_rocm
from .._runtime.device import is_compiled_with_xpu as is_compiled_with_xpu
from .._runtime.device import set_device as set_device
from . import _query
from . import cuda as cuda
from ._extras import IPUPlace as IPUPlace
from ._extras import XPUPlace as XPUPlace
from ._extras import get_stream_from_external as get_stream_from_external
from ._extras import ipc_collect as ipc_collect
from ._extras import is_bf16_supported as is_bf16_supported
from ._extras import is_current_stream_capturing as is_current_stream_capturing
from ._query import current_device as current_device
from ._query import device as device
from ._query import device_count as device_count
from ._query import device_guard as device_guard
from ._query import empty_cache as empty_cache
from ._query import get_all_custom_device_type as get_all_custom_device_type
from ._query import get_all_device_type as get_all_device_type
from ._query import get_available_custom_device as get_available_custom_device
from ._query import get_available_device as get_available_device
from ._query import get_cudnn_version as get_cudnn_version
from ._query import get_rng_state as get_rng_state
from ._query import is_available as is_available
from ._query import is_compiled_with_cinn as is_compiled_with_cinn
from ._query import is_compiled_with_custom_device as is_compiled_with_custom_device
from ._query import is_compiled_with_distribute as is_compiled_with_distribute
from ._query import is_compiled_with_ipu as is_compiled_with_ipu
from ._query import manual_seed as manual_seed
from ._query import reset_peak_memory_stats as reset_peak_memory_stats
from ._query import set_rng_state as set_rng_state
from ._query import synchronize as synchronize
from ._streams import Event as Event
from ._streams import Stream as Stream
from ._streams import StreamContext as StreamContext
from ._streams import current_stream as current_stream
from ._streams import set_stream as set_stream
from ._streams import stream as stream
from ._streams import stream_guard as stream_guard

manual_seed_all = manual_seed  # (one generator serves every device)
_memory = _query.memory_functions("paddle.device")
memory_allocated = _memory["memory_allocated"]
memory_reserved = _memory["memory_reserved"]
max_memory_allocated = _memory["max_memory_allocated"]
max_memory_reserved = _memory["max_memory_reserved"]
reset_max_memory_allocated = _memory["reset_max_memory_allocated"]
reset_max_memory_reserved = _memory["reset_max_memory_reserved"]
_properties = _query.property_functions("paddle.device")
get_device_properties = _properties["get_device_properties"]
get_device_name = _properties["get_device_name"]
get_device_capability = _properties["get_device_capability"]

__all__ = [
    "get_cudnn_version", "set_device", "get_device", "is_compiled_with_xpu", "is_compiled_with_ipu",
    "is_compiled_with_cinn", "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_distribute",
    "is_compiled_with_custom_device", "get_all_device_type", "get_all_custom_device_type", "get_available_device",
    "get_available_custom_device", "get_device_properties", "Stream", "Event", "current_stream", "set_stream",
    "stream_guard", "device", "device_guard", "synchronize", "device_count", "empty_cache", "max_memory_allocated",
    "max_memory_reserved", "reset_max_memory_allocated", "reset_max_memory_reserved", "memory_allocated",
    "memory_reserved", "is_available", "get_device_name", "get_device_capability", "get_rng_state",
    "set_rng_state", "manual_seed", "reset_peak_memory_stats", "StreamContext", "cuda",
    "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
    "IntTensor", "LongTensor", "ShortTensor", "XPUPlace", "IPUPlace", "is_bf16_supported",
    "is_current_stream_capturing", "ipc_collect", "get_stream_from_external",
]
