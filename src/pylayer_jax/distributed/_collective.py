"""``paddle.distributed``'s collectives, groups and environment in one process (layer L7).

Paddle 3.3.1 started without a launcher (``python train.py``) has no global communication group, even after
``init_parallel_env()``; this package mirrors what it then does (recorded in tests/data/paddle_distributed_single.json):

- every collective (``all_reduce``, ``all_gather``, ``broadcast``, ``scatter``, the ``*_object*`` variants,
  ``send``/``recv``, ``barrier``, ...) raises RuntimeError: the global group is not initialized;
- ``new_group([0])`` makes a group this process is not a member of (``rank`` -1): a collective given it returns
  None, leaving its tensors as they were (``all_gather`` and ``all_gather_object``
  raise RuntimeError, as Paddle's do);
- ``ReduceOp`` holds ints, ``ParallelEnv()`` answers rank 0 of 1, ``get_backend()`` raises.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable
from typing import Any

from .._tensor.facade import Tensor


class ReduceOp:
    """How a reduction combines the ranks' values: Paddle's ints ``SUM`` 0, ``MAX`` 1, ``MIN`` 2, ``PROD`` 3,
    ``AVG`` 4."""

    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


class ReduceType(enum.IntEnum):
    """The reduction of a ``Partial`` placement (Paddle's ``kRedSum`` ... ``kRedAll``)."""

    kRedSum = 0
    kRedMax = 1
    kRedMin = 2
    kRedProd = 3
    kRedAvg = 4
    kRedAny = 5
    kRedAll = 6


class ParallelMode:
    """Paddle's parallel modes (ints): ``DATA_PARALLEL`` 0, ``TENSOR_PARALLEL`` 1, ``PIPELINE_PARALLEL`` 2,
    ``SHARDING_PARALLEL`` 3, ``SEGMENT_PARALLEL`` 4."""

    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4


class ParallelEnv:
    """The launcher's environment, as Paddle reads it in a process started without one: rank 0 of 1, no
    endpoints. ``device_id`` raises AttributeError, as Paddle's does on a CPU machine (no device was selected)."""

    rank = 0
    world_size = 1
    nranks = 1
    local_rank = 0
    current_endpoint = ""
    device_type = ""
    nrings = 1
    pg_timeout = 1800000

    @property
    def trainer_endpoints(self) -> list[str]:
        return [""]

    @property
    def device_id(self) -> int:
        raise AttributeError(
            "paddle.distributed.ParallelEnv.device_id: no device was selected for this process (Paddle reads it "
            "from a launcher's FLAGS_selected_gpus, and this process was started without one); use "
            "paddle.distributed.get_rank() or paddle.get_device() instead."
        )

    dev_id = device_id


_group_ids = itertools.count(10)  # (Paddle numbers the groups new_group makes from 10)
_groups: dict[int, Group] = {}


class Group:
    """A communication group made by ``new_group``. Without a global group this process is a member of none:
    ``rank`` and ``world_size`` are -1, as in Paddle started without a launcher."""

    def __init__(self, ranks: list[int], gid: int, name: str) -> None:
        self.ranks = ranks
        self.id = gid
        self.name = name
        self.rank = -1
        self.nranks = len(ranks)
        self.process_group = None

    @property
    def world_size(self) -> int:
        return -1

    def is_member(self) -> bool:
        return False

    def get_group_rank(self, rank: int) -> int:
        """-1: this process is not in the group."""
        _check_int("Group.get_group_rank", "rank", rank)
        return -1

    def __repr__(self) -> str:
        return (f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: "
                f"{', '.join(str(r) for r in self.ranks)}; name: {self.name}")


def _check_int(api: str, arg: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"paddle.distributed.{api}: {arg} must be an int, but received {type(value).__name__}.")


def _no_group(api: str) -> RuntimeError:
    return RuntimeError(
        f"paddle.distributed.{api}: the global group is not initialized; this package trains in one process, so "
        "there is no other process to communicate with. Guard the call with get_world_size() > 1."
    )


def _member_of(api: str, group: Any, sync_op: Any = True) -> bool:
    """Raise the error Paddle raises without a global group; with a group (of which this process is never a
    member) the call does nothing and returns None."""
    if not isinstance(sync_op, bool):
        raise TypeError(f"paddle.distributed.{api}: sync_op must be a bool, but received {type(sync_op).__name__}.")
    if group is None:
        raise _no_group(api)
    if not isinstance(group, Group):
        raise TypeError(f"paddle.distributed.{api}: group must be a Group from paddle.distributed.new_group or "
                        f"None, but received {type(group).__name__}.")
    return False


def _check_tensor(api: str, arg: str, t: Any) -> None:
    if not isinstance(t, Tensor):
        raise TypeError(f"paddle.distributed.{api}: {arg} must be a paddle.Tensor, but received {type(t).__name__}.")


def _check_list(api: str, arg: str, value: Any) -> None:
    if not isinstance(value, list):
        raise TypeError(f"paddle.distributed.{api}: {arg} must be a list, but received {type(value).__name__}.")


def _not_a_member_of_gather(api: str) -> RuntimeError:
    return RuntimeError(
        f"paddle.distributed.{api}: the group should not be None and all ranks which invoke this operation "
        "should be the member of this group; this process is a member of no group (it was started without a "
        "launcher). Guard the call with get_world_size() > 1."
    )


def all_reduce(tensor: Tensor, op: int = ReduceOp.SUM, group: Group | None = None, sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``tensor`` unchanged (not a member)."""
    _check_tensor("all_reduce", "tensor", tensor)
    _member_of("all_reduce", group, sync_op)
    _check_int("all_reduce", "op", op)


def all_gather(tensor_list: list, tensor: Tensor, group: Group | None = None, sync_op: bool = True) -> None:
    """RuntimeError: this process is a member of no group."""
    _check_list("all_gather", "tensor_list", tensor_list)
    _check_tensor("all_gather", "tensor", tensor)
    _member_of("all_gather", group, sync_op)
    raise _not_a_member_of_gather("all_gather")


def all_gather_object(object_list: list, obj: Any, group: Group | None = None) -> None:
    """RuntimeError: this process is a member of no group."""
    _check_list("all_gather_object", "object_list", object_list)
    _member_of("all_gather_object", group)
    raise _not_a_member_of_gather("all_gather_object")


def broadcast(tensor: Tensor, src: int, group: Group | None = None, sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``tensor`` unchanged."""
    _check_tensor("broadcast", "tensor", tensor)
    _check_int("broadcast", "src", src)
    _member_of("broadcast", group, sync_op)


def broadcast_object_list(object_list: list, src: int, group: Group | None = None) -> None:
    """Without a global group: RuntimeError; with a group: None, ``object_list`` unchanged."""
    _check_list("broadcast_object_list", "object_list", object_list)
    _check_int("broadcast_object_list", "src", src)
    _member_of("broadcast_object_list", group)


def reduce(tensor: Tensor, dst: int, op: int = ReduceOp.SUM, group: Group | None = None,
           sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``tensor`` unchanged."""
    _check_tensor("reduce", "tensor", tensor)
    _check_int("reduce", "dst", dst)
    _check_int("reduce", "op", op)
    _member_of("reduce", group, sync_op)


def scatter(tensor: Tensor, tensor_list: list | None = None, src: int = 0, group: Group | None = None,
            sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``tensor`` unchanged."""
    _check_tensor("scatter", "tensor", tensor)
    if tensor_list is not None:
        _check_list("scatter", "tensor_list", tensor_list)
    _check_int("scatter", "src", src)
    _member_of("scatter", group, sync_op)


def scatter_object_list(out_object_list: list, in_object_list: list | None = None, src: int = 0,
                        group: Group | None = None) -> None:
    """RuntimeError, with a group or without: Paddle looks the global group up first."""
    _check_list("scatter_object_list", "out_object_list", out_object_list)
    if in_object_list is not None:
        _check_list("scatter_object_list", "in_object_list", in_object_list)
    _check_int("scatter_object_list", "src", src)
    _member_of("scatter_object_list", group)
    raise _no_group("scatter_object_list")


def gather(tensor: Tensor, gather_list: list | None = None, dst: int = 0, group: Group | None = None,
           sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``gather_list`` unchanged."""
    _check_tensor("gather", "tensor", tensor)
    if gather_list is not None:
        _check_list("gather", "gather_list", gather_list)
    _check_int("gather", "dst", dst)
    _member_of("gather", group, sync_op)


def alltoall(out_tensor_list: list, in_tensor_list: list, group: Group | None = None, sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``out_tensor_list`` unchanged."""
    _check_list("alltoall", "out_tensor_list", out_tensor_list)
    _check_list("alltoall", "in_tensor_list", in_tensor_list)
    _member_of("alltoall", group, sync_op)


def alltoall_single(out_tensor: Tensor, in_tensor: Tensor, in_split_sizes: list[int] | None = None,
                    out_split_sizes: list[int] | None = None, group: Group | None = None,
                    sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``out_tensor`` unchanged."""
    _check_tensor("alltoall_single", "out_tensor", out_tensor)
    _check_tensor("alltoall_single", "in_tensor", in_tensor)
    for arg, sizes in (("in_split_sizes", in_split_sizes), ("out_split_sizes", out_split_sizes)):
        if sizes is not None:
            _check_list("alltoall_single", arg, sizes)
    _member_of("alltoall_single", group, sync_op)


def reduce_scatter(tensor: Tensor, tensor_list: list, op: int = ReduceOp.SUM, group: Group | None = None,
                   sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``tensor`` unchanged."""
    _check_tensor("reduce_scatter", "tensor", tensor)
    _check_list("reduce_scatter", "tensor_list", tensor_list)
    _check_int("reduce_scatter", "op", op)
    _member_of("reduce_scatter", group, sync_op)


def send(tensor: Tensor, dst: int = 0, group: Group | None = None, sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None."""
    _check_tensor("send", "tensor", tensor)
    _check_int("send", "dst", dst)
    _member_of("send", group, sync_op)


def recv(tensor: Tensor, src: int = 0, group: Group | None = None, sync_op: bool = True) -> None:
    """Without a global group: RuntimeError; with a group: None, ``tensor`` unchanged."""
    _check_tensor("recv", "tensor", tensor)
    _check_int("recv", "src", src)
    _member_of("recv", group, sync_op)


def isend(tensor: Tensor, dst: int, group: Group | None = None) -> None:
    """Without a global group: RuntimeError; with a group: None (no task)."""
    _check_tensor("isend", "tensor", tensor)
    _check_int("isend", "dst", dst)
    _member_of("isend", group)


def irecv(tensor: Tensor, src: int | None = None, group: Group | None = None) -> None:
    """Without a global group: RuntimeError; with a group: None (no task), ``tensor`` unchanged."""
    _check_tensor("irecv", "tensor", tensor)
    if src is not None:
        _check_int("irecv", "src", src)
    _member_of("irecv", group)


def send_object_list(object_list: list, dst: int | None = None, group: Group | None = None,
                     dst_in_group: int | None = None) -> None:
    """Without a global group: RuntimeError; with a group: None."""
    _check_list("send_object_list", "object_list", object_list)
    for arg, v in (("dst", dst), ("dst_in_group", dst_in_group)):
        if v is not None:
            _check_int("send_object_list", arg, v)
    _member_of("send_object_list", group)


def recv_object_list(object_list: list, src: int | None = None, group: Group | None = None,
                     src_in_group: int | None = None) -> None:
    """Without a global group: RuntimeError; with a group: None, ``object_list`` unchanged."""
    _check_list("recv_object_list", "object_list", object_list)
    for arg, v in (("src", src), ("src_in_group", src_in_group)):
        if v is not None:
            _check_int("recv_object_list", arg, v)
    _member_of("recv_object_list", group)


def barrier(group: Group | None = None) -> None:
    """Without a global group: RuntimeError; with a group: None."""
    _member_of("barrier", group)


def wait(tensor: Tensor, group: Group | None = None, use_calc_stream: bool = True) -> None:
    """Waits for a device stream: with a group None; without one RuntimeError, as Paddle's on a CPU place (its
    stream-synchronising kernel exists for devices only)."""
    _check_tensor("wait", "tensor", tensor)
    if not isinstance(use_calc_stream, bool):
        raise TypeError(f"paddle.distributed.wait: use_calc_stream must be a bool, but received "
                        f"{type(use_calc_stream).__name__}.")
    if group is None:
        raise RuntimeError(
            "paddle.distributed.wait: there is no device stream to synchronise: the tensor is on the CPU and this "
            "process has no communication group (Paddle's CPU place has no sync_calc_stream kernel). Remove the "
            "call, or guard it with get_world_size() > 1."
        )
    _member_of("wait", group)


def new_group(ranks: list[int] | None = None, backend: str | None = None, timeout: Any = None,
              nccl_comm_init_option: int = 0, nccl_config: Any = None) -> Group:
    """A group of ``ranks`` this process is not a member of (rank -1), as Paddle makes without a global group;
    ``ranks=None`` or a rank other than 0 raises RuntimeError (Paddle asks for ``init_parallel_env`` first)."""
    if ranks is None or not isinstance(ranks, (list, tuple)) or any(r != 0 for r in ranks):
        raise RuntimeError(
            f"paddle.distributed.new_group: a group of ranks {ranks!r} needs the global group; call "
            "paddle.distributed.init_parallel_env first to initialize the distributed environment (this package "
            "runs one process, rank 0: only new_group([0]) or new_group([]) can be made)."
        )
    if backend is not None and not isinstance(backend, str):
        raise TypeError(f"paddle.distributed.new_group: backend must be a str or None, but received "
                        f"{type(backend).__name__}.")
    _check_int("new_group", "nccl_comm_init_option", nccl_comm_init_option)
    gid = next(_group_ids)
    g = Group(list(ranks), gid, f"_default_pg{gid}")
    _groups[gid] = g
    return g


def get_group(id: int = 0) -> Group | None:
    """The group ``new_group`` made with this id, else None (there is no global group 0)."""
    _check_int("get_group", "id", id)
    return _groups.get(id)


def destroy_process_group(group: Group | None = None) -> None:
    """Forget ``group`` (None); without a group RuntimeError: there is no global group to destroy."""
    _member_of("destroy_process_group", group)
    _groups.pop(group.id, None)


def get_backend(group: Group | None = None) -> str:
    """RuntimeError: no group has a backend in one process."""
    _member_of("get_backend", group)
    raise _no_group("get_backend")


def create_nccl_config(nccl_config: dict | None = None) -> None:
    """None: no NCCL here (Paddle answers None on a CPU build too)."""
    if nccl_config is not None and not isinstance(nccl_config, dict):
        raise TypeError(f"paddle.distributed.create_nccl_config: nccl_config must be a dict or None, but received "
                        f"{type(nccl_config).__name__}.")
    return None


def split(x: Tensor, size: Any, operation: str, axis: int = 0, num_partitions: int = 1, gather_out: bool = True,
          weight_attr: Any = None, bias_attr: Any = None, name: str | None = None) -> Tensor:
    """ValueError, as Paddle's in dynamic graph mode (it builds a static program's sharded layer)."""
    raise ValueError(
        "paddle.distributed.split cannot be used in dynamic graph mode, please use ParallelEmbedding, "
        "ParallelRowLinear, ParallelColumnLinear instead."
    )


def gloo_init_parallel_env(rank_id: int, rank_num: int, server_endpoint: str) -> None:
    """ValueError unless ``rank_num`` >= 2, as Paddle asserts; several processes are not provided here."""
    _check_int("gloo_init_parallel_env", "rank_num", rank_num)
    if rank_num < 2:
        raise ValueError(f"paddle.distributed.gloo_init_parallel_env: rank_num should be greater than or equal to 2 "
                         f"for parallel environment initialization, but received {rank_num}.")
    raise NotImplementedError(
        f"paddle.distributed.gloo_init_parallel_env: rank {rank_id} of {rank_num} at {server_endpoint}: this "
        "package runs one process and has no gloo communication."
    )


def gloo_barrier() -> None:
    """RuntimeError: no gloo context was initialized."""
    raise RuntimeError("paddle.distributed.gloo_barrier: the gloo context is not initialized; this package runs one "
                       "process (gloo_init_parallel_env needs 2 or more).")


def gloo_release() -> None:
    """Nothing to release (None)."""
    return None


def shutdown_process_group(group: Group | None = None) -> None:
    """Nothing to shut down in one process (None)."""
    if group is not None and not isinstance(group, Group):
        raise TypeError(f"paddle.distributed.shutdown_process_group: group must be a Group or None, but received "
                        f"{type(group).__name__}.")


def restart_process_group(group: Group | None = None) -> None:
    """Nothing to restart in one process (None)."""
    if group is not None and not isinstance(group, Group):
        raise TypeError(f"paddle.distributed.restart_process_group: group must be a Group or None, but received "
                        f"{type(group).__name__}.")


class _SpawnContext:
    """What ``spawn`` returns: the one run has finished, ``join()`` is True."""

    def __init__(self, result: Any) -> None:
        self.result = result
        self.processes: list = []

    def join(self, timeout: float | None = None) -> bool:
        if timeout is not None and not isinstance(timeout, (int, float)):
            raise TypeError(f"spawn context join: timeout must be a number or None, but received "
                            f"{type(timeout).__name__}.")
        return True


def spawn(func: Callable[..., Any], args: Iterable[Any] = (), nprocs: int = -1, join: bool = True,
          daemon: bool = False, **options: Any) -> _SpawnContext:
    """Run ``func(*args)`` as the one trainer: ``nprocs`` 1 (or -1, every device of a machine that has one)
    runs it in this process (Paddle starts one child process; its result is the same run); more raise
    NotImplementedError. ``join``, ``daemon`` and ``options`` only concern child processes."""
    if not callable(func):
        raise TypeError(f"paddle.distributed.spawn: func must be callable, but received {type(func).__name__}.")
    _check_int("spawn", "nprocs", nprocs)
    if nprocs not in (-1, 1):
        raise NotImplementedError(
            f"paddle.distributed.spawn: nprocs={nprocs} starts {nprocs} trainer processes; this package runs one "
            "process. Use nprocs=1 (or call func directly)."
        )
    for flag, v in (("join", join), ("daemon", daemon)):
        if not isinstance(v, bool):
            raise TypeError(f"paddle.distributed.spawn: {flag} must be a bool, but received {type(v).__name__}.")
    unknown = set(options) - {"start_method", "ips", "gpus", "xpus", "print_config", "backend"}
    if unknown:
        raise TypeError(f"paddle.distributed.spawn: unexpected option(s) {sorted(unknown)}; the options are "
                        "start_method, ips, gpus, xpus, print_config and backend.")
    return _SpawnContext(func(*tuple(args)))


def launch() -> None:
    """NotImplementedError: the launcher starts several trainer processes."""
    raise NotImplementedError(
        "paddle.distributed.launch starts one trainer process per device; this package runs one process. Run the "
        "training script directly (python train.py): paddle.distributed then answers rank 0 of 1."
    )
