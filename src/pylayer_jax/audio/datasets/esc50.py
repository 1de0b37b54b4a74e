"""ESC-50 (environmental sound classification, 2000 five-second clips in 50 classes, five folds) from the extracted
``ESC-50-master`` folder under ``DATA_HOME``."""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from . import dataset as _dataset
from .dataset import AudioClassificationDataset

DATA_HOME = _dataset.DATA_HOME  # (where the set is looked for; set it to use another folder, as in Paddle)

__all__ = ["ESC50"]


class ESC50(AudioClassificationDataset):
    """ESC-50 from ``DATA_HOME/ESC-50-master`` (``meta/esc50.csv`` and the ``audio/*.wav`` clips it lists).
    ``mode='train'`` takes the clips of every fold but ``split`` (1 to 5), any other mode those of fold ``split``.
    An item is ``(feat, label)``: see ``feat_type`` (the keyword arguments configure the feature layer) and the
    int target of the csv. ``archive`` (Paddle's download address) is kept but never fetched: without the folder it
    raises."""

    archive: dict[str, str] = {
        "url": "https://paddleaudio.bj.bcebos.com/datasets/ESC-50-master.zip",
        "md5": "7771e4b9d86d0945acce719c7a59305a",
    }
    label_list: list[str] = [
        "Dog", "Rooster", "Pig", "Cow", "Frog", "Cat", "Hen", "Insects (flying)", "Sheep", "Crow",
        "Rain", "Sea waves", "Crackling fire", "Crickets", "Chirping birds", "Water drops", "Wind", "Pouring water",
        "Toilet flush", "Thunderstorm",
        "Crying baby", "Sneezing", "Clapping", "Breathing", "Coughing", "Footsteps", "Laughing", "Brushing teeth",
        "Snoring", "Drinking, sipping",
        "Door knock", "Mouse click", "Keyboard typing", "Door, wood creaks", "Can opening", "Washing machine",
        "Vacuum cleaner", "Clock alarm", "Clock tick", "Glass breaking",
        "Helicopter", "Chainsaw", "Siren", "Car horn", "Engine", "Train", "Church bells", "Airplane", "Fireworks",
        "Hand saw",
    ]
    meta: str = os.path.join("ESC-50-master", "meta", "esc50.csv")
    audio_path: str = os.path.join("ESC-50-master", "audio")

    class meta_info(NamedTuple):
        filename: str
        fold: str
        target: str
        category: str
        esc10: str
        src_file: str
        take: str

    def __init__(self, mode: str = "train", split: int = 1, feat_type: str = "raw",
                 archive: dict[str, str] | None = None, **kwargs: Any) -> None:
        if isinstance(split, bool) or split not in range(1, 6):
            raise ValueError(f"ESC50: split should be an integer with 1 <= split <= 5, but got {split!r}.")
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self) -> list[meta_info]:
        with open(os.path.join(DATA_HOME, self.meta)) as rf:
            return [self.meta_info(*line.strip().split(",")) for line in rf.readlines()[1:]]

    def _get_data(self, mode: str, split: int) -> tuple[list[str], list[int]]:
        if not os.path.isdir(os.path.join(DATA_HOME, self.audio_path)) or not os.path.isfile(
                os.path.join(DATA_HOME, self.meta)):
            raise _dataset.missing("ESC50", f"ESC-50 archive ({self.archive['url']})",
                                   os.path.join(DATA_HOME, "ESC-50-master"))
        files, labels = [], []
        for sample in self._get_meta_info():
            if (int(sample.fold) != split) == (mode == "train"):
                files.append(os.path.join(DATA_HOME, self.audio_path, sample.filename))
                labels.append(int(sample.target))
        return files, labels
