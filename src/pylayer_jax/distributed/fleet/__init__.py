"""``paddle.distributed.fleet`` in one process (layer L7).

``fleet.init(is_collective=True)`` sets up a one-worker job, as Paddle 3.3.1 started without a launcher:
``worker_index()`` 0, ``worker_num()`` 1, a HybridCommunicateGroup of degree 1 everywhere;
``distributed_optimizer(opt)`` is ``opt`` itself. ``distributed_model(model)`` returns ``model`` itself: Paddle
3.3.1 raises a bare AssertionError there (it wraps the model in a pipeline wrapper that asserts a
PipelineLayer), which this package does not mirror, since the one-process result is plainly the model.
``DistributedStrategy`` accepts and stores Paddle's attributes.
"""

from __future__ import annotations

import copy
from typing import Any

from ...nn.layer._layers import Layer
from . import recompute as recompute
from . import utils as utils

_FLAGS: dict[str, Any] = {
    "a_sync": True, "adam_d2sum": False, "adaptive_localsgd": False, "amp": False, "asp": False, "auto": False,
    "auto_search": False, "conv_workspace_size_limit": 512, "cudnn_batchnorm_spatial_persistent": False,
    "cudnn_exhaustive_search": False, "dgc": False, "elastic": False, "find_unused_parameters": False,
    "fp16_allreduce": False, "fuse_all_reduce_ops": True, "fuse_grad_merge": False, "fuse_grad_size_in_MB": 32,
    "fuse_grad_size_in_num": 8, "gradient_merge": False, "heter_ccl_mode": False,
    "hierarchical_allreduce_inter_nranks": 1, "is_fl_ps_mode": False, "is_with_coordinator": False, "lamb": False,
    "lars": False, "last_comm_group_size_MB": 1.0, "localsgd": False, "nccl_comm_num": 1, "pipeline": False,
    "qat": False, "recompute": False, "semi_auto": False, "sharding": False, "split_data": True,
    "sync_batch_norm": False, "sync_nccl_allreduce": True, "tensor_parallel": False,
    "use_hierarchical_allreduce": False, "without_graph_optimization": True,
}
# configs whose every key is listed are checked (an unknown key raises); the open ones take any key
_CONFIGS: dict[str, tuple[bool, dict[str, Any]]] = {
    "amp_configs": (True, {"init_loss_scaling": 32768.0, "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2,
                           "incr_ratio": 2.0, "decr_ratio": 0.8, "use_dynamic_loss_scaling": True,
                           "custom_white_list": [], "custom_black_list": [], "custom_black_varnames": [],
                           "use_pure_fp16": False, "use_fp16_guard": True, "use_optimizer_fp16": False,
                           "use_pure_bf16": False}),
    "recompute_configs": (True, {"checkpoints": [], "enable_offload": False, "checkpoint_shape": [],
                                 "enable_tuning": False, "refined_ops_patterns": []}),
    "pipeline_configs": (True, {"micro_batch_size": 1, "accumulate_steps": 1, "schedule_mode": "1F1B",
                                "p2p_cache_shape": True, "enable_partial_send_recv": True}),
    "gradient_merge_configs": (True, {"k_steps": 1, "avg": True}),
    "gradient_scale_configs": (True, {"scale_strategy": "avg", "scale_gradient": False}),
    "lamb_configs": (True, {"lamb_weight_decay": 0.01, "exclude_from_weight_decay": []}),
    "lars_configs": (True, {"lars_coeff": 0.001, "lars_weight_decay": 0.0005, "epsilon": 0.0,
                            "exclude_from_weight_decay": []}),
    "localsgd_configs": (True, {"k_steps": 1, "begin_step": 1}),
    "adaptive_localsgd_configs": (True, {"init_k_steps": 1, "begin_step": 1}),
    "dgc_configs": (True, {"rampup_begin_step": 0, "rampup_step": 1, "sparsity": []}),
    "tensor_parallel_configs": (True, {"tensor_parallel_degree": 1, "tensor_init_seed": -1}),
    "qat_configs": (True, {"channel_wise_abs_max": True, "weight_bits": 8, "activation_bits": 8,
                           "not_quant_pattern": [], "algo": ""}),
    "hybrid_configs": (False, {"dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1,
                               "sep_degree": 1, "ep_degree": 1, "moe_sharding_degree": 1, "cp_degree": 1}),
    "sharding_configs": (False, {"sharding_segment_strategy": "segment_broadcast_MB", "segment_broadcast_MB": 32.0,
                                 "segment_anchors": [], "sharding_degree": 8, "mp_degree": 1, "dp_degree": 1,
                                 "hybrid_dp": False, "gradient_merge_acc_step": 1, "optimize_offload": False,
                                 "pp_allreduce_in_optimize": False, "pp_degree": 1}),
    "a_sync_configs": (False, {"k_steps": -1}),
}


class DistributedStrategy:
    """Fleet's settings, with Paddle's defaults: switches (``amp``, ``recompute``, ``sharding``, ...) and their
    ``*_configs`` dicts. Assigning a config dict updates the listed keys (an unknown key raises ValueError); an
    unknown attribute raises TypeError, as in Paddle. On one process they are stored and read back."""

    def __init__(self) -> None:
        object.__setattr__(self, "_values", {**_FLAGS, **{k: copy.deepcopy(v) for k, (_, v) in _CONFIGS.items()}})

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__["_values"]
        if name in values:
            return values[name]
        raise AttributeError(f"'DistributedStrategy' object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        values = self.__dict__["_values"]
        if name in _CONFIGS:
            if not isinstance(value, dict):
                raise TypeError(f"fleet.DistributedStrategy.{name} must be a dict, but received "
                                f"{type(value).__name__}.")
            closed, defaults = _CONFIGS[name]
            unknown = [k for k in value if k not in defaults]
            if closed and unknown:
                raise ValueError(f"fleet.DistributedStrategy.{name}: key {unknown[0]!r} is not in {name}; its keys "
                                 f"are {sorted(defaults)}.")
            given = {k: (float(v) if isinstance(defaults.get(k), float) and isinstance(v, int)
                         and not isinstance(v, bool) else copy.deepcopy(v)) for k, v in value.items()}
            values[name] = {**values[name], **given}  # (an int where Paddle keeps a float is stored as one)
        elif name in _FLAGS:
            kind = type(_FLAGS[name])
            if kind is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"fleet.DistributedStrategy.{name} must be a {kind.__name__}, but received "
                                f"{type(value).__name__}.")
            values[name] = value
        else:
            raise TypeError(f"{name} is not a attribute of DistributedStrategy; its attributes are Paddle's "
                            f"switches ({', '.join(sorted(_FLAGS)[:4])}, ...) and their *_configs.")

    def __repr__(self) -> str:
        changed = {k: v for k, v in self._values.items() if k in _FLAGS and v != _FLAGS[k]}
        return f"DistributedStrategy({changed})"


class CommunicateTopology:
    """The hybrid topology: one process, degree 1 on every axis."""

    def __init__(self, hybrid_group_names: list[str] | None = None, dims: list[int] | None = None) -> None:
        self._names = list(hybrid_group_names or ["data", "pipe", "sharding", "sep", "model"])
        self._dims = list(dims or [1] * len(self._names))
        if len(self._dims) != len(self._names) or any(d != 1 for d in self._dims):
            raise NotImplementedError(f"fleet.CommunicateTopology: dims {self._dims} place several processes; this "
                                      "package runs one process (every degree 1).")

    def get_hybrid_group_names(self) -> list[str]:
        return list(self._names)

    def get_dim(self, axis_name: str) -> int:
        return self._dims[self._names.index(axis_name)]

    def world_size(self) -> int:
        return 1

    def get_rank(self, **args: int) -> int:
        if any(v != 0 for v in args.values()):
            raise ValueError(f"fleet.CommunicateTopology.get_rank: coordinates {args} are outside the one-process "
                             "topology (every coordinate is 0).")
        return 0


class HybridCommunicateGroup:
    """The groups of a one-process hybrid job: every world size 1, every rank 0, parallel mode None (as Paddle's
    with every degree 1)."""

    def __init__(self, topology: CommunicateTopology | None = None) -> None:
        self._topo = topology or CommunicateTopology()
        self.nranks = 1  # (attributes in Paddle, not methods)
        self.global_rank = 0

    def get_parallel_mode(self) -> None:
        return None

    def topology(self) -> CommunicateTopology:
        return self._topo

    def get_global_rank(self) -> int:
        return 0

    def _zero(self) -> int:
        return 0

    def _one(self) -> int:
        return 1

    get_data_parallel_rank = get_model_parallel_rank = get_stage_id = get_sharding_parallel_rank = _zero
    get_sep_parallel_rank = _zero
    get_data_parallel_world_size = get_model_parallel_world_size = get_pipe_parallel_world_size = _one
    get_sharding_parallel_world_size = get_sep_parallel_world_size = _one


class Fleet:
    """The fleet singleton's state: initialised by ``init``."""

    def __init__(self) -> None:
        self._inited = False
        self._is_collective = False
        self._user_defined_strategy = DistributedStrategy()
        self._hcg: HybridCommunicateGroup | None = None

    def _check(self, api: str) -> None:
        if not self._inited:
            raise RuntimeError(f"fleet.{api}: fleet is not initialized; call fleet.init(is_collective=True) first.")

    def init(self, role_maker: Any = None, is_collective: bool = False, strategy: DistributedStrategy | None = None,
             log_level: int | str = "INFO") -> Fleet:
        if role_maker is not None:
            raise NotImplementedError("fleet.init: a role_maker describes a multi-process (parameter-server) job; "
                                      "this package runs one process. Call fleet.init(is_collective=True).")
        if not isinstance(is_collective, bool):
            raise TypeError(f"fleet.init: is_collective must be a bool, but received {type(is_collective).__name__}.")
        if strategy is not None and not isinstance(strategy, DistributedStrategy):
            raise TypeError(f"fleet.init: strategy must be a fleet.DistributedStrategy, but received "
                            f"{type(strategy).__name__}.")
        if not isinstance(log_level, (int, str)):
            raise TypeError(f"fleet.init: log_level must be an int or a str, but received {type(log_level).__name__}.")
        self._inited, self._is_collective = True, is_collective
        self._user_defined_strategy = strategy if strategy is not None else DistributedStrategy()
        self._hcg = HybridCommunicateGroup()
        return self

    def worker_index(self) -> int:
        self._check("worker_index")
        return 0

    def worker_num(self) -> int:
        self._check("worker_num")
        return 1

    def is_first_worker(self) -> bool:
        self._check("is_first_worker")
        return True

    def is_worker(self) -> bool:
        self._check("is_worker")
        return True

    def is_server(self) -> bool:
        self._check("is_server")
        return False

    def server_num(self) -> int:
        self._check("server_num")
        return 0

    def worker_endpoints(self, to_string: bool = False) -> list[str] | str:
        self._check("worker_endpoints")
        eps = ["127.0.0.1:6170"]
        return ",".join(eps) if to_string else eps

    def barrier_worker(self) -> None:
        self._check("barrier_worker")

    def get_hybrid_communicate_group(self) -> HybridCommunicateGroup:
        self._check("get_hybrid_communicate_group")
        return self._hcg

    def distributed_model(self, model: Layer) -> Layer:
        if model is None:
            raise ValueError("fleet.distributed_model: model should not be None.")
        if not isinstance(model, Layer):
            raise TypeError(f"fleet.distributed_model: model must be a paddle.nn.Layer, but received "
                            f"{type(model).__name__}.")
        self._check("distributed_model")
        return model

    def distributed_optimizer(self, optimizer: Any, strategy: DistributedStrategy | None = None) -> Any:
        if strategy is not None:
            if not isinstance(strategy, DistributedStrategy):
                raise TypeError(f"fleet.distributed_optimizer: strategy must be a fleet.DistributedStrategy, but "
                                f"received {type(strategy).__name__}.")
            self._user_defined_strategy = strategy
        if not hasattr(optimizer, "step"):
            raise TypeError(f"fleet.distributed_optimizer: optimizer must be a paddle.optimizer.Optimizer, but "
                            f"received {type(optimizer).__name__}.")
        return optimizer

    def distributed_scaler(self, scaler: Any) -> Any:
        """The ``paddle.amp.GradScaler`` for a hybrid-parallel job. Paddle's makes the scaler's overflow check agree
        across the ranks (a MAX all-reduce of ``found_inf``); with one process there is nothing to agree with, so
        the scaler is returned as it is."""
        if not (hasattr(scaler, "scale") and hasattr(scaler, "step") and hasattr(scaler, "update")):
            raise TypeError(f"fleet.distributed_scaler: scaler must be a paddle.amp.GradScaler, but received "
                            f"{type(scaler).__name__}. Pass the GradScaler the training loop uses.")
        self._check("distributed_scaler")
        return scaler


fleet = Fleet()
init = fleet.init
worker_index = fleet.worker_index
worker_num = fleet.worker_num
is_first_worker = fleet.is_first_worker
is_worker = fleet.is_worker
is_server = fleet.is_server
server_num = fleet.server_num
worker_endpoints = fleet.worker_endpoints
barrier_worker = fleet.barrier_worker
get_hybrid_communicate_group = fleet.get_hybrid_communicate_group
distributed_model = fleet.distributed_model
distributed_optimizer = fleet.distributed_optimizer
distributed_scaler = fleet.distributed_scaler

