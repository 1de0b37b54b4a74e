"""The README's coverage table states the counts that the package really has.

Each row of the table is recomputed from Paddle 3.3.1's name lists kept in ``tests/`` (copies of the
project's spec lists, so that the test needs nothing outside the repository) with the same rule as the
test named in the row's last column.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from nn.test_functional_paddle import coverage as functional_coverage
from nn.test_nn_coverage import NAMES as NN_CLASSES
from nn.test_nn_coverage import present as nn_classes_present
from ops.test_ops_generated import paddle_coverage

HERE = Path(__file__).resolve().parent
README = (HERE.parent / "README.md").read_text()
TRAINING = (HERE / "paddle_training_api.txt").read_text().split()


def _row(label: str) -> tuple[int, int]:
    m = re.search(r"^\| " + re.escape(label) + r" \| (\d+) of (\d+) \|", README, flags=re.M)
    assert m, f"README.md's Coverage table has no row starting with {label!r}"
    return int(m.group(1)), int(m.group(2))


def _resolve(dotted: str) -> object | None:
    """``paddle.a.b.C`` looked up as ``pylayer_jax.a.b.C`` (None where a module or the name is missing)."""
    parts = dotted.split(".")[1:]
    for cut in range(len(parts) - 1, -1, -1):
        try:
            obj: object = importlib.import_module(".".join(["pylayer_jax", *parts[:cut]]))
        except ImportError:
            continue
        for p in parts[cut:]:
            obj = getattr(obj, p, None)
            if obj is None:
                return None
        return obj
    return None


def training_coverage() -> tuple[list[str], list[str]]:
    have = [n for n in TRAINING if callable(_resolve(n))]
    return have, [n for n in TRAINING if n not in have]


def public_names_coverage() -> tuple[list[str], list[str]]:
    """Paddle 3.3.1's public names (each recorded module's ``__all__``, ``tests/record_paddle_public_names.py``) that
    ``pylayer_jax`` has at the same path."""
    names = json.loads((HERE / "data" / "paddle_public_names.json").read_text())
    have, missing = [], []
    for module, public in names.items():
        try:
            mod: object | None = importlib.import_module("pylayer_jax" + ("." + module if module else ""))
        except ImportError:
            mod = None
        for n in public or ():
            (have if mod is not None and hasattr(mod, n) else missing).append(f"paddle.{module}.{n}".replace("..", "."))
    return have, missing


@pytest.mark.parametrize(
    "label,count",
    [
        ("tensor functions (`paddle.<name>`)", paddle_coverage),
        ("`paddle.nn.functional`", functional_coverage),
        ("`paddle.nn` classes", lambda: (nn_classes_present(), sorted(set(NN_CLASSES) - set(nn_classes_present())))),
        ("optimizers, LR schedulers, initializers, `paddle.io`, `paddle.metric`", training_coverage),
        ("public names of 61 modules (their `__all__`)", public_names_coverage),
    ],
)
def test_readme_coverage_row_matches_the_count(label, count) -> None:
    have, missing = count()
    stated = _row(label)
    assert stated == (len(have), len(have) + len(missing)), (
        f"README.md says {label} covers {stated[0]} of {stated[1]}, but the count is {len(have)} of "
        f"{len(have) + len(missing)} (missing: {missing}); update the README's Coverage table."
    )


def test_lists_are_paddles() -> None:
    assert len(set(NN_CLASSES)) == 190
    assert len(set((HERE / "paddle_nn_functional.txt").read_text().split())) == 136
    assert len(set((HERE / "paddle_tensor_functions.txt").read_text().split())) == 426
    assert len(TRAINING) == len(set(TRAINING)) == 76
    assert all(n.startswith("paddle.") for n in TRAINING)
