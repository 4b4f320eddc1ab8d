"""The one cache helper: bounded, the least recently used value goes first, hits and misses
counted."""

from __future__ import annotations

import pytest

from brikdesk.cache import LruCache


def test_a_value_is_made_once_and_then_found() -> None:
    made: list[str] = []
    cache: LruCache[str, int] = LruCache(4)

    def length(text: str) -> int:
        made.append(text)
        return len(text)

    assert cache.get("needs 7", lambda: length("needs 7")) == 7
    assert cache.get("needs 7", lambda: length("needs 7")) == 7
    assert made == ["needs 7"]
    assert (cache.hits, cache.misses) == (1, 1)


def test_the_least_recently_used_value_goes_when_it_is_full() -> None:
    cache: LruCache[int, int] = LruCache(2)
    cache.get(1, lambda: 10)
    cache.get(2, lambda: 20)
    cache.get(1, lambda: -1)  # 1 used again: 2 is now the least recently used
    cache.get(3, lambda: 30)
    assert len(cache) == 2 and 1 in cache and 3 in cache and 2 not in cache
    assert cache.get(2, lambda: 21) == 21  # made again


def test_clear_forgets_the_values_and_a_cache_holds_at_least_one() -> None:
    cache: LruCache[str, str] = LruCache(3)
    cache.get("a", lambda: "A")
    cache.clear()
    assert "a" not in cache and cache.get("a", lambda: "new") == "new"
    with pytest.raises(ValueError):
        LruCache(0)
