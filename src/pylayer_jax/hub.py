"""``paddle.hub``: models published as a repository with a ``hubconf.py`` (its public callables are the
entries, its ``dependencies`` list the packages they need).

Layer: public API (plain Python over ``load``). ``source='local'`` reads a repository directory as Paddle does;
``'github'``/``'gitee'`` read the copy Paddle's hub cache holds (``<hub dir>/<owner>_<repo>_<branch>``, the
folder Paddle extracts a download to): this package downloads nothing, so a repository not there raises a
RuntimeError naming the folder to place it in. ``load_state_dict_from_url`` likewise reads the file the URL
names from its cache folder.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import zipfile
from typing import Any
from urllib.parse import urlparse

__all__ = ["get_dir", "help", "list", "load", "load_state_dict_from_url"]

_SOURCES = ("github", "gitee", "local")
_builtin_list = list


def get_dir() -> str:
    """The hub folder: ``$PADDLE_HOME/hub``, else ``$XDG_CACHE_HOME/paddle/hub`` (``~/.cache/paddle/hub``)."""
    home = os.getenv("PADDLE_HOME", os.path.join(os.getenv("XDG_CACHE_HOME", "~/.cache"), "paddle"))
    return os.path.join(os.path.expanduser(home), "hub")


def _repo_dir(api: str, repo_dir: str, source: str, force_reload: bool) -> str:
    if source not in _SOURCES:
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "gitee" | "local".')
    if source == "local":
        return repo_dir
    branch = "main" if source == "github" else "master"
    info = repo_dir
    if ":" in repo_dir:
        info, branch = repo_dir.split(":", 1)
    parts = info.split("/")
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"{api}: a {source} repository is 'owner/name[:branch]', but received {repo_dir!r}.")
    cached = os.path.join(get_dir(), "_".join([parts[0], parts[1], branch.replace("/", "_")]))
    if force_reload or not os.path.isdir(cached):
        why = "force_reload=True asks for a new download" if force_reload else "it is not in the hub cache"
        raise RuntimeError(
            f"{api}: the {source} repository {repo_dir!r} cannot be fetched ({why}, and this package downloads "
            f"nothing); extract the repository into {cached} (the folder holding its hubconf.py), or pass its "
            "directory with source='local'.")
    sys.stderr.write(f"Using cache found in {cached}\n")
    return cached


def _hubconf(api: str, repo_dir: str) -> Any:
    path = os.path.join(repo_dir, "hubconf.py")
    if not os.path.isfile(path):
        raise RuntimeError(f"{api}: {repo_dir!r} has no hubconf.py; a hub repository defines its entries there.")
    spec = importlib.util.spec_from_file_location("hubconf", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.path.insert(0, repo_dir)  # (the entries may import the repository's own modules)
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    finally:
        if sys.path and sys.path[0] == repo_dir:
            del sys.path[0]
    return module


def _entry(module: Any, model: Any) -> Any:
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a str of function name")
    fn = getattr(module, model, None)
    if fn is None or not callable(fn):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return fn


def list(repo_dir: str, source: str = "github", force_reload: bool = False) -> _builtin_list[str]:  # noqa: A001
    """The names of the entries (public callables) of the repository's hubconf.py."""
    module = _hubconf("paddle.hub.list", _repo_dir("paddle.hub.list", repo_dir, source, force_reload))
    return [n for n in dir(module) if callable(getattr(module, n)) and not n.startswith("_")]


def help(repo_dir: str, model: str, source: str = "github", force_reload: bool = False) -> str:  # noqa: A001
    """The docstring of the entry ``model``."""
    module = _hubconf("paddle.hub.help", _repo_dir("paddle.hub.help", repo_dir, source, force_reload))
    return _entry(module, model).__doc__


def load(repo_dir: str, model: str, source: str = "github", force_reload: bool = False, **kwargs: Any) -> Any:
    """The entry ``model`` called with ``kwargs`` (a Layer, usually), once the packages of the hubconf's
    ``dependencies`` import."""
    module = _hubconf("paddle.hub.load", _repo_dir("paddle.hub.load", repo_dir, source, force_reload))
    missing = [p for p in getattr(module, "dependencies", None) or [] if importlib.util.find_spec(p) is None]
    if missing:
        raise RuntimeError("Missing dependencies: {}".format(", ".join(missing)))
    return _entry(module, model)(**kwargs)


def load_state_dict_from_url(url: str, model_dir: str | None = None, check_hash: bool = False,
                             file_name: str | None = None, map_location: str | None = None) -> Any:
    """``paddle.load`` of the file ``url`` names, from ``model_dir`` (default ``<hub dir>/checkpoints``): a zip
    holding one file is that file. ``map_location`` 'numpy'/'np' returns numpy arrays; the devices all name the
    one place arrays live here. Nothing is downloaded: a file not there raises RuntimeError naming where to put
    it (and ``check_hash`` has nothing to check)."""
    from ._api.checkpoint import load as _load

    if map_location is not None and map_location not in ("cpu", "gpu", "xpu", "npu", "numpy", "np"):
        raise ValueError(f"paddle.hub.load_state_dict_from_url: map_location must be one of 'cpu', 'gpu', 'xpu', "
                         f"'npu', 'numpy', 'np' or None, but received {map_location!r}.")
    folder = model_dir if model_dir is not None else os.path.join(get_dir(), "checkpoints")
    name = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        raise RuntimeError(
            f"paddle.hub.load_state_dict_from_url: {path} is not there and this package downloads nothing "
            f"(check_hash={check_hash!r} would check the download); save the file {url} there first.")
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
            if len(members) == 1 and not members[0].is_dir():
                z.extractall(folder)
                path = os.path.join(folder, members[0].filename)
    return _load(path, return_numpy=map_location in ("numpy", "np"))
