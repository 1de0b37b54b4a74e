"""TESS (Toronto emotional speech set: 2800 recordings of 200 words in 7 emotions) from the extracted
``TESS_Toronto_emotional_speech_set`` folder under ``DATA_HOME``."""

from __future__ import annotations

import os
from typing import Any, NamedTuple

from . import dataset as _dataset
from .dataset import AudioClassificationDataset

DATA_HOME = _dataset.DATA_HOME  # (where the set is looked for; set it to use another folder, as in Paddle)

__all__ = ["TESS"]


class TESS(AudioClassificationDataset):
    """TESS from ``DATA_HOME/TESS_Toronto_emotional_speech_set``: every ``.wav`` below it, named
    ``{speaker}_{word}_{emotion}.wav``, labelled by the emotion's place in ``label_list``. File ``i`` (in the order
    found) is in fold ``i % n_folds + 1``; ``mode='train'`` takes every fold but ``split``, any other mode fold
    ``split``. The folders and files are walked in sorted order (Paddle takes the file system's order, which differs
    between machines). ``archive`` (Paddle's download address) is kept but never fetched."""

    archive: dict[str, str] = {
        "url": "https://bj.bcebos.com/paddleaudio/datasets/TESS_Toronto_emotional_speech_set.zip",
        "md5": "1465311b24d1de704c4c63e4ccc470c7",
    }
    label_list: list[str] = ["angry", "disgust", "fear", "happy", "neutral", "ps", "sad"]
    audio_path: str = "TESS_Toronto_emotional_speech_set"

    class meta_info(NamedTuple):
        speaker: str
        word: str
        emotion: str

    def __init__(self, mode: str = "train", n_folds: int = 5, split: int = 1, feat_type: str = "raw",
                 archive: dict[str, str] | None = None, **kwargs: Any) -> None:
        if isinstance(n_folds, bool) or not isinstance(n_folds, int) or n_folds < 1:
            raise ValueError(f"TESS: n_folds should be an integer >= 1, but got {n_folds!r}.")
        if isinstance(split, bool) or split not in range(1, n_folds + 1):
            raise ValueError(f"TESS: split should be an integer with 1 <= split <= n_folds ({n_folds}), but got "
                             f"{split!r}.")
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, n_folds, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _get_meta_info(self, files: list[str]) -> list[meta_info]:
        out = []
        for file in files:
            parts = os.path.basename(file)[:-4].split("_")
            if len(parts) != 3:
                raise ValueError(f"TESS: {file!r} is not named speaker_word_emotion.wav; the set's files are.")
            out.append(self.meta_info(*parts))
        return out

    def _get_data(self, mode: str, n_folds: int, split: int) -> tuple[list[str], list[int]]:
        root = os.path.join(DATA_HOME, self.audio_path)
        if not os.path.isdir(root):
            raise _dataset.missing("TESS", f"TESS archive ({self.archive['url']})", root)
        wav_files = []
        for folder, dirs, names in os.walk(root):
            dirs.sort()
            wav_files.extend(os.path.join(folder, n) for n in sorted(names) if n.endswith(".wav"))
        files, labels = [], []
        for idx, sample in enumerate(self._get_meta_info(wav_files)):
            if sample.emotion not in self.label_list:
                raise ValueError(f"TESS: {wav_files[idx]!r} has the emotion {sample.emotion!r}, which is none of "
                                 f"{self.label_list}.")
            if (idx % n_folds + 1 != split) == (mode == "train"):
                files.append(wav_files[idx])
                labels.append(self.label_list.index(sample.emotion))
        return files, labels
