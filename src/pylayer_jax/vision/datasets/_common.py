"""What the dataset classes share: the no-download rule and the backend check."""

from __future__ import annotations

import os

from .. import image as _image


def local_file(path: str | None, arg: str, api: str, download: bool, what: str) -> str:
    """``path`` if it names an existing file; otherwise the error saying it must be given (nothing is downloaded
    here)."""
    if path is None:
        if not download:
            raise ValueError(
                f"{api}: {arg} is not set and download=False; pass {arg}= the path of the local {what}."
            )
        raise RuntimeError(
            f"{api}: {arg} is not set, and pylayer_jax does not download data sets (no network access is assumed); "
            f"download the {what} yourself and pass its path as {arg}=."
        )
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{api}: {arg}={path!r} is not an existing file; pass the path of the local {what}.")
    return path


def backend_of(backend: str | None, api: str) -> str:
    if backend is None:
        backend = _image.get_image_backend()
    if backend not in ("pil", "cv2"):
        raise ValueError(f"{api}: backend must be 'pil' or 'cv2'; got {backend!r}.")
    return backend
