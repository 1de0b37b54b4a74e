"""Record how Paddle 3.3.1 draws random numbers in static programs across Executor.run calls.

Run with ``/tmp/paddle/bin/python tests/record_paddle_static_random.py``; writes
``tests/data/paddle_static_random.json`` (booleans: do two runs of one program, of two identical
programs, with or without ``Program.random_seed``, and after ``paddle.seed``, give equal draws).
"""

import json
import os

import numpy as np
import paddle

paddle.enable_static()
FEED = {"x": np.ones((2, 3), "float32")}


def build(seed=None):
    main, start = paddle.static.Program(), paddle.static.Program()
    if seed is not None:
        main.random_seed = seed
    with paddle.static.program_guard(main, start):
        paddle.static.data("x", [2, 3], "float32")
        r = paddle.randn([2, 3])
    return main, start, r


exe = paddle.static.Executor()
out = {}
m, s, r = build()
exe.run(s)
a = exe.run(m, feed=FEED, fetch_list=[r])[0]
b = exe.run(m, feed=FEED, fetch_list=[r])[0]
out["unseeded_two_runs_equal"] = bool(np.array_equal(a, b))
m1, _, r1 = build(7)
m2, _, r2 = build(7)
a = exe.run(m1, feed=FEED, fetch_list=[r1])[0]
b = exe.run(m1, feed=FEED, fetch_list=[r1])[0]
c = exe.run(m2, feed=FEED, fetch_list=[r2])[0]
out["random_seed_two_runs_equal"] = bool(np.array_equal(a, b))
out["random_seed_two_programs_equal"] = bool(np.array_equal(a, c))
paddle.seed(3)
m, _, r = build()
a = exe.run(m, feed=FEED, fetch_list=[r])[0]
paddle.seed(3)
b = exe.run(m, feed=FEED, fetch_list=[r])[0]
out["paddle_seed_before_run_repeats"] = bool(np.array_equal(a, b))
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_static_random.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
print(out)
