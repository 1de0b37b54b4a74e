"""``paddle.hapi``: the high-level API (``Model``, callbacks, ``summary``), re-exported (layer L7)."""

from . import _callbacks as callbacks
from ._model import Model as Model
from ._summary import summary as summary

__all__ = ["Model", "callbacks", "summary"]
