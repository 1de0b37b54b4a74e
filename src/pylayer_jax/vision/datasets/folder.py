"""DatasetFolder and ImageFolder: samples found by walking a local directory."""

from __future__ import annotations

import os

import numpy as np

from ..._runtime.dtypes import get_default_dtype
from ...io import Dataset
from .. import image as _image
from ..transforms._pil_image import pil_module

__all__ = ["DatasetFolder", "ImageFolder", "IMG_EXTENSIONS", "has_valid_extension", "make_dataset"]

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename: str, extensions) -> bool:
    """Whether ``filename`` ends with one of ``extensions`` (case-insensitive)."""
    if not isinstance(extensions, (list, tuple)):
        raise TypeError(f"paddle.vision.datasets: extensions must be a list or tuple; got {type(extensions).__name__}.")
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def make_dataset(dir: str, class_to_idx: dict, extensions, is_valid_file=None) -> list[tuple[str, int]]:
    """(path, class index) of each valid file under each class folder, in sorted order."""
    images = []
    dir = os.path.expanduser(dir)
    if extensions is not None:
        def is_valid_file(x):
            return has_valid_extension(x, extensions)
    for target in sorted(class_to_idx):
        d = os.path.join(dir, target)
        if not os.path.isdir(d):
            continue
        for root, _, fnames in sorted(os.walk(d, followlinks=True)):
            for fname in sorted(fnames):
                path = os.path.join(root, fname)
                if is_valid_file(path):
                    images.append((path, class_to_idx[target]))
    return images


def pil_loader(path: str):
    """The image at ``path`` as an RGB PIL image (needs Pillow)."""
    Image = pil_module()
    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


def cv2_loader(path: str) -> np.ndarray:
    """The image at ``path`` as an RGB uint8 HWC array (decoded with Pillow here, where Paddle uses OpenCV)."""
    return np.asarray(pil_loader(path))


def default_loader(path: str):
    """``cv2_loader`` when the image backend is 'cv2', else ``pil_loader``."""
    return cv2_loader(path) if _image.get_image_backend() == "cv2" else pil_loader(path)


def _check_root(root, api: str) -> None:
    if not isinstance(root, (str, os.PathLike)) or not os.path.isdir(os.path.expanduser(root)):
        raise FileNotFoundError(f"{api}: root={root!r} is not an existing directory.")


class DatasetFolder(Dataset):
    """Samples in class folders: ``root/<class>/**/<file>``; an item is (loader(path) after ``transform``,
    class index). Classes are the sorted sub-directory names. ``loader`` decodes a file (default: by the image
    backend; ``numpy.load`` with ``extensions=('.npy',)`` reads arrays); ``is_valid_file`` replaces the extension
    test when ``extensions`` is None."""

    def __init__(self, root: str, loader=None, extensions=None, transform=None, is_valid_file=None) -> None:
        api = "paddle.vision.datasets.DatasetFolder"
        _check_root(root, api)
        self.root = root
        self.transform = transform
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        classes, class_to_idx = self._find_classes(self.root)
        samples = make_dataset(self.root, class_to_idx, extensions, is_valid_file)
        if not samples:
            raise RuntimeError(f"{api}: found no valid files in the subfolders of {self.root!r}; supported "
                               f"extensions: {','.join(extensions or ())}.")
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]
        self.dtype = get_default_dtype()

    def _find_classes(self, dir: str):
        classes = sorted(d.name for d in os.scandir(dir) if d.is_dir())
        return classes, {c: i for i, c in enumerate(classes)}

    def __getitem__(self, index: int):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self) -> int:
        return len(self.samples)


class ImageFolder(Dataset):
    """Every valid file under ``root`` (recursively, sorted); an item is [loader(path) after ``transform``]."""

    def __init__(self, root: str, loader=None, extensions=None, transform=None, is_valid_file=None) -> None:
        api = "paddle.vision.datasets.ImageFolder"
        _check_root(root, api)
        self.root = root
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        if extensions is not None:
            def is_valid_file(x):
                return has_valid_extension(x, extensions)
        samples = []
        for dirpath, _, fnames in sorted(os.walk(os.path.expanduser(root), followlinks=True)):
            for fname in sorted(fnames):
                f = os.path.join(dirpath, fname)
                if is_valid_file(f):
                    samples.append(f)
        if not samples:
            raise RuntimeError(f"{api}: found no valid files under {self.root!r}; supported extensions: "
                               f"{','.join(extensions or ())}.")
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.samples = samples
        self.transform = transform

    def __getitem__(self, index: int):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self) -> int:
        return len(self.samples)
