"""``paddle.hapi.callbacks`` (re-exports, layer L7)."""

from ._callbacks import Callback as Callback
from ._callbacks import CallbackList as CallbackList
from ._callbacks import EarlyStopping as EarlyStopping
from ._callbacks import LRScheduler as LRScheduler
from ._callbacks import ModelCheckpoint as ModelCheckpoint
from ._callbacks import ProgBarLogger as ProgBarLogger
from ._callbacks import ReduceLROnPlateau as ReduceLROnPlateau
from ._callbacks import VisualDL as VisualDL
from ._callbacks import WandbCallback as WandbCallback
from ._callbacks import config_callbacks as config_callbacks
