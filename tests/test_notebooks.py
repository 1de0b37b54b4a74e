"""Every notebook runs in a real Jupyter kernel, cell by cell, and fails the test on any error.

The notebooks assert their own results against oracles (NumPy, JAX) in their cells, so running them is most
of the test. Each notebook's last cell prints one JSON line of its key numbers; the tests below parse it from
the executed outputs and check those numbers too. The kernel imports this checkout's ``src`` (``PYTHONPATH`` is
prefixed for it), and uses the ``python3`` kernel spec that ``ipykernel`` provides natively, so no
``ipykernel install`` step is needed.
"""

from __future__ import annotations

import json
import os
import pathlib

import nbclient
import nbformat
import numpy as np
import pytest
from ipykernel.kernelspec import install as install_kernelspec
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
ALL = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def _kernel_env(tmp_path: pathlib.Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])])
    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:  # register ipykernel's spec in a private folder, never in the user's home
        install_kernelspec(prefix=str(tmp_path / "jupyter"))
        env["JUPYTER_PATH"] = str(tmp_path / "jupyter" / "share" / "jupyter")
        os.environ["JUPYTER_PATH"] = env["JUPYTER_PATH"]
    return env


def _execute(name: str, tmp_path: pathlib.Path) -> nbformat.NotebookNode:
    nb = nbformat.read(str(NOTEBOOKS / name), as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute(env=_kernel_env(tmp_path))  # raises CellExecutionError on the first failing cell
    return nb


def _errors(nb: nbformat.NotebookNode) -> list[str]:
    """Error outputs and tracebacks printed to stderr (e.g. 'Exception ignored in ...') anywhere."""
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "error" or (out.output_type == "stream" and "Traceback" in out.text):
                found.append(out.get("text") or out.get("evalue", ""))
    return found


def _key_numbers(nb: nbformat.NotebookNode) -> dict:
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    lines = [ln for o in last.outputs if o.output_type == "stream" for ln in o.text.splitlines() if ln.strip()]
    return json.loads(lines[-1])


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, nbformat.NotebookNode]:
    return {name: _execute(name, tmp_path_factory.mktemp(name)) for name in ALL}


def test_every_notebook_runs_without_errors(executed: dict) -> None:
    assert {"tour.ipynb", "training.ipynb"} <= set(executed)
    for name, nb in executed.items():
        assert _errors(nb) == [], name


def test_tour_notebook_matches_jax(executed: dict) -> None:
    numbers = _key_numbers(executed["tour.ipynb"])
    losses, ref = numbers["losses"], numbers["ref"]
    assert len(losses) == 30
    assert losses[-1] < losses[0]
    np.testing.assert_allclose(losses, ref, rtol=1e-10)


def test_training_notebook_learns(executed: dict) -> None:
    numbers = _key_numbers(executed["training.ipynb"])
    loss, acc, lr = numbers["loss"], numbers["acc"], numbers["lr"]
    assert len(loss) == len(acc) == len(lr) == 12
    assert loss[-1] < 0.25 * loss[0]
    assert acc[-1] >= 0.95 and numbers["test_acc"] >= 0.9
    assert numbers["hapi_acc"] > 0.6
    # the cosine schedule sampled at the end of each epoch (15 steps per epoch, T_max = 180 steps)
    steps = 15 * np.arange(1, 13)
    np.testing.assert_allclose(lr, 0.01 * (1 + np.cos(np.pi * steps / 180)), rtol=1e-6, atol=1e-12)
    # 2*64+64 + 64*64+64 + 64*3+3 parameters
    assert numbers["total_params"] == 2 * 64 + 64 + 64 * 64 + 64 + 64 * 3 + 3


def test_committed_notebooks_carry_outputs() -> None:
    """The notebooks are committed executed, so they read with their results on the web."""
    for name in ALL:
        nb = nbformat.read(str(NOTEBOOKS / name), as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert all(c.execution_count for c in code), name
        assert _key_numbers(nb), name
