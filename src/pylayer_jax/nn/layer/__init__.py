"""``paddle.nn.layer`` import path: the Layer base, parameters, containers, leaf layers (re-exports)."""

from . import activation as activation
from . import common as common
from . import container as container
from . import distance as distance
from . import layers as layers
from . import loss as loss
from . import param as param
from . import rnn as rnn
from . import transformer as transformer
from . import vision as vision
from ._common import Flatten as Flatten
from ._common import Identity as Identity
from ._common import Linear as Linear
from ._container import LayerDict as LayerDict
from ._container import LayerList as LayerList
from ._container import ParameterDict as ParameterDict
from ._container import ParameterList as ParameterList
from ._container import Sequential as Sequential
from ._layers import Layer as Layer
