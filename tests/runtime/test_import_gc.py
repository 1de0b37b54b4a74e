"""The garbage collector around ``import pylayer_jax`` (``_runtime/import_gc.py``). Oracle: the ``gc`` module's own
state (enabled or not, the objects it tracks outside the permanent generation, and that generation's size, which
only freezing raises: another thread freeing frozen objects lowers it meanwhile)."""

from __future__ import annotations

import gc

import pytest

import pylayer_jax
from pylayer_jax._runtime import import_gc


@pytest.fixture
def collector():
    """The collector as the test found it, restored after."""
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def _tracked(objs: list) -> bool:
    """Whether any of ``objs`` is in a generation the collector scans (frozen objects are in none)."""
    ids = {id(o) for o in objs}
    return any(id(o) in ids for o in gc.get_objects())


def test_pause_stops_the_collector_and_resume_freezes_what_was_made(collector, monkeypatch) -> None:
    monkeypatch.delenv("PYLAYER_JAX_GC_FREEZE", raising=False)
    gc.enable()
    assert import_gc.pause() is True
    assert not gc.isenabled()
    made = [[i] for i in range(1000)]  # what an import makes while the collector waits
    assert _tracked(made)
    import_gc.resume(True)
    assert gc.isenabled()
    assert not _tracked(made)  # never scanned again; freed as usual when no longer referenced
    assert gc.get_count()[0] < 10  # the young generation starts empty


def test_a_collector_the_program_turned_off_stays_off_and_nothing_is_frozen(collector, monkeypatch) -> None:
    monkeypatch.delenv("PYLAYER_JAX_GC_FREEZE", raising=False)
    gc.disable()
    frozen = gc.get_freeze_count()
    assert import_gc.pause() is False
    made = [[i] for i in range(100)]
    import_gc.resume(False)
    assert not gc.isenabled() and gc.get_freeze_count() <= frozen and _tracked(made)


def test_the_variable_leaves_the_collector_running(collector, monkeypatch) -> None:
    monkeypatch.setenv("PYLAYER_JAX_GC_FREEZE", "0")
    gc.enable()
    frozen = gc.get_freeze_count()
    assert import_gc.enabled() is False and import_gc.pause() is False
    assert gc.isenabled()
    made = [[i] for i in range(100)]
    import_gc.resume(False)
    assert gc.isenabled() and gc.get_freeze_count() <= frozen and _tracked(made)


def test_the_package_import_froze_its_objects() -> None:
    # this process imported pylayer_jax with the collector running (pytest leaves it on): its classes and
    # functions are in the permanent generation (unless PYLAYER_JAX_GC_FREEZE=0), and the collector runs again
    assert gc.isenabled()
    assert _tracked([pylayer_jax.Tensor, pylayer_jax.nn.Linear, pylayer_jax.to_tensor]) is not import_gc.enabled()
