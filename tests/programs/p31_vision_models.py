"""paddle.vision end to end: images written as PNG files into class folders, read back by DatasetFolder and
ImageFolder (PIL backend) through a transforms pipeline (Compose of Resize, CenterCrop, RandomHorizontalFlip with
prob 0 and 1, ToTensor, Normalize), a DataLoader over them; numpy-image transforms (CenterCrop, Transpose,
Normalize with to_rgb, ToTensor with HWC) and tensor-image ones (Resize, CenterCrop, hflip); the functional
transforms on PIL images; LeNet trained a few dozen steps with Momentum (its state set from numpy); resnet18 and
mobilenet_v2(scale=0.5) with num_classes on 32x32 inputs: a train-mode pass (batch statistics, running stats), a few
Momentum steps with the batch norms frozen, eval-mode outputs, state_dict keys and shapes; paddle.summary's dict.

Transforms on numpy images that need OpenCV in Paddle (Resize, flips) are left out: the oracle has no cv2.
paddle.flops is left out: Paddle 3.3.1's ends in ``int()`` of shape-[1] tensors, a TypeError under NumPy 2 (its
counts are compared in tests/program_diff_cases_c.py, recorded with that ``int()`` patched).
Not mirrored (left out): Paddle's DatasetFolder and ImageFolder ignore ``is_valid_file`` (``extensions`` None falls
back to the image extensions, which then decide, against their documentation): pylayer_jax honours it."""
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import paddle.vision.transforms as T
import paddle.vision.transforms.functional as TF
from paddle.io import DataLoader
from paddle.vision.datasets import DatasetFolder, ImageFolder
from paddle.vision.models import LeNet, mobilenet_v2, resnet18
from PIL import Image

rng = np.random.default_rng(0)
rec = {}


def v(t):
    return np.asarray(t, dtype="float64").tolist()


def set_params(net, seed, gain=1.0):
    """He-style weights, batch-norm scales near 1 and unit running variances, from numpy."""
    r = np.random.default_rng(seed)
    sd = {}
    for k, p in net.state_dict().items():
        shape = list(p.shape)
        if k.endswith("_variance"):
            sd[k] = np.ones(shape, "float32")
        elif k.endswith("_mean"):
            sd[k] = np.zeros(shape, "float32")
        elif len(shape) == 1:
            is_bn_scale = k.endswith(".weight")
            sd[k] = ((1.0 if is_bn_scale else 0.0) + 0.05 * r.standard_normal(shape)).astype("float32")
        else:
            fan_in = shape[0] if len(shape) == 2 else int(np.prod(shape[1:]))   # Linear weights are [in, out]
            sd[k] = (r.standard_normal(shape) * gain * np.sqrt(2.0 / fan_in)).astype("float32")
    net.set_state_dict(sd)


# ---- image files in class folders -------------------------------------------------------------------------------
root = tempfile.mkdtemp()
classes = ["cat", "dog", "owl"]
for ci, c in enumerate(classes):
    os.makedirs(os.path.join(root, c))
    for j in range(6):
        base = rng.integers(0, 80, size=(40, 36, 3))
        base[..., ci] += 120 + 10 * j
        Image.fromarray(base.clip(0, 255).astype("uint8")).save(os.path.join(root, c, f"img_{j}.png"))
    with open(os.path.join(root, c, "notes.txt"), "w") as f:
        f.write("not an image")

mean, std = [0.5, 0.5, 0.5], [0.25, 0.25, 0.25]
train_tf = T.Compose([T.Resize(34), T.CenterCrop(32), T.RandomHorizontalFlip(prob=1.0), T.ToTensor(),
                      T.Normalize(mean=mean, std=std)])
eval_tf = T.Compose([T.Resize((36, 34)), T.CenterCrop((32, 32)), T.RandomHorizontalFlip(prob=0.0), T.ToTensor(),
                     T.Normalize(mean=mean, std=std)])
ds = DatasetFolder(root, transform=train_tf)
rec["folder"] = [len(ds), ds.classes, sorted(ds.class_to_idx.items()), [os.path.relpath(p, root) for p, _ in ds.samples][:4],
                 ds.targets[:8]]
img0, lab0 = ds[0]
rec["folder_item"] = [type(img0).__name__, list(img0.shape), str(img0.dtype), int(lab0),
                      v(np.asarray(img0)[:, 10, 10])]
ids = ImageFolder(root, transform=eval_tf)
rec["imagefolder"] = [len(ids), len(ids[0]), list(ids[3][0].shape), v(np.asarray(ids[3][0]).mean())]
raw = DatasetFolder(root, extensions=(".png",))
rec["raw_item"] = [type(raw[0][0]).__name__, raw[0][0].size, raw[0][0].mode]
txt = ImageFolder(root, loader=lambda p: open(p).read(), extensions=(".TXT",))
rec["txt_folder"] = [len(txt), txt[1], [os.path.relpath(p, root) for p in txt.samples]]

# ---- transforms on numpy, PIL and tensor images -----------------------------------------------------------------
arr = rng.integers(0, 256, size=(10, 12, 3)).astype("uint8")
rec["np_center_crop"] = v(T.CenterCrop(6)(arr)[..., 0])
rec["np_transpose"] = list(T.Transpose()(arr).shape)
nrm = T.Normalize(mean=[10.0, 20.0, 30.0], std=[2.0, 4.0, 8.0], data_format="HWC", to_rgb=True)
rec["np_normalize"] = v(nrm(arr.astype("float32"))[:2, :2])
tt = T.ToTensor(data_format="HWC")(arr)
rec["np_to_tensor"] = [list(tt.shape), str(tt.dtype), v(tt[0, 0])]
pil = Image.fromarray(arr)
rec["pil_resize"] = [TF.resize(pil, (5, 7)).size, v(np.asarray(TF.resize(pil, (5, 7)))[..., 1])]
rec["pil_resize_short"] = TF.resize(pil, 8).size
rec["pil_hflip"] = v(np.asarray(TF.hflip(pil))[0, :, 0])
rec["pil_crop"] = v(np.asarray(TF.crop(pil, 2, 3, 4, 5))[..., 2])
rec["pil_to_tensor"] = v(TF.to_tensor(pil)[:, 0, 0])
timg = paddle.to_tensor(rng.random((3, 10, 12)).astype("float32"))
rec["tensor_resize"] = v(T.Resize((5, 6))(timg)[0])
rec["tensor_center_crop"] = list(T.CenterCrop(4)(timg).shape)
rec["tensor_hflip"] = v(TF.hflip(timg)[0, 0])
rec["tensor_normalize"] = v(TF.normalize(timg, [0.5, 0.4, 0.3], [0.2, 0.2, 0.2])[:, 0, 0])

# ---- LeNet on 28x28 grayscale, Momentum ----------------------------------------------------------------------------
paddle.seed(0)
lenet = LeNet(num_classes=3)
set_params(lenet, 1)
rec["lenet_keys"] = [[k, list(p.shape)] for k, p in lenet.state_dict().items()]
gray = T.Compose([T.Grayscale(), T.Resize((28, 28)), T.ToTensor()])
gds = DatasetFolder(root, transform=gray)
opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9, parameters=lenet.parameters(), use_nesterov=True,
                                weight_decay=1e-4)
loader = DataLoader(gds, batch_size=6, shuffle=False, drop_last=False)
rec["loader_len"] = len(loader)
rec["lenet_loss"] = []
for _epoch in range(6):
    for x, y in loader:
        out = lenet(x)
        loss = F.cross_entropy(out, y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        rec["lenet_loss"].append(float(loss))
rec["batch_types"] = [str(x.dtype), str(y.dtype), list(x.shape), list(y.shape)]
lenet.eval()
with paddle.no_grad():
    logits = paddle.concat([lenet(x) for x, _ in loader])
rec["lenet_eval"] = v(logits[:5])
rec["lenet_acc"] = float((logits.argmax(1) == paddle.to_tensor(gds.targets)).astype("float32").mean())

# ---- resnet18 / mobilenet_v2 on 32x32: one train-mode pass (batch statistics, running stats updated), then
# fine-tuning with the batch norms frozen (eval mode): their last batch norms see 1x1 maps of 9 samples, where
# float32 rounding (of any two conv implementations) grows by orders of magnitude through a training step
xb = paddle.to_tensor(np.stack([ds[i][0].numpy() for i in range(0, 18, 2)]))
yb = paddle.to_tensor(np.array([ds[i][1] for i in range(0, 18, 2)], "int64"))
for name, ctor in (("resnet18", lambda: resnet18(num_classes=3)),
                   ("mobilenet_v2", lambda: mobilenet_v2(scale=0.5, num_classes=3))):
    paddle.seed(1)
    net = ctor()
    set_params(net, 2)
    sd = net.state_dict()
    rec[f"{name}_n_state"] = len(sd)
    rec[f"{name}_keys"] = [[k, list(p.shape)] for k, p in list(sd.items())[:12]] + [[k, list(p.shape)] for k, p in list(sd.items())[-4:]]
    rec[f"{name}_n_params"] = int(sum(int(np.prod(p.shape)) for p in net.parameters()))
    rec[f"{name}_n_trainable"] = int(sum(int(np.prod(p.shape)) for p in net.parameters() if not p.stop_gradient))
    mopt = paddle.optimizer.Momentum(learning_rate=0.002, momentum=0.9, parameters=net.parameters())
    net.train()
    for m in net.sublayers():
        if isinstance(m, nn.Dropout):
            m.eval()                  # (Paddle's and our random streams differ)
    bn_key = [k for k in sd if k.endswith("_mean")][-1]
    with paddle.no_grad():
        train_logits = net(xb)
        rec[f"{name}_train_loss"] = float(F.cross_entropy(train_logits, yb))
        if name == "resnet18":        # (mobilenet_v2's 1x1 maps of 9 samples: last digits of float32 differ)
            rec[f"{name}_train_logits"] = v(train_logits[:2])
    rec[f"{name}_bn_mean"] = [bn_key, v(net.state_dict()[bn_key].numpy()[:4])]
    for m in net.sublayers():
        if isinstance(m, nn.BatchNorm2D):
            m.eval()
    rec[f"{name}_bn_training"] = sum(m.training for m in net.sublayers() if isinstance(m, nn.BatchNorm2D))
    losses = []
    for _ in range(3):
        loss = nn.CrossEntropyLoss()(net(xb), yb)
        loss.backward()
        mopt.step()
        mopt.clear_grad()
        losses.append(float(loss))
    rec[f"{name}_loss"] = losses
    rec[f"{name}_bn_mean_after"] = v(net.state_dict()[bn_key].numpy()[:4])
    net.eval()
    with paddle.no_grad():
        rec[f"{name}_eval"] = v(net(xb))
    info = paddle.summary(net, (1, 3, 32, 32))
    rec[f"{name}_summary"] = {k: [int(n), type(n).__name__] for k, n in info.items()}

info = paddle.summary(lenet, input_size=(2, 1, 28, 28))
rec["lenet_summary"] = {k: [int(n), type(n).__name__] for k, n in info.items()}
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
