"""Cases of ``paddle.reader``/``paddle.batch``, ``paddle.special``, ``paddle.functional``, ``paddle.random`` and
``paddle.cuda``: ``record(paddle)`` runs each with the library given and returns what it gave (plain JSON values).
``record_paddle_small_modules.py`` stores Paddle 3.3.1's into ``tests/data/paddle_small_modules.json``;
``test_small_modules.py`` compares this package's with them."""

from __future__ import annotations

import random
from typing import Any

import numpy as np


def _reader(n: int, start: int = 0) -> Any:
    def r() -> Any:
        yield from range(start, start + n)

    return r


def _values(ts: Any) -> Any:
    return [{"shape": list(t.shape), "values": t.numpy().tolist()} for t in ts]


def _err(fn: Any) -> Any:
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type is what is recorded)
        return {"error": type(e).__name__}
    return {"error": None}


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    rd = paddle.reader
    out["batch"] = list(paddle.batch(_reader(10), 4)())
    out["batch_drop_last"] = list(paddle.batch(_reader(10), 4, drop_last=True)())
    out["batch_zero"] = _err(lambda: paddle.batch(_reader(3), 0))
    random.seed(3)
    out["shuffle"] = [list(rd.shuffle(_reader(10), 4)()) for _ in range(2)]
    out["chain"] = list(rd.chain(_reader(2), _reader(3, 10))())
    out["compose"] = [list(t) for t in rd.compose(_reader(3), lambda: iter([(1, 2), (3, 4), (5, 6)]))()]
    out["compose_unaligned"] = _err(lambda: list(rd.compose(_reader(3), _reader(2))()))
    try:
        list(rd.compose(_reader(3), _reader(2))())
    except rd.ComposeNotAligned as e:
        out["compose_not_aligned_is_value_error"] = isinstance(e, ValueError)
    out["compose_unchecked"] = [list(t) for t in rd.compose(_reader(3), _reader(2), check_alignment=False)()]
    out["map_readers"] = list(rd.map_readers(lambda a, b: a * 10 + b, _reader(3), _reader(4, 5))())
    out["firstn"] = list(rd.firstn(_reader(10), 3)())
    out["firstn_more"] = list(rd.firstn(_reader(2), 5)())
    cached = rd.cache(_reader(4))
    out["cache"] = [list(cached()), list(cached())]
    out["buffered"] = list(rd.buffered(_reader(7), 2)())
    out["xmap_ordered"] = list(rd.xmap_readers(lambda v: v * v, _reader(20), 3, 4, order=True)())
    out["xmap_unordered_sorted"] = sorted(rd.xmap_readers(lambda v: v + 1, _reader(20), 3, 4)())
    out["multiprocess_sorted"] = sorted(rd.multiprocess_reader([_reader(5), _reader(5, 100)])())

    x = paddle.to_tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))
    sp = paddle.special
    out["special_logsumexp"] = sp.logsumexp(x, 1).numpy().tolist()
    out["special_logsumexp_dim_keepdim"] = sp.logsumexp(x, dim=0, keepdim=True).numpy().tolist()
    out["special_expm1"] = sp.expm1(x).numpy().tolist()
    out["special_softmax"] = sp.softmax(x, dim=0).numpy().tolist()
    fn = paddle.functional
    y = paddle.to_tensor(np.arange(14, dtype=np.float32).reshape(2, 7))
    out["split_size"] = _values(fn.split(y, 3, dim=1))
    out["split_sections"] = _values(fn.split(y, [2, 5], 1))
    out["split_dim0"] = _values(fn.split(y, 1))
    out["split_is_tuple"] = type(fn.split(y, 3, dim=1)).__name__
    out["split_bad_sum"] = _err(lambda: fn.split(y, [2, 2], 1))
    out["functional_same"] = [getattr(fn, n) is getattr(paddle, n) for n in
                              ("atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "einsum", "meshgrid",
                               "norm", "unique_consecutive")]
    paddle.seed(7)
    out["initial_seed"] = paddle.random.initial_seed()
    state = paddle.get_rng_state()
    paddle.seed(2**40 + 3)
    paddle.set_rng_state(state)
    out["initial_seed_after_set_state"] = paddle.random.initial_seed()
    c = paddle.cuda
    out["cuda"] = [c.is_available(), c.device_count(), c.is_initialized(), c.is_bf16_supported(),
                   c.is_bf16_supported(False), c.device is paddle.device.device]
    out["cuda_mem_get_info"] = _err(lambda: c.mem_get_info())
    return out
