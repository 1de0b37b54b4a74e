"""``paddle.nn.decode`` import path (re-exports)."""

from .layer._decode import BeamSearchDecoder as BeamSearchDecoder
from .layer._decode import Decoder as Decoder
from .layer._decode import dynamic_decode as dynamic_decode
