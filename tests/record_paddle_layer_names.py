"""Record the attribute names of Paddle 3.3.1's ``paddle.nn.Layer`` class into tests/data/paddle_layer_names.json
(``tests/nn/test_layer_names.py``: a private helper of ours must not take a name a user may give a sublayer).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_layer_names.py``.
"""

import json
import os

import paddle

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_layer_names.json")
with open(path, "w") as fh:
    json.dump({"paddle": paddle.__version__, "names": sorted(dir(paddle.nn.Layer))}, fh, indent=1)
print(path)
