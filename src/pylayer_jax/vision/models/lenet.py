"""LeNet."""

from __future__ import annotations

from ... import nn
from ..._api import functional as _F

__all__ = ["LeNet"]


class LeNet(nn.Layer):
    """LeNet for 1x28x28 images: two conv/ReLU/max-pool stages, then three Linear layers (when
    ``num_classes`` > 0)."""

    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2),
        )
        if num_classes > 0:
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes))

    def forward(self, inputs):
        x = self.features(inputs)
        if self.num_classes > 0:
            x = self.fc(_F.flatten(x, 1))
        return x
