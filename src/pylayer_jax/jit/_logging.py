"""``paddle.jit.set_code_level`` / ``set_verbosity``: the settings of Paddle's dynamic-to-static logging (layer L5).

Paddle's ``to_static`` rewrites a function's Python source and can print the rewritten code (code level) and log
its steps (verbosity). This package's ``to_static`` traces the function with JAX instead and rewrites no source,
so there is no transformed code to print: the settings are checked and kept (``SETTINGS``), as Paddle keeps them,
and change nothing else.
"""

from __future__ import annotations

SETTINGS: dict[str, int | bool] = {"code_level": -1, "code_to_stdout": False, "verbosity": 0, "log_to_stdout": False}


def _check(api: str, level: object, also_to_stdout: object) -> int:
    if not isinstance(level, int) or isinstance(level, bool):
        raise TypeError(f"Level is not an integer: {level} (paddle.jit.{api} takes an int level).")
    if not isinstance(also_to_stdout, bool):
        raise TypeError(f"paddle.jit.{api}: also_to_stdout must be a bool, but received {also_to_stdout!r}.")
    return level


def set_code_level(level: int = 100, also_to_stdout: bool = False) -> None:
    """Set the level of transformed code Paddle's ``to_static`` prints (100: after every transformer). Kept only:
    this package's ``to_static`` traces instead of transforming source, so it has no code to print."""
    SETTINGS["code_level"] = _check("set_code_level", level, also_to_stdout)
    SETTINGS["code_to_stdout"] = also_to_stdout


def set_verbosity(level: int = 0, also_to_stdout: bool = False) -> None:
    """Set the verbosity of Paddle's dynamic-to-static logging (0: none). Kept only: this package's ``to_static``
    logs nothing."""
    SETTINGS["verbosity"] = _check("set_verbosity", level, also_to_stdout)
    SETTINGS["log_to_stdout"] = also_to_stdout
