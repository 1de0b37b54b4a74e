"""``paddle.hapi.model`` (re-exports, layer L7)."""

from ._model import Model as Model
