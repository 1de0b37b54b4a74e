"""The notebooks run: every code cell, in order, in one namespace.

The notebooks assert their own results against JAX (``np.testing.assert_allclose`` cells),
so running them is the test; this file also checks a few of the values they leave behind.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np

NOTEBOOKS = pathlib.Path(__file__).resolve().parent.parent / "notebooks"


def _run(name: str) -> dict:
    nb = json.loads((NOTEBOOKS / name).read_text())
    ns: dict = {}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{name}:cell", "exec"), ns)
    return ns


def test_tour_notebook_runs_and_matches_jax() -> None:
    ns = _run("tour.ipynb")
    assert ns["losses"][-1] < ns["losses"][0]
    np.testing.assert_allclose(ns["losses"], ns["ref"], rtol=1e-10)
    assert len(ns["losses"]) == 30
