"""``paddle.distributed``'s checkpoints and ``local_map`` on one process (layer L7).

``save_state_dict(sd, path)`` writes the data file Paddle 3.3.1 writes for one process, ``<path>/0_<id>.distcp``: a
pickle of ``{key: numpy array, "StructuredToParameterName@@": {key: tensor name}}``. Paddle's loader also needs its
``<id>.metadata`` file, a pickle of Paddle's own classes that this package cannot write, so Paddle does not load
what is saved here; ``load_state_dict`` and ``load_merged_state_dict`` read the data files of either.
"""

from __future__ import annotations

import os
import pickle
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from .._tensor.facade import Tensor
from ._auto_parallel import DistTensor, Placement, ProcessMesh, _check_mesh_and_placements, get_mesh
from ._collective import Group

_NAMES = "StructuredToParameterName@@"
_DATA = re.compile(r"^(\d+)_(\d+)\.distcp$")


def _check_common(api: str, path: Any, process_group: Any = None, safetensors: bool = False) -> None:
    if not isinstance(path, str):
        raise TypeError(f"paddle.distributed.{api}: path must be a str (a directory), but received "
                        f"{type(path).__name__}.")
    if process_group is not None and not isinstance(process_group, Group):
        raise TypeError(f"paddle.distributed.{api}: process_group must be a Group or None, but received "
                        f"{type(process_group).__name__}.")
    if safetensors:
        raise NotImplementedError(f"paddle.distributed.{api}: safetensors=True is not provided here; use the "
                                  "default (pickle) format.")


def save_state_dict(state_dict: dict[str, Any], path: str, process_group: Group | None = None,
                    coordinator_rank: int = 0, unique_id: int | None = None, async_save: bool = False,
                    safetensors: bool = False, save_replicas: bool = False) -> None:
    """Write ``state_dict``'s tensors to ``<path>/0_<unique_id>.distcp`` (``unique_id`` None: 0, replacing an
    earlier save there, as Paddle does). One process holds every replica, so ``save_replicas``
    and ``coordinator_rank`` (0, this process) choose nothing; ``async_save`` saves before returning."""
    _check_common("save_state_dict", path, process_group, safetensors)
    if not isinstance(state_dict, dict):
        raise TypeError(f"paddle.distributed.save_state_dict: state_dict must be a dict of Tensors, but received "
                        f"{type(state_dict).__name__}.")
    if coordinator_rank != 0:
        raise ValueError(f"paddle.distributed.save_state_dict: coordinator_rank must be 0 (the one process), but "
                         f"received {coordinator_rank!r}.")
    for flag, v in (("async_save", async_save), ("save_replicas", save_replicas)):
        if not isinstance(v, bool):
            raise TypeError(f"paddle.distributed.save_state_dict: {flag} must be a bool, but received "
                            f"{type(v).__name__}.")
    data: dict[str, Any] = {}
    names: dict[str, str] = {}
    for k, v in state_dict.items():
        if not isinstance(v, Tensor):
            raise TypeError(f"paddle.distributed.save_state_dict: state_dict[{k!r}] must be a Tensor, but received "
                            f"{type(v).__name__}.")
        data[k] = v.numpy()
        names[k] = v.name
    data[_NAMES] = names
    os.makedirs(path, exist_ok=True)
    if unique_id is None:
        unique_id = 0
    with open(os.path.join(path, f"0_{int(unique_id)}.distcp"), "wb") as fh:
        pickle.dump(data, fh, protocol=4)


def _read(api: str, path: str, unique_id: int | None) -> dict[str, np.ndarray]:
    if not os.path.isdir(path):
        raise FileNotFoundError(f"paddle.distributed.{api}: no checkpoint directory {path!r}.")
    files = [(int(m.group(2)), int(m.group(1)), f) for f in os.listdir(path) if (m := _DATA.match(f))]
    if unique_id is None and files:
        unique_id = max(i for i, _, _ in files)
    chosen = sorted((r, f) for i, r, f in files if i == unique_id)
    if not chosen:
        raise FileNotFoundError(f"paddle.distributed.{api}: {path!r} holds no checkpoint data file "
                                f"(<rank>_<unique_id>.distcp) for unique_id {unique_id}.")
    out: dict[str, np.ndarray] = {}
    for _, f in chosen:
        with open(os.path.join(path, f), "rb") as fh:
            part = pickle.load(fh)
        out.update({k: v for k, v in part.items() if k != _NAMES})
    return out


def load_state_dict(state_dict: dict[str, Any], path: str, process_group: Group | None = None,
                    coordinator_rank: int = 0, unique_id: int | None = None, offload: bool = False,
                    mw_name_compatibility: bool = True, aoa_config: dict | None = None, safetensors: bool = False,
                    worker_groups: list | None = None, comm_method: str = "broadcast") -> None:
    """Fill ``state_dict``'s tensors in place from the checkpoint in ``path`` (the latest ``unique_id`` unless
    given). A key the checkpoint lacks raises KeyError, as Paddle's; a shape other than the saved one raises
    ValueError (Paddle 3.3.1 copies a slice of the saved tensor into a smaller one). ``offload``, ``comm_method``,
    ``worker_groups`` and ``mw_name_compatibility`` only concern moving shards between processes."""
    _check_common("load_state_dict", path, process_group, safetensors)
    if aoa_config is not None:
        raise NotImplementedError("paddle.distributed.load_state_dict: aoa_config (renaming and reshaping keys "
                                  "while loading) is not provided here; load, then rename the keys.")
    if coordinator_rank != 0:
        raise ValueError(f"paddle.distributed.load_state_dict: coordinator_rank must be 0 (the one process), but "
                         f"received {coordinator_rank!r}.")
    for flag, v in (("offload", offload), ("mw_name_compatibility", mw_name_compatibility)):
        if not isinstance(v, bool):
            raise TypeError(f"paddle.distributed.load_state_dict: {flag} must be a bool, but received "
                            f"{type(v).__name__}.")
    if comm_method not in ("broadcast", "send_recv", "multi_group_broadcast", "grouped_send_recv"):
        raise ValueError(f"paddle.distributed.load_state_dict: unknown comm_method {comm_method!r}.")
    if worker_groups is not None and not isinstance(worker_groups, list):
        raise TypeError(f"paddle.distributed.load_state_dict: worker_groups must be a list of Groups or None, but "
                        f"received {type(worker_groups).__name__}.")
    saved = _read("load_state_dict", path, unique_id)
    missing = [k for k in state_dict if k not in saved]
    if missing:
        raise KeyError(f"paddle.distributed.load_state_dict: the keys {missing} are not found in checkpoint path "
                       f"{path!r}.")
    for k, t in state_dict.items():
        if list(saved[k].shape) != list(t.shape):
            raise ValueError(f"paddle.distributed.load_state_dict: {k!r} has shape {list(t.shape)}, but the "
                             f"checkpoint holds shape {list(saved[k].shape)}.")
        t._set_value(saved[k].astype(t.numpy().dtype, copy=False))


def load_merged_state_dict(path: str, prefix: str | None = None, unique_id: int | None = None, offload: bool = False,
                           aoa_config: dict | None = None, safetensors: bool = False) -> dict[str, Tensor]:
    """The checkpoint in ``path`` as ``{key: Tensor}``; with ``prefix``, only the keys starting with it, the prefix
    and the one separator after it removed (as Paddle's: prefix "model" turns "model.weight" into "weight")."""
    _check_common("load_merged_state_dict", path, None, safetensors)
    if aoa_config is not None:
        raise NotImplementedError("paddle.distributed.load_merged_state_dict: aoa_config is not provided here.")
    if not isinstance(offload, bool):
        raise TypeError(f"paddle.distributed.load_merged_state_dict: offload must be a bool, but received "
                        f"{type(offload).__name__}.")
    saved = _read("load_merged_state_dict", path, unique_id)
    if prefix is None:
        return {k: Tensor(np.asarray(v)) for k, v in saved.items()}
    return {k[len(prefix) + 1:]: Tensor(np.asarray(v)) for k, v in saved.items() if k.startswith(prefix)}


def _as_dist(t: Any, mesh: ProcessMesh, placements: list[Placement]) -> Any:
    if not isinstance(t, Tensor):
        return t
    d = DistTensor.__new__(DistTensor)
    Tensor.__init__(d, t._value, t.stop_gradient, t._e)
    d.process_mesh, d.placements = mesh, list(placements)
    return d


def local_map(func: Callable[..., Any], out_placements: list[list[Placement]],
              in_placements: list[list[Placement]] | None = None, process_mesh: ProcessMesh | None = None,
              reshard_inputs: bool = False) -> Callable[..., Any]:
    """``func`` run on each process's local parts: on one process the whole tensors; its outputs become
    distributed tensors with ``out_placements`` (one list per output), as Paddle's, even from plain inputs.
    (Paddle 3.3.1 fails when ``in_placements`` is None; here it means: take the inputs as they are.)"""
    if not callable(func):
        raise TypeError(f"paddle.distributed.local_map: func must be callable, but received {type(func).__name__}.")
    if not isinstance(out_placements, (list, tuple)):
        raise TypeError(f"paddle.distributed.local_map: out_placements must be a list of placement lists, but "
                        f"received {type(out_placements).__name__}.")
    if not isinstance(reshard_inputs, bool):
        raise TypeError(f"paddle.distributed.local_map: reshard_inputs must be a bool, but received "
                        f"{type(reshard_inputs).__name__}.")

    def run(*args: Any, **kwargs: Any) -> Any:
        mesh = process_mesh or next((a.process_mesh for a in args if isinstance(a, Tensor) and a.is_dist()),
                                    None) or get_mesh()
        if mesh is None:
            raise ValueError("paddle.distributed.local_map: no process mesh: pass process_mesh=, give a distributed "
                             "input, or call paddle.distributed.set_mesh.")
        if in_placements is not None:
            tensors = [a for a in args if isinstance(a, Tensor)]
            if len(in_placements) != len(tensors):
                raise ValueError(f"paddle.distributed.local_map: in_placements lists {len(in_placements)} inputs, "
                                 f"but the call has {len(tensors)} tensor inputs.")
            for p in in_placements:
                _check_mesh_and_placements("local_map", mesh, p, None)
        out = func(*args, **kwargs)
        outs = out if isinstance(out, (list, tuple)) else [out]
        if len(outs) != len(out_placements):
            raise ValueError(f"paddle.distributed.local_map: out_placements lists {len(out_placements)} outputs, but "
                             f"func returned {len(outs)}.")
        placed = [_as_dist(o, mesh, _check_mesh_and_placements("local_map", mesh, p, None))
                  for o, p in zip(outs, out_placements)]
        return type(out)(placed) if isinstance(out, (list, tuple)) else placed[0]

    return run
