"""``paddle.nn.layer.container`` import path (re-exports)."""

from ._container import LayerDict as LayerDict
from ._container import LayerList as LayerList
from ._container import ParameterDict as ParameterDict
from ._container import ParameterList as ParameterList
from ._container import Sequential as Sequential
