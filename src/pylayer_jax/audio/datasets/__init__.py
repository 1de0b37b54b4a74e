"""``paddle.audio.datasets``: the ESC50 and TESS sound classification sets from their extracted folders under
``DATA_HOME`` (``~/.cache/paddle/dataset``, where Paddle keeps them), each item a feature of the waveform
(``feat_type``: 'raw', 'melspectrogram', 'mfcc', 'logmelspectrogram' or 'spectrogram') and its label. Nothing is
downloaded: a set whose folder is missing raises, saying where to put it."""

from .esc50 import ESC50 as ESC50
from .tess import TESS as TESS

__all__ = ["ESC50", "TESS"]
