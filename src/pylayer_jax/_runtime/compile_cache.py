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

JAX keeps the cache under ``MAX_BYTES`` by evicting the least recently used programs; it needs the ``filelock``
package for that (a dependency; without it, as in an environment that removed it, the cache is unbounded). Deleting the directory is always safe.
"""

from __future__ import annotations

import importlib.util
import os
import stat
import warnings

import jax

MAX_BYTES = 1 << 30  # the cache's size bound where JAX can evict (filelock installed)

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
    if "JAX_COMPILATION_CACHE_MAX_SIZE" not in os.environ and importlib.util.find_spec("filelock") is not None:
        jax.config.update("jax_compilation_cache_max_size", MAX_BYTES)
    jax.config.update("jax_compilation_cache_dir", path)
    CACHE_DIR = path
    return path
