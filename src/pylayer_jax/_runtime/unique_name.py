"""Paddle's unique-name generator (layer L0: no package imports).

``generate("linear")`` gives ``linear_0``, ``linear_1``, ...: one counter per key, shared by
layers (``linear_0``), their parameters (``linear_0.w_0``) and ``create_parameter``, as in
Paddle. ``guard()`` runs a block with fresh counters (optionally under a prefix) and restores
the previous ones afterwards; ``switch()`` swaps the generator and returns the old one. Each also starts a
fresh record of the parameter names taken (``take_parameter_name``), as Paddle's.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
from collections.abc import Iterator


class UniqueNameGenerator:
    """Counters per key: ``generate(key)`` returns ``prefix + key + "_" + n``.

    Each key's counter is an ``itertools.count``: taking a number is one call into C, atomic under the GIL, so two
    threads never get the same name, and no lock is held across Python lines (an interrupt, a Ctrl-C while a model
    is built, could leave a ``with lock:`` held at its exit, and every later name would wait for it). The number
    and the name are made on one line, so a caller that stores the name on the line it asks for it
    (``Optimizer._acc_key``) either has it or has not taken a number."""

    def __init__(self, prefix: str | None = None) -> None:
        self._counts: collections.defaultdict[str, itertools.count] = collections.defaultdict(itertools.count)
        self.prefix = prefix or ""

    def __call__(self, key: str) -> str:
        return f"{self.prefix}{key}_{next(self._counts[key])}"

    @property
    def ids(self) -> dict[str, int]:
        """The next number of each key (Paddle's attribute)."""
        return {k: int(repr(c)[len("count("):-1]) for k, c in self._counts.items()}


_current = [UniqueNameGenerator()]
# the names of the parameters made in dynamic mode since the last ``switch`` (Paddle's dygraph parameter-name
# checker): a name is taken once; ``switch`` starts a fresh set and ``guard`` restores the one it found
_param_names: list[set[str]] = [set()]


def take_parameter_name(name: str) -> bool:
    """Mark ``name`` as a dynamic-mode parameter's; False when a parameter has it already."""
    taken = _param_names[0]
    if name in taken:
        return False
    taken.add(name)
    return True


def generate(key: str) -> str:
    """The next unique name for ``key``: ``key_0``, ``key_1``, ...

    >>> from pylayer_jax.utils import unique_name
    >>> with unique_name.guard():
    ...     unique_name.generate("fc"), unique_name.generate("fc")
    ('fc_0', 'fc_1')
    """
    if not isinstance(key, str):
        raise TypeError(f"unique_name.generate: the key must be a str, but received {type(key).__name__}.")
    return _current[0](key)


def switch(new_generator: UniqueNameGenerator | None = None) -> UniqueNameGenerator:
    """Make ``new_generator`` (a fresh one when None) the current generator; returns the previous one."""
    old = _current[0]
    _current[0] = new_generator if new_generator is not None else UniqueNameGenerator()
    _param_names[0] = set()
    return old


@contextlib.contextmanager
def guard(new_generator: str | UniqueNameGenerator | None = None) -> Iterator[None]:
    """Run the block with fresh counters (a str is a prefix for every name); the old ones come back after."""
    if isinstance(new_generator, str):
        new_generator = UniqueNameGenerator(new_generator)
    elif new_generator is not None and not isinstance(new_generator, UniqueNameGenerator):
        raise TypeError(
            "unique_name.guard: new_generator must be None, a str prefix or a UniqueNameGenerator, but received "
            f"{type(new_generator).__name__}."
        )
    old_names = _param_names[0]
    old = switch(new_generator)
    try:
        yield
    finally:
        switch(old)
        _param_names[0] = old_names
