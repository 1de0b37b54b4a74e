"""``paddle.callbacks``: hooks called by ``paddle.Model.fit``/``evaluate``/``predict`` (re-exports, layer L7)."""

from .hapi.callbacks import Callback as Callback
from .hapi.callbacks import EarlyStopping as EarlyStopping
from .hapi.callbacks import LRScheduler as LRScheduler
from .hapi.callbacks import ModelCheckpoint as ModelCheckpoint
from .hapi.callbacks import ProgBarLogger as ProgBarLogger
from .hapi.callbacks import ReduceLROnPlateau as ReduceLROnPlateau
from .hapi.callbacks import VisualDL as VisualDL
from .hapi.callbacks import WandbCallback as WandbCallback
