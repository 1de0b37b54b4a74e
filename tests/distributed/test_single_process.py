"""``paddle.distributed`` and ``fleet`` in one process: what Paddle 3.3.1 answers when a multi-GPU script is started
without a launcher (recorded by tests/record_paddle_distributed_single.py, cases in tests/distributed_single_cases.py)
compared entry by entry with pylayer_jax's answers, then scripts and misuse errors."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from distributed_single_cases import B, W, X, record

import pylayer_jax as paddle
import pylayer_jax.distributed as dist
from pylayer_jax.distributed import fleet

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_distributed_single.json")) as fh:
    PADDLE = json.load(fh)

# Deliberate differences: (entry, index) -> (Paddle's answer, ours, why)
DIFFERENT = {
    ("fleet_before", None): (["raises", "AttributeError"], ["raises", "RuntimeError"],
                             "Paddle fails reading an attribute of None; here a sentence says to call fleet.init"),
    ("fleet_strategy", 12): (["raises", "AssertionError"], ["raises", "ValueError"],
                             "a bad config key is a bad value, not a failed assertion (asserts vanish under -O)"),
    ("gloo", 0): (["raises", "AssertionError"], ["raises", "ValueError"], "the same: rank_num=1 is a bad value"),
    ("gloo", 1): (["raises", "AssertionError"], ["raises", "RuntimeError"], "no gloo context: a state error"),
    ("new_group_bad", 0): (["raises", "AssertionError"], ["raises", "RuntimeError"], "no global group: a state error"),
    ("new_group_bad", 1): (["raises", "AssertionError"], ["raises", "RuntimeError"], "the same"),
}


@pytest.fixture(scope="module")
def ours():
    fleet.fleet._inited = False  # (the recorded cases start before fleet.init)
    return record(paddle)


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return (isinstance(a, (int, float)) and isinstance(b, (int, float))
                and abs(a - b) <= 1e-5 * max(1.0, abs(b)))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


@pytest.mark.parametrize("entry", sorted(k for k in PADDLE if k != "paddle"))
def test_the_answers_are_paddles(ours, entry):
    got, want = ours[entry], PADDLE[entry]
    for (key, i), (paddle_says, we_say, _why) in sorted(DIFFERENT.items(), key=lambda kv: -(kv[0][1] or 0)):
        if key != entry:  # (the highest index first: removing it leaves the lower ones where they were)
            continue
        if i is None:
            assert want == paddle_says and got == we_say
            return
        assert want[i] == paddle_says and got[i] == we_say
        got, want = got[:i] + got[i + 1:], want[:i] + want[i + 1:]
    assert _same(got, want), f"{entry}: ours {got!r}, Paddle's {want!r}"


def _linear():
    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(paddle.to_tensor(W))
    lin.bias.set_value(paddle.to_tensor(B))
    return lin


def test_a_fleet_script_trains_as_the_plain_model():
    """fleet.init / distributed_model / distributed_optimizer around a training loop: the plain loop's numbers
    (oracle: the same loop without fleet)."""
    fleet.init(is_collective=True)
    runs = []
    for use_fleet in (False, True):
        model = _linear()
        opt = paddle.optimizer.Adam(0.01, parameters=model.parameters())
        if use_fleet:
            model, opt = fleet.distributed_model(model), fleet.distributed_optimizer(opt)
        for _ in range(3):
            loss = (model(paddle.to_tensor(X)) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
        runs.append(model.weight.numpy())
    np.testing.assert_allclose(runs[0], runs[1], rtol=1e-6)
    assert fleet.worker_endpoints(to_string=True) == "127.0.0.1:6170"


def test_recompute_gradients_are_the_blocks():
    """recompute(block, x) against the block called directly (oracle), through a two-layer chain."""
    rc = fleet.utils.recompute
    grads = []
    for use in (False, True):
        a, b = _linear(), paddle.nn.Linear(2, 1)
        b.weight.set_value(paddle.to_tensor([[1.5], [-0.5]]))
        x = paddle.to_tensor(X, stop_gradient=False)
        h = rc(a, x, preserve_rng_state=False) if use else a(x)
        (paddle.tanh(b(h)) ** 2).sum().backward()
        grads.append([x.grad.numpy(), a.weight.grad.numpy(), b.weight.grad.numpy()])
    for g0, g1 in zip(*grads):
        np.testing.assert_allclose(g0, g1, rtol=1e-6)


def test_a_distributed_tensor_differentiates_through_reshard():
    mesh = dist.ProcessMesh([0], dim_names=["x"])
    d = dist.shard_tensor(paddle.to_tensor(X, stop_gradient=False), mesh, [dist.Shard(0)])
    r = dist.reshard(d, mesh, [dist.Replicate()])
    (r * r).sum().backward()
    np.testing.assert_allclose(d.grad.numpy(), 2 * X)
    assert r.placements == [dist.Replicate()] and not r.stop_gradient


def test_shard_optimizer_accumulates_and_dist_model_predicts():
    lin = _linear()
    opt = dist.shard_optimizer(paddle.optimizer.SGD(0.1, parameters=lin.parameters()),
                               dist.ShardingStage1("x", dist.ProcessMesh([0], dim_names=["x"])),
                               gradient_accumulation_steps=2)
    for i in range(2):
        lin(paddle.to_tensor(X)).sum().backward()
        opt.step()
        opt.clear_grad()
        if i == 0:  # no step yet
            np.testing.assert_array_equal(lin.weight.numpy(), W)
    np.testing.assert_allclose(lin.weight.numpy(), W - 0.1 * 2 * X.sum(0)[:, None], rtol=1e-6)
    dm = dist.to_static(_linear())
    out = dm(paddle.to_tensor(X))
    np.testing.assert_allclose(out, X @ W + B, rtol=1e-6)


def test_parallelize_registers_the_prepare_hooks_and_spawn_runs_once():
    model = paddle.nn.Sequential(_linear())
    seen = []
    plan = {"0": [dist.ColWiseParallel(), dist.PrepareLayerInput(lambda mesh: lambda layer, inp: seen.append(mesh))]}
    mesh = dist.ProcessMesh([0], dim_names=["mp"])
    m, o = dist.parallelize(model, None, mesh, {"mp_config": {"parallelize_plan": plan}})
    np.testing.assert_allclose(m(paddle.to_tensor(X)).numpy(), X @ W + B, rtol=1e-6)
    assert m is model and o is None and seen == [mesh]
    ctx = dist.spawn(lambda a, b: seen.append(a + b), args=(1, 2), nprocs=1)
    assert ctx.join() is True and seen[-1] == 3


CKPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_distributed_ckpt")


def test_a_checkpoint_paddle_saved_loads_here(tmp_path):
    """Paddle's save_state_dict of the cases' Linear (W, B), loaded in place; then saved here and read back."""
    lin = paddle.nn.Linear(3, 2)
    sd = lin.state_dict()
    assert dist.load_state_dict(sd, CKPT) is None
    np.testing.assert_array_equal(lin.weight.numpy(), W)
    np.testing.assert_array_equal(lin.bias.numpy(), B)
    merged = dist.load_merged_state_dict(CKPT, prefix="we")
    assert list(merged) == ["ght"] and np.array_equal(merged["ght"].numpy(), W)  # (prefix and one separator off)
    lin.weight.set_value(paddle.ones([3, 2]))
    dist.save_state_dict(lin.state_dict(), str(tmp_path), unique_id=3)
    assert sorted(os.listdir(tmp_path)) == ["0_3.distcp"]
    other = paddle.nn.Linear(3, 2)
    dist.load_state_dict(other.state_dict(), str(tmp_path))
    np.testing.assert_array_equal(other.weight.numpy(), np.ones((3, 2)))


def test_local_map_gradients_reach_the_inputs():
    mesh = dist.ProcessMesh([0], dim_names=["x"])
    a = dist.shard_tensor(paddle.to_tensor([1.0, 2.0], stop_gradient=False), mesh, [dist.Shard(0)])
    f = dist.local_map(lambda t: t * t, out_placements=[[dist.Partial()]])
    y = f(a)
    assert y.placements == [dist.Partial()] and y.process_mesh == mesh
    y.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [2.0, 4.0])


MISUSE = [
    (lambda: dist.load_state_dict({"weight": paddle.zeros([2, 2])}, CKPT), ValueError,
     r"load_state_dict: 'weight' has shape \[2, 2\], but the checkpoint holds shape \[3, 2\]"),
    (lambda: dist.load_state_dict({"nope": paddle.zeros([2])}, CKPT), KeyError, r"the keys \['nope'\] are not found"),
    (lambda: dist.load_state_dict({}, CKPT + "_missing"), FileNotFoundError, "no checkpoint directory"),
    (lambda: dist.save_state_dict({"a": 1}, "/tmp/unused_ckpt_dir"), TypeError,
     r"save_state_dict: state_dict\['a'\] must be a Tensor"),
    (lambda: dist.save_state_dict({}, "/tmp/unused_ckpt_dir", safetensors=True), NotImplementedError,
     "safetensors=True is not provided"),
    (lambda: dist.local_map(lambda t: (t, t), out_placements=[[dist.Replicate()]],
                            process_mesh=dist.ProcessMesh([0]))(paddle.ones([2])), ValueError,
     "local_map: out_placements lists 1 outputs, but func returned 2"),

    (lambda: dist.all_reduce(paddle.ones([2])), RuntimeError, "all_reduce: the global group is not initialized"),
    (lambda: dist.all_reduce(paddle.ones([2]), group=3), TypeError, "all_reduce: group must be a Group"),
    (lambda: dist.all_reduce([1.0]), TypeError, "all_reduce: tensor must be a paddle.Tensor, but received list"),
    (lambda: dist.all_gather([], paddle.ones([2]), group=dist.new_group([0])), RuntimeError,
     "all_gather: the group should not be None"),
    (lambda: dist.broadcast(paddle.ones([2]), "0", group=dist.new_group([0])), TypeError, "broadcast: src must"),
    (lambda: dist.wait(paddle.ones([2])), RuntimeError, "wait: there is no device stream"),
    (lambda: dist.new_group([0, 1]), RuntimeError, r"new_group: a group of ranks \[0, 1\] needs the global group"),
    (lambda: dist.get_rank("g"), TypeError, "get_rank: group must be a Group"),
    (lambda: dist.ParallelEnv().device_id, AttributeError, "device_id: no device was selected"),
    (lambda: dist.spawn(print, nprocs=2), NotImplementedError, "spawn: nprocs=2 starts 2 trainer processes"),
    (lambda: dist.spawn(print, nprocs=1, bogus=1), TypeError, r"spawn: unexpected option\(s\) \['bogus'\]"),
    (dist.launch, NotImplementedError, "launch starts one trainer process per device"),
    (lambda: dist.gloo_init_parallel_env(0, 1, "127.0.0.1:0"), ValueError, "rank_num should be greater"),
    (lambda: dist.ProcessMesh([0, 0]), ValueError, "ProcessMesh: the process ids must be unique"),
    (lambda: dist.ProcessMesh([0], dim_names=["a", "b"]), ValueError, "dim_names must name each"),
    (lambda: dist.shard_tensor(paddle.ones([2]), dist.ProcessMesh([0, 1]), [dist.Shard(0)]), NotImplementedError,
     r"shard_tensor: the mesh has processes \[0, 1\]"),
    (lambda: dist.shard_tensor(paddle.ones([2]), dist.ProcessMesh([0]), [dist.Shard(3)]), ValueError,
     r"Shard\(dim=3\) shards a tensor dimension the 1-D tensor does not have"),
    (lambda: dist.shard_tensor(paddle.ones([2]), "m", [dist.Shard(0)]), TypeError, "shard_tensor: mesh must be"),
    (lambda: dist.reshard(paddle.ones([2]), dist.ProcessMesh([0]), [dist.Replicate()]), ValueError,
     "reshard: dist_tensor must be a distributed tensor"),
    (lambda: dist.Partial(0), TypeError, "Partial: reduce_type must be a paddle.distributed.ReduceType"),
    (lambda: dist.shard_dataloader([], [dist.ProcessMesh([0], dim_names=["x"])], shard_dims="x"),
     NotImplementedError, "shard_dataloader: shard_dims='x' splits each batch"),
    (lambda: dist.shard_optimizer(paddle.optimizer.SGD(0.1, parameters=_linear().parameters()),
                                  gradient_accumulation_steps=0), ValueError, "gradient_accumulation_steps must be"),
    (lambda: dist.to_static(_linear(), None, paddle.nn.MSELoss()).train(), RuntimeError,
     "DistModel.train: training needs both loss and optimizer"),
    (lambda: dist.Strategy({"sharding": 1}), TypeError, r"Strategy: config\['sharding'\] must be a dict"),
    (lambda: dist.parallelize(paddle.nn.Linear(2, 2), mesh=dist.ProcessMesh([0]),
                              config={"mp_config": {"parallelize_plan": {"nope": dist.PrepareLayerInput(
                                  lambda m: None)}}}), ValueError, "names sublayer 'nope'"),
    (lambda: setattr(fleet.DistributedStrategy(), "amp_configs", {"bogus": 1}), ValueError,
     "amp_configs: key 'bogus' is not in amp_configs"),
    (lambda: setattr(fleet.DistributedStrategy(), "amp", "yes"), TypeError, "DistributedStrategy.amp must be a bool"),
    (lambda: setattr(fleet.DistributedStrategy(), "nope", 1), TypeError, "nope is not a attribute"),
    (lambda: fleet.init(is_collective=1), TypeError, "fleet.init: is_collective must be a bool"),
    (lambda: fleet.distributed_model(3), TypeError, "distributed_model: model must be a paddle.nn.Layer"),
    (lambda: fleet.utils.recompute(3), TypeError, "recompute: function must be a Layer or a callable"),
    (lambda: fleet.utils.recompute(_linear(), paddle.to_tensor(X), use_reentrant="no"), TypeError,
     "recompute: use_reentrant must be a bool"),
]


@pytest.mark.parametrize("call,exc,match", MISUSE)
def test_misuse_raises_a_clear_error(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_fleet_before_init_raises():
    fleet.fleet._inited = False
    with pytest.raises(RuntimeError, match="fleet.worker_num: fleet is not initialized; call fleet.init"):
        fleet.worker_num()
    fleet.init(is_collective=True)
    assert fleet.worker_num() == 1
