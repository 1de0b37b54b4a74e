"""Step replay as the observer of the core's step events (``_tensor.step_events``).

Layer L5, beside ``_replay.follow`` and ``_replay.note``. Each event goes to the step being replayed
(``follow``) or to the note being taken (``note``), as the thread's state (``follow.st``) says; the
predicates that decide it are written here once. ``install()`` registers the observer (the package's
``__init__`` calls it); ``PYLAYER_JAX_REPLAY=0`` (``follow.ENABLED``) turns every event into a no-op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._runtime.state import modes
from .._tensor import step_events
from .._tensor.facade import EAGER_TYPES, Tensor
from . import follow, note
from .follow import BEGIN, Step, st

_NONE2 = (None, None)


def _trains(args: Sequence[Any]) -> bool:
    for t in args:
        if (type(t) is Tensor or type(t) in EAGER_TYPES) and not t.stop_gradient:
            return True
    return False


def _may_follow(s: Any) -> bool:
    """The step is followed, or may begin following the note with the next event."""
    return s.step is not None or (s.pos is BEGIN and s.plan is not None)


def _may_note(s: Any) -> bool:
    """A note is being taken, or may begin with the next event."""
    return s.rec is not None or (s.pos is BEGIN and s.step is None)


class ReplayEvents(step_events.StepEvents):
    """Follows a repeated step's note, or takes the note of a step that may repeat."""

    def op(self, op: Any, key: tuple | None, leaves: Sequence[Any]) -> Any:
        if not follow.ENABLED:
            return None
        s = st
        if s.step is None:  # may a step begin here? (a call asked before dispatch: only with an input that trains)
            if s.pos is not BEGIN or s.plan is None:
                return None
            if key is None:
                m = modes
                if not (m.grad_enabled and m.static_program is None and op.differentiable and _trains(leaves)):
                    return None
        return follow.try_op(op, key, leaves)

    def op_begin(self) -> Any:
        if follow.ENABLED and _may_note(st):
            return note.mark()
        return None

    def op_end(self, token: Any, op: Any, key: tuple, leaves: Sequence[Any], leaf_param: Any, arrays: Sequence[Any],
               needs: tuple | None, out: Any, node: Any) -> None:
        if node is None:
            follow.abort()
        else:
            note.note_op(token, op, key, leaves, leaf_param, arrays, needs, out, node)

    def apply_begin(self, cls: type, inputs: Sequence[Any]) -> tuple[Any, Any]:
        if not follow.ENABLED:
            return _NONE2
        s = st
        token = None
        if _may_follow(s):
            token = follow.layer_begin(cls, inputs)
        if token is None and _may_note(s):
            return (None, note.mark())
        return (token, None)

    def apply_end(self, token: Any, ok: bool, inputs: Sequence[Any], out: Any, node: Any) -> bool:
        return follow.layer_end(token, ok, inputs, out, node)

    def apply_noted(self, token: Any, cls: type, inputs: Sequence[Any], needs: Sequence[bool], out: Any,
                    node: Any) -> None:
        if node is None:
            follow.abort()
        else:
            note.note_layer(token, cls, inputs, needs, out, node)

    def backward(self, t: Any) -> bool:
        return st.step is not None and follow.ENABLED and follow.try_backward(t)

    def backward_begin(self, t: Any) -> Any:
        return note.backward_mark(t) if follow.ENABLED else None

    def backward_end(self, token: Any) -> None:
        note.note_backward(token)

    def backward_done(self) -> None:
        follow.boundary()

    def callout_begin(self, node: Any, cts: Sequence[Any], walk: Any) -> Any:
        return None if st.rec_co is None else note.callout_begin(node, cts, walk)

    def callout_end(self, token: Any, grads: Sequence[Any]) -> None:
        note.callout_end(token, grads)

    def write(self) -> None:
        follow.mark_write()


def install() -> None:
    """Register step replay as the observer of eager steps."""
    step_events.register(ReplayEvents(), Step)
