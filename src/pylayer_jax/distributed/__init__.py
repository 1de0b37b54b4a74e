"""``paddle.distributed`` import path (layer L7): one process (``_parallel``); ``fleet``'s gradient checkpointing."""

from . import fleet as fleet
from ._parallel import DataParallel as DataParallel
from ._parallel import all_gather as all_gather
from ._parallel import all_reduce as all_reduce
from ._parallel import barrier as barrier
from ._parallel import broadcast as broadcast
from ._parallel import get_rank as get_rank
from ._parallel import get_world_size as get_world_size
from ._parallel import init_parallel_env as init_parallel_env
from ._parallel import is_available as is_available
from ._parallel import is_initialized as is_initialized
from ._parallel import reduce as reduce
