"""``paddle.utils.download``: files that Paddle downloads (pretrained weights, data sets), taken from where Paddle
caches them (layer L5).

This package downloads nothing (it runs where there may be no network). ``get_path_from_url(url, root_dir)`` looks
for the file at the path Paddle would have saved it to, ``root_dir/<the url's last part>``, checks its md5 sum when
one is given, unpacks a tar or zip archive next to it as Paddle does, and returns the path; a missing file (or one
whose md5 sum differs) raises RuntimeError saying where to put it. ``get_weights_path_from_url`` does this in
Paddle's weights cache, ``~/.cache/paddle/hapi/weights``, so weights that Paddle downloaded are found.
"""

from __future__ import annotations

import hashlib
import os
import os.path as osp
import tarfile
import zipfile
from pathlib import PurePath

__all__ = ["get_weights_path_from_url"]

WEIGHTS_HOME = osp.expanduser("~/.cache/paddle/hapi/weights")


def is_url(path: str) -> bool:
    """Whether ``path`` is an http(s) URL."""
    return path.startswith("http://") or path.startswith("https://")


def get_weights_path_from_url(url: str, md5sum: str | None = None) -> str:
    """The local path of the weights file ``url`` names, in Paddle's weights cache (``WEIGHTS_HOME``).

    >>> import os
    >>> from pylayer_jax.utils.download import WEIGHTS_HOME
    >>> os.path.relpath(WEIGHTS_HOME, os.path.expanduser("~"))
    '.cache/paddle/hapi/weights'
    """
    return get_path_from_url(url, WEIGHTS_HOME, md5sum)


def _md5_ok(path: str, md5sum: str | None) -> bool:
    if md5sum is None:
        return True
    h = hashlib.md5()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest() == md5sum


def get_path_from_url(url: str, root_dir: str, md5sum: str | None = None, check_exist: bool = True,
                      decompress: bool = True, method: str = "get") -> str:
    """The local path of the file ``url`` names under ``root_dir`` (``root_dir/<the url's last part>``), unpacked
    when it is a tar or zip archive and ``decompress``; raises RuntimeError when it is not there (nothing is
    downloaded: put the file there yourself), and for ``check_exist=False`` (which asks for a new download)."""
    if not isinstance(url, str) or not is_url(url):
        raise ValueError(f"get_path_from_url: url must be an http:// or https:// URL, but received {url!r}.")
    if method not in ("get", "wget"):
        raise ValueError(f"get_path_from_url: method must be 'get' or 'wget', but received {method!r}.")
    fullpath = osp.join(root_dir, osp.split(url)[-1])
    if not check_exist:
        raise RuntimeError(
            f"get_path_from_url: check_exist=False asks for a fresh download of {url}, which pylayer_jax cannot make "
            f"(it downloads nothing); pass check_exist=True to use the file cached at {fullpath}."
        )
    if not osp.isfile(fullpath):
        raise RuntimeError(
            f"get_path_from_url: {url} is not in the local cache: no file at {fullpath}. pylayer_jax downloads "
            f"nothing; download the file yourself and save it at that path (where Paddle would have saved it)."
        )
    if not _md5_ok(fullpath, md5sum):
        raise RuntimeError(
            f"get_path_from_url: the cached file {fullpath} does not have the md5 sum {md5sum} given for {url}; it "
            f"may be incomplete or another version. Download it again and replace that file (pylayer_jax downloads "
            f"nothing)."
        )
    if decompress and (tarfile.is_tarfile(fullpath) or zipfile.is_zipfile(fullpath)):
        return _unpack(fullpath)
    return fullpath


def _top_dirs(names: list[str]) -> set[str]:
    return {PurePath(n.replace("\\", "/")).parts[0] for n in names if n.strip("/")}


def _target(path: str, names: list[str]) -> tuple[str, str]:
    """Where an archive's members go and the path returned, as Paddle decides: one file -> next to the archive,
    that file; one top directory -> next to the archive, that directory; else a directory named after the
    archive (its name without the last extension)."""
    here = osp.dirname(path)
    for n in names:
        p = PurePath(n.replace("\\", "/"))
        if p.is_absolute() or ".." in p.parts:
            raise ValueError(f"get_path_from_url: the archive {path} holds the unsafe member name {n!r}; not unpacked.")
    if len(names) == 1 and "/" not in names[0].strip("/"):
        return here, osp.join(here, names[0].strip("/"))
    tops = _top_dirs(names)
    if len(tops) == 1:
        return here, osp.join(here, tops.pop())
    inner = osp.join(here, osp.splitext(osp.basename(path))[0])
    os.makedirs(inner, exist_ok=True)
    return inner, inner


def _unpack(path: str) -> str:
    if tarfile.is_tarfile(path):
        with tarfile.open(path, "r:*") as tf:
            dest, out = _target(path, tf.getnames())
            tf.extractall(dest, filter="data")  # regular files and directories only, inside dest
        return out
    with zipfile.ZipFile(path) as zf:
        dest, out = _target(path, zf.namelist())
        zf.extractall(dest)
    return out
