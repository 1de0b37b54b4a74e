"""``paddle.nn.layer.transformer`` import path: re-exports."""

from ._transformer import MultiHeadAttention as MultiHeadAttention
from ._transformer import Transformer as Transformer
from ._transformer import TransformerDecoder as TransformerDecoder
from ._transformer import TransformerDecoderLayer as TransformerDecoderLayer
from ._transformer import TransformerEncoder as TransformerEncoder
from ._transformer import TransformerEncoderLayer as TransformerEncoderLayer
