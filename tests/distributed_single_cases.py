"""What ``paddle.distributed`` (and ``fleet``) answers in one process started without a launcher, as one
``record(paddle)``: run with real Paddle 3.3.1 by tests/record_paddle_distributed_single.py (fixture
tests/data/paddle_distributed_single.json) and with pylayer_jax by tests/distributed/test_single_process.py, which
compares the two. Each entry is a value, or ``["raises", type name]``; the messages differ on purpose (this
package's name the API and the fix)."""

from __future__ import annotations

import os
import tempfile
import warnings
from typing import Any

import numpy as np

W = np.array([[0.5, -1.0], [0.25, 2.0], [-0.75, 0.5]], np.float32)
B = np.array([0.1, -0.2], np.float32)
X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)


def _try(f: Any) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f()
    except Exception as e:  # noqa: BLE001 (the type is the recorded answer)
        return ["raises", type(e).__name__]


def _linear(paddle: Any) -> Any:
    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(paddle.to_tensor(W))
    lin.bias.set_value(paddle.to_tensor(B))
    return lin


def _collectives(paddle: Any, dist: Any, group: Any) -> dict[str, Any]:
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    calls = {
        "all_reduce": lambda: dist.all_reduce(x, group=group),
        "all_reduce_max": lambda: dist.all_reduce(x, op=dist.ReduceOp.MAX, group=group),
        "all_gather": lambda: dist.all_gather([], x, group=group),
        "all_gather_object": lambda: dist.all_gather_object([], {"a": 1}, group=group),
        "broadcast": lambda: dist.broadcast(x, 0, group=group),
        "broadcast_object_list": lambda: dist.broadcast_object_list([1, "a"], 0, group=group),
        "reduce": lambda: dist.reduce(x, 0, group=group),
        "scatter": lambda: dist.scatter(x, [x], 0, group=group),
        "scatter_object_list": lambda: dist.scatter_object_list([None], [{"k": 2}], 0, group=group),
        "gather": lambda: dist.gather(x, [], 0, group=group),
        "alltoall": lambda: dist.alltoall([], [x], group=group),
        "alltoall_single": lambda: dist.alltoall_single(paddle.zeros([3]), x, group=group),
        "reduce_scatter": lambda: dist.reduce_scatter(paddle.zeros([3]), [x], group=group),
        "send": lambda: dist.send(x, 0, group=group),
        "recv": lambda: dist.recv(x, 0, group=group),
        "isend": lambda: dist.isend(x, 0, group=group),
        "irecv": lambda: dist.irecv(x, 0, group=group),
        "send_object_list": lambda: dist.send_object_list([1], 0, group=group),
        "recv_object_list": lambda: dist.recv_object_list([1], 0, group=group),
        "barrier": lambda: dist.barrier(group),
        "wait": lambda: dist.wait(x, group=group),
        "get_backend": lambda: dist.get_backend(group),
    }
    out = {k: _try(f) for k, f in calls.items()}
    out["x_after"] = x.numpy().tolist()  # (nothing wrote into it)
    return out


def record(paddle: Any) -> dict[str, Any]:
    dist = paddle.distributed
    out: dict[str, Any] = {}
    out["env"] = [dist.get_rank(), dist.get_world_size(), dist.is_initialized(), dist.is_available(),
                  dist.init_parallel_env(), dist.is_initialized(), dist.create_nccl_config()]
    out["no_group"] = _collectives(paddle, dist, None)
    out["destroy_no_group"] = _try(lambda: dist.destroy_process_group())
    out["reduce_op"] = [dist.ReduceOp.SUM, dist.ReduceOp.MAX, dist.ReduceOp.MIN, dist.ReduceOp.PROD,
                        dist.ReduceOp.AVG]
    out["parallel_mode"] = [dist.ParallelMode.DATA_PARALLEL, dist.ParallelMode.TENSOR_PARALLEL,
                            dist.ParallelMode.PIPELINE_PARALLEL, dist.ParallelMode.SHARDING_PARALLEL,
                            dist.ParallelMode.SEGMENT_PARALLEL]
    out["reduce_type"] = [int(dist.ReduceType.kRedSum), int(dist.ReduceType.kRedMax), int(dist.ReduceType.kRedAvg)]
    env = dist.ParallelEnv()
    out["parallel_env"] = [env.rank, env.world_size, env.nranks, env.local_rank, env.current_endpoint,
                           env.trainer_endpoints, env.device_type, env.nrings, env.pg_timeout,
                           _try(lambda: env.device_id)]
    g = dist.new_group([0])
    out["group"] = [g.rank, g.nranks, g.ranks, g.is_member(), g.world_size, g.get_group_rank(0), dist.get_rank(g),
                    dist.get_world_size(g), g.name == f"_default_pg{g.id}", dist.get_group(g.id) is g,
                    dist.get_group(987), str(g) == f"rank: -1, nranks: 1, id: {g.id}, ranks: 0; name: {g.name}"]
    out["with_group"] = _collectives(paddle, dist, g)
    out["new_group_bad"] = [_try(lambda: dist.new_group()), _try(lambda: dist.new_group([0, 1]))]
    out["destroy_group"] = [_try(lambda: dist.destroy_process_group(g)), dist.get_group(g.id)]
    out["split"] = _try(lambda: dist.split(paddle.ones([2, 3]), (3, 4), "linear"))
    out["gloo"] = [_try(lambda: dist.gloo_init_parallel_env(0, 1, "127.0.0.1:0")), _try(dist.gloo_barrier),
                   dist.gloo_release()]

    # ---- auto-parallel on one device
    mesh = dist.ProcessMesh([0], dim_names=["x"])
    out["mesh"] = [mesh.shape, mesh.process_ids, mesh.dim_names, mesh.ndim, mesh.mesh.tolist(),
                   mesh.get_dim_size("x"), mesh == dist.ProcessMesh([0], dim_names=["x"])]
    mesh2 = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["a", "b"])
    out["mesh2"] = [mesh2.shape, mesh2.process_ids, mesh2.get_dim_size("b"),
                    mesh2.get_mesh_with_dim("b").process_ids, mesh2.get_mesh_with_dim("b").dim_names]
    out["placements"] = [repr(dist.Shard(0)), repr(dist.Replicate()), repr(dist.Partial()),
                         repr(dist.Partial(dist.ReduceType.kRedMax)), dist.Shard(1).get_dim(),
                         dist.Shard(0) == dist.Shard(0), dist.Shard(0) == dist.Shard(1),
                         dist.Shard(0).is_shard(), dist.Replicate().is_replicated(), dist.Partial().is_partial(),
                         dist.Shard(0).is_replicated(), isinstance(dist.Shard(0), dist.Placement)]
    x = paddle.to_tensor(X)
    cases = {}
    for name, pl in (("shard0", [dist.Shard(0)]), ("shard1", [dist.Shard(1)]), ("replicate", [dist.Replicate()]),
                     ("partial", [dist.Partial()])):
        d = dist.shard_tensor(x, mesh, pl)
        cases[name] = [d.numpy().tolist(), repr(d.placements), d.process_mesh.shape, d.process_mesh.process_ids,
                       d.is_dist(), d.stop_gradient, str(d.dtype), list(d.shape), (d + 1).numpy().tolist(),
                       d._local_value().numpy().tolist(), d._local_value().is_dist()]
    out["shard_tensor"] = cases
    out["x_is_dist"] = [x.is_dist(), x.placements, x.process_mesh]
    xs = paddle.to_tensor(X, stop_gradient=False)
    out["shard_tensor_grad_flag"] = [dist.shard_tensor(xs, mesh, [dist.Replicate()]).stop_gradient,
                                     dist.shard_tensor(x, mesh, [dist.Replicate()], stop_gradient=False).stop_gradient,
                                     dist.shard_tensor([1.0, 2.0], mesh, [dist.Replicate()],
                                                       stop_gradient=False).stop_gradient]
    lst = dist.shard_tensor([[1, 2]], mesh, [dist.Replicate()])
    out["shard_list"] = [lst.numpy().tolist(), str(lst.dtype), lst.is_dist()]
    f = dist.dtensor_from_fn(paddle.ones, mesh, [dist.Shard(0)], shape=[2, 3])
    out["dtensor_from_fn"] = [f.numpy().tolist(), repr(f.placements), str(f.dtype)]
    r = dist.reshard(dist.shard_tensor(x, mesh, [dist.Partial()]), mesh, [dist.Replicate()])
    out["reshard"] = [r.numpy().tolist(), repr(r.placements), r.is_dist()]
    u = dist.unshard_dtensor(dist.shard_tensor(x, mesh, [dist.Shard(0)]))
    out["unshard"] = [u.numpy().tolist(), u.is_dist()]
    out["shard_errors"] = [_try(lambda: dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Shard(1)])),
                           _try(lambda: dist.shard_tensor(x, "mesh", [dist.Shard(0)])),
                           _try(lambda: dist.shard_tensor(x, mesh, ["s"]))]
    out["get_mesh"] = [dist.get_mesh() is None, dist.set_mesh(mesh), dist.get_mesh() == mesh]

    lin = _linear(paddle)

    def shard_fn(name: str, layer: Any, m: Any) -> None:
        if isinstance(layer, paddle.nn.Linear):
            layer.weight = dist.shard_tensor(layer.weight, m, [dist.Shard(1)])

    sl = dist.shard_layer(lin, mesh, shard_fn)
    y = sl(paddle.to_tensor(X))
    out["shard_layer"] = [sl is lin, lin.weight.name.endswith(".dist"), repr(lin.weight.placements),
                          repr(lin.bias.placements), lin.weight.stop_gradient, lin.weight.is_dist(),
                          y.numpy().tolist(), list(lin.state_dict())]
    lin2 = _linear(paddle)
    dist.shard_layer(lin2, mesh)
    out["shard_layer_default"] = [repr(lin2.weight.placements), repr(lin2.bias.placements)]
    opt = paddle.optimizer.SGD(0.1, parameters=lin2.parameters())
    sopt = dist.shard_optimizer(opt)
    loss = lin2(paddle.to_tensor(X)).sum()
    loss.backward()
    sopt.step()
    sopt.clear_grad()
    out["shard_optimizer"] = [sopt is opt, lin2.weight.numpy().tolist(), lin2.bias.numpy().tolist()]

    class DS(paddle.io.Dataset):
        def __getitem__(self, i: int) -> Any:
            return np.full([3], i, "float32"), np.array([i * 0.5], "float32")

        def __len__(self) -> int:
            return 4

    loader = paddle.io.DataLoader(DS(), batch_size=2)
    sdl = dist.shard_dataloader(loader, [mesh])
    out["shard_dataloader"] = [len(sdl)] + [[b[0].is_dist(), repr(b[0].placements), b[0].numpy().tolist(),
                                             b[1].numpy().tolist()] for b in sdl]
    lin3 = _linear(paddle)
    dm = dist.to_static(lin3, sdl, paddle.nn.MSELoss(), paddle.optimizer.SGD(0.1, parameters=lin3.parameters()))
    dm.train()
    train = [float(dm(bx, by)) for bx, by in sdl]
    dm.eval()
    evals = [float(dm(bx, by)) for bx, by in sdl]
    out["dist_model"] = [train, evals, list(dm.state_dict())]
    s = dist.Strategy({"sharding": {"enable": True, "stage": 2}, "gradient_merge": {"k_steps": 4}})
    out["strategy"] = [s.sharding.enable, s.sharding.stage, s.sharding.degree, s.gradient_merge.k_steps,
                       s.gradient_merge.enable, s.pipeline.schedule_mode, s.amp.level, s.fused_passes.enable]

    # ---- checkpoints and local_map
    with tempfile.TemporaryDirectory() as tmp:
        ck = os.path.join(tmp, "ckpt")
        dist.save_state_dict(_linear(paddle).state_dict(), ck)
        lin6 = paddle.nn.Linear(3, 2)
        sd6 = lin6.state_dict()
        loaded = dist.load_state_dict(sd6, ck)
        merged = dist.load_merged_state_dict(ck, prefix="bi")
        out["checkpoint"] = [sorted(f for f in os.listdir(ck) if f.endswith(".distcp")), loaded,
                             lin6.weight.numpy().tolist(), lin6.bias.numpy().tolist(),
                             {k: v.numpy().tolist() for k, v in merged.items()},
                             sorted(dist.load_merged_state_dict(ck)),
                             _try(lambda: dist.load_state_dict({"nope": paddle.ones([2])}, ck))]
    lm = dist.local_map(lambda a, b: (a + b, a * 2), out_placements=[[dist.Partial()], [dist.Shard(0)]],
                        in_placements=[[dist.Shard(0)], [dist.Replicate()]], process_mesh=mesh)
    res = []
    for a, b in ((dist.shard_tensor(paddle.to_tensor([1.0, 2.0]), mesh, [dist.Shard(0)]),
                  dist.shard_tensor(paddle.to_tensor([3.0, 4.0]), mesh, [dist.Replicate()])),
                 (paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0]))):
        res.append([[t.numpy().tolist(), t.is_dist(), repr(t.placements)] for t in lm(a, b)])
    out["local_map"] = res

    # ---- fleet
    fleet = paddle.distributed.fleet
    out["fleet_before"] = _try(fleet.worker_num)
    st = fleet.DistributedStrategy()
    st.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1}
    st.amp = True
    st.amp_configs = {"init_loss_scaling": 1024}
    st.recompute = True
    out["fleet_strategy"] = [st.amp, st.amp_configs["init_loss_scaling"], st.amp_configs["incr_ratio"],
                             st.recompute, st.hybrid_configs["dp_degree"], st.hybrid_configs["sharding_degree"],
                             st.sharding, st.find_unused_parameters, st.fuse_grad_size_in_MB,
                             st.recompute_configs["checkpoints"], st.gradient_merge_configs,
                             _try(lambda: setattr(st, "not_an_attribute", 3)),
                             _try(lambda: setattr(st, "amp_configs", {"bogus": 1}))]
    fleet.init(is_collective=True, strategy=st)
    hcg = fleet.get_hybrid_communicate_group()
    out["fleet"] = [fleet.worker_index(), fleet.worker_num(), fleet.is_first_worker(), fleet.is_worker(),
                    dist.is_initialized(), hcg.get_data_parallel_world_size(), hcg.get_model_parallel_world_size(),
                    hcg.get_pipe_parallel_world_size(), hcg.get_data_parallel_rank(), hcg.get_model_parallel_rank(),
                    hcg.get_parallel_mode(), hcg.get_global_rank()]
    lin4 = _linear(paddle)
    opt4 = paddle.optimizer.SGD(0.1, parameters=lin4.parameters())
    out["fleet_optimizer"] = fleet.distributed_optimizer(opt4) is opt4

    recompute = paddle.distributed.fleet.utils.recompute
    rec = {}
    for name, kw in (("reentrant", {}), ("non_reentrant", {"use_reentrant": False})):
        lin5 = _linear(paddle)
        xg = paddle.to_tensor(X, stop_gradient=False)
        yr = recompute(lin5, xg, **kw)
        (yr * yr).sum().backward()
        rec[name] = [yr.numpy().tolist(), yr.stop_gradient, xg.grad.numpy().tolist(),
                     lin5.weight.grad.numpy().tolist(), lin5.bias.grad.numpy().tolist()]
    rec["kwargs"] = recompute(lambda a, b=1: a * b, paddle.to_tensor(X), b=3).numpy().tolist()
    rec["bad_kw"] = _try(lambda: recompute(_linear(paddle), paddle.to_tensor(X), bogus=1))
    out["recompute"] = rec
    return out
