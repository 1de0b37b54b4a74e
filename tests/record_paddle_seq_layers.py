"""Record Paddle 3.3.1's sequence layers (RNNs, attention, Transformer) into tests/data/paddle_seq_layers.npz.

Run with the Paddle interpreter: ``/tmp/paddle/bin/python tests/record_paddle_seq_layers.py``.
For each case of ``seq_layer_cases.CASES`` and each of float32/float64: the layer's state_dict (built
with ``paddle.seed(0)``; dropout 0), the inputs, the outputs and the gradients of
``sum(output_i * w_i)`` with respect to every floating input and every state_dict entry. Also the
statistics of freshly initialised parameters (default init) per parameter name.
"""

from __future__ import annotations

import json
import sys
import zlib
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).parent))
from seq_layer_cases import CASES, PADDLE_GRAD_BY_DIFFERENCES, flatten  # noqa: E402


def record_case(name, build, make_inputs, call, dtype, out):
    paddle.set_default_dtype(dtype)
    paddle.seed(0)
    layer = build(paddle)
    layer.train()  # every case has dropout 0; Paddle's fused RNN kernel has no backward in eval mode
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    inputs = make_inputs(rng)
    t = {}
    for k, v in inputs.items():
        if np.issubdtype(v.dtype, np.floating):
            v = v.astype(dtype)
            t[k] = paddle.to_tensor(v, stop_gradient=False)
        else:
            t[k] = paddle.to_tensor(v)
        out[f"{name}|{dtype}|in|{k}"] = v
    for k, p in layer.state_dict().items():
        out[f"{name}|{dtype}|param|{k}"] = p.numpy()
    outs = flatten(call(paddle, layer, t))
    loss = 0
    for i, o in enumerate(outs):
        w = rng.standard_normal(o.shape).astype(dtype)
        out[f"{name}|{dtype}|w|{i}"] = w
        out[f"{name}|{dtype}|out|{i}"] = o.numpy()
        loss = loss + (o * paddle.to_tensor(w)).sum()
    loss.backward()
    for k, v in t.items():
        if not v.stop_gradient:
            out[f"{name}|{dtype}|grad_in|{k}"] = v.grad.numpy()
    for k, p in layer.state_dict().items():
        if p.grad is not None:
            out[f"{name}|{dtype}|grad_param|{k}"] = p.grad.numpy()
    if dtype == "float64" and name in PADDLE_GRAD_BY_DIFFERENCES:
        sd = layer.state_dict()
        weights = [paddle.to_tensor(out[f"{name}|{dtype}|w|{i}"]) for i in range(len(outs))]

        def loss_value():
            with paddle.no_grad():
                return sum(float((o * w).sum()) for o, w in zip(flatten(call(paddle, layer, t)), weights))

        for k in PADDLE_GRAD_BY_DIFFERENCES[name]:
            p = sd[k]
            v = p.numpy().copy()
            fd = np.zeros_like(v)
            for idx in np.ndindex(v.shape):
                for sign in (1, -1):
                    moved = v.copy()
                    moved[idx] += sign * 1e-6
                    p.set_value(moved)
                    fd[idx] += sign * loss_value() / 2e-6
            p.set_value(v)
            out[f"{name}|{dtype}|fd_param|{k}"] = fd
    paddle.set_default_dtype("float32")


def main():
    out = {}
    for name, (build, make_inputs, call) in CASES.items():
        for dtype in ("float32", "float64"):
            record_case(name, build, make_inputs, call, dtype, out)
    # default initialisation: min/max/mean of each parameter of a freshly built layer (hidden_size 64)
    paddle.seed(3)
    lstm = paddle.nn.LSTM(16, 64)
    for k, p in lstm.state_dict().items():
        v = p.numpy()
        out[f"init|lstm|{k}"] = np.array([v.min(), v.max(), v.mean(), v.std()])
    mha = paddle.nn.MultiHeadAttention(32, 4)
    for k, p in mha.state_dict().items():
        v = p.numpy()
        out[f"init|mha|{k}"] = np.array([v.min(), v.max(), v.mean(), v.std()])
    # names, shapes and parameter names of the structures
    structs = {
        "lstm_bi2": paddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect"),
        "lstm_proj": paddle.nn.LSTM(3, 5, proj_size=2),
        "gru_no_bias": paddle.nn.GRU(3, 4, bias_hh_attr=False),
        "transformer": paddle.nn.Transformer(8, 2, 1, 1, 16),
    }
    for sname, m in structs.items():
        keys = [f"{k}:{list(v.shape)}:{v.stop_gradient}" for k, v in m.state_dict().items()]
        out[f"struct|{sname}"] = np.array(keys)
        out[f"repr|{sname}"] = np.array([repr(m)])
    # one blob and one index keep the file small (an .npz entry per array costs a zip header each)
    index, chunks, texts, pos = {}, [], {}, 0
    for k, v in out.items():
        v = np.asarray(v)
        if v.dtype.kind in "US":
            texts[k] = v.tolist()
            continue
        index[k] = [pos, list(v.shape), str(v.dtype)]
        chunks.append(v.astype(np.float64).ravel())
        pos += v.size
    path = Path(__file__).parent / "data" / "paddle_seq_layers.npz"
    np.savez_compressed(path, data=np.concatenate(chunks), index=np.array(json.dumps(index)),
                        texts=np.array(json.dumps(texts)))
    print(f"wrote {len(out)} arrays to {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
