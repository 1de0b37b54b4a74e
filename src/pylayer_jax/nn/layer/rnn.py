"""``paddle.nn.layer.rnn`` import path: re-exports."""

from ._rnn import GRU as GRU
from ._rnn import LSTM as LSTM
from ._rnn import RNN as RNN
from ._rnn import BiRNN as BiRNN
from ._rnn import GRUCell as GRUCell
from ._rnn import LSTMCell as LSTMCell
from ._rnn import RNNBase as RNNBase
from ._rnn import RNNCellBase as RNNCellBase
from ._rnn import SimpleRNN as SimpleRNN
from ._rnn import SimpleRNNCell as SimpleRNNCell
