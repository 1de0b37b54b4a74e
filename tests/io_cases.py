"""Datasets shared by tests/record_paddle_io.py (run with Paddle) and tests/test_io.py.

``build(name, paddle_module)`` makes the same dataset under Paddle and under pylayer_jax.
Values are fixed functions of the index, so the two libraries see the same samples.
"""

import numpy as np


def Range(n):  # noqa: N802 (a dataset factory read like a class)
    return list(range(n))


def _sample(name, i, pd):
    x = np.arange(3, dtype=np.float32) + i
    if name == "array_label":
        return x, np.array([i % 3], dtype=np.int64)
    if name == "array_pyfloat_pyint":
        return x, 0.5 * i, i
    if name == "dict":
        return {"x": x, "y": i, "name": f"s{i}", "w": np.float64(i) / 4}
    if name == "single_array":
        return x.reshape(1, 3).astype(np.float64)
    if name == "tensor":
        return pd.to_tensor(x)
    if name == "nested":
        return {"a": (x, np.int32(i)), "b": [i, 1.5 * i, True]}, [x * 2]
    if name == "pyfloat":
        return 0.25 * i
    if name == "pyint":
        return i
    if name == "uint8_image":
        return np.full((2, 2), i, dtype=np.uint8), np.array(i, dtype=np.int64)
    raise KeyError(name)


MAP_CASES = ["array_label", "array_pyfloat_pyint", "dict", "single_array", "tensor", "nested", "pyfloat",
             "uint8_image"]
ITER_CASES = ["iter_array_label"]
COLLATE_CASES = ["array_label", "dict", "nested", "pyfloat", "pyint", "tensor"]


def build(name, pd):
    if name.startswith("iter_"):
        base = name[len("iter_"):]

        class It(pd.io.IterableDataset):
            def __iter__(self):
                for i in range(10):
                    yield _sample(base, i, pd)

        return It()
    class Ds(pd.io.Dataset):
        def __getitem__(self, i):
            return _sample(name, i, pd)

        def __len__(self):
            return 10

    return Ds()


def samples(name, pd, n=3):
    return [_sample(name, i, pd) for i in range(n)]
