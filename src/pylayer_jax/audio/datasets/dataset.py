"""The base of the audio classification sets: a list of WAV files with labels, an item the chosen feature of one
file's waveform and its label (layer L8)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from ..._tensor.facade import to_tensor
from ...io import Dataset
from ..backends.wave_backend import load
from ..features import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram


def _data_home() -> str:
    home = os.path.expanduser("~")
    return os.path.join(home if home != "~" else tempfile.gettempdir(), ".cache", "paddle", "dataset")


DATA_HOME = _data_home()

feat_funcs: dict[str, Any] = {
    "raw": None,
    "melspectrogram": MelSpectrogram,
    "mfcc": MFCC,
    "logmelspectrogram": LogMelSpectrogram,
    "spectrogram": Spectrogram,
}


def missing(api: str, what: str, where: str) -> FileNotFoundError:
    return FileNotFoundError(
        f"{api}: {where!r} is missing, and pylayer_jax does not download data sets (no network access is assumed); "
        f"download and extract the {what} there yourself (Paddle's DATA_HOME), or set the module's DATA_HOME to the "
        "folder that holds it.")


class AudioClassificationDataset(Dataset):
    """Audio files with labels: an item is ``(feat, label)``, ``feat`` the file's mono waveform as a float32
    Tensor [T] (``feat_type='raw'``) or the feature layer of ``feat_type`` built with the file's sample rate and
    the keyword arguments given (``feat_config``) applied to it, ``label`` an int."""

    def __init__(self, files: list[str], labels: list[int], feat_type: str = "raw", sample_rate: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__()
        if feat_type not in feat_funcs:
            raise RuntimeError(f"{type(self).__name__}: unknown feat_type {feat_type!r}; it must be one of "
                               f"{list(feat_funcs)}.")
        self.files = files
        self.labels = labels
        self.feat_type = feat_type
        self.sample_rate = sample_rate
        self.feat_config = kwargs

    def _convert_to_record(self, idx: int) -> dict[str, Any]:
        waveform, sample_rate = load(self.files[idx])
        self.sample_rate = sample_rate
        if len(waveform.shape) == 2:
            waveform = waveform.squeeze(0)
        waveform = to_tensor(waveform, dtype="float32")
        feat_func = feat_funcs[self.feat_type]
        if feat_func is None:
            feat = waveform
        else:
            config = dict(self.feat_config) if self.feat_type == "spectrogram" else {"sr": sample_rate,
                                                                                    **self.feat_config}
            feat = feat_func(**config)(waveform.unsqueeze(0)).squeeze(0)
        return {"feat": feat, "label": self.labels[idx]}

    def __getitem__(self, idx: int) -> tuple[Any, int]:
        record = self._convert_to_record(idx)
        return record["feat"], record["label"]

    def __len__(self) -> int:
        return len(self.files)
