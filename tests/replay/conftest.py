"""Each replay test begins with no note: one an earlier test left would make it follow that note."""

import pytest

from pylayer_jax._replay import follow as _replay


@pytest.fixture(autouse=True)
def _fresh_note() -> None:
    _replay.reset()
