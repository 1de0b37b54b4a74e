"""Cases shared by ``record_paddle_layers_zoo_b.py`` and ``test_layer_zoo_b.py``: (name, constructor
expression over ``nn``, input shape, train steps (0: eval only))."""

CASES = [
    ("conv1d", "nn.Conv1D(2, 4, 3, stride=2, padding=1)", [2, 2, 7], 0),
    ("conv2d_reflect", "nn.Conv2D(2, 4, 3, padding=1, padding_mode='reflect', groups=2)", [2, 2, 5, 5], 0),
    ("conv2d_circular_nhwc", "nn.Conv2D(3, 2, 2, dilation=2, padding=1, padding_mode='circular', "
                             "data_format='NHWC')", [1, 5, 5, 3], 0),
    ("conv2d_nobias", "nn.Conv2D(2, 3, [2, 3], stride=[1, 2], bias_attr=False)", [2, 2, 4, 6], 0),
    ("conv3d", "nn.Conv3D(2, 2, 2, padding=1, padding_mode='replicate')", [1, 2, 3, 3, 3], 0),
    ("conv1d_t", "nn.Conv1DTranspose(2, 3, 3, stride=2, output_padding=1)", [2, 2, 4], 0),
    ("conv2d_t", "nn.Conv2DTranspose(4, 2, 3, stride=2, padding=1, groups=2)", [1, 4, 3, 3], 0),
    ("conv3d_t", "nn.Conv3DTranspose(2, 2, 2, stride=2)", [1, 2, 2, 2, 2], 0),
    ("maxpool1d", "nn.MaxPool1D(3, 2, 1)", [2, 2, 7], 0),
    ("maxpool2d_mask", "nn.MaxPool2D(2, return_mask=True)", [2, 2, 4, 4], 0),
    ("maxpool3d", "nn.MaxPool3D(2, ceil_mode=True)", [1, 1, 3, 3, 3], 0),
    ("avgpool1d", "nn.AvgPool1D(3, 2, 1, exclusive=False)", [2, 2, 7], 0),
    ("avgpool2d", "nn.AvgPool2D(3, 2, 1)", [2, 2, 5, 5], 0),
    ("avgpool3d", "nn.AvgPool3D(2, divisor_override=3)", [1, 1, 4, 4, 4], 0),
    ("lppool1d", "nn.LPPool1D(2, 3, 2)", [1, 2, 7], 0),
    ("lppool2d", "nn.LPPool2D(3, 2)", [1, 2, 4, 4], 0),
    ("adaptive_avg1d", "nn.AdaptiveAvgPool1D(3)", [2, 2, 7], 0),
    ("adaptive_avg2d", "nn.AdaptiveAvgPool2D([2, 3])", [1, 2, 5, 7], 0),
    ("adaptive_avg3d", "nn.AdaptiveAvgPool3D(2)", [1, 1, 3, 4, 5], 0),
    ("adaptive_max1d", "nn.AdaptiveMaxPool1D(3, return_mask=True)", [2, 2, 7], 0),
    ("adaptive_max2d", "nn.AdaptiveMaxPool2D(2)", [1, 2, 5, 5], 0),
    ("adaptive_max3d", "nn.AdaptiveMaxPool3D(2)", [1, 1, 4, 4, 4], 0),
    ("unfold", "nn.Unfold([2, 2], strides=1, paddings=1)", [1, 2, 3, 3], 0),
    ("fold", "nn.Fold([3, 3], 2)", [1, 8, 4], 0),
    ("layernorm", "nn.LayerNorm([3, 4])", [2, 3, 4], 0),
    ("layernorm_noaffine", "nn.LayerNorm(4, epsilon=1e-3, weight_attr=False, bias_attr=False)", [3, 4], 0),
    ("groupnorm", "nn.GroupNorm(2, 4)", [2, 4, 3, 3], 0),
    ("instancenorm1d", "nn.InstanceNorm1D(3)", [2, 3, 5], 0),
    ("instancenorm2d", "nn.InstanceNorm2D(2)", [2, 2, 3, 3], 0),
    ("instancenorm3d", "nn.InstanceNorm3D(2)", [2, 2, 2, 2, 3], 0),
    ("lrn", "nn.LocalResponseNorm(3, alpha=0.1)", [1, 5, 2, 2], 0),
    ("batchnorm1d", "nn.BatchNorm1D(3, momentum=0.8)", [4, 3], 2),
    ("batchnorm1d_ncl", "nn.BatchNorm1D(3)", [4, 3, 5], 2),
    ("batchnorm2d", "nn.BatchNorm2D(3)", [4, 3, 2, 2], 2),
    ("batchnorm2d_nhwc", "nn.BatchNorm2D(3, epsilon=1e-3, data_format='NHWC')", [2, 2, 2, 3], 2),
    ("batchnorm2d_global", "nn.BatchNorm2D(2, use_global_stats=True)", [2, 2, 3, 3], 2),
    ("batchnorm3d", "nn.BatchNorm3D(2)", [2, 2, 2, 2, 2], 2),
]

INIT_CASES = [
    ("conv2d", "nn.Conv2D(64, 32, 3)"),
    ("conv1d_groups", "nn.Conv1D(64, 64, 5, groups=4)"),
    ("conv2d_t", "nn.Conv2DTranspose(32, 64, 3)"),
]
