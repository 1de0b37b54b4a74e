"""The reader decorators of ``paddle.reader`` and ``paddle.batch`` (see the package docstring).

Each returns a new reader (a function of no arguments); calling it starts a fresh pass over the readers it
wraps, as in Paddle. ``shuffle`` draws from Python's ``random`` module, as Paddle's does, so ``random.seed``
makes it repeat. The concurrent ones (``buffered``, ``xmap_readers``, ``multiprocess_reader``) run their
readers and mappers in threads: their samples are the same, their order is the one the threads make.
"""

from __future__ import annotations

import itertools
import queue
import random
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

Reader = Callable[[], Iterable[Any]]


class ComposeNotAligned(ValueError):
    """``compose`` with ``check_alignment=True`` met readers that ended at different lengths."""


def _positive_int(api: str, pname: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or int(value) <= 0:
        raise ValueError(f"{api}: {pname} must be a positive integer, but received {value!r}; pass a number above 0.")
    return int(value)


def _reader(api: str, r: Any) -> None:
    if not callable(r):
        raise TypeError(f"{api}: a reader is a function of no arguments returning an iterable of samples, but "
                        f"received {type(r).__name__}; pass the function itself (not its result).")


def batch(reader: Reader, batch_size: int, drop_last: bool = False) -> Reader:
    """A reader of lists of ``batch_size`` consecutive samples of ``reader`` (the last one shorter unless
    ``drop_last``)."""
    _reader("paddle.batch", reader)
    size = _positive_int("paddle.batch", "batch_size", batch_size)

    def batch_reader() -> Iterator[list[Any]]:
        b: list[Any] = []
        for sample in reader():
            b.append(sample)
            if len(b) == size:
                yield b
                b = []
        if b and not drop_last:
            yield b

    return batch_reader


def cache(reader: Reader) -> Reader:
    """A reader of ``reader``'s samples, all read once now and kept in memory."""
    _reader("paddle.reader.cache", reader)
    data = list(reader())

    def cached() -> Iterator[Any]:
        yield from data

    return cached


def map_readers(func: Callable[..., Any], *readers: Reader) -> Reader:
    """A reader of ``func(a, b, ...)`` over the samples of ``readers`` taken side by side (the shortest ends it)."""
    for r in readers:
        _reader("paddle.reader.map_readers", r)

    def mapped() -> Iterator[Any]:
        yield from map(func, *[r() for r in readers])

    return mapped


def shuffle(reader: Reader, buf_size: int) -> Reader:
    """A reader of ``reader``'s samples shuffled within consecutive buffers of ``buf_size`` (by ``random.shuffle``)."""
    _reader("paddle.reader.shuffle", reader)

    def shuffled() -> Iterator[Any]:
        buf: list[Any] = []
        for sample in reader():
            buf.append(sample)
            if len(buf) >= buf_size:
                random.shuffle(buf)
                yield from buf
                buf = []
        if buf:
            random.shuffle(buf)
            yield from buf

    return shuffled


def chain(*readers: Reader) -> Reader:
    """A reader of the samples of each reader in turn."""
    for r in readers:
        _reader("paddle.reader.chain", r)

    def chained() -> Iterator[Any]:
        yield from itertools.chain(*[r() for r in readers])

    return chained


def compose(*readers: Reader, check_alignment: bool = True) -> Reader:
    """A reader of tuples joining one sample of each reader (a tuple sample is spread into the joined one).
    With ``check_alignment``, readers that end at different lengths raise ``ComposeNotAligned``; without it,
    the shortest ends the composed reader."""
    for r in readers:
        _reader("paddle.reader.compose", r)

    def as_tuple(x: Any) -> tuple:
        return x if isinstance(x, tuple) else (x,)

    def composed() -> Iterator[tuple]:
        its = [r() for r in readers]
        if not check_alignment:
            for samples in zip(*its):
                yield sum(map(as_tuple, samples), ())
            return
        for samples in itertools.zip_longest(*its):
            if any(s is None for s in samples):
                raise ComposeNotAligned(
                    "paddle.reader.compose: the readers are not aligned (one ended before the others, or gave "
                    "None); give readers of one length, or pass check_alignment=False to stop at the shortest.")
            yield sum(map(as_tuple, samples), ())

    return composed


class _End:
    """The end of a worker's stream in the concurrent readers' queues."""


def _pump(samples: Iterable[Any], q: queue.Queue, end: Any) -> None:
    try:
        for s in samples:
            q.put(s)
    except BaseException as e:  # the reading thread re-raises it
        q.put(_Failed(e))
    q.put(end)


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


def _start(target: Callable[..., None], *args: Any) -> None:
    t = threading.Thread(target=target, args=args, daemon=True)
    t.start()


def buffered(reader: Reader, size: int) -> Reader:
    """A reader of ``reader``'s samples, read ahead by a thread into a buffer of up to ``size`` samples."""
    _reader("paddle.reader.buffered", reader)

    def buffered_reader() -> Iterator[Any]:
        q: queue.Queue = queue.Queue(maxsize=size)
        end = _End()
        _start(_pump, reader(), q, end)
        while (s := q.get()) is not end:
            if type(s) is _Failed:
                raise s.error
            yield s

    return buffered_reader


def firstn(reader: Reader, n: int) -> Reader:
    """A reader of at most the first ``n`` samples of ``reader``."""
    _reader("paddle.reader.firstn", reader)

    def first() -> Iterator[Any]:
        yield from itertools.islice(reader(), n)

    return first


def xmap_readers(mapper: Callable[[Any], Any], reader: Reader, process_num: int, buffer_size: int,
                 order: bool = False) -> Reader:
    """A reader of ``mapper(sample)`` for ``reader``'s samples, mapped by ``process_num`` threads through queues
    of ``buffer_size``; ``order=True`` keeps ``reader``'s order."""
    _reader("paddle.reader.xmap_readers", reader)
    workers = _positive_int("paddle.reader.xmap_readers", "process_num", process_num)

    def xreader() -> Iterator[Any]:
        src: queue.Queue = queue.Queue(buffer_size)
        out: queue.Queue = queue.Queue(buffer_size)
        end = _End()
        _start(_pump, enumerate(reader()), src, end)
        turn = threading.Condition()
        nxt = [0]

        def work() -> None:
            while True:
                item = src.get()
                if item is end or type(item) is _Failed:
                    src.put(item)  # the other workers stop too
                    out.put(item if type(item) is _Failed else end)
                    return
                i, sample = item
                try:
                    r = mapper(sample)
                except BaseException as e:
                    out.put(_Failed(e))
                    return
                if order:
                    with turn:
                        turn.wait_for(lambda i=i: nxt[0] == i)
                        out.put(r)
                        nxt[0] += 1
                        turn.notify_all()
                else:
                    out.put(r)

        for _ in range(workers):
            _start(work)
        done = 0
        while done < workers:
            r = out.get()
            if r is end:
                done += 1
            elif type(r) is _Failed:
                raise r.error
            else:
                yield r

    return xreader


def multiprocess_reader(readers: Sequence[Reader], use_pipe: bool = True, queue_size: int = 1000) -> Reader:
    """A reader of the samples of all ``readers``, each read by its own worker and merged as they come (threads
    here; Paddle forks processes, with ``use_pipe`` choosing its channel: the samples are the same). A sample
    that is None raises ValueError, as in Paddle."""
    if not isinstance(readers, list | tuple) or not readers:
        raise TypeError("paddle.reader.multiprocess_reader: readers must be a non-empty list or tuple of readers, "
                        f"but received {readers!r}.")
    for r in readers:
        _reader("paddle.reader.multiprocess_reader", r)
    if not isinstance(use_pipe, bool):
        raise TypeError(f"paddle.reader.multiprocess_reader: use_pipe must be a bool, but received {use_pipe!r}.")
    size = _positive_int("paddle.reader.multiprocess_reader", "queue_size", queue_size)

    def merged() -> Iterator[Any]:
        q: queue.Queue = queue.Queue(size)
        end = _End()
        for r in readers:
            _start(_pump, r(), q, end)
        done = 0
        while done < len(readers):
            s = q.get()
            if s is end:
                done += 1
            elif type(s) is _Failed:
                raise s.error
            elif s is None:
                raise ValueError("paddle.reader.multiprocess_reader: a reader gave None as a sample; readers must "
                                 "yield their samples, never None.")
            else:
                yield s

    return merged
