"""``paddle.amp`` import path (layer L7): mixed precision as Paddle 3.3.1 runs it on a CPU, off (``_auto_cast``,
``_grad_scaler``)."""

from ._auto_cast import amp_guard as amp_guard
from ._auto_cast import auto_cast as auto_cast
from ._auto_cast import autocast as autocast
from ._auto_cast import decorate as decorate
from ._auto_cast import get_autocast_cpu_dtype as get_autocast_cpu_dtype
from ._auto_cast import get_autocast_dtype as get_autocast_dtype
from ._auto_cast import get_autocast_gpu_dtype as get_autocast_gpu_dtype
from ._auto_cast import is_autocast_enabled as is_autocast_enabled
from ._auto_cast import is_bfloat16_supported as is_bfloat16_supported
from ._auto_cast import is_float16_supported as is_float16_supported
from ._grad_scaler import AmpScaler as AmpScaler
from ._grad_scaler import GradScaler as GradScaler

amp_decorate = decorate
