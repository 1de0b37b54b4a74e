"""How many of the 190 ``paddle.nn`` classes of Paddle 3.3.1 (``tests/paddle_nn_classes.txt``) exist here."""

from __future__ import annotations

from pathlib import Path

import pylayer_jax as paddle

NAMES = (Path(__file__).resolve().parents[1] / "paddle_nn_classes.txt").read_text().split()

ACTIVATIONS = ["CELU", "ELU", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU",
               "LogSigmoid", "LogSoftmax", "Maxout", "Mish", "PReLU", "RReLU", "ReLU", "ReLU6", "SELU", "SiLU",
               "Sigmoid", "Silu", "Softmax", "Softmax2D", "Softplus", "Softshrink", "Softsign", "Swish", "Tanh",
               "Tanhshrink", "ThresholdedReLU"]
LOSSES = ["AdaptiveLogSoftmaxWithLoss", "BCELoss", "BCEWithLogitsLoss", "CTCLoss", "CosineEmbeddingLoss", "CrossEntropyLoss", "GaussianNLLLoss",
          "HSigmoidLoss", "HingeEmbeddingLoss", "HuberLoss", "KLDivLoss", "L1Loss", "MSELoss", "MarginRankingLoss",
          "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "NLLLoss", "PoissonNLLLoss",
          "SmoothL1Loss", "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss"]
COMMON = ["AlphaDropout", "Bilinear", "ChannelShuffle", "CosineSimilarity", "Dropout", "Dropout2D", "Dropout3D",
          "Embedding", "FeatureAlphaDropout", "Flatten", "Identity", "Linear", "Pad1D", "Pad2D", "Pad3D",
          "PairwiseDistance", "PixelShuffle", "PixelUnshuffle", "Unflatten", "Upsample", "UpsamplingBilinear2D",
          "UpsamplingBilinear2d", "UpsamplingNearest2D", "UpsamplingNearest2d"]
PADS = [f"{k}Pad{d}{s}" for k in ("Zero", "Constant", "Reflection", "Replication", "Circular") for d in (1, 2, 3)
        for s in ("D", "d")]
NORMS = ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm", "SpectralNorm", "LayerNorm",
         "GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D", "LocalResponseNorm"]
FLOOR = 190  # every class


def present() -> list[str]:
    return [n for n in NAMES if isinstance(getattr(paddle.nn, n, None), type)]


def test_list_is_paddles_190_classes():
    assert len(NAMES) == len(set(NAMES)) == 190


def test_activation_loss_common_padding_and_norm_classes_all_exist():
    for n in ACTIVATIONS + LOSSES + COMMON + PADS + NORMS:
        assert n in NAMES, n
        cls = getattr(paddle.nn, n)
        assert isinstance(cls, type) and issubclass(cls, paddle.nn.Layer), n


def test_coverage_floor():
    have = present()
    assert len(have) >= FLOOR, f"{len(have)} of {len(NAMES)} paddle.nn classes; missing {sorted(set(NAMES) - set(have))}"
