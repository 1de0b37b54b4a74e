"""``paddle.audio.features``: spectrogram layers of waveforms."""

from .layers import MFCC as MFCC
from .layers import LogMelSpectrogram as LogMelSpectrogram
from .layers import MelSpectrogram as MelSpectrogram
from .layers import Spectrogram as Spectrogram

__all__ = ["LogMelSpectrogram", "MelSpectrogram", "MFCC", "Spectrogram"]
