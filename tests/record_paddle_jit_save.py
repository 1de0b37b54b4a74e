"""Record Paddle 3.3.1's jit.save/jit.load behaviour that tests/test_jit_save.py follows.

Run with ``/tmp/paddle/bin/python tests/record_paddle_jit_save.py``; writes
``tests/data/paddle_jit_save.json``: the exception types of misuse, and what a model saved in
training mode with dropout computes after loading (and whether the loaded layer is in training mode).
"""

import json
import os
import tempfile

import numpy as np
import paddle

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_jit_save.json")


def error_type(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording which type Paddle raises
        return type(e).__name__
    return None


class Drop(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.d = paddle.nn.Dropout(0.5)

    def forward(self, x):
        return self.d(x)


def main():
    tmp = tempfile.mkdtemp()
    spec = [paddle.static.InputSpec([None, 8], "float32", "x")]
    rec = {}
    rec["no_input_spec_function"] = error_type(lambda: paddle.jit.save(lambda x: x * 2, os.path.join(tmp, "f")))
    rec["unknown_config"] = error_type(lambda: paddle.jit.save(Drop(), os.path.join(tmp, "u"), spec, foo=1))
    rec["missing_path"] = error_type(lambda: paddle.jit.load(os.path.join(tmp, "nothere")))
    for ext in (".json", ".pdiparams"):
        with open(os.path.join(tmp, "bad" + ext), "w") as f:
            f.write("garbage")
    rec["corrupt_files"] = error_type(lambda: paddle.jit.load(os.path.join(tmp, "bad")))
    net = Drop()
    paddle.jit.save(net, os.path.join(tmp, "drop"), spec)
    rec["original_training_after_save"] = net.training
    loaded = paddle.jit.load(os.path.join(tmp, "drop"))
    rec["loaded_training"] = loaded.training
    x = paddle.ones([2, 8])
    rec["loaded_eval_is_identity"] = bool(np.array_equal(loaded(x).numpy(), x.numpy()))
    loaded.train()
    rec["loaded_train_is_identity"] = bool(np.array_equal(loaded(x).numpy(), x.numpy()))
    with open(OUT, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
    print(rec)


if __name__ == "__main__":
    main()
