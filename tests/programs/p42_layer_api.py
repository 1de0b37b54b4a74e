"""nn.Layer's API as model code uses it: parameter names (``linear_0.w_0`` counters, ``ParamAttr(name=...)``),
state_dict keys and their order for nested layers, LayerList / Sequential indexing, slicing, insert, extend,
append; add_sublayer, add_parameter, create_parameter (default_initializer, is_bias), register_buffer with
persistable True and False; named_parameters(prefix, include_sublayers), named_children, named_sublayers,
sublayers(include_self); Layer.to(dtype='float64') and to(dtype='float16'); full_name(); extra_repr and the
text of print(model); train()/eval() flags of sublayers; forward pre- and post-hooks that change inputs and outputs,
and their removal; Layer.apply; deepcopy of a Layer; set_state_dict(use_structured_name=False);
nn.utils.parameters_to_vector / vector_to_parameters; a few training steps of the assembled model; and the
nn.initializer classes (Orthogonal, Dirac, Bilinear, Uniform, Normal, TruncatedNormal with a and b,
KaimingUniform with negative_slope and nonlinearity, XavierNormal with fan_in / fan_out, Constant, Assign) checked
by exact values where they are deterministic and by statistics where they draw (the random streams differ).

Deliberately not mirrored, left out here: ``Layer.astype(dtype)`` in Paddle 3.3.1 leaves the parameters' dtype
unchanged (its own docs skip that example, Paddle issue 76614); pylayer_jax casts them as documented.
``Layer.float16()`` on a CPU-only Paddle build warns and keeps float32; pylayer_jax casts, as Paddle does where
float16 is supported. The names of tensors made by ops (Paddle's ``eager_tmp_<n>``, counted over every op output)
are not Paddle's; parameter names, ``create_parameter`` names and the ``_deepcopy_<n>`` names of copies are."""
import copy
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
X = rng.standard_normal((24, 6)).astype("float32")
Y = (X[:, :2].sum(1) > 0).astype("int64")
rec = {}


class Gate(nn.Layer):
    """A layer with its own parameters, buffers and an extra_repr."""

    def __init__(self, dim, scale=0.5):
        super().__init__()
        self.dim = dim
        self.scale = scale
        self.alpha = self.create_parameter([dim], default_initializer=nn.initializer.Constant(0.3))
        self.beta = self.create_parameter([dim], is_bias=True)
        self.register_buffer("running", paddle.zeros([dim]))
        self.register_buffer("tmp", paddle.ones([dim]), persistable=False)

    def forward(self, x):
        return x * F.sigmoid(self.alpha) * self.scale + self.beta + self.tmp * 0.0

    def extra_repr(self):
        return f"dim={self.dim}, scale={self.scale}"


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(6, 8, weight_attr=paddle.ParamAttr(name="embed_weight"))
        self.blocks = nn.LayerList([nn.Sequential(nn.Linear(8, 8), nn.ReLU()) for _ in range(2)])
        self.gate = Gate(8)
        self.norm = nn.LayerNorm(8)
        self.drop = nn.Dropout(0.5)
        self.head = nn.Linear(8, 2, bias_attr=False)
        self.add_sublayer("extra", nn.Linear(8, 8))
        self.add_parameter("temp", self.create_parameter([1], default_initializer=nn.initializer.Constant(1.5)))

    def forward(self, x):
        h = self.embed(x)
        for b in self.blocks:
            h = h + b(h)
        h = self.drop(self.norm(self.gate(h)))
        return self.head(self.extra(h)) / self.temp


model = Net()
rec["names"] = [p.name for p in model.parameters()]
rec["keys"] = list(model.state_dict().keys())
rec["shapes"] = [list(v.shape) for v in model.state_dict().values()]
rec["np_names"] = [n for n, _ in model.named_parameters()]
rec["np_prefix"] = [n for n, _ in model.named_parameters(prefix="net")]
rec["np_top"] = [n for n, _ in model.named_parameters(include_sublayers=False)]
rec["children"] = [n for n, _ in model.named_children()]
rec["named_sublayers"] = [n for n, _ in model.named_sublayers()]
rec["named_sublayers_self"] = [n for n, _ in model.named_sublayers(prefix="m", include_self=True)]
rec["sublayers"] = [type(s).__name__ for s in model.sublayers()]
rec["sublayers_self"] = [type(s).__name__ for s in model.sublayers(include_self=True)]
rec["buffers"] = [n for n, _ in model.named_buffers()]
rec["full_names"] = [model.full_name(), model.embed.full_name(), model.gate.full_name(), model.blocks.full_name()]
rec["repr"] = str(model)
rec["gate_repr"] = repr(model.gate)
rec["bias_init"] = model.gate.beta.numpy().tolist()
rec["param_flags"] = [[p.stop_gradient, p.trainable, p.persistable] for p in model.parameters()][:3]

# containers: indexing, slicing, insert, extend, append
seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 4), nn.Tanh())
rec["seq"] = [type(seq[0]).__name__, type(seq[-1]).__name__, len(seq), type(seq[1:3]).__name__,
              [type(s).__name__ for s in seq[1:3]], list(seq[1:].state_dict().keys())]
ll = nn.LayerList([nn.Linear(2, 2), nn.Linear(2, 3)])
ll.append(nn.ReLU())
ll.insert(1, nn.Tanh())
ll.extend([nn.Sigmoid(), nn.Linear(3, 1)])
rec["ll"] = [[type(s).__name__ for s in ll], len(ll), type(ll[-1]).__name__, list(ll.state_dict().keys()),
             [type(s).__name__ for s in ll[1:4]]]
del ll[0]
rec["ll_del"] = [[type(s).__name__ for s in ll], list(ll.state_dict().keys())]
seq_named = nn.Sequential(("first", nn.Linear(2, 2)), ("act", nn.GELU()))
rec["seq_named"] = [list(seq_named.state_dict().keys()), type(seq_named["act"]).__name__, str(seq_named)]
pl = nn.ParameterList([paddle.create_parameter([2], "float32"), paddle.create_parameter([3], "float32")])
pl.append(paddle.create_parameter([1], "float32"))
rec["plist"] = [len(pl), [list(p.shape) for p in pl], list(pl.state_dict().keys())]

# set parameters from numpy, train a few steps
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
model.train()
rec["train_flags"] = [s.training for s in model.sublayers(include_self=True)]
model.drop.p = 0.0     # deterministic training
loss_hist = []
for step in range(8):
    i = (step % 3) * 8
    loss = F.cross_entropy(model(paddle.to_tensor(X[i:i + 8])), paddle.to_tensor(Y[i:i + 8]))
    loss.backward()
    opt.step()
    opt.clear_grad()
    loss_hist.append(loss.item())
rec["loss"] = loss_hist
model.eval()
rec["eval_flags"] = [s.training for s in model.sublayers(include_self=True)]
model.blocks.train()
rec["mixed_flags"] = [s.training for s in model.sublayers(include_self=True)]
model.eval()
xt = paddle.to_tensor(X[:4])
base_out = model(xt).numpy()
rec["eval_out"] = base_out.tolist()

# hooks: a pre-hook that returns new inputs, a post-hook that returns a new output, then removed
calls = []


def pre(layer, inputs):
    calls.append(("pre", type(layer).__name__, len(inputs)))
    return (inputs[0] * 2.0,)


def post(layer, inputs, output):
    calls.append(("post", type(layer).__name__))
    return output + 1.0


def observe(layer, inputs, output):
    calls.append(("observe", list(output.shape)))


h1 = model.embed.register_forward_pre_hook(pre)
h2 = model.head.register_forward_post_hook(post)
h3 = model.register_forward_post_hook(observe)
hooked = model(xt).numpy()
h1.remove()
after1 = model(xt).numpy()
h2.remove()
h3.remove()
after2 = model(xt).numpy()
rec["hooks"] = [hooked.tolist(), after1.tolist(), bool(np.allclose(after2, base_out)), calls]

# apply, deepcopy, parameters_to_vector
def init_fn(layer):
    if isinstance(layer, nn.Linear):
        layer.weight.set_value(paddle.full(layer.weight.shape, 0.01 * layer.weight.shape[0]))


clone = copy.deepcopy(model)
clone.apply(init_fn)
rec["apply"] = [clone.embed.weight.numpy()[0, :3].tolist(), clone.head.weight.numpy()[0].tolist(),
                model.embed.weight.numpy()[0, :3].tolist()]
rec["deepcopy"] = [[p.name for p in clone.parameters()] == [p.name for p in model.parameters()],
                   clone.gate.running.numpy().tolist(), clone.training, type(clone.blocks).__name__]
vec = nn.utils.parameters_to_vector(model.parameters())
rec["p2v"] = [list(vec.shape), float(vec.sum()), vec.numpy()[:5].tolist()]
nn.utils.vector_to_parameters(vec * 0.5, clone.parameters())
rec["v2p"] = [clone.head.weight.numpy()[0].tolist(), clone.temp.numpy().tolist()]

# set_state_dict by parameter names
by_name = {p.name: p.numpy() * 2 for p in model.parameters()}
other = copy.deepcopy(model)
res = other.set_state_dict(by_name, use_structured_name=False)
rec["by_name"] = [other.head.weight.numpy()[0].tolist(), other.temp.numpy().tolist()]
# (the buffer made by paddle.zeros is named by Paddle's count of op outputs, eager_tmp_<n>: left out)
rec["by_name_res"] = [sorted(k for k in x if "tmp" not in k and "generated" not in k) for x in res]
opt2 = paddle.optimizer.Momentum(learning_rate=0.1, parameters=other.parameters())
other(xt).sum().backward()
opt2.step()
rec["copy_opt_keys"] = sorted(opt2.state_dict())[:4]
res = other.set_state_dict({"head.weight": np.zeros([8, 2], "float32"), "nothere.bias": np.ones([2], "float32")})
rec["structured_res"] = [sorted(res[0]), sorted(res[1]), other.head.weight.numpy().sum().item()]

# weight tying: one parameter in two places
class Tied(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.out = nn.Linear(3, 5, bias_attr=False)
        self.out.weight = self.emb.weight
        self.again = self.emb


tied = Tied()
rec["tied"] = [list(tied.state_dict().keys()), [n for n, _ in tied.named_parameters()], len(tied.parameters()),
               [n for n, _ in tied.named_sublayers()]]

# more containers and attribute registration
ld = nn.LayerDict({"a": nn.Linear(2, 2), "b": nn.ReLU()})
ld["c"] = nn.Linear(2, 1)
ld.update({"d": nn.Tanh()})
popped = ld.pop("b")
rec["layerdict"] = [list(ld.keys()), type(popped).__name__, len(ld), list(ld.state_dict().keys()), "a" in ld]
box = nn.Layer()
box.w = paddle.create_parameter([2, 2], "float32", default_initializer=nn.initializer.Constant(2.0))
box.sub = nn.Linear(2, 3)
box.plain = paddle.ones([2])
rec["setattr"] = [list(box.state_dict().keys()), [n for n, _ in box.named_parameters()],
                  [n for n, _ in box.named_buffers()], len(box.parameters(include_sublayers=False))]
del box.sub
rec["delattr"] = [list(box.state_dict().keys()), hasattr(box, "sub")]
rec["sd_top"] = list(model.state_dict(include_sublayers=False).keys())
rec["children_types"] = [type(c).__name__ for c in model.children()]
model.clear_gradients()
rec["cleared"] = [p.grad is None for p in model.parameters()][:3]

# the printed form of common layers
zoo = [nn.Conv2D(3, 4, 3, stride=2, padding=1, bias_attr=False), nn.Conv1D(2, 4, 3, dilation=2),
       nn.Conv2DTranspose(4, 2, 3), nn.BatchNorm2D(4), nn.BatchNorm1D(3, momentum=0.8), nn.GroupNorm(2, 4),
       nn.LayerNorm([3, 4]), nn.Embedding(10, 3, padding_idx=0), nn.LSTM(4, 8, num_layers=2),
       nn.GRU(3, 5, direction="bidirect"), nn.MultiHeadAttention(8, 2), nn.MaxPool2D(2), nn.AvgPool2D(3, 2, 1),
       nn.AdaptiveAvgPool2D(1), nn.Upsample(scale_factor=2, mode="bilinear"), nn.Flatten(), nn.Dropout2D(0.2),
       nn.LeakyReLU(0.1), nn.PReLU(3), nn.Softmax(axis=1), nn.Pad2D([1, 1, 1, 1]), nn.PixelShuffle(2),
       nn.Bilinear(3, 4, 5), nn.Unfold(2), nn.GELU(approximate=True), nn.Softplus(beta=2), nn.MaxUnPool2D(2),
       nn.MaxUnPool1D(2, output_size=[6]), nn.Fold([4, 4], 2), nn.ChannelShuffle(2), nn.LocalResponseNorm(3)]
rec["zoo_repr"] = [str(m_) for m_ in zoo]
rec["zoo_keys"] = [list(m_.state_dict().keys()) for m_ in zoo]
try:
    nn.Linear(2, 2).to("float16")        # the first argument of to() is the device
except ValueError:
    rec["to_positional"] = "ValueError"

# dtype casts
m64 = copy.deepcopy(model)
m64.to(dtype="float64")
rec["to64"] = [str(p.dtype) for p in m64.parameters()][:3] + [str(m64.gate.running.dtype)]
rec["out64"] = [str(m64(xt.astype("float64")).dtype), m64(xt.astype("float64")).numpy().tolist()]
lin = nn.Linear(3, 3)
lin.to(dtype="float16")
rec["lin16"] = [str(lin.weight.dtype), str(lin.bias.dtype)]

# initializers
paddle.seed(7)
init = nn.initializer
w = paddle.create_parameter([6, 10], "float32", default_initializer=init.Orthogonal(gain=2.0))
wn = w.numpy()
rec["orthogonal"] = [bool(np.allclose(wn @ wn.T, 4 * np.eye(6), atol=1e-4)), list(w.shape)]
w = paddle.create_parameter([10, 6], "float32", default_initializer=init.Orthogonal())
wn = w.numpy()
rec["orthogonal_tall"] = bool(np.allclose(wn.T @ wn, np.eye(6), atol=1e-4))
conv = nn.Conv2D(2, 4, 3, weight_attr=paddle.ParamAttr(initializer=init.Dirac()))
rec["dirac"] = conv.weight.numpy().reshape(4, -1).tolist()
conv1 = nn.Conv1D(4, 4, 3, weight_attr=paddle.ParamAttr(initializer=init.Dirac(groups=2)))
rec["dirac_groups"] = conv1.weight.numpy().reshape(4, -1).tolist()
up = nn.Conv2DTranspose(2, 2, 4, stride=2, padding=1, groups=2, bias_attr=False,
                        weight_attr=paddle.ParamAttr(initializer=init.Bilinear()))
rec["bilinear"] = up.weight.numpy()[0, 0].tolist()
rec["bilinear_up"] = up(paddle.arange(8, dtype="float32").reshape([1, 2, 2, 2])).numpy()[0, 0].tolist()


def stats(initializer, shape, **kw):
    p = paddle.create_parameter(shape, "float32", default_initializer=initializer, **kw)
    a = p.numpy().astype(np.float64)
    return a


a = stats(init.Uniform(low=-0.3, high=0.7), [200, 100])
rec["uniform"] = [bool(a.min() >= -0.3), bool(a.max() <= 0.7), round(float(a.mean()), 1), bool(a.max() > 0.69)]
a = stats(init.Normal(mean=1.0, std=0.5), [200, 100])
rec["normal"] = [round(float(a.mean()), 1), round(float(a.std()), 1)]
a = stats(init.TruncatedNormal(mean=0.5, std=2.0, a=-1.0, b=3.0), [200, 100])
rec["truncnorm"] = [bool(a.min() >= -1.0), bool(a.max() <= 3.0), bool(a.min() < -0.95), bool(a.max() > 2.95)]
a = stats(init.KaimingUniform(negative_slope=0.2, nonlinearity="leaky_relu"), [300, 50])
bound = np.sqrt(2.0 / (1 + 0.2 ** 2)) * np.sqrt(3.0 / 300)
rec["kaiming_uniform"] = [bool(np.abs(a).max() <= bound * 1.0001), bool(np.abs(a).max() > bound * 0.99)]
a = stats(init.KaimingUniform(fan_in=50, nonlinearity="relu"), [300, 50])
bound = np.sqrt(2.0) * np.sqrt(3.0 / 50)
rec["kaiming_fan_in"] = [bool(np.abs(a).max() <= bound * 1.0001), bool(np.abs(a).max() > bound * 0.99)]
a = stats(init.XavierNormal(fan_in=20, fan_out=30), [100, 200])
rec["xavier_normal"] = round(float(a.std() / np.sqrt(2.0 / 50)), 1)
a = stats(init.XavierNormal(), [100, 200])
rec["xavier_default"] = round(float(a.std() / np.sqrt(2.0 / 300)), 1)
a = stats(init.KaimingNormal(), [400, 60])
rec["kaiming_normal"] = round(float(a.std() / np.sqrt(2.0 / 400)), 1)
a = stats(init.XavierUniform(gain=2.0), [40, 60])
rec["xavier_uniform"] = [bool(np.abs(a).max() <= 2.0 * np.sqrt(6.0 / 100) * 1.0001)]
rec["assign"] = stats(init.Assign(np.arange(6, dtype="float32").reshape(2, 3)), [2, 3]).tolist()
rec["constant_bias"] = stats(init.Constant(0.25), [3], is_bias=True).tolist()
rec["gain"] = [init.calculate_gain("tanh"), init.calculate_gain("leaky_relu", 0.1), init.calculate_gain("conv2d"),
               init.calculate_gain("selu")]
lin = nn.Linear(4, 5, weight_attr=init.Normal(0.0, 0.02), bias_attr=init.Constant(0.1))
rec["attr_as_init"] = [lin.bias.numpy().tolist(), round(float(lin.weight.numpy().std()), 1)]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
