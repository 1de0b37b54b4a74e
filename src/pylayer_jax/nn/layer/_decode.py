"""Decoding (layer L5): ``paddle.nn.BeamSearchDecoder`` (the ``Decoder`` interface) and
``paddle.nn.dynamic_decode``, which runs a decoder step by step until every sequence is finished.

Written over Tensor methods as Paddle writes them (eager; each step's ops run on the tape, so a
decoder whose cell is trained gets gradients through its scores), with ``F.gather_tree`` to trace
the beams back.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import jax
import numpy as np

from ..._ops.table import TABLE
from ..._runtime import dtypes as _dtypes
from ..._tensor.facade import Tensor, to_tensor
from ..._tensor.methods import increment, inplace_assign, public
from .. import _functional as F

_full = public(TABLE["full"])
_stack = public(TABLE["stack"])
_arange = public(TABLE["arange"])
_KINF = 1e9


def _map(fn: Any, *trees: Any) -> Any:
    """``fn`` over the Tensors of nested lists / tuples / dicts / named tuples (Paddle's map_structure)."""
    return jax.tree_util.tree_map(fn, *trees, is_leaf=lambda x: isinstance(x, Tensor))


def _leaves(tree: Any) -> list:
    return jax.tree_util.tree_leaves(tree, is_leaf=lambda x: isinstance(x, Tensor))


class Decoder:
    """The interface ``dynamic_decode`` drives: ``initialize(inits) -> (inputs, states, finished)``,
    ``step(time, inputs, states, **kwargs) -> (outputs, next_states, next_inputs, finished)``, optionally
    ``finalize(outputs, final_states, sequence_lengths)`` and ``tracks_own_finished``."""

    def initialize(self, inits: Any) -> Any:
        raise NotImplementedError("Decoder.initialize: a Decoder subclass must implement initialize.")

    def step(self, time: Any, inputs: Any, states: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("Decoder.step: a Decoder subclass must implement step.")

    def finalize(self, outputs: Any, final_states: Any, sequence_lengths: Any) -> Any:
        raise NotImplementedError("Decoder.finalize: this decoder has no finalize; the outputs are kept as they are.")

    @property
    def tracks_own_finished(self) -> bool:
        return False


class BeamSearchDecoder(Decoder):
    """Beam search over an RNN cell: at each step the cell's output (through ``output_fn``) gives the next-token
    log-probabilities of every beam, the ``beam_size`` best continuations of each batch entry are kept, and a
    beam that emitted ``end_token`` only continues with ``end_token`` at no cost. ``embedding_fn`` turns token
    ids into the cell's inputs. Use with ``dynamic_decode``; ``finalize`` traces the beams back with
    ``gather_tree`` into ``[batch_size, time, beam_size]`` ids (``[time, batch_size, beam_size]`` when
    ``output_time_major``)."""

    class OutputWrapper(NamedTuple):
        scores: Any
        predicted_ids: Any
        parent_ids: Any

    class StateWrapper(NamedTuple):
        cell_states: Any
        log_probs: Any
        finished: Any
        lengths: Any

    def __init__(self, cell: Any, start_token: int, end_token: int, beam_size: int, embedding_fn: Any = None,
                 output_fn: Any = None) -> None:
        if not isinstance(beam_size, int) or isinstance(beam_size, bool) or beam_size < 1:
            raise ValueError(f"BeamSearchDecoder: beam_size must be a positive int, but received {beam_size!r}.")
        for what, v in (("start_token", start_token), ("end_token", end_token)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"BeamSearchDecoder: {what} must be an int (a token id), but received {v!r}.")
        if not callable(cell):
            raise TypeError(f"BeamSearchDecoder: cell must be an RNN cell (callable), but received "
                            f"{type(cell).__name__}.")
        self.cell, self.embedding_fn, self.output_fn = cell, embedding_fn, output_fn
        self.start_token, self.end_token, self.beam_size = start_token, end_token, beam_size

    @staticmethod
    def tile_beam_merge_with_batch(x: Tensor, beam_size: int) -> Tensor:
        """``[batch_size, ...]`` to ``[batch_size * beam_size, ...]``, each row repeated ``beam_size`` times."""
        x = x.unsqueeze(1)
        times = [1] * len(x.shape)
        times[1] = beam_size
        return x.tile(times).reshape([-1, *x.shape[2:]])

    def _split_batch_beams(self, x: Tensor) -> Tensor:
        return x.reshape([-1, self.beam_size, *x.shape[1:]])

    def _merge_batch_beams(self, x: Tensor) -> Tensor:
        return x.reshape([-1, *x.shape[2:]])

    def _expand_to_beam_size(self, x: Tensor) -> Tensor:
        x = x.unsqueeze(1)
        times = [1] * len(x.shape)
        times[1] = self.beam_size
        return x.tile(times)

    def _gather(self, x: Tensor, indices: Tensor) -> Tensor:
        """``x[b, indices[b, k]]`` for each batch entry ``b`` and beam ``k``."""
        batch = _arange(0, indices.shape[0], 1, indices.dtype).unsqueeze(1).tile([1, self.beam_size])
        coords = _stack([batch, indices], axis=2)
        return x.gather_nd(coords)

    def initialize(self, initial_cell_states: Any) -> tuple[Any, StateWrapper, Tensor]:
        states = _leaves(initial_cell_states)
        if not states:
            raise ValueError("BeamSearchDecoder.initialize: initial_cell_states must hold at least one Tensor "
                             "[batch_size, ...].")
        self.batch_size = states[0].shape[0]
        cell_states = _map(self._expand_to_beam_size, initial_cell_states)
        inputs = _full([self.batch_size, self.beam_size], self.start_token, "int64")
        fdt = _dtypes.get_default_dtype() if _dtypes.get_default_dtype() == "float64" else "float32"
        first = np.array([[0.0] + [-_KINF] * (self.beam_size - 1)], dtype=fdt)
        log_probs = to_tensor(np.tile(first, [self.batch_size, 1]))
        finished = _full([self.batch_size, self.beam_size], False, "bool")
        lengths = _full([self.batch_size, self.beam_size], 0, "int64")
        if self.embedding_fn is not None:
            inputs = self.embedding_fn(inputs)
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def _beam_search_step(self, logits: Tensor, next_cell_states: Any,
                          beam_state: StateWrapper) -> tuple[OutputWrapper, StateWrapper]:
        vocab = logits.shape[-1]
        if not 0 <= self.end_token < vocab:
            raise ValueError(f"BeamSearchDecoder: end_token {self.end_token} is not a token of the cell's "
                             f"{vocab}-way output.")
        noend = np.full([vocab], -_KINF, dtype=str(_dtypes.to_np(beam_state.log_probs.dtype)))
        noend[self.end_token] = 0
        step_log_probs = F.softmax(logits).log()
        # a finished beam may only continue with end_token, at no cost
        fin = beam_state.finished.astype(step_log_probs.dtype).unsqueeze(2)
        step_log_probs = fin * to_tensor(noend) - step_log_probs * (fin - 1)
        log_probs = step_log_probs + beam_state.log_probs.unsqueeze(2)
        flat = log_probs.reshape([-1, self.beam_size * vocab])
        topk_scores, topk_indices = flat.topk(self.beam_size)
        beam_indices = topk_indices.floor_divide(to_tensor(np.array([vocab], np.int64)))
        token_indices = topk_indices.remainder(to_tensor(np.array([vocab], np.int64)))
        next_log_probs = self._gather(flat, topk_indices)
        next_cell_states = _map(lambda x: self._gather(x, beam_indices), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices)
        next_lengths = self._gather(beam_state.lengths, beam_indices)
        next_lengths = next_lengths + next_finished.logical_not().astype(next_lengths.dtype)
        next_finished = next_finished.logical_or(token_indices.equal(to_tensor(np.array([self.end_token]))))
        return (self.OutputWrapper(topk_scores, token_indices, beam_indices),
                self.StateWrapper(next_cell_states, next_log_probs, next_finished, next_lengths))

    def step(self, time: Any, inputs: Any, states: StateWrapper, **kwargs: Any) -> tuple:
        inputs = _map(self._merge_batch_beams, inputs)
        cell_states = _map(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map(self._split_batch_beams, cell_outputs)
        next_cell_states = _map(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        out, state = self._beam_search_step(cell_outputs, next_cell_states, states)
        sample_ids = out.predicted_ids
        sample_ids.stop_gradient = True
        next_inputs = self.embedding_fn(sample_ids) if self.embedding_fn is not None else sample_ids
        return out, state, next_inputs, state.finished

    def finalize(self, outputs: OutputWrapper, final_states: StateWrapper, sequence_lengths: Any) -> tuple:
        ids = F.gather_tree(outputs.predicted_ids, outputs.parent_ids)
        return ids.astype(outputs.predicted_ids.dtype), final_states

    @property
    def tracks_own_finished(self) -> bool:
        return True


def _maybe_copy(state: Tensor, new_state: Tensor, finished: Tensor) -> Tensor:
    """``state`` where the sequence is finished, ``new_state`` elsewhere (``impute_finished``)."""
    mask = finished.reshape([finished.shape[0]] + [1] * (len(state.shape) - 1))
    keep = mask.astype(state.dtype) if str(state.dtype) != "paddle.bool" else mask
    if str(state.dtype) == "paddle.bool":
        return keep.logical_and(state).logical_or(keep.logical_not().logical_and(new_state))
    return state * keep + new_state * (1 - keep)


def dynamic_decode(decoder: Decoder, inits: Any = None, max_step_num: int | None = None,
                   output_time_major: bool = False, impute_finished: bool = False, is_test: bool = False,
                   return_length: bool = False, **kwargs: Any) -> tuple:
    """Run ``decoder`` from ``decoder.initialize(inits)`` step by step until every sequence is finished or
    ``max_step_num`` steps have run (then one more, as Paddle does); returns ``(outputs, final_states)``, plus
    the sequence lengths with ``return_length``. Outputs are stacked ``[batch_size, time, ...]`` (``[time,
    batch_size, ...]`` with ``output_time_major``) and passed through ``decoder.finalize`` when it has one.
    ``impute_finished`` keeps the states of finished sequences (for decoders that do not track their own
    finishing). ``kwargs`` go to every ``decoder.step``. (``is_test`` only saves memory in Paddle's static
    graphs; the results are the same.)"""
    if not isinstance(decoder, Decoder):
        raise TypeError(f"dynamic_decode: decoder must be a paddle.nn.Decoder (such as BeamSearchDecoder), but "
                        f"received {type(decoder).__name__}.")
    if max_step_num is not None and (not isinstance(max_step_num, int) or max_step_num < 0):
        raise ValueError(f"dynamic_decode: max_step_num must be None or a non-negative int, but received "
                         f"{max_step_num!r}.")
    inputs, states, finished = decoder.initialize(inits)
    lengths = _full(finished.shape, 0, "int64")
    outputs: list = []
    step = 0
    time = _full([1], 0, "int64")  # (one counter tensor, incremented in place after each step, as in Paddle)
    while not bool(finished.all()):
        out, next_states, next_inputs, next_finished = decoder.step(time, inputs, states, **kwargs)
        if not decoder.tracks_own_finished:
            next_finished = next_finished.logical_or(finished)
            # as Paddle: the finished flags just computed are written into the previous ones in place, so a
            # sequence's length stops before the step that finished it, and impute_finished keeps, at that
            # step, the state that came before it
            inplace_assign(finished, next_finished, "dynamic_decode")
            next_lengths = lengths + finished.logical_not().astype(lengths.dtype)
            if impute_finished:
                next_states = _map(lambda x, y, f=finished: _maybe_copy(x, y, f), states, next_states)
        else:
            if not hasattr(next_states, "lengths"):
                warnings.warn("`next_states` has no `lengths` attribute, the returned `sequence_lengths` would be "
                              "all zeros.", stacklevel=2)
            next_lengths = getattr(next_states, "lengths", lengths)
        outputs.append(out)
        inputs, states, finished, lengths = next_inputs, next_states, next_finished, next_lengths
        increment(time, 1.0)
        step += 1
        if max_step_num is not None and step > max_step_num:
            break
    if not outputs:
        raise ValueError("dynamic_decode: every sequence is finished before the first step, so there is nothing "
                         "to decode.")
    final = _map(lambda *xs: _stack(list(xs), axis=0), *outputs)
    final_states = states
    try:
        final, final_states = decoder.finalize(final, final_states, lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        final = _map(lambda x: x.transpose([1, 0, *range(2, len(x.shape))]), final)
    return (final, final_states, lengths) if return_length else (final, final_states)
