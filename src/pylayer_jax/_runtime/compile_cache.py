"""JAX's persistent compilation cache, on by default in the user's cache directory (layer L0).

An eager script compiles a few dozen small XLA programs (an op's kernel for a shape, a step's fused
program), 20-100 ms of CPU each; run again, it compiles the same ones. With JAX's persistent cache
the second run reads each back from disk (about 2 ms) instead: importing pylayer_jax turns that cache
on, in ``$XDG_CACHE_HOME/pylayer_jax/xla`` (``~/.cache/pylayer_jax/xla`` without that variable),
for every program (JAX caches only programs that took a second or more to compile by default).

- ``PYLAYER_JAX_CACHE_DIR=/some/dir`` puts it there; ``PYLAYER_JAX_CACHE_DIR=`` (empty) turns it off.
- JAX's own settings win: when ``jax_compilation_cache_dir`` is already set (``JAX_COMPILATION_CACHE_DIR``,
  or ``jax.config.update`` before the import) or ``jax_enable_compilation_cache`` is off, nothing changes;
  ``JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS`` keeps its value too.
- A directory that cannot be made or written leaves the cache off: silently for the default one, with a
  warning for one the variable names. The default one is also left alone when another user owns it or
  others may write to it (the cache holds programs that will run: it must be trusted).

The cache is kept under ``MAX_BYTES``, by this module rather than by JAX: JAX's own bound
(``jax_compilation_cache_max_size``) scans the whole directory, reading every entry's access time, each time it
writes a program, so a cache of ~21,000 programs made every new program cost ~1.4 s instead of ~0.13 s (measured
here). Instead, at most once every ``TRIM_EVERY_S`` (a stamp file records the last time) a daemon thread started
at import removes the least recently used programs (by the file's access or modification time, whichever is
later) until the directory holds at most ``MAX_BYTES``. ``JAX_COMPILATION_CACHE_MAX_SIZE`` set by the user is
left to JAX. Deleting the directory is always safe.
"""

from __future__ import annotations

import os
import stat
import threading
import time
import warnings

import jax

MAX_BYTES = 1 << 30  # the cache's size bound
TRIM_EVERY_S = 24 * 3600  # how often the directory is trimmed to MAX_BYTES
_STAMP = ".pylayer_jax_trimmed"  # the file whose modification time says when the directory was last trimmed

# the directory this process caches in (None: pylayer_jax did not turn the cache on)
CACHE_DIR: str | None = None


def default_dir() -> str:
    """``$XDG_CACHE_HOME/pylayer_jax/xla``, or ``~/.cache/pylayer_jax/xla``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pylayer_jax", "xla")


def _writable(path: str) -> bool:
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return False
    return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)


def _private(path: str) -> bool:
    """Owned by this user and writable by no one else."""
    st = os.stat(path)
    own = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return own and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def setup() -> str | None:
    """Turn the cache on as the module docstring says; returns its directory (None when off)."""
    global CACHE_DIR
    named = os.environ.get("PYLAYER_JAX_CACHE_DIR")
    if named == "" or jax.config.jax_compilation_cache_dir or not jax.config.jax_enable_compilation_cache:
        return None
    path = os.path.abspath(os.path.expanduser(named)) if named else default_dir()
    if not _writable(path):
        if named:
            warnings.warn(f"pylayer_jax: PYLAYER_JAX_CACHE_DIR={named!r} cannot be created or written, so compiled "
                          "programs are not cached on disk; name a writable directory, or set it empty to turn the "
                          "cache off.", RuntimeWarning, stacklevel=2)
        return None
    if not named and not _private(path):
        return None
    if "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS" not in os.environ:
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_compilation_cache_dir", path)
    CACHE_DIR = path
    if "JAX_COMPILATION_CACHE_MAX_SIZE" not in os.environ and _due(path):
        threading.Thread(target=trim, args=(path,), name="pylayer_jax cache trim", daemon=True).start()
    return path


def _due(path: str) -> bool:
    """The directory was not trimmed in the last ``TRIM_EVERY_S`` (by its stamp file)."""
    try:
        return time.time() - os.stat(os.path.join(path, _STAMP)).st_mtime > TRIM_EVERY_S
    except OSError:
        return True


def trim(path: str, max_bytes: int = MAX_BYTES) -> int:
    """Remove the least recently used programs of the cache directory ``path`` (JAX's ``*-cache`` files, with any
    ``*-atime`` file beside them) until their sizes sum to at most ``max_bytes``; then touch the stamp file. Returns
    how many programs were removed. Files another process removes meanwhile are skipped."""
    entries = []
    total = 0
    try:
        names = os.listdir(path)
    except OSError:
        return 0
    for name in names:
        if not name.endswith("-cache"):
            continue
        try:
            st = os.stat(os.path.join(path, name))
        except OSError:
            continue
        entries.append((max(st.st_atime, st.st_mtime), name, st.st_size))
        total += st.st_size
    removed = 0
    entries.sort()
    for _, name, size in entries:
        if total <= max_bytes:
            break
        for victim in (name, name[: -len("-cache")] + "-atime"):
            try:
                os.remove(os.path.join(path, victim))
            except OSError:
                pass
        total -= size
        removed += 1
    try:
        with open(os.path.join(path, _STAMP), "w"):
            pass
    except OSError:
        pass
    return removed
