"""The step-event seam: what the eager core tells an observer of its steps (layer L4).

The core reports four kinds of event of an eager step to one registered observer:

- **op**: an op that trains (``dispatch``): ``op`` may return the op's result in place of dispatch,
  ``op_begin``/``op_end`` bracket an op that was dispatched and recorded; an op that makes no node but records
  its call into the buffer (a comparison, an op on constants, an op under ``no_grad``) is a *plain* op event:
  ``plain_op`` in place of ``op`` and ``op_begin``;
- **apply**: a ``PyLayer.apply`` that needs a gradient (``_pylayer.eager``): ``apply_begin``,
  ``apply_end`` around its forward, ``apply_noted`` once its node is wired;
- **backward**: ``backward()`` from one tensor (``backward_entry``): ``backward`` may run it in
  place of the walk; ``backward_begin``/``backward_end`` bracket a walk, ``backward_done`` ends
  the step (also when it failed); inside the walk, each PyLayer's backward is a *callout*
  (``callout_begin``/``callout_end``) that gets the engine's walk state;
- **write**: a write that rebinds a Tensor's array or bumps its version is about to happen
  (``facade.before_write``), with the Tensor written when it is known.

An observer may hand out *stub* edges ``(stub, k)`` in place of ``(node, j)``: a tape node it has not
built yet. The core tells a stub by its type (``STUB``) and asks the stub for the edge it stands for when
the history is read (``Tensor._edge``).

The default observer, this base class, does nothing: every op is dispatched and recorded normally.
Step replay (``_replay``) is the one observer; the package's ``__init__`` registers it. Deleting
``_replay`` and that registration leaves the core whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class Stub:
    """Tape nodes an observer has not built yet: the edge ``(stub, k)`` stands for ``edge(k)``."""

    __slots__ = ()

    def edge(self, k: Any) -> tuple:
        """The real edge ``(node, output index)`` that ``(self, k)`` stands for (its node built now if need be)."""
        raise NotImplementedError


class StepEvents:
    """The events of an eager step. Every method of this base class does nothing (no observer)."""

    # ---- op ---------------------------------------------------------------------------------
    def op(self, op: Any, key: tuple | None, leaves: Sequence[Any], early: bool = False) -> Any:
        """An op is about to be dispatched: its result (a Tensor) in place of dispatch, or None.

        ``key`` None: a call of Tensors alone under the default dtype, asked before dispatch checks that
        some input trains; ``early``: a call with plain attributes (its kernel key ``key``), asked as early;
        else the op's kernel key, asked of an op that trains with grad mode on.
        """
        return None

    def op_begin(self) -> Any:
        """An op that trains is about to be dispatched and recorded: a token for ``op_end``, or None."""
        return None

    def op_end(self, token: Any, op: Any, key: tuple, leaves: Sequence[Any], leaf_param: Any, arrays: Sequence[Any],
               needs: tuple | None, out: Any, node: Any) -> None:
        """The op ``op_begin`` (or ``plain_op``) announced was dispatched: its node, or None where it made no
        single-output node (``needs`` None: no input needed a gradient)."""

    def plain_op(self, op: Any, key: tuple, leaves: Sequence[Any]) -> Any:
        """An op that makes no node (no input trains, grad mode off, or an op without gradient) is about to record
        its call into the buffer: its result (Tensors) in place of dispatch; else ``Noted(token)``, a token for
        ``op_end`` once it is dispatched and recorded; or None. (One call: every such op asks.)"""
        return None

    # ---- apply --------------------------------------------------------------------------------
    def apply_begin(self, cls: type, inputs: Sequence[Any]) -> tuple[Any, Any]:
        """A ``PyLayer.apply`` that needs a gradient, before its forward (``inputs``: its Tensors in slot order):
        ``(follow, note)`` tokens (the first for ``apply_end``, the second for ``apply_noted``), or Nones."""
        return (None, None)

    def apply_end(self, token: Any, ok: bool, inputs: Sequence[Any], out: Any, node: Any) -> bool:
        """After the forward of an apply ``apply_begin`` followed (``ok``: its ctx is as a followed apply
        needs, and ``out`` is its output Tensor or a list of its several fresh output Tensors; False also when
        forward raised): True if the observer took the output (its edges are set)."""
        return False

    def apply_noted(self, token: Any, cls: type, inputs: Sequence[Any], needs: Sequence[bool], out: Any,
                    node: Any) -> None:
        """The apply ``apply_begin`` announced is wired: its node, or None where its output is not one fresh Tensor
        (``out``) or a tuple or list of them (``out`` the list of them)."""

    # ---- backward -------------------------------------------------------------------------------
    def backward(self, t: Any) -> bool:
        """``backward()`` from ``t`` (no seed, no retain_graph): True if the observer ran it (no walk)."""
        return False

    def backward_begin(self, t: Any) -> Any:
        """A walk from ``t`` begins (no seed, no retain_graph): a token for ``backward_end``, or None."""
        return None

    def backward_end(self, token: Any) -> None:
        """The walk ``backward_begin`` announced ended without error (before the step's calls run)."""

    def backward_done(self) -> None:
        """A ``backward()`` ended or failed: the next op begins a new step."""

    def callout_begin(self, node: Any, cts: Sequence[Any], walk: Any) -> Any:
        """A PyLayer's backward is about to run inside a walk (``walk``: the engine's ``Walk``, None outside
        one): a token for ``callout_end``, or None."""
        return None

    def callout_end(self, token: Any, grads: Sequence[Any]) -> None:
        """The PyLayer's backward returned ``grads``."""

    # ---- write --------------------------------------------------------------------------------
    def write(self, t: Any = None) -> None:
        """A write that rebinds a Tensor's array or bumps its version is about to happen (any thread): the write
        of Tensor ``t``, or of Tensors not named (None)."""


class Noted:
    """What ``StepEvents.plain_op`` returns for an op it is to be told of (``op_end``), with its token."""

    __slots__ = ("token",)

    def __init__(self, token: Any) -> None:
        self.token = token


EVENTS: StepEvents = StepEvents()  # the observer in effect
STUB: type = Stub  # the type of the stubs it hands out (the base class itself: none)


def register(observer: StepEvents, stub_type: type) -> None:
    """Make ``observer`` the one observer of eager steps, handing out stubs of ``stub_type``."""
    global EVENTS, STUB
    if not isinstance(observer, StepEvents) or not (isinstance(stub_type, type) and issubclass(stub_type, Stub)):
        raise TypeError(
            f"step_events.register: needs a StepEvents observer and a Stub subclass, but received "
            f"{type(observer).__name__} and {stub_type!r}. Pass an instance of a StepEvents subclass and the Stub "
            "subclass of the stubs it hands out."
        )
    EVENTS, STUB = observer, stub_type


def resolve(e: Any) -> Any:
    """An edge with a stub replaced by its node (other edges as they are)."""
    if e is not None and type(e[0]) is STUB:
        return e[0].edge(e[1])
    return e
