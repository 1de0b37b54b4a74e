"""``paddle.hapi``: the high-level API (``Model``, callbacks, ``summary``), re-exported (layer L7)."""

from . import callbacks as callbacks
from . import model as model
from . import model_summary as model_summary
from . import progressbar as progressbar
from ._flops import flops as flops
from ._model import Model as Model
from ._summary import summary as summary
