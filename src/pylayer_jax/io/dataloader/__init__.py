"""``paddle.io.dataloader``: the module path of the default collate functions."""

from . import collate as collate
