"""Nested structures of lists, tuples, namedtuples and dicts: ``paddle.utils.flatten``, ``pack_sequence_as``,
``map_structure``, ``assert_same_structure``, ``is_sequence`` (layer L5).

As in Paddle 3.3.1: a dict is a structure whose entries are taken in the order of its sorted keys (and rebuilt
in its own key order); any ``collections.abc.Sequence`` but a ``str`` is a structure (so ``bytes`` and ``range``
are too); anything else is one leaf.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any


def is_sequence(seq: Any) -> bool:
    """Whether ``seq`` is a structure (a dict, or a Sequence that is not a str) rather than a leaf.

    >>> import pylayer_jax as paddle
    >>> paddle.utils.is_sequence([1, 2]), paddle.utils.is_sequence({"a": 1}), paddle.utils.is_sequence("ab")
    (True, True, False)
    """
    return isinstance(seq, dict) or (isinstance(seq, Sequence) and not isinstance(seq, str))


def _keys(d: dict, api: str) -> list[Any]:
    try:
        return sorted(d)
    except TypeError:
        raise TypeError(
            f"{api}: the keys of a dict in a nested structure must be sortable (its entries are taken in sorted key "
            f"order), but received the keys {list(d)!r}; use keys of one type, such as str."
        ) from None


def _entries(nest: Any, api: str) -> Iterator[Any]:
    if isinstance(nest, dict):
        return (nest[k] for k in _keys(nest, api))
    return iter(nest)


def _leaves(nest: Any, api: str) -> Iterator[Any]:
    for entry in _entries(nest, api):
        if is_sequence(entry):
            yield from _leaves(entry, api)
        else:
            yield entry


def flatten(nest: Any) -> list[Any]:
    """The leaves of ``nest`` in order (dict entries by sorted key); a leaf alone gives ``[leaf]``.

    >>> import pylayer_jax as paddle
    >>> paddle.utils.flatten([1, {"b": 2, "a": (3, 4)}])
    [1, 3, 4, 2]
    """
    return list(_leaves(nest, "flatten")) if is_sequence(nest) else [nest]


def _like(instance: Any, items: list[Any]) -> Any:
    """A structure of ``instance``'s type holding ``items`` (a dict: given in sorted key order)."""
    if isinstance(instance, dict):
        by_key = dict(zip(_keys(instance, "pack_sequence_as"), items))
        return type(instance)((k, by_key[k]) for k in instance)
    fields = getattr(instance, "_fields", None)
    if isinstance(instance, tuple) and isinstance(fields, Sequence) and all(isinstance(f, str) for f in fields):
        return type(instance)(*items)  # a namedtuple takes its fields one by one
    return type(instance)(items)


def _pack(structure: Any, flat: Sequence[Any], at: int) -> tuple[int, list[Any]]:
    packed = []
    for entry in _entries(structure, "pack_sequence_as"):
        if is_sequence(entry):
            at, inner = _pack(entry, flat, at)
            packed.append(_like(entry, inner))
        else:
            packed.append(flat[at])
            at += 1
    return at, packed


def pack_sequence_as(structure: Any, flat_sequence: Sequence[Any]) -> Any:
    """``flat_sequence``'s items put in the places of ``structure``'s leaves (the inverse of ``flatten``).

    >>> import pylayer_jax as paddle
    >>> paddle.utils.pack_sequence_as([0, {"b": 0, "a": (0, 0)}], [1, 3, 4, 2])
    [1, {'b': 2, 'a': (3, 4)}]
    """
    if not is_sequence(flat_sequence):
        raise TypeError(
            f"pack_sequence_as: flat_sequence must be a list, tuple or dict of the leaves, but received "
            f"{type(flat_sequence).__name__}."
        )
    if isinstance(flat_sequence, dict):  # (Paddle takes a dict's values in its own order)
        flat_sequence = list(flat_sequence.values())
    if not is_sequence(structure):
        if len(flat_sequence) != 1:
            raise ValueError(
                f"pack_sequence_as: the structure is a single leaf, so flat_sequence must hold one item, but it "
                f"holds {len(flat_sequence)}."
            )
        return flat_sequence[0]
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(
            f"pack_sequence_as: the structure has {n} leaves but flat_sequence holds {len(flat_sequence)} items; "
            f"they must be as many. Structure: {structure!r}, flat_sequence: {flat_sequence!r}."
        )
    return _like(structure, _pack(structure, flat_sequence, 0)[1])


def map_structure(func: Callable[..., Any], *structure: Any) -> Any:
    """``func`` applied to the leaves of the structures, position by position, packed as the first structure.

    >>> import pylayer_jax as paddle
    >>> paddle.utils.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)])
    [11, (22, 33)]
    """
    if not structure:
        raise TypeError("map_structure: give at least one structure after func, e.g. map_structure(f, nest).")
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flats)])


def _same(a: Any, b: Any, check_types: bool, skip_if: Callable[[Any], bool] | None) -> None:
    if skip_if is not None and (skip_if(a) or skip_if(b)):
        return
    if is_sequence(a) != is_sequence(b):
        raise ValueError(
            f"assert_same_structure: the two structures are not nested alike: {a!r} is "
            f"{'a structure' if is_sequence(a) else 'a leaf'} where the other has {b!r}."
        )
    if not is_sequence(a):
        return
    if check_types:
        if type(a) is not type(b):
            raise TypeError(
                f"assert_same_structure: the two structures have different sequence types, {type(a).__name__} and "
                f"{type(b).__name__} ({a!r} and {b!r}); pass check_types=False to compare the nesting only."
            )
        if isinstance(a, dict) and set(a) != set(b):
            raise ValueError(
                f"assert_same_structure: the two dicts have different keys, {sorted(a, key=repr)} and "
                f"{sorted(b, key=repr)}."
            )
    ea, eb = list(_entries(a, "assert_same_structure")), list(_entries(b, "assert_same_structure"))
    if len(ea) != len(eb):
        raise ValueError(
            f"assert_same_structure: {a!r} has {len(ea)} entries but {b!r} has {len(eb)}; they must be as many."
        )
    for x, y in zip(ea, eb):
        _same(x, y, check_types, skip_if)


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True,
                          skip_if: Callable[[Any], bool] | None = None) -> None:
    """Raise unless ``nest1`` and ``nest2`` are nested alike (with the same sequence types and dict keys when
    ``check_types``); parts for which ``skip_if`` is true are not compared.

    >>> import pylayer_jax as paddle
    >>> paddle.utils.assert_same_structure([1, (2, 3)], ["a", ("b", "c")])
    """
    if skip_if is not None and (skip_if(nest1) or skip_if(nest2)):
        return
    n1 = len(flatten(nest1)) if is_sequence(nest1) else 1
    n2 = len(flatten(nest2)) if is_sequence(nest2) else 1
    if n1 != n2 and skip_if is None:
        raise ValueError(
            f"assert_same_structure: the two structures have {n1} and {n2} leaves; they must have as many. First "
            f"structure: {nest1!r}. Second structure: {nest2!r}."
        )
    _same(nest1, nest2, check_types, skip_if)
