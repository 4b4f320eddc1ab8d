"""One small bounded cache for the whole program (``brikdesk`` and ``ui``; it imports no Qt).

:class:`LruCache` keeps the ``size`` most recently used values by key and counts its hits and
misses. Keys are values (texts, numbers, tuples of them), never ``id()`` of an object. Where a
pure function of hashable arguments is cached, ``functools.lru_cache`` does the same job.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

__all__ = ["LruCache"]


class LruCache(Generic[K, V]):
    """The ``size`` most recently used values by key (the least recently used goes first)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a cache holds at least one value")
        self.size = size
        self.hits = 0
        self.misses = 0
        self._values: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value cached for ``key``, else ``make()``'s (cached)."""
        values = self._values
        try:
            value = values[key]
        except KeyError:
            self.misses += 1
            value = values[key] = make()
            if len(values) > self.size:
                values.popitem(last=False)
            return value
        self.hits += 1
        values.move_to_end(key)
        return value

    def clear(self) -> None:
        """Forget every value (the counts stay)."""
        self._values.clear()

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values
