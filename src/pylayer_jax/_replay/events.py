"""Step replay as the observer of the core's step events (``_tensor.step_events``).

Layer L5, beside ``_replay.follow`` and ``_replay.note``. Each event goes to the step being replayed
(``follow``) or to the note being taken (``note``), as the thread's state (``follow._tls.s``) says (the
predicates that decide it: ``follow.may_begin``, ``follow.may_note``). ``install()`` registers the
observer (the package's ``__init__`` calls it); ``PYLAYER_JAX_REPLAY=0`` (``follow.ENABLED``) turns every
event into a no-op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._runtime.state import modes
from .._tensor import step_events
from . import follow, note
from .follow import BEGIN as _BEGIN
from .follow import Step, _tls

_NONE2 = (None, None)


class ReplayEvents(step_events.StepEvents):
    """Follows a repeated step's note, or takes the note of a step that may repeat."""

    op = staticmethod(follow.try_op)  # (the function itself: called for every op)

    def op_begin(self) -> Any:
        if follow.ENABLED and follow.may_note(_tls.s):
            return note.mark()
        return None

    def op_end(self, token: Any, op: Any, key: tuple, leaves: Sequence[Any], leaf_param: Any, arrays: Sequence[Any],
               needs: tuple | None, out: Any, node: Any) -> None:
        if type(token) is note.InnerMark:  # an op inside the user code of an apply or callout being noted
            note.note_inner(token.mark, op, key, leaves, arrays, out)
        else:
            note.note_op(token, op, key, leaves, leaf_param, arrays, needs, out, node)

    def plain_op(self, op: Any, key: tuple, leaves: Sequence[Any]) -> Any:
        s = _tls.s
        if s.step is not None:  # a step being replayed: follow the note (a plain op never begins a step)
            return follow.try_op(op, key, leaves)
        if s.inner is not None:  # an op of a followed apply's forward or PyLayer backward
            return follow.try_inner(s, op, key, leaves)
        if s.rec_inner is not None and (modes.pylayer_forward_ctx or s.rec_co is not None):
            return step_events.Noted(note.inner_mark())  # an op of the user code of an apply or callout noted
        if s.rec is not None and follow.ENABLED:  # a note being taken
            token = note.plain_mark()
            return None if token is None else step_events.Noted(token)
        return None

    def apply_begin(self, cls: type, inputs: Sequence[Any]) -> tuple[Any, Any]:
        if not follow.ENABLED:
            return _NONE2
        s = _tls.s
        if s.step is not None or (s.pos is _BEGIN and s.plan is not None):  # (``may_begin``, written out)
            tokens = follow.layer_begin(s, cls, inputs)
            if tokens is not None:
                return tokens
        if follow.may_note(s):
            s.rec_inner = []  # forward's ops (``note.note_inner``)
            return (None, note.mark())
        return _NONE2

    apply_end = staticmethod(follow.layer_end)

    def apply_noted(self, token: Any, cls: type, inputs: Sequence[Any], needs: Sequence[bool], out: Any,
                    node: Any) -> None:
        if node is None:
            follow.abort()
        else:
            note.note_layer(token, cls, inputs, needs, out, node)

    backward = staticmethod(follow.try_backward)  # (the function itself)

    def backward_begin(self, t: Any) -> Any:
        return note.backward_mark(t) if follow.ENABLED else None

    def backward_end(self, token: Any) -> None:
        note.note_backward(token)

    def backward_done(self) -> None:
        follow.boundary()

    def callout_begin(self, node: Any, cts: Sequence[Any], walk: Any) -> Any:
        return None if _tls.s.rec_co is None else note.callout_begin(node, cts, walk)

    def callout_end(self, token: Any, grads: Sequence[Any]) -> None:
        note.callout_end(token, grads)

    def write(self, t: Any = None) -> None:
        follow.mark_write(t)


def install() -> None:
    """Register step replay as the observer of eager steps."""
    step_events.register(ReplayEvents(), Step)
