"""Run one program of this folder with real Paddle or with pylayer_jax under the name ``paddle``.

``python _runner.py {paddle|jax} pNN_name.py out.json``: the program's text is run unchanged (``import paddle``,
``from paddle.io import DataLoader``); for ``jax`` an import hook first makes ``paddle`` and ``paddle.<sub>``
resolve to ``pylayer_jax`` and ``pylayer_jax.<sub>``. The program writes its record to ``PROGRAM_OUT``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import runpy
import sys


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):  # noqa: ANN001, ANN201
        if name == "paddle" or name.startswith("paddle."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):  # noqa: ANN001, ANN201
        mod = importlib.import_module("pylayer_jax" + spec.name[len("paddle"):])
        self._spec = mod.__spec__
        return mod

    def exec_module(self, module):  # noqa: ANN001, ANN201
        module.__spec__ = self._spec


def install() -> None:
    sys.meta_path.insert(0, _Alias())


if __name__ == "__main__":
    lib, script, out = sys.argv[1:4]
    if lib == "jax":
        install()
    os.environ["PROGRAM_OUT"] = out
    sys.argv = [script]
    runpy.run_path(script, run_name="__main__")
