"""``paddle.callbacks``: hooks called by ``paddle.Model.fit``/``evaluate``/``predict`` (re-exports, layer L7)."""

from .hapi._callbacks import Callback as Callback
from .hapi._callbacks import EarlyStopping as EarlyStopping
from .hapi._callbacks import LRScheduler as LRScheduler
from .hapi._callbacks import ModelCheckpoint as ModelCheckpoint
from .hapi._callbacks import ProgBarLogger as ProgBarLogger
from .hapi._callbacks import ReduceLROnPlateau as ReduceLROnPlateau
from .hapi._callbacks import VisualDL as VisualDL
from .hapi._callbacks import WandbCallback as WandbCallback
