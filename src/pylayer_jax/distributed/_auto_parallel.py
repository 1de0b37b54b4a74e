"""``paddle.distributed``'s auto-parallel API on one device (layer L7).

A ``ProcessMesh`` of the one process (``ProcessMesh([0])``) places nothing: ``shard_tensor`` gives a distributed
tensor whose values are the input's, with ``.process_mesh``, ``.placements`` and ``is_dist()`` as Paddle 3.3.1 answers
them in one process (recorded in tests/data/paddle_distributed_single.json); a ``Partial`` placement holds the
whole value too. ``shard_layer``, ``shard_optimizer``, ``shard_dataloader``, ``to_static`` and the parallelize plans
run the model as it is. A mesh of more than one process raises NotImplementedError (it needs other processes).
What is not mirrored: the result of an op on a distributed tensor is a plain Tensor here (Paddle's is distributed
with placements it infers; its values are the same).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import jax
import numpy as np

from .._tensor.facade import EAGER_TYPES, Tensor, to_tensor
from ..nn.layer._layers import Layer
from ..nn.layer._param import Parameter, _rewrap
from ._collective import ReduceType

# ---- process meshes and placements ----------------------------------------------------------------------------


class ProcessMesh:
    """The Cartesian topology of processes: ``ProcessMesh([0], dim_names=["x"])``, or ``shape=`` and
    ``process_ids=``. Only a mesh of this one process (id 0) can hold a tensor here."""

    def __init__(self, mesh: Any = None, dim_names: list[str] | None = None, shape: Sequence[int] | None = None,
                 process_ids: Sequence[int] | None = None) -> None:
        if mesh is None:
            if shape is None or process_ids is None:
                raise ValueError("paddle.distributed.ProcessMesh: give mesh, or both shape and process_ids, but "
                                 "received neither.")
            arr = np.array(list(process_ids)).reshape(list(shape))
        else:
            if isinstance(mesh, ProcessMesh):
                mesh = mesh.mesh
            arr = np.array(mesh)
        if arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"paddle.distributed.ProcessMesh: mesh must be a non-empty nested list of int process "
                             f"ids, but received {mesh!r}.")
        if len(set(arr.ravel().tolist())) != arr.size:
            raise ValueError(f"paddle.distributed.ProcessMesh: the process ids must be unique, but received "
                             f"{arr.ravel().tolist()}.")
        if dim_names is None:
            dim_names = [f"d{i}" for i in range(arr.ndim)]
        if len(dim_names) != arr.ndim or len(set(dim_names)) != arr.ndim:
            raise ValueError(f"paddle.distributed.ProcessMesh: dim_names must name each of the mesh's {arr.ndim} "
                             f"dimensions once, but received {dim_names!r}.")
        self._mesh = arr
        self._dim_names = list(dim_names)

    @property
    def mesh(self) -> np.ndarray:
        return self._mesh

    @property
    def shape(self) -> list[int]:
        return list(self._mesh.shape)

    @property
    def ndim(self) -> int:
        return self._mesh.ndim

    @property
    def process_ids(self) -> list[int]:
        return self._mesh.ravel().tolist()

    @property
    def dim_names(self) -> list[str]:
        return list(self._dim_names)

    def _dim(self, dim: int | str) -> int:
        if isinstance(dim, str):
            if dim not in self._dim_names:
                raise ValueError(f"paddle.distributed.ProcessMesh: no dimension named {dim!r}; its dim_names are "
                                 f"{self._dim_names}.")
            return self._dim_names.index(dim)
        if not isinstance(dim, int) or not -self.ndim <= dim < self.ndim:
            raise ValueError(f"paddle.distributed.ProcessMesh: dim must be a name in {self._dim_names} or an int in "
                             f"[{-self.ndim}, {self.ndim}), but received {dim!r}.")
        return dim % self.ndim

    def get_dim_size(self, dim: int | str) -> int:
        """The number of processes along ``dim`` (a name or an index)."""
        return self.shape[self._dim(dim)]

    def get_mesh_with_dim(self, dim_name: str, index: int | None = None) -> ProcessMesh:
        """The mesh with ``dim_name`` moved first (and, with ``index``, that slice of it)."""
        d = self._dim(dim_name)
        order = [d] + [i for i in range(self.ndim) if i != d]
        arr = np.transpose(self._mesh, order)
        names = [self._dim_names[i] for i in order]
        if index is not None:
            return ProcessMesh(arr[index], names[1:] if arr.ndim > 1 else names)
        return ProcessMesh(arr, names)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ProcessMesh) and self.shape == other.shape
                and self.process_ids == other.process_ids and self._dim_names == other._dim_names)

    def __hash__(self) -> int:
        return hash((tuple(self.shape), tuple(self.process_ids), tuple(self._dim_names)))

    def __contains__(self, process_id: int) -> bool:
        return process_id in self.process_ids

    def __repr__(self) -> str:
        return (f"{{shape: {self.shape}, process_ids: {self.process_ids}, dim_names: "
                f"[{', '.join(self._dim_names)}]}}")


class Placement:
    """How a tensor lies along one dimension of a ProcessMesh (``Shard``, ``Replicate`` or ``Partial``)."""

    def is_shard(self, dim: int | None = None) -> bool:
        if dim is not None and not isinstance(dim, int):
            raise TypeError(f"paddle.distributed.Placement.is_shard: dim must be an int or None, but received "
                            f"{type(dim).__name__}.")
        return False

    def is_replicated(self) -> bool:
        return False

    def is_partial(self) -> bool:
        return False


class Shard(Placement):
    """Split along tensor dimension ``dim`` (on one process: the whole tensor)."""

    def __init__(self, dim: int) -> None:
        if not isinstance(dim, int) or isinstance(dim, bool):
            raise TypeError(f"paddle.distributed.Shard: dim must be an int, but received {type(dim).__name__}.")
        self._dim = dim

    def get_dim(self) -> int:
        return self._dim

    def is_shard(self, dim: int | None = None) -> bool:
        return dim is None or dim == self._dim

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shard) and other._dim == self._dim

    def __hash__(self) -> int:
        return hash(("Shard", self._dim))

    def __repr__(self) -> str:
        return f"Shard(dim={self._dim})"


class Replicate(Placement):
    """A whole copy on each process."""

    def is_replicated(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Replicate)

    def __hash__(self) -> int:
        return hash("Replicate")

    def __repr__(self) -> str:
        return "Replicate()"


class Partial(Placement):
    """Each process holds a partial value, combined by ``reduce_type`` (on one process: the value itself)."""

    def __init__(self, reduce_type: ReduceType = ReduceType.kRedSum) -> None:
        if not isinstance(reduce_type, ReduceType):
            raise TypeError(f"paddle.distributed.Partial: reduce_type must be a paddle.distributed.ReduceType, but "
                            f"received {type(reduce_type).__name__}.")
        self._reduce_type = reduce_type

    def is_partial(self) -> bool:
        return True

    def reduce_type(self) -> ReduceType:
        return self._reduce_type

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Partial) and other._reduce_type == self._reduce_type

    def __hash__(self) -> int:
        return hash(("Partial", int(self._reduce_type)))

    def __repr__(self) -> str:
        return f"Partial(reduce_type={self._reduce_type.name[4:].upper()})"


# ---- distributed tensors -----------------------------------------------------------------------------------------


class DistTensor(Tensor):
    """A Tensor placed on a ProcessMesh (``shard_tensor``'s result): on one process it holds the whole value.
    ``type(t)`` reads as Tensor's subclass; ``isinstance(t, paddle.Tensor)`` holds."""

    def _local_value(self) -> Tensor:
        """This process's part: the whole value."""
        return Tensor(self._value, self.stop_gradient)

    @property
    def _local_shape(self) -> list[int]:
        return list(self.shape)


EAGER_TYPES.add(DistTensor)


def _flatten_dist(t: DistTensor) -> tuple[tuple[Any], tuple[bool, Any, tuple]]:
    return (t._value,), (t.stop_gradient, t.process_mesh, tuple(t.placements))


def _unflatten_dist(meta: tuple[bool, Any, tuple], children: Sequence[Any]) -> DistTensor:
    d = DistTensor.__new__(DistTensor)
    Tensor.__init__(d, children[0], meta[0])
    d.process_mesh, d.placements = meta[1], list(meta[2])
    return d


# (a function of distributed tensors can be jitted as one of Tensors)
jax.tree_util.register_pytree_node(DistTensor, _flatten_dist, _unflatten_dist)


def _check_mesh_and_placements(api: str, mesh: Any, placements: Any, ndim: int | None) -> list[Placement]:
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(f"paddle.distributed.{api}: mesh must be a paddle.distributed.ProcessMesh, but received "
                        f"{type(mesh).__name__}.")
    if not isinstance(placements, (list, tuple)) or not all(isinstance(p, Placement) for p in placements):
        raise TypeError(f"paddle.distributed.{api}: placements must be a list of paddle.distributed.Placement "
                        f"(Shard, Replicate, Partial), but received {placements!r}.")
    if len(placements) > mesh.ndim:
        raise ValueError(f"paddle.distributed.{api}: one placement per mesh dimension: the mesh has {mesh.ndim}, but "
                         f"{len(placements)} placements were given.")
    if mesh.process_ids != [0]:
        raise NotImplementedError(
            f"paddle.distributed.{api}: the mesh has processes {mesh.process_ids}; this package runs one process "
            "(rank 0), so only a mesh of that process, such as ProcessMesh([0]), can hold a tensor."
        )
    if ndim is not None:
        for p in placements:
            if isinstance(p, Shard) and not -ndim <= p.get_dim() < max(ndim, 1):
                raise ValueError(f"paddle.distributed.{api}: {p} shards a tensor dimension the {ndim}-D tensor does "
                                 "not have.")
    return list(placements) + [Replicate() for _ in range(mesh.ndim - len(placements))]


def _placed(t: Tensor, mesh: ProcessMesh, placements: list[Placement]) -> Tensor:
    """``t``'s value as a distributed tensor (a parameter stays one, renamed ``<name>.dist`` as Paddle names it)."""
    if isinstance(t, Parameter):
        p = _rewrap(t, t._value)
        p._name = t.name + ".dist"
        p.process_mesh, p.placements = mesh, list(placements)
        return p
    d = DistTensor.__new__(DistTensor)
    Tensor.__init__(d, t._value, t.stop_gradient)
    d.process_mesh, d.placements = mesh, list(placements)
    return d


def shard_tensor(data: Any, mesh: ProcessMesh, placements: Sequence[Placement], dtype: Any = None,
                 place: Any = None, stop_gradient: bool | None = None) -> Tensor:
    """``data`` placed on ``mesh``: on one process the same values, with ``.process_mesh`` and ``.placements``.
    A Tensor keeps its ``stop_gradient`` (as in Paddle, ``stop_gradient=`` applies to other data), and is a new
    leaf: no gradient flows back to ``data``."""
    if isinstance(data, Tensor) and dtype is None:
        tensor = data
    else:
        tensor = to_tensor(data, dtype=dtype, place=place,
                           stop_gradient=getattr(data, "stop_gradient", True) if stop_gradient is None
                           else stop_gradient)
    full = _check_mesh_and_placements("shard_tensor", mesh, placements, tensor.ndim)
    return _placed(tensor, mesh, full)


def dtensor_from_fn(fn: Callable[..., Tensor], mesh: ProcessMesh, placements: Sequence[Placement], *args: Any,
                    **kwargs: Any) -> Tensor:
    """``shard_tensor(fn(*args, **kwargs), mesh, placements)``."""
    if not callable(fn):
        raise TypeError(f"paddle.distributed.dtensor_from_fn: fn must be callable, but received {type(fn).__name__}.")
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


def reshard(dist_tensor: Tensor, mesh: ProcessMesh, placements: Sequence[Placement]) -> Tensor:
    """The same values with new placements (on one process nothing moves: a ``Partial`` value is already whole).
    Gradients flow through, as through Paddle's reshard."""
    if not isinstance(dist_tensor, Tensor) or not dist_tensor.is_dist():
        raise ValueError(f"paddle.distributed.reshard: dist_tensor must be a distributed tensor (from shard_tensor), "
                         f"but received {type(dist_tensor).__name__} that is not one; use shard_tensor first.")
    full = _check_mesh_and_placements("reshard", mesh, placements, dist_tensor.ndim)
    out = dist_tensor * 1 if not dist_tensor.stop_gradient else Tensor(dist_tensor._value, True)
    d = DistTensor.__new__(DistTensor)
    Tensor.__init__(d, out._value, out.stop_gradient, out._e)
    d.process_mesh, d.placements = mesh, full
    return d


def unshard_dtensor(dist_tensor: Tensor) -> Tensor:
    """The whole value as a plain Tensor (a parameter stays a parameter, without its placement)."""
    if not isinstance(dist_tensor, Tensor) or not dist_tensor.is_dist():
        raise ValueError(f"paddle.distributed.unshard_dtensor: dist_tensor must be a distributed tensor, but received "
                         f"{type(dist_tensor).__name__} that is not one.")
    if isinstance(dist_tensor, Parameter):
        p = _rewrap(dist_tensor, dist_tensor._value)
        del p.process_mesh, p.placements
        return p
    return Tensor(dist_tensor._value, dist_tensor.stop_gradient, dist_tensor._e)


_global_mesh: list[ProcessMesh | None] = [None]


def set_mesh(mesh: ProcessMesh) -> None:
    """Set the global mesh ``get_mesh`` returns."""
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(f"paddle.distributed.set_mesh: mesh must be a ProcessMesh, but received {type(mesh).__name__}.")
    _global_mesh[0] = mesh


def get_mesh() -> ProcessMesh | None:
    """The mesh ``set_mesh`` set (None before)."""
    return _global_mesh[0]


class DistAttr:
    """A tensor's mesh and sharding specs (a mesh dimension name per tensor dimension, or None)."""

    def __init__(self, mesh: ProcessMesh, sharding_specs: list[str | None]) -> None:
        if not isinstance(mesh, ProcessMesh):
            raise TypeError(f"paddle.distributed.DistAttr: mesh must be a ProcessMesh, but received "
                            f"{type(mesh).__name__}.")
        if not isinstance(sharding_specs, list) or any(s is not None and s not in mesh.dim_names
                                                       for s in sharding_specs):
            raise ValueError(f"paddle.distributed.DistAttr: sharding_specs must list, per tensor dimension, None or "
                             f"a mesh dimension name in {mesh.dim_names}, but received {sharding_specs!r}.")
        self.process_mesh = mesh
        self.sharding_specs = sharding_specs


# ---- layers, optimizers, data ------------------------------------------------------------------------------------


def shard_layer(layer: Layer, process_mesh: ProcessMesh, shard_fn: Callable[[str, Layer, ProcessMesh], None] | None = None,
                input_fn: Callable[..., Any] | None = None, output_fn: Callable[..., Any] | None = None) -> Layer:
    """``layer`` itself: ``shard_fn(name, sublayer, mesh)`` runs on every sublayer (it usually replaces
    parameters by ``shard_tensor``'s); without one every parameter becomes replicated on the mesh.
    ``input_fn(inputs, mesh)`` / ``output_fn(outputs, mesh)`` become forward pre-/post-hooks."""
    if not isinstance(layer, Layer):
        raise TypeError(f"paddle.distributed.shard_layer: layer must be a paddle.nn.Layer, but received "
                        f"{type(layer).__name__}.")
    _check_mesh_and_placements("shard_layer", process_mesh, [], None)
    for name, sub in layer.named_sublayers(include_self=True):
        if shard_fn is not None:
            shard_fn(name, sub, process_mesh)
        for pname, p in list(sub._parameters.items()):
            if p is not None and not p.is_dist():  # (one Replicate per parameter dimension, as Paddle lists them)
                setattr(sub, pname, _placed(p, process_mesh, [Replicate()] * max(p.ndim, 1)))
    if input_fn is not None:
        layer.register_forward_pre_hook(lambda _layer, inputs: input_fn(inputs, process_mesh))
    if output_fn is not None:
        layer.register_forward_post_hook(lambda _layer, inputs, outputs: output_fn(outputs, process_mesh))
    return layer


class _ShardingStage:
    stage = 0

    def __init__(self, sharding_mesh_dim: int | str, mesh: ProcessMesh | None = None) -> None:
        if mesh is not None:
            if not isinstance(mesh, ProcessMesh):
                raise TypeError(f"paddle.distributed.{type(self).__name__}: mesh must be a ProcessMesh, but "
                                f"received {type(mesh).__name__}.")
            mesh._dim(sharding_mesh_dim)
        self.sharding_mesh_dim = sharding_mesh_dim
        self.mesh = mesh


class ShardingStage1(_ShardingStage):
    """Shard optimizer states along ``sharding_mesh_dim`` (one process: the whole states)."""

    stage = 1


class ShardingStage2(_ShardingStage):
    """Shard optimizer states and gradients (one process: the whole)."""

    stage = 2


class ShardingStage3(_ShardingStage):
    """Shard optimizer states, gradients and parameters (one process: the whole)."""

    stage = 3


class _ShardOptimizer:
    """``shard_optimizer``'s result: steps the wrapped optimizer (every state is whole on one process);
    ``gradient_accumulation_steps`` > 1 steps once every that many calls of ``step``, as Paddle's."""

    def __init__(self, optimizer: Any, shard_fn: Any, gradient_accumulation_steps: int) -> None:
        self._inner_opt = optimizer
        self._shard_fn = shard_fn
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._calls = 0

    def step(self) -> None:
        self._calls += 1
        if self._calls % self.gradient_accumulation_steps == 0:
            self._inner_opt.step()

    def clear_grad(self, set_to_zero: bool = True) -> None:
        if self._calls % self.gradient_accumulation_steps == 0:
            self._inner_opt.clear_grad(set_to_zero)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_inner_opt"], name)


def shard_optimizer(optimizer: Any, shard_fn: Any = None, gradient_accumulation_steps: int = 1) -> _ShardOptimizer:
    """A wrapper that steps ``optimizer``: on one process sharding keeps every state whole."""
    if not hasattr(optimizer, "step") or not hasattr(optimizer, "clear_grad"):
        raise TypeError(f"paddle.distributed.shard_optimizer: optimizer must be a paddle.optimizer.Optimizer, but "
                        f"received {type(optimizer).__name__}.")
    if shard_fn is not None and not isinstance(shard_fn, _ShardingStage) and not callable(shard_fn):
        raise TypeError(f"paddle.distributed.shard_optimizer: shard_fn must be ShardingStage1/2/3, a callable or "
                        f"None, but received {type(shard_fn).__name__}.")
    if not isinstance(gradient_accumulation_steps, int) or gradient_accumulation_steps < 1:
        raise ValueError(f"paddle.distributed.shard_optimizer: gradient_accumulation_steps must be an int >= 1, but "
                         f"received {gradient_accumulation_steps!r}.")
    return _ShardOptimizer(optimizer, shard_fn, gradient_accumulation_steps)


def shard_scaler(scaler: Any) -> Any:
    """``scaler`` itself: one process has no other rank's found-inf flag to combine."""
    if not hasattr(scaler, "scale"):
        raise TypeError(f"paddle.distributed.shard_scaler: scaler must be a paddle.amp.GradScaler, but received "
                        f"{type(scaler).__name__}.")
    return scaler


def _place_batch(batch: Any, mesh: ProcessMesh) -> Any:
    if isinstance(batch, Tensor):
        return _placed(batch, mesh, [Replicate()] * mesh.ndim)
    if isinstance(batch, (list, tuple)):
        return type(batch)(_place_batch(b, mesh) for b in batch)
    if isinstance(batch, dict):
        return {k: _place_batch(v, mesh) for k, v in batch.items()}
    return batch


class ShardDataloader:
    """``shard_dataloader``'s result: the loader's batches, each tensor replicated on the mesh."""

    def __init__(self, dataloader: Any, mesh: ProcessMesh) -> None:
        self._dataloader = dataloader
        self._mesh = mesh
        self.batch_sampler = getattr(dataloader, "batch_sampler", None)

    def __len__(self) -> int:
        return len(self._dataloader)

    def __iter__(self) -> Iterator[Any]:
        for batch in self._dataloader:
            yield _place_batch(batch, self._mesh)

    def __call__(self) -> Iterator[Any]:
        return iter(self)


def shard_dataloader(dataloader: Any, meshes: ProcessMesh | Sequence[ProcessMesh], input_keys: Sequence[str] | None = None,
                     shard_dims: Any = None, is_dataset_splitted: bool = False,
                     dense_tensor_idx: list[list[int]] | None = None) -> ShardDataloader:
    """The loader's batches as distributed tensors, replicated on the (one-process) mesh. Sharding the batch
    along a mesh dimension (``shard_dims``) needs several processes; Paddle 3.3.1 fails on it for a one-process
    mesh too, so it raises NotImplementedError here."""
    mesh_list = list(meshes) if isinstance(meshes, (list, tuple)) else [meshes]
    if not mesh_list:
        raise ValueError("paddle.distributed.shard_dataloader: meshes must hold at least one ProcessMesh, but "
                         "received an empty list.")
    for m in mesh_list:
        _check_mesh_and_placements("shard_dataloader", m, [], None)
    if shard_dims is not None:
        raise NotImplementedError(
            f"paddle.distributed.shard_dataloader: shard_dims={shard_dims!r} splits each batch across the processes "
            "of a mesh dimension; this package runs one process. Leave shard_dims=None (the batch is replicated)."
        )
    if input_keys is not None and not isinstance(input_keys, (list, tuple)):
        raise TypeError(f"paddle.distributed.shard_dataloader: input_keys must be a list of str or None, but "
                        f"received {type(input_keys).__name__}.")
    if not isinstance(is_dataset_splitted, bool):
        raise TypeError("paddle.distributed.shard_dataloader: is_dataset_splitted must be a bool, but received "
                        f"{type(is_dataset_splitted).__name__}.")
    if dense_tensor_idx is not None and not isinstance(dense_tensor_idx, list):
        raise TypeError("paddle.distributed.shard_dataloader: dense_tensor_idx must be a list of lists or None, but "
                        f"received {type(dense_tensor_idx).__name__}.")
    return ShardDataloader(dataloader, mesh_list[0])


# ---- Strategy, to_static / DistModel ------------------------------------------------------------------------------


class _Config:
    """One section of a Strategy: attributes with defaults, set from a dict or one by one."""

    def __init__(self, defaults: dict[str, Any], given: dict[str, Any] | None) -> None:
        self.__dict__.update({k: (list(v) if isinstance(v, list) else v) for k, v in defaults.items()})
        if given:
            self.__dict__.update(given)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __repr__(self) -> str:
        return repr(self.__dict__)


_SECTIONS: dict[str, dict[str, Any]] = {
    "sharding": {"enable": False, "stage": 1, "degree": 8, "enable_overlap": False, "param_comm_stream_num": 1,
                 "grad_comm_stream_num": 1, "param_bucket_size_numel": 1, "grad_bucket_size_numel": 1,
                 "enable_hierarchical_comm": False, "partition_algor": "greedy_even", "enable_tuning": False,
                 "tuning_range": [], "release_gradients": False, "comm_buffer_size_MB": 256,
                 "enable_tensor_fusion": False, "save_unbalanced_param": True},
    "fused_passes": {"enable": False, "gemm_epilogue": False, "dropout_add": False},
    "gradient_merge": {"enable": False, "k_steps": 1, "avg": True},
    "pipeline": {"enable": False, "schedule_mode": "1F1B", "pp_degree": 1, "vpp_degree": 1, "vpp_seg_method": "",
                 "micro_batch_size": 1, "accumulate_steps": 1, "generation_batch_size": 1,
                 "enable_send_recv_overlap": False, "split_backward": False},
    "amp": {"enable": False, "dtype": "float16", "level": "o1", "init_loss_scaling": 32768.0,
            "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0, "decr_ratio": 0.8,
            "use_dynamic_loss_scaling": True, "custom_white_list": [], "custom_black_list": [],
            "custom_black_varnames": [], "use_fp16_guard": False, "use_bf16_guard": False, "use_master_grad": False,
            "use_promote": True},
}


class Strategy:
    """Auto-parallel settings, sections ``sharding``, ``fused_passes``, ``gradient_merge``, ``pipeline`` and ``amp``
    with Paddle's defaults, set from a dict (``Strategy({"sharding": {"enable": True, "stage": 2}})``) or one by
    one. On one process they are stored and read back; ``to_static`` runs the model eagerly whatever they say
    (``gradient_merge`` with ``k_steps`` > 1 is carried out: the optimizer steps every k batches)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"paddle.distributed.Strategy: config must be a dict or None, but received "
                            f"{type(config).__name__}.")
        config = config or {}
        for name, defaults in _SECTIONS.items():
            given = config.get(name)
            if given is not None and not isinstance(given, dict):
                raise TypeError(f"paddle.distributed.Strategy: config[{name!r}] must be a dict, but received "
                                f"{type(given).__name__}.")
            setattr(self, name, _Config(defaults, given))
        self.auto_mode = config.get("auto_mode", "semi")
        self.seed = config.get("seed", None)
        self.split_data = config.get("split_data", True)
        self.full_graph = config.get("full_graph", True)
        self.gradient_scale = config.get("gradient_scale", True)
        self.return_numpy = config.get("return_numpy", True)

    def to_dict(self) -> dict[str, Any]:
        return {k: (v.to_dict() if isinstance(v, _Config) else v) for k, v in self.__dict__.items()}


class DistModel:
    """``to_static``'s result, run eagerly on one process. ``train()`` mode: ``model(*inputs, labels)`` computes
    ``loss(layer(*inputs), labels)``, back-propagates, steps the optimizer and clears the gradients, and returns
    the loss as a numpy array; ``eval()``: the loss without a step; ``predict()``: the layer's outputs (numpy)."""

    def __init__(self, layer: Layer, loader: Any, loss: Any = None, optimizer: Any = None,
                 strategy: Strategy | None = None, metrics: list | None = None, input_spec: Any = None) -> None:
        if not isinstance(layer, Layer):
            raise TypeError(f"paddle.distributed.to_static: layer must be a paddle.nn.Layer, but received "
                            f"{type(layer).__name__}.")
        if strategy is not None and not isinstance(strategy, Strategy):
            raise TypeError(f"paddle.distributed.to_static: strategy must be a paddle.distributed.Strategy, but "
                            f"received {type(strategy).__name__}.")
        if metrics:
            raise NotImplementedError("paddle.distributed.to_static: metrics are not provided here; compute them "
                                      "from predict() outputs.")
        self.network = layer
        self._loader = loader
        self._loss = loss
        self._optimizer = optimizer
        self._strategy = strategy or Strategy()
        self._input_spec = input_spec
        gm = self._strategy.gradient_merge
        self._k_steps = int(gm.k_steps) if gm.enable else 1
        self._steps = 0
        self._mode: str | None = None
        if optimizer is not None and loss is not None:
            self.train()
        elif loss is not None:
            self.eval()
        else:
            self.predict()

    def train(self) -> None:
        if self._loss is None or self._optimizer is None:
            raise RuntimeError("paddle.distributed.DistModel.train: training needs both loss and optimizer; pass them "
                               "to paddle.distributed.to_static.")
        self._mode = "train"
        self.network.train()

    def eval(self) -> None:
        if self._loss is None:
            raise RuntimeError("paddle.distributed.DistModel.eval: evaluation needs a loss; pass it to "
                               "paddle.distributed.to_static.")
        self._mode = "eval"
        self.network.eval()

    def predict(self) -> None:
        self._mode = "predict"
        self.network.eval()

    def __call__(self, *args: Any) -> Any:
        if self._mode == "predict":
            out = self.network(*args)
            return out.numpy() if isinstance(out, Tensor) else [o.numpy() for o in out]
        if len(args) < 2:
            raise ValueError(f"paddle.distributed.DistModel: in {self._mode} mode call it with the inputs and then "
                             f"the labels, but received {len(args)} argument(s).")
        *inputs, labels = args
        loss = self._loss(self.network(*inputs), labels)
        if self._mode == "train":
            (loss / self._k_steps if self._k_steps > 1 and self._strategy.gradient_merge.avg else loss).backward()
            self._steps += 1
            if self._steps % self._k_steps == 0:
                self._optimizer.step()
                self._optimizer.clear_grad()
        return loss.numpy()

    def state_dict(self, mode: str = "all") -> dict[str, Any]:
        """The layer's parameters (``mode`` "all" or "param"; "opt" gives the optimizer's state)."""
        if mode not in ("all", "param", "opt"):
            raise ValueError(f"paddle.distributed.DistModel.state_dict: mode must be 'all', 'param' or 'opt', but "
                             f"received {mode!r}.")
        if mode == "opt":
            return self._optimizer.state_dict() if self._optimizer is not None else {}
        return self.network.state_dict()

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.network.set_state_dict(state_dict)


def to_static(layer: Layer, loader: Any = None, loss: Any = None, optimizer: Any = None,
              strategy: Strategy | None = None, input_spec: Any = None) -> DistModel:
    """A ``DistModel`` running ``layer`` eagerly (one process: nothing to partition)."""
    return DistModel(layer, loader, loss, optimizer, strategy, None, input_spec)


# ---- parallelize plans ----------------------------------------------------------------------------------------


class _Plan:
    """A tensor-parallel plan for a sublayer: on one process the sublayer runs as it is."""

    def __init__(self, **settings: Any) -> None:
        self.__dict__.update(settings)


class ColWiseParallel(_Plan):
    """Split a Linear/Embedding weight by columns (one process: whole)."""

    def __init__(self, gather_output: bool = False) -> None:
        super().__init__(gather_output=bool(gather_output))


class RowWiseParallel(_Plan):
    """Split a Linear/Embedding weight by rows (one process: whole)."""

    def __init__(self, is_input_parallel: bool = True) -> None:
        super().__init__(is_input_parallel=bool(is_input_parallel))


class SequenceParallelBegin(_Plan):
    """Start sequence parallelism after this sublayer (one process: nothing to split)."""

    def __init__(self, need_transpose: bool = True) -> None:
        super().__init__(need_transpose=bool(need_transpose))


class SequenceParallelEnd(_Plan):
    """End sequence parallelism before this sublayer (one process: nothing to gather)."""

    def __init__(self, need_transpose: bool = True) -> None:
        super().__init__(need_transpose=bool(need_transpose))


class SequenceParallelEnable(_Plan):
    """Run this sublayer sequence-parallel (one process: as it is)."""

    def __init__(self) -> None:
        super().__init__()


class SequenceParallelDisable(_Plan):
    """Run this sublayer outside sequence parallelism (one process: as it is)."""

    def __init__(self, need_transpose: bool = True) -> None:
        super().__init__(need_transpose=bool(need_transpose))


class ConvParallel(_Plan):
    """Split a convolution's input along its width (one process: whole)."""

    def __init__(self) -> None:
        super().__init__()


class ContextParallel(_Plan):
    """Split attention along the sequence (one process: whole)."""

    def __init__(self, backend: str = "p2p") -> None:
        super().__init__(backend=backend)


class PrepareContextParallel(_Plan):
    """Prepare inputs for context parallelism (one process: as they are)."""

    def __init__(self, backend: str = "p2p") -> None:
        super().__init__(backend=backend)


class PrepareLayerInput(_Plan):
    """``fn(mesh)`` gives a forward pre-hook that ``parallelize`` registers on the sublayer."""

    def __init__(self, fn: Callable[[ProcessMesh], Callable[..., Any]] | None = None) -> None:
        if fn is not None and not callable(fn):
            raise TypeError(f"paddle.distributed.PrepareLayerInput: fn must be callable, but received "
                            f"{type(fn).__name__}.")
        super().__init__(fn=fn)


class PrepareLayerOutput(_Plan):
    """``fn(mesh)`` gives a forward post-hook that ``parallelize`` registers on the sublayer."""

    def __init__(self, fn: Callable[[ProcessMesh], Callable[..., Any]] | None = None) -> None:
        if fn is not None and not callable(fn):
            raise TypeError(f"paddle.distributed.PrepareLayerOutput: fn must be callable, but received "
                            f"{type(fn).__name__}.")
        super().__init__(fn=fn)


class SplitPoint(enum.Enum):
    """Where a pipeline stage splits, relative to a sublayer."""

    BEGINNING = 0
    END = 1


def parallelize(model: Layer, optimizer: Any = None, mesh: ProcessMesh | None = None,
                config: dict[str, Any] | None = None) -> tuple[Layer, Any]:
    """``(model, optimizer)`` for one process: plans change no value; ``PrepareLayerInput``/``Output`` hooks
    are registered on the sublayers their keys name. A mesh of several processes raises NotImplementedError."""
    if not isinstance(model, Layer):
        raise TypeError(f"paddle.distributed.parallelize: model must be a paddle.nn.Layer, but received "
                        f"{type(model).__name__}.")
    mesh = mesh if mesh is not None else get_mesh()
    if mesh is None:
        raise ValueError("paddle.distributed.parallelize: no mesh: pass mesh= or call paddle.distributed.set_mesh "
                         "first.")
    _check_mesh_and_placements("parallelize", mesh, [], None)
    config = config or {}
    if not isinstance(config, dict):
        raise TypeError(f"paddle.distributed.parallelize: config must be a dict, but received "
                        f"{type(config).__name__}.")
    plan = (config.get("mp_config") or {}).get("parallelize_plan", {})
    named = dict(model.named_sublayers())
    for key, plans in plan.items():
        for p in plans if isinstance(plans, list) else [plans]:
            if not isinstance(p, _Plan):
                raise TypeError(f"paddle.distributed.parallelize: the plan for {key!r} must be a parallel plan "
                                f"(ColWiseParallel, ...), but received {type(p).__name__}.")
            if isinstance(p, (PrepareLayerInput, PrepareLayerOutput)) and p.fn is not None:
                if key not in named:
                    raise ValueError(f"paddle.distributed.parallelize: the plan names sublayer {key!r}, which the "
                                     f"model does not have.")
                hook = p.fn(mesh)
                if isinstance(p, PrepareLayerInput):
                    named[key].register_forward_pre_hook(hook)
                else:
                    named[key].register_forward_post_hook(hook)
    return model, (shard_optimizer(optimizer) if optimizer is not None else None)
