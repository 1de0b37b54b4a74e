"""``paddle.signal`` import path: re-exports (layer L7)."""

from ._api.signal import frame as frame
from ._api.signal import istft as istft
from ._api.signal import overlap_add as overlap_add
from ._api.signal import stft as stft

__all__ = ["stft", "istft"]
