"""What the text data sets share: the no-download rule and the mode check."""

from __future__ import annotations

import os


def local_file(path: str | None, arg: str, api: str, download: bool, what: str) -> str:
    """``path`` if it names an existing file; otherwise the error saying it must be given (nothing is downloaded
    here: Paddle would fetch the file; place it yourself and pass its path)."""
    if path is None:
        if not download:
            raise ValueError(f"{api}: {arg} is not set and download=False; pass {arg}= the path of the local {what}.")
        raise RuntimeError(
            f"{api}: {arg} is not set, and pylayer_jax does not download data sets (no network access is assumed); "
            f"download the {what} yourself and pass its path as {arg}=."
        )
    if not isinstance(path, str | os.PathLike) or not os.path.isfile(path):
        raise FileNotFoundError(f"{api}: {arg}={path!r} is not an existing file; pass the path of the local {what}.")
    return os.fspath(path)


def check_mode(api: str, mode: object, allowed: tuple[str, ...]) -> str:
    """``mode`` lower-cased, if it is one of ``allowed``."""
    if not isinstance(mode, str) or mode.lower() not in allowed:
        raise ValueError(f"{api}: mode must be one of {', '.join(repr(a) for a in allowed)}, but received {mode!r}.")
    return mode.lower()


def positive(api: str, arg: str, value: object) -> int:
    if not isinstance(value, int) or value <= 0:
        raise ValueError(f"{api}: {arg} must be a positive int (the dictionary size to keep), but received {value!r}.")
    return value
