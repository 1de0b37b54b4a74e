"""``paddle.text.datasets``: Conll05st, Imdb, Imikolov, Movielens, UCIHousing, WMT14 and WMT16 from local files.
Nothing is downloaded: a data set whose file is not given raises, saying which file to pass."""

from .conll05 import Conll05st as Conll05st
from .imdb import Imdb as Imdb
from .imikolov import Imikolov as Imikolov
from .movielens import Movielens as Movielens
from .uci_housing import UCIHousing as UCIHousing
from .wmt14 import WMT14 as WMT14
from .wmt16 import WMT16 as WMT16

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16"]
