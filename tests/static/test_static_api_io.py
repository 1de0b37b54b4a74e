"""Saving and loading static programs' variables: ``save_vars``/``load_vars``/``serialize_persistables`` in
Paddle's tensor format (byte for byte what Paddle 3.3.1 writes, and Paddle's files read back),
``serialize_program``/``deserialize_*`` round trips through the Executor, ``load_program_state`` /
``set_program_state`` and ``normalize_program``.

Paddle's files: ``tests/data/paddle_static_vars/`` and ``tests/data/paddle_static_api.json`` (written by
``tests/record_paddle_static_api.py``), ``tests/data/paddle_static_mlp.pdparams`` (by
``tests/record_paddle_static_layers.py``).
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import static_api_cases as cases

import pylayer_jax as paddle

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
VARS = os.path.join(DATA, "paddle_static_vars")
with open(os.path.join(DATA, "paddle_static_api.json")) as _f:
    REF = json.load(_f)["save_vars"]
A = cases.arrays()
S = paddle.static


@pytest.fixture(autouse=True)
def _static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _program():
    """The program Paddle saved: fc(v, 3) with weight "w", bias "b" and an int64 counter "cnt" (7, 7)."""
    main, startup = S.Program(), S.Program()
    with paddle.utils.unique_name.guard(), S.program_guard(main, startup):
        x = S.data("v", [None, 6], "float32")
        y = S.nn.fc(x, 3, weight_attr=cases.attr(paddle, A, "fc_w", name="w"),
                    bias_attr=cases.attr(paddle, A, "fc_b", name="b"))
        c = S.create_global_var([2], 7, "int64", persistable=True, name="cnt")
    return main, startup, x, y, c


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def test_save_vars_writes_paddles_bytes(tmp_path):
    main, startup, x, y, c = _program()
    exe = S.Executor()
    with S.scope_guard(S.Scope()):
        exe.run(startup)
        vs = [main.global_block().var("w"), main.global_block().var("b"), c]
        S.save_vars(exe, str(tmp_path / "each"), main, vars=vs)
        S.save_vars(exe, str(tmp_path / "combined"), main, vars=vs, filename="all")
        mem = S.save_vars(exe, None, main, vars=vs)
        ser = S.serialize_persistables([x], [y], exe, program=main)
        out = exe.run(main, feed={"v": A["v"]}, fetch_list=[y])[0]
    for n in ("w", "b", "cnt"):
        assert _read(tmp_path / "each" / n) == _read(os.path.join(VARS, "each", n)), n
    assert _read(tmp_path / "combined" / "all") == _read(os.path.join(VARS, "combined", "all"))
    assert mem.hex() == REF["memory_hex"]
    assert ser.hex() == REF["serialized_hex"]
    np.testing.assert_allclose(out, REF["out"], rtol=1e-6)


@pytest.mark.parametrize("combined", [False, True])
def test_load_vars_reads_paddles_files(combined):
    main, startup, x, y, c = _program()
    exe = S.Executor()
    scope = S.Scope()
    with S.scope_guard(scope):
        exe.run(startup)
        for n in ("w", "b", "cnt"):  # (something else first, so the load is seen)
            scope.find_var(n).get_tensor().set(np.zeros_like(np.asarray(scope.find_var(n).get_tensor())))
        vs = [main.global_block().var("w"), main.global_block().var("b"), c]
        if combined:
            S.load_vars(exe, os.path.join(VARS, "combined"), main, vars=vs, filename="all")
        else:
            S.load_vars(exe, os.path.join(VARS, "each"), main, vars=vs)
        out = exe.run(main, feed={"v": A["v"]}, fetch_list=[y])[0]
        cnt = np.asarray(scope.find_var("cnt").get_tensor())
    np.testing.assert_allclose(out, REF["out"], rtol=1e-6)
    assert cnt.tolist() == [7, 7] and cnt.dtype == np.int64


def test_load_vars_from_memory_and_by_predicate(tmp_path):
    main, startup, x, y, c = _program()
    exe = S.Executor()
    scope = S.Scope()
    with S.scope_guard(scope):
        exe.run(startup)
        S.save_vars(exe, str(tmp_path), main, predicate=S.is_persistable)  # (w, b, cnt)
        assert sorted(os.listdir(tmp_path)) == ["b", "cnt", "w"]
        scope.find_var("w").get_tensor().set(np.zeros((6, 3), "float32"))
        S.load_vars(exe, None, main, vars=[main.global_block().var("w"), main.global_block().var("b"), c],
                    filename=bytes.fromhex(REF["memory_hex"]))
        np.testing.assert_array_equal(np.asarray(scope.find_var("w").get_tensor()), A["fc_w"])


def test_load_vars_checks_shapes_and_files(tmp_path):
    main, startup, x, y, c = _program()
    other, ostart = S.Program(), S.Program()
    with S.program_guard(other, ostart):
        S.create_parameter([2, 2], "float32", attr=paddle.ParamAttr(name="w"))
    exe = S.Executor()
    with S.scope_guard(S.Scope()):
        exe.run(startup)
        with pytest.raises(RuntimeError, match=r"needs w with shape \[2, 2\], but .* holds shape \[6, 3\]"):
            S.load_vars(exe, os.path.join(VARS, "each"), other, vars=[other.global_block().var("w")])
        with pytest.raises(ValueError, match="does not exist"):
            S.load_vars(exe, str(tmp_path), main, vars=[c])
        (tmp_path / "cnt").write_bytes(b"not a tensor")
        with pytest.raises(ValueError, match="is not a Paddle tensor file or is damaged"):
            S.load_vars(exe, str(tmp_path), main, vars=[c])
        with pytest.raises(ValueError, match="holds more tensors than"):
            S.load_vars(exe, os.path.join(VARS, "combined"), main, vars=[main.global_block().var("b")],
                        filename="all")


def test_serialized_program_and_persistables_round_trip(tmp_path):
    main, startup, x, y, c = _program()
    exe = S.Executor()
    with S.scope_guard(S.Scope()):
        exe.run(startup)
        prog_bytes = S.serialize_program([x], [y], program=main)
        par_bytes = S.serialize_persistables([x], [y], exe, program=main)
    S.save_to_file(str(tmp_path / "m.pdmodel"), prog_bytes)
    S.save_to_file(str(tmp_path / "m.pdiparams"), par_bytes)
    prog = S.deserialize_program(S.load_from_file(str(tmp_path / "m.pdmodel")))
    with S.scope_guard(S.Scope()):
        S.deserialize_persistables(prog, S.load_from_file(str(tmp_path / "m.pdiparams")), exe)
        out = exe.run(prog, feed={"v": A["v"]}, fetch_list=[y.name])[0]
        out4 = exe.run(prog, feed={"v": A["v"][:2]}, fetch_list=[y.name])[0]  # (the batch stays free)
    np.testing.assert_allclose(out, REF["out"], rtol=1e-6)
    np.testing.assert_allclose(out4, np.asarray(REF["out"])[:2], rtol=1e-6)
    with pytest.raises(ValueError, match="not a program written by paddle.static.serialize_program"):
        S.deserialize_program(b"\x08\x01garbage")
    with pytest.raises(ValueError, match="content must be bytes"):
        S.save_to_file(str(tmp_path / "x"), "text")
    with pytest.raises(TypeError, match="unknown keyword arguments"):
        S.serialize_program([x], [y], program=main, clip=True)


def test_load_program_state_reads_paddles_save_and_save_vars_files():
    with open(os.path.join(DATA, "paddle_static_layers.json")) as f:
        mlp = json.load(f)["mlp"]["sgd"]["params"]
    state = S.load_program_state(os.path.join(DATA, "paddle_static_mlp"))
    for k, v in mlp.items():
        np.testing.assert_allclose(state[k], v, rtol=1e-6)
    each = S.load_program_state(os.path.join(VARS, "each"))
    assert sorted(each) == ["b", "cnt", "w"]
    np.testing.assert_array_equal(each["w"], A["fc_w"])
    main, startup, x, y, c = _program()
    comb = S.load_program_state(os.path.join(VARS, "combined", "all"),
                                var_list=[main.global_block().var("w"), main.global_block().var("b"), c])
    assert comb["cnt"].tolist() == [7, 7]
    with pytest.raises(ValueError, match="var_list can not be None when model_path is a file"):
        S.load_program_state(os.path.join(VARS, "combined", "all"))


def test_set_program_state_sets_the_scope_and_checks():
    main, startup, x, y, c = _program()
    exe = S.Executor()
    with S.scope_guard(S.Scope()):
        exe.run(startup)
        with pytest.warns(UserWarning, match="not set, the program has no persistable Variable of that name: zz"):
            S.set_program_state(main, {"w": A["fc_w"] * 2, "b": A["fc_b"] * 2, "zz": np.ones(1)})
        out = exe.run(main, feed={"v": A["v"]}, fetch_list=[y])[0]
        np.testing.assert_allclose(out, np.asarray(REF["out"]) * 2, rtol=1e-5)
        with pytest.raises(ValueError, match=r"needs w with shape \[6, 3\], but state_dict holds shape \[3, 6\]"):
            S.set_program_state(main, {"w": A["fc_w"].T})
        with pytest.raises(ValueError, match="needs cnt with dtype int64, but state_dict holds float64"):
            S.set_program_state(main, {"cnt": np.ones(2)})


def test_normalize_program_keeps_the_inference_part():
    main, startup = S.Program(), S.Program()
    with paddle.utils.unique_name.guard(), S.program_guard(main, startup):
        x = S.data("v", [None, 6], "float32")
        y = S.nn.fc(x, 3, weight_attr=cases.attr(paddle, A, "fc_w"), bias_attr=cases.attr(paddle, A, "fc_b"))
        unused = S.nn.fc(x, 2)
        loss = paddle.mean(y * y) + paddle.mean(unused)
        paddle.optimizer.SGD(0.1).minimize(loss)
    inf = S.normalize_program(main, [x], [y])
    kinds = [op.type for op in inf.global_block().ops]
    assert "grad" not in kinds and "sgd" not in kinds and len(kinds) == 2  # (matmul, add)
    exe = S.Executor()
    with S.scope_guard(S.Scope()):
        exe.run(startup)
        out = exe.run(inf, feed={"v": A["v"]}, fetch_list=[y])[0]
        again = exe.run(inf, feed={"v": A["v"]}, fetch_list=[y])[0]
    np.testing.assert_allclose(out, A["v"] @ A["fc_w"] + A["fc_b"], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out, again)  # (no update ops left)
    with pytest.raises(ValueError, match="program must not be empty"):
        S.normalize_program(S.Program(), [x], [y])


def test_static_save_keeps_persistable_globals_and_skips_the_others(tmp_path):
    import pickle

    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        p = S.data("p2", [None, 2], "float32")
        lab = S.data("lab_auc", [None, 1], "int64")
        _, _, stats = S.auc(p, lab, num_thresholds=3, slide_steps=0)
        S.create_global_var([1], 0.0, "float32", name="scratch")
        S.create_global_var([1], 5.0, "float32", persistable=True, name="kept")
    exe = S.Executor()
    with S.scope_guard(S.Scope()):
        exe.run(startup)
        exe.run(main, feed={"p2": A["p2"], "lab_auc": A["lab_auc"]})
        S.save(main, str(tmp_path / "m"))
    with open(tmp_path / "m.pdopt", "rb") as f:
        saved = pickle.load(f)
    assert sorted(saved) == sorted(["kept", *(v.name for v in stats)])
    assert saved["kept"].tolist() == [5.0] and saved[stats[2].name].sum() == (A["lab_auc"] > 0).sum()
