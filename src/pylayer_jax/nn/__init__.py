"""``paddle.nn`` import path (layer L7): ``pylayer_jax.nn.functional``, layers, initializers."""

# gradient clipping
from . import clip as clip
from . import functional as functional
from . import initializer as initializer
from . import layer as layer
from .clip import ClipGradByGlobalNorm as ClipGradByGlobalNorm
from .clip import ClipGradByNorm as ClipGradByNorm
from .clip import ClipGradByValue as ClipGradByValue
from .layer._common import Flatten as Flatten
from .layer._common import Identity as Identity
from .layer._common import Linear as Linear
from .layer._container import LayerDict as LayerDict
from .layer._container import LayerList as LayerList
from .layer._container import ModuleDict as ModuleDict
from .layer._container import ModuleList as ModuleList
from .layer._container import ParameterDict as ParameterDict
from .layer._container import ParameterList as ParameterList
from .layer._container import Sequential as Sequential
from .layer._layers import Layer as Layer
from .layer._layers import Module as Module
from .layer._param import Parameter as Parameter
from .layer._rnn import GRU as GRU
from .layer._rnn import LSTM as LSTM
from .layer._rnn import RNN as RNN
from .layer._rnn import BiRNN as BiRNN
from .layer._rnn import GRUCell as GRUCell
from .layer._rnn import LSTMCell as LSTMCell
from .layer._rnn import RNNCellBase as RNNCellBase
from .layer._rnn import SimpleRNN as SimpleRNN
from .layer._rnn import SimpleRNNCell as SimpleRNNCell
from .layer._transformer import MultiHeadAttention as MultiHeadAttention
from .layer._transformer import Transformer as Transformer
from .layer._transformer import TransformerDecoder as TransformerDecoder
from .layer._transformer import TransformerDecoderLayer as TransformerDecoderLayer
from .layer._transformer import TransformerEncoder as TransformerEncoder
from .layer._transformer import TransformerEncoderLayer as TransformerEncoderLayer
