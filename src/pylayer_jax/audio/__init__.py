"""``paddle.audio``: audio features over ``paddle.signal.stft`` (``features``), their building blocks
(``functional``), 16-bit PCM WAV input/output (``load``, ``save``, ``info``) and the ESC50 / TESS sets from local
folders (``datasets``); loaded on first use of ``pylayer_jax.audio``."""

from . import backends as backends
from . import datasets as datasets
from . import features as features
from . import functional as functional
from .backends.wave_backend import info as info
from .backends.wave_backend import load as load
from .backends.wave_backend import save as save

__all__ = ["functional", "features", "datasets", "backends", "load", "info", "save"]
