"""Values saved for backward, packed and unpacked through saved-tensor hooks.

Layer L2. A SavedValue keeps the array as it was when saved (JAX arrays are immutable,
so a later in-place write on the Tensor cannot change it) and the version of the
Tensor at that time, so that backward can refuse a stale value the way Paddle does.
"""

from __future__ import annotations

from typing import Any


class VersionCounter:
    """Shared by a Tensor and every SavedValue made from it; in-place ops bump it."""

    __slots__ = ("value", "name")

    def __init__(self) -> None:
        self.value = 0
        self.name = "a tensor"  # set to the Tensor's name when an in-place op bumps it


class SavedValue:
    """One saved tensor: either the raw array, or what a pack hook returned.

    ``unpack`` (set when a hook packed it) turns the packed object back into
    ``(array, edge)``; it is made by the Tensor layer, which knows how to wrap arrays.
    ``edge`` is the saved tensor's place in the graph (for create_graph).
    """

    __slots__ = ("array", "packed", "unpack", "edge", "counter", "version")

    def __init__(self, array: Any, edge: Any, counter: VersionCounter | None) -> None:
        self.array = array
        self.packed: Any = None
        self.unpack: Any = None
        self.edge = edge
        self.counter = counter
        self.version = counter.value if counter is not None else 0

    def check_version(self, op_name: str) -> None:
        if self.counter is not None and self.counter.value != self.version:
            raise RuntimeError(
                f"Backward of {op_name}: the tensor {self.counter.name} it saved has been modified by an inplace "
                f"operation. Its version is {self.counter.value} but the expected version is {self.version}. "
                "Clone the tensor before the in-place op (x.clone()) or do the op out of place."
            )

    def value(self, op_name: str) -> Any:
        """The saved array alone (the common case: no hook, not modified since)."""
        if self.unpack is None and (self.counter is None or self.counter.value == self.version):
            return self.array
        return self.get(op_name)[0]

    def get(self, op_name: str) -> tuple[Any, Any]:
        """The saved ``(array, edge)``, running the unpack hook if one packed it."""
        self.check_version(op_name)
        if self.unpack is not None:
            return self.unpack(self.packed)
        return self.array, self.edge
