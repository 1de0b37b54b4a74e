"""The ``wave_backend`` of ``paddle.audio``: 16-bit PCM WAV files through Python's ``wave`` module (no other
dependency), as Paddle 3.3.1's default backend."""

from __future__ import annotations

import os
import wave
from typing import Any, BinaryIO

import jax
import numpy as np

from ..._tensor.facade import Tensor

_ONLY_PCM16 = ("only PCM16 WAV supported (the wave backend reads 16-bit PCM WAV files; other audio types need "
               "Paddle's paddleaudio package, which is not available here)")


class AudioInfo:
    """What ``info`` reports: sample_rate, num_samples (frames), num_channels, bits_per_sample, encoding."""

    def __init__(self, sample_rate: int, num_samples: int, num_channels: int, bits_per_sample: int,
                 encoding: str) -> None:
        self.sample_rate = sample_rate
        self.num_samples = num_samples
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding

    def __repr__(self) -> str:
        return (f"AudioInfo(sample_rate={self.sample_rate}, num_samples={self.num_samples}, "
                f"num_channels={self.num_channels}, bits_per_sample={self.bits_per_sample}, "
                f"encoding={self.encoding!r})")


def _open(api: str, filepath: Any) -> tuple[wave.Wave_read, BinaryIO]:
    if hasattr(filepath, "read"):
        f = filepath
    elif isinstance(filepath, str | os.PathLike):
        f = open(filepath, "rb")  # noqa: SIM115 - closed by the caller
    else:
        raise TypeError(f"{api}: filepath must be a path or a binary file object, but received "
                        f"{type(filepath).__name__}.")
    try:
        return wave.open(f), f
    except (wave.Error, EOFError) as e:
        f.close()
        raise NotImplementedError(f"{api}: {filepath!r} is not a WAV file this backend reads ({e}); {_ONLY_PCM16}.") \
            from None


def info(filepath: str | BinaryIO) -> AudioInfo:
    """The sample rate, frame count, channels and sample width of a WAV file (or file object)."""
    w, f = _open("paddle.audio.info", filepath)
    try:
        return AudioInfo(w.getframerate(), w.getnframes(), w.getnchannels(), w.getsampwidth() * 8, "PCM_S")
    finally:
        f.close()


def load(filepath: str | BinaryIO, frame_offset: int = 0, num_frames: int = -1, normalize: bool = True,
         channels_first: bool = True) -> tuple[Tensor, int]:
    """``(waveform, sample_rate)`` of a 16-bit PCM WAV file: the waveform a float32 Tensor [channels, frames]
    (``channels_first``) or [frames, channels], divided by 2**15 with ``normalize`` (else the raw sample values,
    still float32, as Paddle returns them). ``num_frames`` frames from ``frame_offset`` are kept; as in Paddle
    3.3.1, ``frame_offset`` is applied only together with a ``num_frames`` other than -1."""
    api = "paddle.audio.load"
    w, f = _open(api, filepath)
    try:
        channels, rate, frames = w.getnchannels(), w.getframerate(), w.getnframes()
        width = w.getsampwidth()
        data = w.readframes(frames)
    finally:
        f.close()
    if width != 2:
        raise NotImplementedError(f"{api}: the file holds {8 * width}-bit samples; {_ONLY_PCM16}.")
    audio = np.frombuffer(data, dtype="<i2").astype(np.float32)
    if normalize:
        audio = audio / (2 ** 15)
    audio = audio.reshape(frames, channels)
    if num_frames != -1:
        audio = audio[frame_offset:frame_offset + num_frames, :]
    if channels_first:
        audio = audio.T
    return Tensor(jax.device_put(np.ascontiguousarray(audio)), True), rate


def save(filepath: str, src: Tensor, sample_rate: int, channels_first: bool = True, encoding: str | None = None,
         bits_per_sample: int | None = 16) -> None:
    """Write a 2-D Tensor as a 16-bit PCM WAV file: float32 samples are scaled by 2**15 (and wrap outside
    [-1, 1), as in Paddle), int16 samples are written as they are. ``channels_first``: ``src`` is [channels, time],
    else [time, channels]."""
    api = "paddle.audio.save"
    if not isinstance(src, Tensor) or src.ndim != 2:
        raise ValueError(f"{api}: src must be a 2-D Tensor ([channels, time] or [time, channels]), but received "
                         f"{getattr(src, 'shape', type(src).__name__)}.")
    if bits_per_sample not in (None, 16):
        raise ValueError(f"{api}: Invalid bits_per_sample {bits_per_sample}, only support 16 bit (PCM16).")
    if encoding not in (None, "PCM_S", "PCM_16"):
        raise NotImplementedError(f"{api}: encoding={encoding!r} is not supported; the wave backend writes 16-bit PCM "
                                  "(encoding None or 'PCM_S').")
    audio = np.asarray(src.numpy())
    if channels_first:
        audio = audio.T
    if audio.dtype == np.float32:
        audio = (audio * (2 ** 15)).astype("<i2")
    elif audio.dtype != np.int16:
        raise TypeError(f"{api}: src must be float32 (samples in [-1, 1)) or int16, but received {audio.dtype}; cast "
                        "it first.")
    with wave.open(os.fspath(filepath), "w") as out:
        out.setnchannels(audio.shape[1])
        out.setsampwidth(2)
        out.setframerate(sample_rate)
        out.writeframes(np.ascontiguousarray(audio).astype("<i2").tobytes())
