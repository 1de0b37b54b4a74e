"""``paddle.audio.features``: Spectrogram, MelSpectrogram, LogMelSpectrogram and MFCC layers over
``paddle.signal.stft`` (differentiable in the waveform). Their window, filter bank and DCT matrix are persistable
buffers under Paddle's names (``fft_window``, ``fbank_matrix``, ``dct_matrix``)."""

from __future__ import annotations

from typing import Any

from ..._api import functional as F
from ..._api.signal import stft
from ..._tensor.facade import Tensor
from ...nn.layer._layers import Layer
from ..functional.functional import compute_fbank_matrix, create_dct, power_to_db
from ..functional.window import get_window


class Spectrogram(Layer):
    """``|stft(x)| ** power`` of waveforms [N, T] -> [N, n_fft // 2 + 1, frames], with the window ``window`` of
    ``win_length`` (default ``n_fft``) samples in ``dtype``."""

    def __init__(self, n_fft: int = 512, hop_length: int | None = 512, win_length: int | None = None,
                 window: str = "hann", power: float = 1.0, center: bool = True, pad_mode: str = "reflect",
                 dtype: str = "float32") -> None:
        super().__init__()
        if not power > 0:
            raise ValueError(f"paddle.audio.features.Spectrogram: Power of spectrogram must be > 0, but received "
                             f"{power}.")
        self.power = power
        if win_length is None:
            win_length = n_fft
        self.register_buffer("fft_window", get_window(window, win_length, fftbins=True, dtype=dtype))
        self._stft_args: dict[str, Any] = {"n_fft": n_fft, "hop_length": hop_length, "win_length": win_length,
                                           "center": center, "pad_mode": pad_mode}

    def forward(self, x: Tensor) -> Tensor:
        """Spectrograms [N, n_fft // 2 + 1, frames] of waveforms [N, T]."""
        return F.pow(F.abs(stft(x, window=self.fft_window, **self._stft_args)), self.power)


class MelSpectrogram(Layer):
    """The spectrogram mapped by the mel filter bank ``compute_fbank_matrix(sr, n_fft, n_mels, f_min, f_max, htk,
    norm)``: [N, T] -> [N, n_mels, frames] (``f_max`` None: ``sr // 2``)."""

    def __init__(self, sr: int = 22050, n_fft: int = 2048, hop_length: int | None = 512, win_length: int | None = None,
                 window: str = "hann", power: float = 2.0, center: bool = True, pad_mode: str = "reflect",
                 n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None, htk: bool = False,
                 norm: str | float = "slaney", dtype: str = "float32") -> None:
        super().__init__()
        self._spectrogram = Spectrogram(n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window,
                                        power=power, center=center, pad_mode=pad_mode, dtype=dtype)
        self.n_mels, self.f_min, self.f_max, self.htk, self.norm = n_mels, f_min, f_max, htk, norm
        self.register_buffer("fbank_matrix", compute_fbank_matrix(
            sr=sr, n_fft=n_fft, n_mels=n_mels, f_min=f_min, f_max=sr // 2 if f_max is None else f_max, htk=htk,
            norm=norm, dtype=dtype))

    def forward(self, x: Tensor) -> Tensor:
        """Mel spectrograms [N, n_mels, frames] of waveforms [N, T]."""
        return F.matmul(self.fbank_matrix, self._spectrogram(x))


class LogMelSpectrogram(Layer):
    """``power_to_db`` of the mel spectrogram (``ref_value``, ``amin``, ``top_db`` as there; top_db defaults to
    None here, as in Paddle)."""

    def __init__(self, sr: int = 22050, n_fft: int = 512, hop_length: int | None = None, win_length: int | None = None,
                 window: str = "hann", power: float = 2.0, center: bool = True, pad_mode: str = "reflect",
                 n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None, htk: bool = False,
                 norm: str | float = "slaney", ref_value: float = 1.0, amin: float = 1e-10,
                 top_db: float | None = None, dtype: str = "float32") -> None:
        super().__init__()
        self._melspectrogram = MelSpectrogram(sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                                              window=window, power=power, center=center, pad_mode=pad_mode,
                                              n_mels=n_mels, f_min=f_min, f_max=f_max, htk=htk, norm=norm,
                                              dtype=dtype)
        self.ref_value, self.amin, self.top_db = ref_value, amin, top_db

    def forward(self, x: Tensor) -> Tensor:
        """Log-mel spectrograms [N, n_mels, frames] of waveforms [N, T]."""
        return power_to_db(self._melspectrogram(x), ref_value=self.ref_value, amin=self.amin, top_db=self.top_db)


class MFCC(Layer):
    """Mel-frequency cepstral coefficients: the orthonormal DCT of the log-mel spectrogram over the mel axis,
    [N, T] -> [N, n_mfcc, frames] (``n_mfcc <= n_mels``)."""

    def __init__(self, sr: int = 22050, n_mfcc: int = 40, n_fft: int = 512, hop_length: int | None = None,
                 win_length: int | None = None, window: str = "hann", power: float = 2.0, center: bool = True,
                 pad_mode: str = "reflect", n_mels: int = 64, f_min: float = 50.0, f_max: float | None = None,
                 htk: bool = False, norm: str | float = "slaney", ref_value: float = 1.0, amin: float = 1e-10,
                 top_db: float | None = None, dtype: str = "float32") -> None:
        super().__init__()
        if n_mfcc > n_mels:
            raise ValueError(f"paddle.audio.features.MFCC: n_mfcc cannot be larger than n_mels: {n_mfcc} vs {n_mels}.")
        self._log_melspectrogram = LogMelSpectrogram(
            sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window, power=power,
            center=center, pad_mode=pad_mode, n_mels=n_mels, f_min=f_min, f_max=f_max, htk=htk, norm=norm,
            ref_value=ref_value, amin=amin, top_db=top_db, dtype=dtype)
        self.register_buffer("dct_matrix", create_dct(n_mfcc=n_mfcc, n_mels=n_mels, dtype=dtype))

    def forward(self, x: Tensor) -> Tensor:
        """MFCCs [N, n_mfcc, frames] of waveforms [N, T]."""
        log_mel = self._log_melspectrogram(x)
        return F.matmul(log_mel.transpose((0, 2, 1)), self.dct_matrix).transpose((0, 2, 1))
