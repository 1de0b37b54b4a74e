"""Recurrent layers: cells, ``RNN``/``BiRNN`` wrappers and ``SimpleRNN``/``LSTM``/``GRU`` stacks (layer L5).

A built-in cell runs a whole sequence as one ``rnn_scan`` op (a ``lax.scan`` inside one kernel);
a user-written cell runs step by step as in Paddle. Parameter names, shapes and the default
initializer (uniform in ``±1/sqrt(hidden_size)``) are Paddle's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..._ops.checks import ValueCheck
from ..._ops.table import TABLE
from ..._runtime import dtypes as _dtypes
from ..._tensor.dispatch import apply_op, check_value
from ..._tensor.facade import Tensor
from ..._tensor.methods import public
from .._functional import dropout
from ..initializer._base import Constant, Uniform
from ._container import LayerList
from ._layers import Layer

_full = public(TABLE["full"])
_stack = public(TABLE["stack"])
_concat = public(TABLE["concat"])
_unsqueeze = public(TABLE["unsqueeze"])
_squeeze = public(TABLE["squeeze"])
_flip = public(TABLE["flip"])
_cast = public(TABLE["cast"])
_arange = public(TABLE["arange"])

_BIDIRECTIONAL = ("bidirectional", "bidirect")


def _scan(cell: RNNCellBase, x: Tensor, h0: Tensor, c0: Tensor | None, sequence_length: Tensor | None,
          is_reverse: bool, time_major: bool, zero_padded: bool) -> tuple[Tensor, Tensor, Tensor]:
    return apply_op(
        TABLE["rnn_scan"],
        (x, h0, c0, cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh, getattr(cell, "weight_ho", None),
         sequence_length),
        {"mode": cell._mode, "is_reverse": bool(is_reverse), "time_major": bool(time_major),
         "zero_padded": bool(zero_padded)},
    )


def _check_state(api: str, state: Any, shape: list[int], what: str) -> None:
    if not isinstance(state, Tensor):
        raise ValueError(f"{api}: {what} must be a Tensor, but received {type(state).__name__}.")
    if list(state.shape) != list(shape):
        raise ValueError(
            f"{api}: {what} must have shape {list(shape)} (batch size and hidden size of the layer), but received "
            f"shape {list(state.shape)}; pass states matching the layer's hidden_size."
        )


def _check_lengths(api: str, sequence_length: Any, batch: int, steps: int | None = None) -> None:
    """``sequence_length`` is a [batch_size] Tensor; with ``steps`` (the fused stacks, as Paddle's kernel) it is
    also of an integer dtype and no length exceeds the time steps, a value check applied as an op's are
    (a deferred length is checked when its buffer runs, without running it here)."""
    if sequence_length is None:
        return
    if not isinstance(sequence_length, Tensor):
        raise ValueError(f"{api}: sequence_length must be a Tensor of shape [batch_size], but received "
                         f"{type(sequence_length).__name__}. Pass paddle.to_tensor(lengths).")
    if list(sequence_length.shape) != [batch]:
        raise ValueError(f"{api}: sequence_length must have shape [batch_size] = [{batch}], but received shape "
                         f"{list(sequence_length.shape)}. Pass one length per sequence of the batch.")
    if steps is None:
        return
    dname = _dtypes.to_paddle(sequence_length.dtype).name
    if dname not in ("int32", "int64"):
        raise ValueError(f"{api}: sequence_length must be int32 or int64, but received {dname}. Cast it: "
                         f"sequence_length.astype('int64').")
    check_value(ValueCheck(sequence_length, f"{api}: a sequence_length ({{value}}) exceeds the {steps} time steps of "
                                            "the inputs; lengths must be at most the padded length.", hi=steps + 1))


def _check_dtype(api: str, x: Tensor, weight: Tensor) -> None:
    if x.dtype != weight.dtype:
        raise ValueError(
            f"{api}: inputs have dtype {_dtypes.to_paddle(x.dtype).name} but the layer's parameters are "
            f"{_dtypes.to_paddle(weight.dtype).name}; cast the inputs (x.astype) or the layer (layer.to(dtype=...))."
        )


def _check_input(api: str, x: Any, input_size: int, rank: int) -> None:
    if not isinstance(x, Tensor):
        raise ValueError(f"{api}: inputs must be a Tensor, but received {type(x).__name__}.")
    if len(x.shape) != rank:
        want = "[batch_size, time_steps, input_size] (or time-major)" if rank == 3 else "[batch_size, input_size]"
        raise ValueError(f"{api}: inputs must be a {rank}-D Tensor {want}, but received shape {list(x.shape)}.")
    if x.shape[-1] != input_size:
        raise ValueError(
            f"{api}: the last dimension of inputs must equal input_size={input_size}, but received shape "
            f"{list(x.shape)}."
        )


class RNNCellBase(Layer):
    """Base class of recurrent cells: ``forward(inputs, states) -> (outputs, new_states)``."""

    def get_initial_states(self, batch_ref: Tensor, shape: Any = None, dtype: Any = None, init_value: float = 0.0,
                           batch_dim_idx: int = 0) -> Any:
        """States filled with ``init_value``: ``shape`` (default ``state_shape``) with the batch size of
        ``batch_ref`` (its axis ``batch_dim_idx``) prepended, in ``dtype`` (default ``state_dtype``, else the
        default dtype)."""
        ref = batch_ref
        while isinstance(ref, list | tuple):
            ref = ref[0]
        batch = ref.shape[batch_dim_idx]
        shapes = self.state_shape if shape is None else shape
        if dtype is None:
            try:
                dtype = self.state_dtype
            except NotImplementedError:
                dtype = _dtypes.get_default_dtype()

        def is_shape(s: Any) -> bool:
            return isinstance(s, list | tuple) and all(isinstance(d, int) for d in s)

        def build(s: Any, dt: Any) -> Any:
            if is_shape(s):
                dims = list(s)[1:] if s and s[0] == -1 else list(s)
                return _full([batch, *dims], init_value, dt)
            dts = dt if isinstance(dt, list | tuple) else [dt] * len(s)
            return type(s)(build(a, b) for a, b in zip(s, dts))

        return build(shapes, dtype)

    @property
    def state_shape(self) -> Any:
        """The shape(s) of the state without the batch axis (a cell must define it to use default states)."""
        raise NotImplementedError("Please add implementation for `state_shape` in the used cell.")

    @property
    def state_dtype(self) -> Any:
        """The dtype(s) of the state (optional; the default dtype otherwise)."""
        raise NotImplementedError("Please add implementation for `state_dtype` in the used cell.")


class _BuiltinCell(RNNCellBase):
    """The parameters every built-in cell has: ``weight_ih`` [G*H, I], ``weight_hh``, ``bias_ih``, ``bias_hh``."""

    _gates = 1
    _mode = ""

    def _make(self, input_size: int, hidden_size: int, weight_ih_attr: Any, weight_hh_attr: Any, bias_ih_attr: Any,
              bias_hh_attr: Any, hh_cols: int) -> None:
        name = type(self).__name__
        for v, what in ((input_size, "input_size"), (hidden_size, "hidden_size")):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"{name}: {what} must be an int, but received {type(v).__name__}.")
        if hidden_size <= 0:
            raise ValueError(f"hidden_size of {name} must be greater than 0, but now equals to {hidden_size}")
        if input_size < 0:
            raise ValueError(f"{name}: input_size must be non-negative, but received {input_size}.")
        std = 1.0 / math.sqrt(hidden_size)
        g = self._gates * hidden_size
        dtype = _dtypes.get_default_dtype()
        specs = (("weight_ih", (g, input_size), weight_ih_attr, False, 1.0),
                 ("weight_hh", (g, hh_cols), weight_hh_attr, False, 1.0),
                 ("bias_ih", (g,), bias_ih_attr, True, 0.0),
                 ("bias_hh", (g,), bias_hh_attr, True, 0.0))
        for pname, shape, attr, is_bias, off_value in specs:
            if attr is not False:
                p = self.create_parameter(list(shape), attr, dtype, is_bias, Uniform(-std, std))
            else:  # Paddle keeps a frozen constant in place of a disabled parameter
                p = self.create_parameter(list(shape), None, dtype, is_bias, Constant(off_value))
                p.stop_gradient = True
            setattr(self, pname, p)
        self.input_size = input_size
        self.hidden_size = hidden_size

    def _step(self, inputs: Tensor, states: Any) -> tuple[Tensor, Tensor, Tensor]:
        api = f"{type(self).__name__}.forward"
        _check_input(api, inputs, self.input_size, 2)
        x = _unsqueeze(inputs, 0)
        return [_squeeze(t, 0) if i == 0 else t for i, t in enumerate(self._run(x, states, api, 1, 0))]

    def _run(self, x: Tensor, states: Any, api: str, batch_axis: int, time_axis: int,
             sequence_length: Tensor | None = None, is_reverse: bool = False, zero_padded: bool = False) -> Any:
        _check_dtype(api, x, self.weight_ih)
        if states is None:
            states = self.get_initial_states(x, self.state_shape, x.dtype, batch_dim_idx=batch_axis)
        h0, c0 = self._split_states(states, api, x.shape[batch_axis])
        return _scan(self, x, h0, c0, sequence_length, is_reverse, time_axis == 0, zero_padded)

    # a cell with one state (SimpleRNNCell, GRUCell; LSTMCell has two)
    def forward(self, inputs: Tensor, states: Tensor | None = None) -> tuple[Tensor, Tensor]:
        out, h, _ = self._step(inputs, states)
        return out, h

    @property
    def state_shape(self) -> tuple[int]:
        return (self.hidden_size,)

    def _split_states(self, states: Any, api: str, batch: int) -> tuple[Tensor, Tensor | None]:
        _check_state(api, states, [batch, self.hidden_size], "the state")
        return states, None

    def _final(self, h: Tensor, c: Tensor) -> Any:
        return h

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class SimpleRNNCell(_BuiltinCell):
    """``h = act(x @ weight_ih.T + bias_ih + h_prev @ weight_hh.T + bias_hh)`` with ``act`` tanh or relu.

    ``forward(inputs [B, I], states [B, H] or None) -> (h, h)``.
    """

    def __init__(self, input_size: int, hidden_size: int, activation: str = "tanh", weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self._make(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, hidden_size)
        if activation not in ("tanh", "relu"):
            raise ValueError(f"activation for SimpleRNNCell should be tanh or relu, but get {activation}")
        self.activation = activation
        self._mode = "RNN_TANH" if activation == "tanh" else "RNN_RELU"

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        return s if self.activation == "tanh" else s + f", activation={self.activation}"


class LSTMCell(_BuiltinCell):
    """Long short-term memory cell with Paddle's gate order ``i, f, c, o`` (and an optional projection
    ``weight_ho`` [H, proj_size] applied to ``h``).

    ``forward(inputs [B, I], states (h, c) or None) -> (h, (h, c))``.
    """

    _gates = 4
    _mode = "LSTM"

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, proj_size: int = 0,
                 name: str | None = None) -> None:
        super().__init__()
        if not isinstance(proj_size, int) or isinstance(proj_size, bool) or proj_size < 0:
            raise ValueError(f"LSTMCell: proj_size must be a non-negative int, but received {proj_size!r}.")
        if isinstance(hidden_size, int) and proj_size and proj_size >= hidden_size:
            raise ValueError(f"LSTMCell: proj_size must be smaller than hidden_size={hidden_size}, but received "
                             f"{proj_size}.")
        self._make(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                   proj_size or hidden_size)
        self.proj_size = proj_size
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter([hidden_size, proj_size], weight_hh_attr,
                                                   _dtypes.get_default_dtype(), False,
                                                   Uniform(-std, std))

    def forward(self, inputs: Tensor, states: Sequence[Tensor] | None = None) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        out, h, c = self._step(inputs, states)
        return out, (h, c)

    def _split_states(self, states: Any, api: str, batch: int) -> tuple[Tensor, Tensor | None]:
        if not isinstance(states, list | tuple) or len(states) != 2:
            raise ValueError(f"{api}: LSTM states must be a pair (h, c) of Tensors, but received "
                            f"{type(states).__name__}.")
        _check_state(api, states[0], [batch, self.proj_size or self.hidden_size], "the hidden state h")
        _check_state(api, states[1], [batch, self.hidden_size], "the cell state c")
        return states[0], states[1]

    def _final(self, h: Tensor, c: Tensor) -> Any:
        return (h, c)

    @property
    def state_shape(self) -> tuple[tuple[int], tuple[int]]:
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))


class GRUCell(_BuiltinCell):
    """Gated recurrent unit with Paddle's gate order ``r, z, c`` (reset gate applied after the hidden
    projection): ``h = (h_prev - c) * z + c``.

    ``forward(inputs [B, I], states [B, H] or None) -> (h, h)``.
    """

    _gates = 3
    _mode = "GRU"

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        self._make(input_size, hidden_size, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, hidden_size)


_OWN_FORWARD = {SimpleRNNCell: SimpleRNNCell.forward, LSTMCell: LSTMCell.forward, GRUCell: GRUCell.forward}


def _scannable(cell: Any) -> bool:
    """A built-in cell whose step is the table's (a subclass overriding forward runs step by step)."""
    for cls, fwd in _OWN_FORWARD.items():
        if isinstance(cell, cls):
            return type(cell).forward is fwd
    return False


def _rnn(cell: Any, inputs: Tensor, initial_states: Any, sequence_length: Tensor | None, time_major: bool,
         is_reverse: bool, api: str, zero_padded: bool, kwargs: dict) -> tuple[Any, Any]:
    """One cell over a whole sequence: one ``rnn_scan`` op for a built-in cell, else Paddle's step loop."""
    if not isinstance(inputs, Tensor):
        raise ValueError(f"{api}: inputs must be a Tensor, but received {type(inputs).__name__}.")
    if len(inputs.shape) != 3:
        raise ValueError(f"{api}: inputs must be a 3-D Tensor [batch_size, time_steps, input_size] (or "
                         f"[time_steps, batch_size, input_size] with time_major=True), but received shape "
                         f"{list(inputs.shape)}.")
    batch_axis, time_axis = (1, 0) if time_major else (0, 1)
    _check_lengths(api, sequence_length, inputs.shape[batch_axis])
    if _scannable(cell) and not kwargs:
        _check_input(api, inputs, cell.input_size, 3)
        outs, h, c = cell._run(inputs, initial_states, api, batch_axis, time_axis, sequence_length, is_reverse,
                               zero_padded)
        return outs, cell._final(h, c)
    return _step_loop(cell, inputs, initial_states, sequence_length, batch_axis, time_axis, is_reverse, kwargs)


def _tree_map(fn: Any, *trees: Any) -> Any:
    if isinstance(trees[0], list | tuple):
        return type(trees[0])(_tree_map(fn, *xs) for xs in zip(*trees))
    return fn(*trees)


def _step_loop(cell: Any, inputs: Tensor, states: Any, sequence_length: Tensor | None, batch_axis: int,
               time_axis: int, is_reverse: bool, kwargs: dict) -> tuple[Any, Any]:
    steps = inputs.shape[time_axis]
    if states is None:
        states = cell.get_initial_states(inputs, batch_dim_idx=batch_axis)
    mask = None
    if sequence_length is not None:
        ar = _unsqueeze(_arange(0, steps, 1, "int64"), 1)
        mask = _cast(ar < _unsqueeze(_cast(sequence_length, "int64"), 0), inputs.dtype)  # [T, B]
    order = range(steps - 1, -1, -1) if is_reverse else range(steps)
    outs: list[Any] = [None] * steps
    for i in order:
        x = inputs[i] if time_axis == 0 else inputs[:, i]
        out, new = cell(x, states, **kwargs)
        if mask is not None:
            m = _unsqueeze(mask[i], 1)
            new = _tree_map(lambda s, n, m=m: n * m + s * (1 - m), states, new)
        states = new
        outs[i] = out
    return _tree_map(lambda *xs: _stack(list(xs), time_axis), *outs), states


class RNN(Layer):
    """Runs ``cell`` over a sequence: ``forward(inputs, initial_states=None, sequence_length=None) ->
    (outputs, final_states)``. Past a sequence's length its state is kept (its final state is the one at
    its last valid step); its outputs there are the cell's, as in Paddle.
    """

    def __init__(self, cell: RNNCellBase, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        if not isinstance(cell, Layer):
            raise TypeError(f"RNN: cell must be an RNNCellBase layer, but received {type(cell).__name__}.")
        self.cell = cell
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(self, inputs: Tensor, initial_states: Any = None, sequence_length: Tensor | None = None,
                **kwargs: Any) -> tuple[Any, Any]:
        return _rnn(self.cell, inputs, initial_states, sequence_length, self.time_major, self.is_reverse,
                    "RNN.forward", False, kwargs)


class BiRNN(Layer):
    """Runs ``cell_fw`` forward and ``cell_bw`` backward over a sequence and concatenates their outputs on
    the last axis; ``initial_states`` and the final states are pairs ``(fw, bw)``.
    """

    def __init__(self, cell_fw: RNNCellBase, cell_bw: RNNCellBase, time_major: bool = False) -> None:
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(
                f"BiRNN: the input size of the forward cell ({cell_fw.input_size}) does not equal that of the "
                f"backward cell ({cell_bw.input_size}); build both cells with the same input_size."
            )
        self.time_major = time_major

    def forward(self, inputs: Tensor, initial_states: Any = None, sequence_length: Tensor | None = None,
                **kwargs: Any) -> tuple[Tensor, tuple[Any, Any]]:
        return self._both(inputs, initial_states, sequence_length, False, kwargs)

    def _both(self, inputs: Tensor, initial_states: Any, sequence_length: Tensor | None, zero_padded: bool,
              kwargs: dict) -> tuple[Tensor, tuple[Any, Any]]:
        if initial_states is None:
            initial_states = (None, None)
        elif not isinstance(initial_states, list | tuple) or len(initial_states) != 2:
            raise ValueError("BiRNN.forward: initial_states must be a pair (states_fw, states_bw) when given, but "
                             f"received {type(initial_states).__name__}.")
        out_fw, st_fw = _rnn(self.cell_fw, inputs, initial_states[0], sequence_length, self.time_major, False,
                             "BiRNN.forward", zero_padded, kwargs)
        out_bw, st_bw = _rnn(self.cell_bw, inputs, initial_states[1], sequence_length, self.time_major, True,
                             "BiRNN.forward", zero_padded, kwargs)
        return _concat([out_fw, out_bw], -1), (st_fw, st_bw)


class _DropoutState(Tensor):
    """The placeholder ``RNNBase._dropout_state``: no leaf of the layer as a JAX pytree (``_pytree_static``), so
    ``jax.grad`` over a layer, which takes only floating leaves, works."""

    _pytree_static = True


class RNNBase(LayerList):
    """A stack of ``num_layers`` recurrent layers (one ``RNN`` or ``BiRNN`` each) with dropout between them.

    ``forward(inputs, initial_states=None, sequence_length=None) -> (outputs, final_states)``; states are
    ``[num_layers * num_directions, batch, hidden]`` Tensors (a pair ``(h, c)`` for LSTM). Outputs at
    padding steps are zero and each sequence's final state is the one at its last valid step.
    """

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 direction: str = "forward", time_major: bool = False, dropout: float = 0.0,
                 weight_ih_attr: Any = None, weight_hh_attr: Any = None, bias_ih_attr: Any = None,
                 bias_hh_attr: Any = None, proj_size: int = 0) -> None:
        super().__init__()
        name = type(self).__name__
        if not isinstance(num_layers, int) or isinstance(num_layers, bool) or num_layers < 1:
            raise ValueError(f"{name}: num_layers must be a positive int, but received {num_layers!r}.")
        if isinstance(dropout, bool) or not isinstance(dropout, int | float) or not 0 <= dropout <= 1:
            raise ValueError(f"{name}: dropout must be a number in [0, 1], but received {dropout!r}.")
        if direction not in ("forward", *_BIDIRECTIONAL):
            raise ValueError("direction should be forward or bidirect (or bidirectional), "
                             f"received direction = {direction}")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = time_major
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = proj_size
        kwargs: dict[str, Any] = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr,
                                  "bias_ih_attr": bias_ih_attr, "bias_hh_attr": bias_hh_attr}
        if mode == "LSTM":
            cls: type = LSTMCell
            kwargs["proj_size"] = proj_size
        elif mode == "GRU":
            cls = GRUCell
        else:
            cls = SimpleRNNCell
            kwargs["activation"] = "relu" if mode == "RNN_RELU" else "tanh"
        in_size = proj_size or hidden_size
        for i in range(num_layers):
            size = input_size if i == 0 else in_size * self.num_directions
            if self.num_directions == 1:
                self.append(RNN(cls(size, hidden_size, **kwargs), False, time_major))
            else:
                self.append(BiRNN(cls(size, hidden_size, **kwargs), cls(size, hidden_size, **kwargs), time_major))
        # Paddle also exposes the parameters flat (weight_ih_l0, bias_hh_l1_reverse) on the stack itself
        names = []
        for layer in range(num_layers):
            for d in range(self.num_directions):
                suffix = "_reverse" if d == 1 else ""
                group = ["weight_ih", "weight_hh"]
                group += ["bias_ih"] if bias_ih_attr is not False else []
                group += ["bias_hh"] if bias_hh_attr is not False else []
                names += [f"{g}_l{layer}{suffix}" for g in group]
        for pname, p in zip(names, self.parameters()):
            setattr(self, pname, p)
        # True where Paddle's fused kernel runs the stack (every layer has its four plain weights); read by users
        self.could_use_cudnn = len(self.parameters()) == num_layers * 4 * self.num_directions
        if self.could_use_cudnn:
            # Paddle's fused kernel keeps its dropout state in a buffer of its own, left out of the state dict (it
            # holds no data there; here it is a 0-D uint8 zero, unused)
            state = _DropoutState(_full([], 0, "uint8")._v)
            state.name = f"{self._full_name}.dropout_state__non_persistable"
            self.register_buffer("_dropout_state", state, persistable=False)

    def flatten_parameters(self) -> None:
        """Paddle packs the weights into one buffer for its fused GPU kernel here; the parameters are used as they
        are in pylayer_jax, so there is nothing to do (kept for code that calls it after moving a model)."""

    def forward(self, inputs: Tensor, initial_states: Any = None,
                sequence_length: Tensor | None = None) -> tuple[Tensor, Any]:
        api = f"{type(self).__name__}.forward"
        if not isinstance(inputs, Tensor):
            raise ValueError(f"{api}: inputs must be a Tensor, but received {type(inputs).__name__}.")
        _check_input(api, inputs, self.input_size, 3)
        batch = inputs.shape[1 if self.time_major else 0]
        # (Paddle's fused kernel checks the lengths' dtype and aborts past the time steps; its step-by-step path, a
        # projected LSTM's, does not)
        _check_lengths(api, sequence_length, batch,
                       inputs.shape[0 if self.time_major else 1] if self.could_use_cudnn else None)
        n = self.num_layers * self.num_directions
        dims = [self.proj_size or self.hidden_size, self.hidden_size]
        if initial_states is None:
            initial_states = tuple(_full([n, batch, dims[i]], 0, inputs.dtype) for i in range(self.state_components))
        else:
            if isinstance(initial_states, Tensor):
                initial_states = [initial_states]
            if not isinstance(initial_states, list | tuple) or len(initial_states) != self.state_components:
                want = "a pair (h, c) of Tensors" if self.state_components == 2 else "a Tensor"
                raise ValueError(f"{api}: initial_states must be {want}, but received {initial_states!r:.80}.")
            for i, s in enumerate(initial_states):
                what = "initial_states" if self.state_components == 1 else f"initial_states[{i}]"
                _check_state(api, s, [n, batch, dims[i]], what)
        # Paddle's fused kernel zeroes padding outputs; its projected LSTM runs the cells step by step and does not
        zero_padded = self.proj_size == 0
        finals = []
        x = inputs
        for i, layer in enumerate(self):
            if i > 0:
                x = dropout(x, self.dropout, training=self.training, mode="upscale_in_train")

            def st(k: int, c: int) -> Any:
                if self.state_components == 1:
                    return initial_states[0][k]
                return (initial_states[0][k], initial_states[1][k])

            if self.num_directions == 1:
                x, fin = _rnn(layer.cell, x, st(i, 0), sequence_length, self.time_major, False, api, zero_padded,
                              {})
                finals.append(fin)
            else:
                x, (f_fw, f_bw) = layer._both(x, (st(2 * i, 0), st(2 * i + 1, 0)), sequence_length, zero_padded, {})
                finals += [f_fw, f_bw]
        if self.state_components == 1:
            return x, _stack(finals, 0)
        return x, (_stack([f[0] for f in finals], 0), _stack([f[1] for f in finals], 0))

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            s += f", time_major={self.time_major}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(RNNBase):
    """A stack of ``SimpleRNNCell`` layers (``activation`` 'tanh' or 'relu'); see ``RNNBase``."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, activation: str = "tanh", weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        if activation not in ("tanh", "relu"):
            raise ValueError(f"SimpleRNN: activation must be 'tanh' or 'relu', but received {activation!r}.")
        self.activation = activation
        super().__init__("RNN_TANH" if activation == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         direction, time_major, dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)


class LSTM(RNNBase):
    """A stack of ``LSTMCell`` layers (``proj_size`` > 0 projects ``h``); states are pairs ``(h, c)``."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, proj_size: int = 0,
                 name: str | None = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, proj_size)


class GRU(RNNBase):
    """A stack of ``GRUCell`` layers; see ``RNNBase``."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None, weight_hh_attr: Any = None,
                 bias_ih_attr: Any = None, bias_hh_attr: Any = None, name: str | None = None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
