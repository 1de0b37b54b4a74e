"""``paddle.io.dataloader.collate``: the DataLoader's default collate and convert functions."""

from .._collate import default_collate_fn as default_collate_fn
from .._collate import default_convert_fn as default_convert_fn
