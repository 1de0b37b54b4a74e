"""An image data pipeline as users build it: a ``paddle.io.Dataset`` over PIL images made from numpy arrays with
``paddle.vision.transforms`` (Compose, Resize, CenterCrop, Pad, Grayscale, BrightnessTransform, ContrastTransform,
RandomCrop and RandomHorizontalFlip under ``random.seed``, ToTensor, Normalize; Transpose and Normalize on numpy
arrays; the functional forms on PIL images and Tensors), a ``DataLoader`` with batch_size, drop_last, a custom
collate_fn and a BatchSampler, ``Subset``, ``random_split`` (the sizes and that the parts cover the dataset: its permutation comes from
``paddle.randperm``, whose stream is not Paddle's; Paddle 3.3.1 ignores the ``generator`` argument),
``ConcatDataset``, ``TensorDataset``, ``ComposeDataset``, an ``IterableDataset`` in a DataLoader, the default
collate of dict samples, ``DistributedBatchSampler``, more random transforms under ``random.seed``; then
``paddle.vision.models.LeNet`` (trained two epochs) and ``MobileNetV2(scale=0.25)`` (evaluated, and one training step) on the batches.

Left out: numpy (HWC ndarray) images through Resize/CenterCrop/Pad/Grayscale: Paddle sends them to its OpenCV
backend, which needs ``cv2`` (not installed beside the Paddle 3.3.1 used as the oracle). Deliberately not mirrored:
Paddle 3.3.1's ``random_split`` accepts a ``generator`` and ignores it; pylayer_jax raises NotImplementedError
saying to call ``paddle.seed`` instead, so the program passes ``generator=None``."""
import json
import os
import random

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import paddle.vision.transforms as T
import paddle.vision.transforms.functional as TF
from paddle.io import (
    BatchSampler,
    ComposeDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from paddle.vision.models import LeNet, MobileNetV2
from PIL import Image

rng = np.random.default_rng(0)
IMGS = rng.integers(0, 256, size=(24, 32, 36, 3), dtype=np.uint8)
LABELS = (IMGS.reshape(24, -1).mean(1) > 127.5).astype("int64") + 2 * (np.arange(24) % 2)
rec = {}


def summary(x):
    a = np.asarray(x, dtype=np.float64)
    return [list(np.shape(x)), round(float(a.sum()), 3), round(float(a.std()), 4), a.ravel()[:5].tolist()]


class ImageDS(Dataset):
    def __init__(self, transform, n=24):
        super().__init__()
        self.transform, self.n = transform, n

    def __getitem__(self, i):
        img = Image.fromarray(IMGS[i])
        return self.transform(img), LABELS[i]

    def __len__(self):
        return self.n


gray = T.Compose([T.Resize(30), T.CenterCrop(28), T.Grayscale(), T.ToTensor(), T.Normalize(mean=[0.5], std=[0.5])])
color = T.Compose([T.Resize((66, 66)), T.Pad(2, fill=7), T.CenterCrop(64), T.BrightnessTransform(0.0),
                   T.ToTensor(), T.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])])

img0 = Image.fromarray(IMGS[0])
rec["t_resize_int"] = summary(T.Resize(20)(img0))
rec["t_resize_pair"] = summary(T.Resize((16, 20), interpolation="nearest")(img0))
rec["t_center"] = summary(T.CenterCrop((10, 12))(img0))
rec["t_pad"] = [summary(T.Pad([1, 2, 3, 4], padding_mode=m)(img0)) for m in ("constant", "edge", "reflect", "symmetric")]
rec["t_gray"] = [summary(T.Grayscale()(img0)), summary(T.Grayscale(3)(img0))]
rec["t_totensor"] = [summary(T.ToTensor()(img0).numpy()), str(T.ToTensor()(img0).dtype)]
rec["t_totensor_hwc"] = summary(T.ToTensor(data_format="HWC")(img0).numpy())
rec["t_transpose"] = [summary(T.Transpose()(IMGS[1])), str(T.Transpose()(IMGS[1]).dtype)]
rec["t_normalize_np"] = summary(T.Normalize(mean=127.5, std=127.5, data_format="HWC")(IMGS[1].astype("float32")))
rec["t_normalize_to_rgb"] = summary(T.Normalize([0.0] * 3, [255.0] * 3, data_format="HWC", to_rgb=True)(
    IMGS[1].astype("float32")))
rec["t_bright"] = summary(TF.adjust_brightness(img0, 1.3))
rec["t_contrast"] = summary(TF.adjust_contrast(img0, 0.6))
rec["t_hflip"] = summary(TF.hflip(img0))
rec["t_crop"] = summary(TF.crop(img0, 3, 4, 10, 8))
ten = paddle.to_tensor(IMGS[2].transpose(2, 0, 1).astype("float32") / 255.0)
rec["t_tensor_resize"] = summary(TF.resize(ten, [16, 18]).numpy())
rec["t_tensor_center"] = summary(TF.center_crop(ten, 20).numpy())
rec["t_tensor_pad"] = summary(TF.pad(ten, 2).numpy())
rec["t_tensor_gray"] = summary(TF.to_grayscale(ten).numpy())
rec["t_tensor_norm"] = summary(TF.normalize(ten, [0.5, 0.5, 0.5], [0.2, 0.2, 0.2]).numpy())
rec["t_compose_gray"] = summary(gray(img0).numpy())
rec["t_compose_color"] = summary(color(img0).numpy())

random.seed(3)
np.random.seed(3)
aug = T.Compose([T.RandomCrop(24, padding=2), T.RandomHorizontalFlip(0.5), T.ContrastTransform(0.4),
                 T.ToTensor()])
rec["t_random"] = [summary(aug(Image.fromarray(IMGS[i])).numpy()) for i in range(4)]
random.seed(5)
rec["t_colorjitter"] = summary(T.ColorJitter(0.2, 0.2, 0.2, 0.05)(img0))

# datasets and loaders
ds = ImageDS(gray)
x0, y0 = ds[0]
rec["ds_item"] = [list(x0.shape), str(x0.dtype), int(y0), type(y0).__name__]
dl = DataLoader(ds, batch_size=5, shuffle=False, drop_last=True)
rec["dl_len"] = len(dl)
rec["dl_batches"] = [[list(b[0].shape), str(b[0].dtype), b[1].numpy().tolist(), str(b[1].dtype)] for b in dl]
rec["dl_nodrop"] = [list(b[0].shape) for b in DataLoader(ds, batch_size=5, shuffle=False, drop_last=False)]


def collate(batch):
    xs = np.stack([np.asarray(x) for x, _ in batch])
    ys = np.array([y for _, y in batch], "int64")
    return paddle.to_tensor(xs), paddle.to_tensor(ys), len(batch)


bsamp = BatchSampler(ds, batch_size=7, shuffle=False, drop_last=False)
rec["bsamp"] = [len(bsamp), [list(b) for b in bsamp]]
coll = [[list(x.shape), y.numpy().tolist(), n] for x, y, n in DataLoader(ds, batch_sampler=bsamp, collate_fn=collate)]
rec["collate"] = coll
sub = Subset(ds, [1, 3, 5, 7, 9])
rec["subset"] = [len(sub), int(sub[2][1]), summary(sub[2][0].numpy())]
paddle.seed(11)
parts = random_split(ds, [16, 8])
rec["split"] = [[len(p) for p in parts], sorted(list(parts[0].indices) + list(parts[1].indices))]
paddle.seed(12)
parts2 = random_split(ds, [0.5, 0.25, 0.25], generator=None)
rec["split_frac"] = [[len(p) for p in parts2], sorted(i for p in parts2 for i in p.indices)]
train_part, eval_part = Subset(ds, list(range(16))), Subset(ds, list(range(16, 24)))
cat = ConcatDataset([Subset(ds, [0, 1, 2]), Subset(ds, [10, 11])])
rec["concat"] = [len(cat), int(cat[3][1]), list(cat.cumulative_sizes)]
tds = TensorDataset([paddle.to_tensor(IMGS[:6].astype("float32")), paddle.to_tensor(LABELS[:6])])
rec["tensor_ds"] = [len(tds), [list(t.shape) for t in tds[2]], [list(b[0].shape) for b in DataLoader(tds, batch_size=4)]]
comp = ComposeDataset([Subset(ds, list(range(6))), tds])
item = comp[4]
rec["compose"] = [len(comp), len(item), [list(np.shape(v)) for v in item]]


class Stream(IterableDataset):
    def __iter__(self):
        for i in range(11):
            yield gray(Image.fromarray(IMGS[i])), np.array([LABELS[i]], "int64")


rec["iterable"] = [[list(x.shape), y.numpy().ravel().tolist()] for x, y in DataLoader(Stream(), batch_size=4)]
rec["iterable_drop"] = sum(1 for _ in DataLoader(Stream(), batch_size=4, drop_last=True))
try:
    rec["iterable_len"] = len(DataLoader(Stream(), batch_size=4))
except (ValueError, TypeError) as e:
    rec["iterable_len"] = type(e).__name__
try:
    rec["iterable_list"] = len(list(DataLoader(Stream(), batch_size=4)))
except (ValueError, TypeError) as e:
    rec["iterable_list"] = type(e).__name__


class DictDS(Dataset):
    def __getitem__(self, i):
        return {"img": IMGS[i, :4, :4].astype("float32") / 255.0, "label": int(LABELS[i]), "w": float(i) / 2,
                "meta": (np.int32(i), np.array([i, i + 1])), "flag": bool(i % 2)}

    def __len__(self):
        return 6


db = next(iter(DataLoader(DictDS(), batch_size=3)))
rec["dict_collate"] = {k: (summary(v.numpy()) + [str(v.dtype)]) if hasattr(v, "numpy") else
                       [[list(t.shape), str(t.dtype), t.numpy().tolist()] for t in v] for k, v in db.items()}
dbs = paddle.io.DistributedBatchSampler(DictDS(), batch_size=4, num_replicas=2, rank=1, shuffle=False, drop_last=False)
rec["dist_bs"] = [len(dbs), [list(b) for b in dbs]]
rec["seq_sampler"] = list(paddle.io.SequenceSampler(DictDS()))
random.seed(7)
np.random.seed(7)
more = [T.RandomVerticalFlip(0.5), T.RandomRotation(15), T.SaturationTransform(0.3), T.HueTransform(0.1),
        T.RandomResizedCrop(20, scale=(0.5, 1.0)), T.RandomAffine(10, translate=(0.1, 0.1), scale=(0.9, 1.1))]
rec["t_more_random"] = [summary(t(img0)) for t in more]
rec["t_np_totensor"] = [summary(T.ToTensor()(IMGS[3]).numpy()), str(TF.to_tensor(IMGS[3]).dtype)]
rec["t_tensor_bicubic"] = summary(TF.resize(ten, [20, 24], interpolation="bicubic").numpy())
rec["t_tensor_hflip_vflip"] = [summary(TF.hflip(ten).numpy()), summary(TF.vflip(ten).numpy())]
rec["t_tensor_bright"] = summary(TF.adjust_brightness(ten, 0.7).numpy())
rec["t_tensor_rotate"] = summary(TF.rotate(ten, 30).numpy())
rec["t_pil_rotate_expand"] = summary(TF.rotate(img0, 30, expand=True))
rec["t_erase"] = summary(TF.erase(ten, 2, 3, 5, 6, paddle.zeros([3, 5, 6])).numpy())


rec["t_pil_interps"] = [summary(T.Resize((14, 17), interpolation=m)(img0))
                        for m in ("bilinear", "bicubic", "nearest", "lanczos", "box", "hamming")]
rec["t_tensor_pad_modes"] = [summary(TF.pad(ten, [1, 2, 3, 1], padding_mode=m).numpy())
                             for m in ("constant", "edge", "reflect")]
rec["t_tensor_affine"] = summary(TF.affine(ten, 20, (2, 1), 0.9, (5, 3)).numpy())
rec["t_tensor_perspective"] = summary(TF.perspective(ten, [[0, 0], [35, 0], [35, 31], [0, 31]],
                                                     [[2, 1], [33, 0], [34, 30], [1, 29]]).numpy())
rec["t_tensor_normalize_layer"] = summary(T.Normalize([0.5, 0.4, 0.3], [0.2, 0.2, 0.2])(ten).numpy())
rec["t_tensor_gray_layer"] = summary(T.Grayscale(3)(ten).numpy())
rec["t_float_np_totensor"] = summary(T.ToTensor()((IMGS[4] / 255.0).astype("float32")).numpy())
rec["t_tensor_contrast_sat_hue"] = [summary(TF.adjust_contrast(ten, 1.4).numpy()),
                                    summary(TF.adjust_saturation(ten, 0.5).numpy()),
                                    summary(TF.adjust_hue(ten, 0.1).numpy())]
rec["t_pil_sat_hue"] = [summary(TF.adjust_saturation(img0, 1.5)), summary(TF.adjust_hue(img0, -0.2))]
nb = [b for b in DataLoader(Subset(ds, [0, 1, 2]), batch_size=None)]
rec["no_batch"] = [[list(x.shape), str(x.dtype), int(y) if not hasattr(y, "shape") else list(y.shape)] for x, y in nb]
rec["worker_info"] = paddle.io.get_worker_info() is None
nested = Subset(Subset(ds, [5, 6, 7, 8]), [3, 1])
rec["nested_subset"] = [len(nested), [int(nested[i][1]) for i in range(2)]]
rec["concat_neg"] = int(cat[-1][1])


class StrDS(Dataset):
    def __getitem__(self, i):
        return f"img_{i}.png", [i, i * 2], np.float32(i) / 3

    def __len__(self):
        return 4


sb = next(iter(DataLoader(StrDS(), batch_size=3)))
rec["str_collate"] = [sb[0], [[str(t.dtype), t.numpy().tolist()] if hasattr(t, "numpy") else t for t in sb[1]],
                      [str(sb[2].dtype), sb[2].numpy().tolist()]]


def set_params(model, seed):
    r = np.random.default_rng(seed)
    for name, p in model.named_parameters():
        if p.ndim == 1:
            base = 1.0 if name.endswith(("weight", "variance")) else 0.0  # BatchNorm's running stats are parameters
            p.set_value(base + np.abs(r.standard_normal(p.shape)).astype("float32") * 0.05)
        else:
            fan_in = int(np.prod(p.shape[1:])) if len(p.shape) == 4 else p.shape[0]
            p.set_value((r.standard_normal(p.shape) / np.sqrt(fan_in)).astype("float32"))


lenet = LeNet(num_classes=4)
set_params(lenet, 1)
rec["lenet_keys"] = list(lenet.state_dict().keys())
opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=lenet.parameters())
train_loader = DataLoader(train_part, batch_size=4, shuffle=False, drop_last=True)
rec["lenet_loss"] = []
for _epoch in range(2):
    for x, y in train_loader:
        loss = F.cross_entropy(lenet(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        rec["lenet_loss"].append(float(loss))
lenet.eval()
with paddle.no_grad():
    xs, ys = next(iter(DataLoader(eval_part, batch_size=8)))
    out = lenet(xs)
    rec["lenet_eval"] = [out.numpy()[:2].tolist(), float((out.argmax(1) == ys).astype("float32").mean())]

mb = MobileNetV2(scale=0.25, num_classes=4)
set_params(mb, 2)
rec["mb_nparams"] = [len(mb.parameters()), int(sum(int(np.prod(p.shape)) for p in mb.parameters()))]
color_ds = ImageDS(color, n=12)
xb, yb = next(iter(DataLoader(color_ds, batch_size=4)))
mb.eval()
with paddle.no_grad():
    h = xb
    rec["mb_eval_feats"] = []
    for layer in mb.features:
        h = layer(h)
        rec["mb_eval_feats"].append(summary(h.numpy()))
    rec["mb_eval"] = mb.classifier(mb.pool2d_avg(h).flatten(1)).numpy().tolist()
    rec["mb_eval_full"] = mb(xb).numpy().tolist()
# one training step: batch statistics over 4 images of 2x2 maps in the deepest layers make further steps chaotic
# in float32 (a second step's gradients already differ by percents between any two summation orders)
mb.train()
mb.classifier[0].eval()  # its Dropout(0.2) draws from a random stream that differs between the libraries
opt = paddle.optimizer.Momentum(learning_rate=2e-3, momentum=0.9, parameters=mb.parameters(), weight_decay=1e-4)
loss = F.cross_entropy(mb(xb), yb)
loss.backward()
rec["mb_step"] = [float(loss), mb.classifier[1].weight.grad.numpy()[:3].tolist(),
                  float(mb.features[0][0].weight.grad.norm())]
opt.step()
opt.clear_grad()
bn = [m for m in mb.sublayers() if isinstance(m, nn.BatchNorm2D)][0]
rec["mb_bn_running"] = [bn._mean.numpy()[:4].tolist(), bn._variance.numpy()[:4].tolist()]
rec["mb_after_step"] = mb.features[0][0].weight.numpy()[:2, 0].tolist()

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
