"""``paddle.vision.transforms`` as a data pipeline uses them, on the three image kinds Paddle accepts: PIL images
made from numpy HWC uint8 arrays (Paddle's default ``pil`` backend), CHW Tensors (uint8 and float32), and numpy HWC
arrays where Paddle handles them without OpenCV (crop, center_crop, erase, normalize, to_tensor, Transpose, the
colour transforms with value 0). The classes: Resize (int and tuple sizes, every PIL interpolation, nearest/bilinear/
bicubic on Tensors), CenterCrop, Pad (int, pair and 4-tuple padding, fill, the modes constant/edge/reflect/symmetric),
Normalize (mean/std lists, CHW/HWC, to_rgb), ToTensor (the dtypes and scalings of uint8, float and 'L'/'I'/'F' PIL
images, data_format HWC), Transpose, Grayscale(1 or 3), Brightness/Contrast/Saturation/HueTransform with value 0,
Compose; the functional API (resize, crop, center_crop, pad, hflip, vflip, rotate with interpolation/expand/center/
fill, affine, perspective, erase, to_grayscale, normalize, adjust_brightness/contrast/saturation/hue with fixed
factors, to_tensor) on both PIL images and Tensors; transforms with ``keys`` over (image, boxes) and (image,
image) inputs and a BaseTransform subclass with ``_apply_image``/``_apply_boxes``; RandomResizedCrop, RandomAffine,
RandomPerspective, RandomRotation, ColorJitter and RandomErasing under ``random.seed`` (Python's stream, which both
libraries draw from); uint8 Tensors resized (nearest, bilinear, and
``F.interpolate`` trilinear and align_corners, Paddle's uint8 kernel bit for bit), every uint8 result recorded
exactly; then a Dataset whose
Compose pipeline feeds a tiny CNN trained a few steps.

Left out: uint8 Tensors through adjust_hue (Paddle's float32 division of the saturation, on CPU, is an ulp off
IEEE division now and then, which truncation to uint8 makes a whole level in about 0.2% of pixels; float images
agree), and through pad/flips/brightness/warps/grey (Paddle has no uint8 kernel: pylayer_jax pads, flips and
brightens them and raises a TypeError for the rest); crop/center_crop of 4-D batches (Paddle's crop slices the
channel and height axes). Also left out: numpy HWC images through resize/pad/flip/rotate/affine/perspective/grayscale/adjust_*: Paddle sends them
to its OpenCV backend, which needs ``cv2`` (not installed beside the Paddle 3.3.1 used as the oracle)."""
import json
import os
import random

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import paddle.vision.transforms as T
import paddle.vision.transforms.functional as TF
from PIL import Image

rng = np.random.default_rng(0)
H, W = 10, 13
ARR = rng.integers(0, 256, size=(H, W, 3), dtype=np.uint8)
PIL = Image.fromarray(ARR)
TEN = paddle.to_tensor(ARR.transpose(2, 0, 1))                   # uint8 CHW
TENF = paddle.to_tensor(ARR.transpose(2, 0, 1).astype("float32") / 255.0)
out = {"backend": paddle.vision.get_image_backend()}


def rec(key, x):
    if isinstance(x, Image.Image):
        out[key] = [x.mode, list(x.size), np.asarray(x).tolist()]
    elif isinstance(x, np.ndarray):
        out[key] = [str(x.dtype), list(x.shape), np.round(x.astype("float64"), 5).tolist()]
    else:
        out[key] = [str(x.dtype), list(x.shape), np.round(x.numpy().astype("float64"), 5).tolist()]


def attempt(key, f):
    try:
        rec(key, f())
    except Exception as e:  # noqa: BLE001
        out[key] = ["error", type(e).__name__]


# --- classes on PIL images ---
for interp in ("nearest", "bilinear", "bicubic", "box", "lanczos", "hamming"):
    rec(f"Resize_pil_{interp}", T.Resize((7, 9), interpolation=interp)(PIL))
rec("Resize_pil_int", T.Resize(6)(PIL))
rec("Resize_pil_up", T.Resize((15, 17), interpolation="bilinear")(PIL))
rec("CenterCrop_pil", T.CenterCrop(6)(PIL))
rec("CenterCrop_pil_tuple", T.CenterCrop((5, 8))(PIL))
for mode in ("constant", "edge", "reflect", "symmetric"):
    rec(f"Pad_pil_{mode}", T.Pad((1, 2, 3, 1), fill=(9, 8, 7) if mode == "constant" else 0, padding_mode=mode)(PIL))
rec("Pad_pil_int", T.Pad(2, fill=5)(PIL))
rec("Pad_pil_pair", T.Pad((1, 3))(PIL))
rec("Grayscale_pil1", T.Grayscale()(PIL))
rec("Grayscale_pil3", T.Grayscale(3)(PIL))
for cls in (T.BrightnessTransform, T.ContrastTransform, T.SaturationTransform, T.HueTransform):
    rec(f"{cls.__name__}0_pil", cls(0)(PIL))
rec("ToTensor_pil", T.ToTensor()(PIL))
rec("ToTensor_pil_hwc", T.ToTensor(data_format="HWC")(PIL))
rec("ToTensor_pil_L", T.ToTensor()(PIL.convert("L")))
rec("ToTensor_pil_F", TF.to_tensor(Image.fromarray(ARR[..., 0].astype("float32") * 0.5)))
rec("ToTensor_pil_I", TF.to_tensor(Image.fromarray(ARR[..., 0].astype("int32") * 3)))
pipe = T.Compose([T.Resize(8), T.CenterCrop(8), T.Pad(1, padding_mode="reflect"), T.ToTensor(),
                  T.Normalize(mean=[0.5, 0.4, 0.3], std=[0.2, 0.25, 0.3])])
rec("Compose_pil", pipe(PIL))
out["Compose_repr_len"] = len(pipe.transforms)

# --- classes on numpy arrays (the paths Paddle takes without OpenCV) ---
rec("ToTensor_np", T.ToTensor()(ARR))
rec("ToTensor_np_float", T.ToTensor()(ARR.astype("float32") / 7.0))
rec("ToTensor_np_hwc", T.ToTensor(data_format="HWC")(ARR))
rec("ToTensor_np_2d", T.ToTensor()(ARR[..., 0]))
rec("Transpose_np", T.Transpose()(ARR))
rec("Transpose_np_order", T.Transpose((2, 1, 0))(ARR))
rec("Normalize_np_hwc", T.Normalize([120.0, 110.0, 100.0], [50.0, 60.0, 70.0], data_format="HWC")(
    ARR.astype("float32")))
rec("Normalize_np_rgb", T.Normalize([120.0, 110.0, 100.0], [50.0, 60.0, 70.0], data_format="HWC", to_rgb=True)(
    ARR.astype("float32")))
rec("Normalize_np_chw", T.Normalize(127.5, 127.5)(ARR.transpose(2, 0, 1).astype("float32")))
rec("Normalize_np_chw_rgb", T.Normalize([1.0, 2.0, 3.0], [2.0, 3.0, 4.0], to_rgb=True)(
    ARR.transpose(2, 0, 1).astype("float32")))
for cls in (T.BrightnessTransform, T.ContrastTransform, T.SaturationTransform, T.HueTransform):
    rec(f"{cls.__name__}0_np", cls(0)(ARR))
rec("center_crop_np", TF.center_crop(ARR, (4, 6)))
rec("crop_np", TF.crop(ARR, 2, 3, 4, 5))
rec("erase_np", TF.erase(ARR, 1, 2, 3, 4, np.full((3, 4, 3), 7, np.uint8)))
rec("erase_np_scalar", TF.erase(ARR.astype("float32"), 0, 0, 2, 2, 0.5))
rec("normalize_np", TF.normalize(ARR.astype("float32"), [1.0, 2.0, 3.0], [4.0, 5.0, 6.0], data_format="HWC"))

# --- classes on Tensors ---
for interp in ("nearest", "bilinear", "bicubic"):
    rec(f"Resize_ten_{interp}", T.Resize((7, 9), interpolation=interp)(TENF))
rec("Resize_ten_int", T.Resize(6)(TENF))
for interp in ("nearest", "bilinear"):
    rec(f"Resize_ten_u8_{interp}", T.Resize((7, 17), interpolation=interp)(TEN))
rec("f_resize_ten_u8", TF.resize(TEN, 8))
rec("interp_u8_trilinear", F.interpolate(TEN.reshape([1, 1, 3, 10, 13]), size=(4, 6, 9), mode="trilinear"))
rec("interp_u8_corners", F.interpolate(TEN.unsqueeze(0), scale_factor=1.7, mode="bilinear", align_corners=True))
rec("CenterCrop_ten", T.CenterCrop(6)(TEN))
for mode in ("constant", "edge", "reflect", "symmetric"):
    attempt(f"Pad_ten_{mode}", lambda mode=mode: T.Pad((1, 2, 3, 1), fill=3.0 if mode == "constant" else 0,
                                                       padding_mode=mode)(TENF))
rec("Normalize_ten", T.Normalize([0.5, 0.4, 0.3], [0.2, 0.25, 0.3])(TENF))
rec("Normalize_ten_rgb", T.Normalize([0.5, 0.4, 0.3], [0.2, 0.25, 0.3], to_rgb=True)(TENF))
rec("Grayscale_ten", T.Grayscale(3)(TENF))
for cls in (T.BrightnessTransform, T.ContrastTransform, T.SaturationTransform, T.HueTransform):
    rec(f"{cls.__name__}0_ten", cls(0)(TENF))

# --- functional API on PIL images ---
rec("f_resize_pil", TF.resize(PIL, 7, interpolation="bicubic"))
rec("f_crop_pil", TF.crop(PIL, 1, 2, 5, 6))
rec("f_center_crop_pil", TF.center_crop(PIL, 5))
rec("f_pad_pil", TF.pad(PIL, [2, 1], fill=(1, 2, 3)))
rec("f_pad_pil_sym", TF.pad(PIL, 2, padding_mode="symmetric"))
rec("f_hflip_pil", TF.hflip(PIL))
rec("f_vflip_pil", TF.vflip(PIL))
rec("f_rotate_pil", TF.rotate(PIL, 30))
rec("f_rotate_pil_bilinear", TF.rotate(PIL, 45, interpolation="bilinear"))
rec("f_rotate_pil_expand", TF.rotate(PIL, 30, expand=True, fill=(10, 20, 30)))
rec("f_rotate_pil_center", TF.rotate(PIL, -20, center=(2, 3), fill=5))
rec("f_affine_pil", TF.affine(PIL, 15, (2, -1), 1.1, (5, 0)))
rec("f_affine_pil_bilinear", TF.affine(PIL, -30, (0, 1), 0.9, 0, interpolation="bilinear", fill=9,
                                       center=(4, 4)))
sp, ep = [[0, 0], [12, 0], [12, 9], [0, 9]], [[1, 0], [11, 2], [12, 9], [0, 7]]
rec("f_perspective_pil", TF.perspective(PIL, sp, ep))
rec("f_perspective_pil_bilinear", TF.perspective(PIL, sp, ep, interpolation="bilinear", fill=3))
rec("f_erase_pil", TF.erase(PIL, 2, 2, 3, 3, np.zeros((3, 3, 3), np.uint8)))
rec("f_gray_pil", TF.to_grayscale(PIL))
rec("f_gray_pil3", TF.to_grayscale(PIL, 3))
for f, v in ((TF.adjust_brightness, 1.3), (TF.adjust_brightness, 0.6), (TF.adjust_contrast, 1.4),
             (TF.adjust_contrast, 0.5), (TF.adjust_saturation, 1.7), (TF.adjust_saturation, 0.3),
             (TF.adjust_hue, 0.1), (TF.adjust_hue, -0.25)):
    rec(f"f_{f.__name__}_{v}_pil", f(PIL, v))
rec("f_normalize_pil", TF.normalize(PIL, [100.0, 110.0, 120.0], [50.0, 50.0, 50.0], data_format="HWC"))

# --- functional API on Tensors ---
rec("f_resize_ten", TF.resize(TENF, (8, 8), interpolation="bilinear"))
rec("f_crop_ten", TF.crop(TEN, 1, 2, 5, 6))
rec("f_center_crop_ten", TF.center_crop(TEN, (4, 5)))
rec("f_pad_ten", TF.pad(TENF, [2, 1], fill=0.5))
rec("f_hflip_ten", TF.hflip(TENF))
rec("f_vflip_ten", TF.vflip(TENF))
rec("f_rotate_ten", TF.rotate(TENF, 30))
rec("f_rotate_ten_bilinear", TF.rotate(TENF, 45, interpolation="bilinear"))
rec("f_rotate_ten_expand", TF.rotate(TENF, 30, expand=True, fill=[0.1, 0.2, 0.3]))
rec("f_rotate_ten_center", TF.rotate(TENF, -20, center=(2, 3)))
rec("f_affine_ten", TF.affine(TENF, 15, (2, -1), 1.1, (5, 0)))
rec("f_affine_ten_bilinear", TF.affine(TENF, -30, (0, 1), 0.9, 0, interpolation="bilinear", center=(4, 4)))
rec("f_perspective_ten", TF.perspective(TENF, sp, ep))
rec("f_perspective_ten_bilinear", TF.perspective(TENF, sp, ep, interpolation="bilinear"))
rec("f_erase_ten", TF.erase(TENF, 2, 2, 3, 3, paddle.zeros([3, 3, 3])))
rec("f_erase_ten_scalar", TF.erase(TENF, 0, 1, 2, 4, 0.25))
rec("f_gray_ten", TF.to_grayscale(TENF))
rec("f_gray_ten3", TF.to_grayscale(TENF, 3))
for f, v in ((TF.adjust_brightness, 1.3), (TF.adjust_contrast, 1.4), (TF.adjust_contrast, 0.5),
             (TF.adjust_saturation, 1.7), (TF.adjust_saturation, 0.3), (TF.adjust_hue, 0.1),
             (TF.adjust_hue, -0.25)):
    rec(f"f_{f.__name__}_{v}_ten", f(TENF, v))
rec("f_normalize_ten", TF.normalize(TENF, [0.5, 0.5, 0.5], [0.25, 0.25, 0.25]))
rec("f_to_tensor_np", TF.to_tensor(ARR, data_format="HWC"))


# --- multi-input transforms (keys) and a custom BaseTransform; random transforms under fixed seeds ---
class FlipWithBoxes(T.BaseTransform):
    def __init__(self, keys=None):
        super().__init__(keys)

    def _apply_image(self, img):
        return TF.hflip(img)

    def _apply_boxes(self, boxes):
        w = 13
        return np.stack([w - boxes[:, 2], boxes[:, 1], w - boxes[:, 0], boxes[:, 3]], 1)


rec_boxes = np.array([[1.0, 2.0, 5.0, 6.0], [7.0, 0.0, 12.0, 4.0]])
img_out, boxes_out = FlipWithBoxes(keys=("image", "boxes"))((PIL, rec_boxes))
rec("keys_custom_image", img_out)
rec("keys_custom_boxes", boxes_out)
rec("keys_custom_plain", FlipWithBoxes()(TENF))
pair = T.Compose([T.Resize((5, 6), keys=("image", "image")), T.ToTensor(keys=("image", "image"))])((PIL, PIL))
rec("keys_pair_0", pair[0])
rec("keys_pair_1", pair[1])
random.seed(5)
np.random.seed(5)
paddle.seed(5)
for i in range(2):
    rec(f"RandomResizedCrop_{i}", T.RandomResizedCrop((5, 7), scale=(0.3, 0.9), ratio=(0.5, 2),
                                                      interpolation="bicubic")(PIL))
    rec(f"RandomAffine_{i}", T.RandomAffine(30, translate=(0.2, 0.1), scale=(0.9, 1.1), shear=(-5, 5, -3, 3),
                                            fill=9)(PIL))
    rec(f"RandomPerspective_ten_{i}", T.RandomPerspective(1.0, 0.3, interpolation="bilinear")(TENF))
    rec(f"RandomRotation_ten_{i}", T.RandomRotation((-20, 40), expand=True, center=(3, 3))(TENF))
    rec(f"ColorJitter_ten_{i}", T.ColorJitter(0.4, 0.4, 0.4, 0.2)(TENF))
    rec(f"RandomErasing_np_{i}", T.RandomErasing(1.0, scale=(0.1, 0.3), value=5)(ARR))


# --- a Dataset feeding a tiny CNN ---
class Images(paddle.io.Dataset):
    def __init__(self, n, transform):
        r = np.random.default_rng(1)
        self.imgs = [Image.fromarray(r.integers(0, 256, size=(12, 14, 3), dtype=np.uint8)) for _ in range(n)]
        self.labels = r.integers(0, 3, size=n)
        self.transform = transform

    def __getitem__(self, i):
        return self.transform(self.imgs[i]), np.int64(self.labels[i])

    def __len__(self):
        return len(self.imgs)


train_tf = T.Compose([T.Resize((10, 10)), T.Pad(1, padding_mode="edge"), T.CenterCrop(10), T.Grayscale(3),
                      T.ContrastTransform(0.0), T.ToTensor(), T.Normalize([0.5] * 3, [0.5] * 3)])
loader = paddle.io.DataLoader(Images(16, train_tf), batch_size=4, shuffle=False)
paddle.seed(0)
w_rng = np.random.default_rng(2)
model = nn.Sequential(nn.Conv2D(3, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool2D(1), nn.Flatten(), nn.Linear(4, 3))
for p in model.parameters():
    p.set_value(w_rng.standard_normal(p.shape).astype("float32") * 0.3)
opt = paddle.optimizer.Adam(1e-2, parameters=model.parameters())
losses = []
for _epoch in range(2):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
out["losses"] = losses
out["batch"] = [list(xb.shape), str(xb.dtype), list(yb.shape), str(yb.dtype)]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(out, f)
