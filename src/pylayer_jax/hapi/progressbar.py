"""``paddle.hapi.progressbar`` (re-exports, layer L7)."""

from ._progressbar import ProgressBar as ProgressBar
