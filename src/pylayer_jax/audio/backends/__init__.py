"""``paddle.audio.backends``: the audio file backends. Only ``wave_backend`` (16-bit PCM WAV through Python's
``wave`` module) is available: Paddle's other backends come from its paddleaudio package."""

from __future__ import annotations

from . import wave_backend as wave_backend
from .wave_backend import AudioInfo as AudioInfo

__all__ = ["get_current_backend", "list_available_backends", "set_backend"]


def list_available_backends() -> list[str]:
    """``['wave_backend']``: the one backend here."""
    return ["wave_backend"]


def get_current_backend() -> str:
    """``'wave_backend'``."""
    return "wave_backend"


def set_backend(backend_name: str) -> None:
    """Only ``'wave_backend'`` can be set (it is already the backend); any other name raises, as in Paddle when
    the backend is not installed."""
    if backend_name != "wave_backend":
        raise NotImplementedError(f"paddle.audio.backends.set_backend: the backend {backend_name!r} is not available "
                                  "(it comes from Paddle's paddleaudio package); the available backends are "
                                  "['wave_backend'].")
