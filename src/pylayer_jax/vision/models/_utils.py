"""Helpers shared by the vision models."""

from __future__ import annotations

from collections import OrderedDict

from ..._api import functional as _F
from ...nn.layer._common import Linear
from ...nn.layer._container import LayerDict


def _make_divisible(v, divisor: int = 8, min_value: int | None = None) -> int:
    """``v`` rounded to the nearest multiple of ``divisor`` (at least ``min_value``), never more than 10% down."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def no_pretrained(arch: str) -> None:
    """Raise the error for ``pretrained=True``: the weights would have to be downloaded."""
    raise RuntimeError(
        f"paddle.vision.models: pretrained=True for {arch!r} downloads Paddle's pretrained weights, which "
        "pylayer_jax does not do (no network access is assumed); build the model with pretrained=False and load "
        f"a local state dict instead: model.set_state_dict(paddle.load('{arch}.pdparams'))."
    )


class IntermediateLayerGetter(LayerDict):
    """The children of ``model`` up to the last one named in ``return_layers``; calling it returns an OrderedDict
    of the outputs of those children, under the names ``return_layers`` maps them to."""

    def __init__(self, model, return_layers: dict[str, str]) -> None:
        names = [name for name, _ in model.named_children()]
        if not set(return_layers).issubset(names):
            raise ValueError(
                f"paddle.vision.models.IntermediateLayerGetter: return_layers {sorted(return_layers)} are not all "
                f"children of the model ({names})."
            )
        wanted = {str(k): str(v) for k, v in return_layers.items()}
        layers = OrderedDict()
        for name, module in model.named_children():
            layers[name] = module
            wanted.pop(name, None)
            if not wanted:
                break
        super().__init__(layers)
        self.return_layers = return_layers

    def forward(self, x):
        out = OrderedDict()
        for name, module in self.items():
            subs = module.sublayers()
            if x.ndim == 4 and (isinstance(module, Linear) or (subs and isinstance(subs[0], Linear))):
                x = _F.flatten(x, 1)
            x = module(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out
