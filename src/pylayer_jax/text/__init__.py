"""``paddle.text``: Viterbi decoding and the text data sets (loaded on first use of ``pylayer_jax.text``)."""

from . import datasets as datasets
from ._viterbi import ViterbiDecoder as ViterbiDecoder
from ._viterbi import viterbi_decode as viterbi_decode
from .datasets import WMT14 as WMT14
from .datasets import WMT16 as WMT16
from .datasets import Conll05st as Conll05st
from .datasets import Imdb as Imdb
from .datasets import Imikolov as Imikolov
from .datasets import Movielens as Movielens
from .datasets import UCIHousing as UCIHousing

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16", "ViterbiDecoder",
           "viterbi_decode"]
