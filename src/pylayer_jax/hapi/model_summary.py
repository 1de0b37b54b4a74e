"""``paddle.hapi.model_summary`` (re-exports, layer L7)."""

from ._summary import summary as summary
from ._summary import summary_string as summary_string
