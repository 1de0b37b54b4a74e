"""Cases shared by ``tests/record_paddle_vision.py`` (run with real Paddle) and ``tests/vision/``: each is run the
same way in both frameworks, so the tests compare pylayer_jax with what Paddle recorded.

Transform cases are ``(name, kind, shape, dtype, seed, expr)``: the image is ``image(kind, shape, dtype, seed)`` (a
numpy HWC array, a Tensor made from its CHW transpose, or a PIL image of it) bound to ``img``, and ``expr`` is
evaluated with ``F`` (``vision.transforms.functional``), ``T`` (``vision.transforms``) and ``np``. Random cases
seed Python's ``random`` and numpy's global generator with ``RANDOM_SEED`` and apply the transform ``RANDOM_REPEATS``
times: Paddle draws its transform parameters from those two generators, so the draws (and outputs) are the same.
"""

from __future__ import annotations

import numpy as np

RANDOM_SEED = 0
RANDOM_REPEATS = 4


def describe(paddle, out):
    """(kind, array) of a transform's or a dataset's image: ``'tensor'``, ``'pil:<mode>'`` or ``'numpy'``."""
    from PIL import Image

    if isinstance(out, paddle.Tensor):
        return "tensor", out.numpy()
    if isinstance(out, Image.Image):
        return "pil:" + out.mode, np.asarray(out)
    return "numpy", np.asarray(out)


def array(shape, dtype, seed):
    rs = np.random.RandomState(seed)
    if dtype == "uint8":
        return rs.randint(0, 256, shape).astype(np.uint8)
    return (rs.uniform(0, 255, shape)).astype(dtype)


def image(kind, shape, dtype, seed, paddle=None):
    """The input image of a case: numpy HWC, a Tensor (CHW, from the transposed array) or a PIL image."""
    arr = array(shape, dtype, seed)
    if kind == "numpy":
        return arr
    if kind == "tensor":
        return paddle.to_tensor(np.ascontiguousarray(arr.transpose(2, 0, 1) if arr.ndim == 3 else arr))
    from PIL import Image

    return Image.fromarray(arr)


N, T_, P = "numpy", "tensor", "pil"
U8, F32 = "uint8", "float32"

TRANSFORM_CASES = [
    # resize (bilinear by default; an int sets the shorter side)
    ("resize_up", N, (5, 7, 3), U8, 1, "F.resize(img, (9, 11))"),
    ("resize_down", N, (32, 32, 3), U8, 2, "F.resize(img, (24, 20))"),
    ("resize_mixed", N, (17, 23, 3), U8, 3, "F.resize(img, (40, 15))"),
    ("resize_int", N, (30, 20, 3), U8, 4, "F.resize(img, 12)"),
    ("resize_int_same", N, (30, 12, 3), U8, 5, "F.resize(img, 12)"),
    ("resize_half", N, (20, 20, 3), U8, 6, "F.resize(img, (10, 10))"),
    ("resize_gray2d", N, (10, 12), U8, 7, "F.resize(img, (7, 30))"),
    ("resize_1ch", N, (9, 8, 1), U8, 8, "F.resize(img, (13, 6))"),
    ("resize_4ch", N, (11, 9, 4), U8, 9, "F.resize(img, (6, 17))"),
    ("resize_big", N, (64, 48, 3), U8, 10, "F.resize(img, (100, 77))"),
    ("resize_nearest", N, (17, 23, 3), U8, 11, "F.resize(img, (8, 35), 'nearest')"),
    ("resize_float", N, (16, 12, 3), F32, 12, "F.resize(img, (9, 20))"),
    ("resize_class", N, (18, 14, 3), U8, 13, "T.Resize((10, 10))(img)"),
    # pad
    ("pad_const", N, (4, 5, 3), U8, 20, "F.pad(img, 2)"),
    ("pad_fill_scalar", N, (4, 5, 3), U8, 21, "F.pad(img, (1, 2), fill=7)"),
    ("pad_fill_rgb", N, (4, 5, 3), U8, 22, "F.pad(img, (1, 2, 3, 0), fill=(7, 8, 9))"),
    ("pad_edge", N, (4, 5, 3), U8, 23, "F.pad(img, (2, 1), padding_mode='edge')"),
    ("pad_reflect", N, (4, 5, 3), U8, 24, "F.pad(img, (3, 1, 2, 2), padding_mode='reflect')"),
    ("pad_symmetric", N, (4, 5, 3), U8, 25, "F.pad(img, 2, padding_mode='symmetric')"),
    ("pad_1ch", N, (4, 5, 1), U8, 26, "F.pad(img, 1, fill=3)"),
    ("pad_class", N, (4, 5, 3), U8, 27, "T.Pad([1, 2], fill=[1, 2, 3])(img)"),
    # crops and flips
    ("crop", N, (10, 12, 3), U8, 30, "F.crop(img, 2, 3, 5, 4)"),
    ("center_crop", N, (10, 13, 3), U8, 31, "F.center_crop(img, (5, 6))"),
    ("center_crop_class", N, (11, 12, 3), U8, 32, "T.CenterCrop(7)(img)"),
    ("hflip", N, (4, 5, 3), U8, 33, "F.hflip(img)"),
    ("vflip", N, (4, 5, 3), U8, 34, "F.vflip(img)"),
    ("hflip_1ch", N, (4, 5, 1), U8, 35, "F.hflip(img)"),
    ("vflip_1ch", N, (4, 5, 1), U8, 36, "F.vflip(img)"),
    # colour
    ("gray1", N, (20, 30, 3), U8, 40, "F.to_grayscale(img)"),
    ("gray3", N, (20, 30, 3), U8, 41, "F.to_grayscale(img, 3)"),
    ("gray_float", N, (6, 7, 3), F32, 42, "F.to_grayscale(img)"),
    ("gray_class", N, (8, 9, 3), U8, 43, "T.Grayscale(3)(img)"),
    ("brightness", N, (6, 7, 3), U8, 44, "F.adjust_brightness(img, 1.7)"),
    ("contrast", N, (6, 7, 3), U8, 45, "F.adjust_contrast(img, 0.6)"),
    ("saturation", N, (6, 7, 3), U8, 46, "(np.random.seed(3), F.adjust_saturation(img, 0.5))[1]"),
    ("hue", N, (32, 32, 3), U8, 47, "F.adjust_hue(img, 0.3)"),
    ("hue_neg", N, (32, 32, 3), U8, 48, "F.adjust_hue(img, -0.45)"),
    ("hue_float", N, (6, 7, 3), F32, 49, "F.adjust_hue(img, 0.1)"),
    # tensor conversion and normalisation
    ("to_tensor", N, (4, 5, 3), U8, 50, "F.to_tensor(img)"),
    ("to_tensor_hwc", N, (4, 5, 3), U8, 51, "F.to_tensor(img, 'HWC')"),
    ("to_tensor_float", N, (4, 5, 3), F32, 52, "F.to_tensor(img)"),
    ("to_tensor_2d", N, (4, 5), U8, 53, "F.to_tensor(img)"),
    ("normalize_hwc", N, (4, 5, 3), F32, 54, "F.normalize(img, [10.0, 20.0, 30.0], [2.0, 3.0, 4.0], 'HWC')"),
    ("normalize_rgb", N, (4, 5, 3), F32, 55, "F.normalize(img, [10.0, 20.0, 30.0], [2.0, 3.0, 4.0], 'HWC', True)"),
    ("normalize_chw", N, (3, 4, 5), F32, 56, "T.Normalize(127.5, 127.5)(img)"),
    ("transpose", N, (4, 5, 3), U8, 57, "T.Transpose()(img)"),
    ("transpose_2d", N, (4, 5), U8, 58, "T.Transpose()(img)"),
    ("compose", N, (20, 16, 3), U8, 59,
     "T.Compose([T.Resize(12), T.CenterCrop(10), T.ToTensor(), T.Normalize([0.5] * 3, [0.5] * 3)])(img)"),
    # Tensor images (CHW)
    ("t_resize", T_, (6, 7, 3), F32, 60, "F.resize(img, (9, 4))"),
    ("t_resize_int", T_, (6, 8, 3), F32, 61, "F.resize(img, 3)"),
    ("t_resize_nearest", T_, (6, 7, 3), F32, 62, "F.resize(img, (9, 4), 'nearest')"),
    ("t_resize_bicubic", T_, (6, 7, 3), F32, 63, "F.resize(img, (9, 12), 'bicubic')"),
    ("t_pad_const", T_, (4, 5, 3), F32, 64, "F.pad(img, (1, 2), fill=3)"),
    ("t_pad_edge", T_, (4, 5, 3), F32, 65, "F.pad(img, (1, 2, 0, 3), padding_mode='edge')"),
    ("t_pad_reflect", T_, (4, 5, 3), F32, 66, "F.pad(img, 2, padding_mode='reflect')"),
    ("t_crop", T_, (6, 7, 3), F32, 67, "F.crop(img, 1, 2, 3, 4)"),
    ("t_center_crop", T_, (6, 7, 3), F32, 68, "F.center_crop(img, 3)"),
    ("t_hflip", T_, (4, 5, 3), F32, 69, "F.hflip(img)"),
    ("t_vflip", T_, (4, 5, 3), F32, 70, "F.vflip(img)"),
    ("t_gray", T_, (4, 5, 3), F32, 71, "F.to_grayscale(img, 3)"),
    ("t_brightness", T_, (4, 5, 3), F32, 72, "F.adjust_brightness(img / 255.0, 1.4)"),
    ("t_contrast", T_, (4, 5, 3), F32, 73, "F.adjust_contrast(img / 255.0, 0.7)"),
    ("t_saturation", T_, (4, 5, 3), F32, 74, "F.adjust_saturation(img / 255.0, 0.3)"),
    ("t_hue", T_, (4, 5, 3), F32, 75, "F.adjust_hue(img / 255.0, 0.2)"),
    ("t_hue_u8", T_, (4, 5, 3), U8, 76, "F.adjust_hue(img, -0.3)"),
    ("t_normalize", T_, (4, 5, 3), F32, 77, "F.normalize(img, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0])"),
    ("t_to_tensor_hwc", T_, (4, 5, 3), F32, 78, "F.to_tensor(img, 'HWC')"),
    ("t_erase", T_, (4, 5, 3), F32, 79, "F.erase(img, 1, 1, 2, 3, 0.5)"),
    ("t_transpose", T_, (4, 5, 3), F32, 80, "T.Transpose((1, 2, 0))(img)"),
    # PIL images (Pillow's own results, reached through the same dispatch)
    ("p_resize", P, (9, 7, 3), U8, 90, "F.resize(img, (5, 12))"),
    ("p_resize_int", P, (9, 7, 3), U8, 91, "F.resize(img, 4, 'nearest')"),
    ("p_to_tensor", P, (4, 5, 3), U8, 92, "F.to_tensor(img)"),
    ("p_to_tensor_l", P, (4, 5), U8, 93, "F.to_tensor(img, 'HWC')"),
    ("p_pad", P, (4, 5, 3), U8, 94, "F.pad(img, (1, 2), fill=(5, 6, 7))"),
    ("p_pad_reflect", P, (4, 5, 3), U8, 95, "F.pad(img, 2, padding_mode='reflect')"),
    ("p_hflip", P, (4, 5, 3), U8, 96, "F.hflip(img)"),
    ("p_vflip", P, (4, 5, 3), U8, 97, "F.vflip(img)"),
    ("p_crop", P, (6, 7, 3), U8, 98, "F.center_crop(img, (3, 4))"),
    ("p_gray", P, (6, 7, 3), U8, 99, "F.to_grayscale(img, 3)"),
    ("p_brightness", P, (6, 7, 3), U8, 100, "F.adjust_brightness(img, 1.3)"),
    ("p_contrast", P, (6, 7, 3), U8, 101, "F.adjust_contrast(img, 0.4)"),
    ("p_hue", P, (6, 7, 3), U8, 102, "F.adjust_hue(img, 0.1)"),
    ("p_normalize", P, (4, 5, 3), U8, 103, "F.normalize(img, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0], 'HWC')"),
    ("p_transpose", P, (4, 5, 3), U8, 104, "T.Transpose()(img)"),
]

# random transforms: the same draws under the same seeds (outputs compared exactly)
RANDOM_CASES = [
    ("r_hflip", N, (4, 5, 3), U8, 200, "T.RandomHorizontalFlip()(img)"),
    ("r_vflip", N, (4, 5, 3), U8, 201, "T.RandomVerticalFlip(0.3)(img)"),
    ("r_crop", N, (10, 12, 3), U8, 202, "T.RandomCrop((5, 6))(img)"),
    ("r_crop_pad", N, (6, 5, 3), U8, 203, "T.RandomCrop(8, padding=1, pad_if_needed=True, fill=9)(img)"),
    ("r_resized_crop", N, (20, 24, 3), U8, 204, "T.RandomResizedCrop(8)(img)"),
    ("r_resized_crop_scale", N, (20, 24, 3), U8, 205,
     "T.RandomResizedCrop((6, 9), scale=(0.5, 0.9), ratio=(0.5, 2.0))(img)"),
    ("r_brightness", N, (5, 6, 3), U8, 206, "T.BrightnessTransform(0.4)(img)"),
    ("r_contrast", N, (5, 6, 3), U8, 207, "T.ContrastTransform(0.4)(img)"),
    ("r_saturation", N, (5, 6, 3), U8, 208, "T.SaturationTransform(0.4)(img)"),
    ("r_jitter", N, (5, 6, 3), U8, 209, "T.ColorJitter(0.4, 0.4, 0.4)(img)"),
    ("r_hue", N, (5, 6, 3), U8, 215, "T.HueTransform(0.4)(img)"),
    ("r_jitter_hue", N, (5, 6, 3), U8, 216, "T.ColorJitter(0.2, 0.2, 0.2, 0.1)(img)"),
    ("r_erasing", N, (10, 12, 3), U8, 210, "T.RandomErasing(prob=0.9, value=(1, 2, 3))(img)"),
    ("r_t_erasing", T_, (10, 12, 3), F32, 211, "T.RandomErasing(prob=0.9, value=0.5)(img)"),
    ("r_t_jitter", T_, (5, 6, 3), F32, 212, "T.ColorJitter(0.3, 0.3, 0.3, 0.2)(img / 255.0)"),
    ("r_t_resized_crop", T_, (12, 10, 3), F32, 213, "T.RandomResizedCrop(5)(img)"),
    ("r_pipeline", N, (24, 20, 3), U8, 214,
     "T.Compose([T.RandomResizedCrop(12), T.RandomHorizontalFlip(), T.RandomVerticalFlip(), "
     "T.RandomCrop(10, padding=2), T.ColorJitter(0.2, 0.2, 0.2), T.ToTensor()])(img)"),
]

# gradients through Tensor transforms: d sum(out * w) / d img, with w = cos(arange(out.size))
GRAD_CASES = [
    ("g_pipeline", (6, 7, 3), 300,
     "T.Compose([T.Resize((5, 9)), T.Normalize([1.0, 2.0, 3.0], [2.0, 3.0, 4.0]), T.RandomHorizontalFlip(1.0), "
     "T.Pad((1, 2), padding_mode='reflect'), T.CenterCrop((6, 8))])(img)"),
    ("g_color", (4, 5, 3), 301, "F.adjust_saturation(F.adjust_contrast(F.adjust_brightness(img, 1.2), 0.8), 0.7)"),
    ("g_gray_resize", (6, 6, 3), 302, "F.to_grayscale(F.resize(img, 4, 'bicubic'), 3)"),
]

# misuse: what Paddle raises (type name), or that it accepts it
ERROR_CASES = [
    ("bad_type_list", "F.to_tensor([[1, 2], [3, 4]])"),
    ("bad_ndim", "F.hflip(np.zeros((2, 2, 2, 2), np.uint8))"),
    ("bad_pad_len", "F.pad(np.zeros((4, 4, 3), np.uint8), (1, 2, 3))"),
    ("t_pad_symmetric", "F.pad(paddle.zeros([3, 4, 4]), 1, padding_mode='symmetric')"),
    ("bad_gray_channels", "F.to_grayscale(np.zeros((4, 4, 3), np.uint8), 2)"),
    ("t_gray_channels", "F.to_grayscale(paddle.zeros([3, 4, 4]), 2)"),
    ("hue_range", "F.adjust_hue(paddle.zeros([3, 4, 4]), 0.7)"),
    ("bad_size", "F.resize(np.zeros((4, 4, 3), np.uint8), (1, 2, 3))"),
    ("to_tensor_format", "F.to_tensor(np.zeros((4, 4, 3), np.uint8), 'NCHW')"),
    ("t_bad_ndim", "F.hflip(paddle.zeros([4, 4]))"),
]

# models: (name, constructor expression over ``M`` = vision.models, input shape or None for keys/shapes only)
MODEL_CASES = [
    ("lenet", "M.LeNet()", [2, 1, 28, 28]),
    ("resnet18", "M.resnet18(num_classes=10)", [2, 3, 64, 64]),
    ("mobilenet_v3_small", "M.mobilenet_v3_small(scale=0.5, num_classes=10)", [2, 3, 64, 64]),
    ("resnet34", "M.resnet34(num_classes=10)", None),
    ("resnet50", "M.resnet50(num_classes=10)", None),
    ("resnext50_32x4d", "M.resnext50_32x4d(num_classes=10)", None),
    ("wide_resnet50_2", "M.wide_resnet50_2(num_classes=0, with_pool=False)", None),
    ("vgg11_bn", "M.vgg11(batch_norm=True, num_classes=0)", None),
    ("vgg16", "M.vgg16(num_classes=0, with_pool=False)", None),
    ("alexnet", "M.alexnet(num_classes=10)", None),
    ("googlenet", "M.googlenet(num_classes=10)", None),
    ("mobilenet_v1", "M.mobilenet_v1(scale=0.25, num_classes=10)", None),
    ("mobilenet_v2", "M.mobilenet_v2(scale=0.5, num_classes=10)", None),
    ("mobilenet_v3_large", "M.mobilenet_v3_large(scale=0.35, num_classes=10)", None),
    ("squeezenet1_0", "M.squeezenet1_0(num_classes=10)", None),
    ("squeezenet1_1", "M.squeezenet1_1(num_classes=10, with_pool=False)", None),
    ("shufflenet_v2_x0_25", "M.shufflenet_v2_x0_25(num_classes=10)", None),
    ("shufflenet_v2_swish", "M.shufflenet_v2_swish(num_classes=0)", None),
    ("densenet121", "M.densenet121(num_classes=10)", None),
    ("inception_v3", "M.inception_v3(num_classes=10)", None),
]

# what is compared in train mode (BatchNorm uses the batch's statistics and updates its running ones): the
# whole model, or the part before a classifier whose dropout draws a random mask
TRAIN_FORWARD = {
    "lenet": "model(x)",
    "resnet18": "model(x)",
    "mobilenet_v3_small": "model.avgpool(model.lastconv(model.blocks(model.conv(x))))",
}


def formula_weights(state_shapes):
    """Deterministic weights for a state dict ({name: shape}), made with numpy's seeded legacy generator (stable
    across numpy versions): He-scaled normal weights, small biases, BatchNorm scales near 1, running means near 0
    and positive running variances (used for models too big to store Paddle's own random weights)."""
    rs = np.random.RandomState(1234)
    out = {}
    for name, shape in state_shapes.items():
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        if name.endswith("_variance"):
            v = rs.uniform(0.5, 1.5, shape)
        elif name.endswith("_mean"):
            v = rs.uniform(-0.1, 0.1, shape)
        elif len(shape) == 1:  # biases and BatchNorm shifts/scales
            v = (1.0 if "bn" in name or ".1.weight" in name else 0.0) + rs.uniform(-0.1, 0.1, shape)
        else:
            v = rs.standard_normal(shape) * np.sqrt(2.0 / fan_in)
        out[name] = np.asarray(v, np.float32).reshape(shape)
    return out


def model_input(shape, seed=0):
    return np.random.RandomState(seed).standard_normal(shape).astype(np.float32)


# data sets: synthetic files in the formats Paddle reads (made in a temporary folder by both sides)
MNIST_COUNT = 100  # Paddle parses MNIST in chunks of 100 records


def write_mnist(folder, count=MNIST_COUNT, seed=0):
    """(image_path, label_path) of gzip idx files with ``count`` 28x28 images and labels."""
    import gzip
    import os
    import struct

    rs = np.random.RandomState(seed)
    images = rs.randint(0, 256, (count, 28, 28)).astype(np.uint8)
    labels = rs.randint(0, 10, count).astype(np.uint8)
    ip, lp = os.path.join(folder, "images-idx3-ubyte.gz"), os.path.join(folder, "labels-idx1-ubyte.gz")
    with gzip.open(ip, "wb") as f:
        f.write(struct.pack(">IIII", 2051, count, 28, 28) + images.tobytes())
    with gzip.open(lp, "wb") as f:
        f.write(struct.pack(">II", 2049, count) + labels.tobytes())
    return ip, lp


def write_cifar(folder, hundred=False, seed=0):
    """Path of a tar.gz laid out as the python-version CIFAR archive (two train batches and a test batch for
    CIFAR-10, 'train' and 'test' members with fine labels for CIFAR-100), a few images each."""
    import io
    import os
    import pickle
    import tarfile

    rs = np.random.RandomState(seed)
    path = os.path.join(folder, "cifar-100-python.tar.gz" if hundred else "cifar-10-python.tar.gz")
    if hundred:
        members = {"cifar-100-python/train": 5, "cifar-100-python/test": 3}
    else:
        members = {"cifar-10-batches-py/data_batch_2": 3, "cifar-10-batches-py/data_batch_1": 4,
                   "cifar-10-batches-py/test_batch": 2}
    with tarfile.open(path, "w:gz") as tar:
        for name, n in members.items():
            data = rs.randint(0, 256, (n, 3072)).astype(np.uint8)
            labels = [int(x) for x in rs.randint(0, 100 if hundred else 10, n)]
            batch = {b"data": data, (b"fine_labels" if hundred else b"labels"): labels}
            raw = pickle.dumps(batch)
            info = tarfile.TarInfo(name)
            info.size = len(raw)
            tar.addfile(info, io.BytesIO(raw))
    return path


def nms_inputs(n=40, seed=0):
    """Random boxes ([n, 4], x1 < x2, y1 < y2, overlapping often), distinct scores and 3 categories."""
    rs = np.random.RandomState(seed)
    xy = rs.uniform(0, 20, (n, 2))
    wh = rs.uniform(5, 25, (n, 2))
    boxes = np.concatenate([xy, xy + wh], axis=1).astype(np.float32)
    scores = rs.permutation(n).astype(np.float32) / n
    cats = rs.randint(0, 3, n).astype(np.int64)
    return boxes, scores, cats


# (name, keyword expression over boxes b, scores s, category ids c): nms(b, **kwargs)
NMS_CASES = [
    ("plain", "dict(iou_threshold=0.3)"),
    ("plain_high", "dict(iou_threshold=0.7)"),
    ("scores", "dict(iou_threshold=0.4, scores=s)"),
    ("categories", "dict(iou_threshold=0.4, scores=s, category_idxs=c, categories=[0, 1, 2])"),
    ("categories_top_k", "dict(iou_threshold=0.2, scores=s, category_idxs=c, categories=[0, 2], top_k=5)"),
]
