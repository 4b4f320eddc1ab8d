"""What the tracker says when an undo or redo finds the log moved on (``ConflictError``).

Two tables share one battle: between what a table saw and its Undo, another may have recorded,
undone or redone. The message names the events involved (by their log text) and what happened
to them, and always says that nothing was changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from brikdesk.domain.ids import EventId
from brikdesk.services.tracker_cache import BattleCache

__all__ = ["moved_on", "not_last", "not_next"]


def _texts(cache: BattleCache, ids: Sequence[EventId]) -> str:
    """The log texts of these events (the first three), or "other events"."""
    texts = [cache.rows[i].text for i in ids if i in cache.rows]
    if not texts:
        return "other events"
    shown = ", ".join(f"'{t}'" for t in texts[:3])
    return shown + (f" and {len(texts) - 3} more" if len(texts) > 3 else "")


def _what(cache: BattleCache, ids: Sequence[EventId]) -> str:
    known = [i for i in ids if i in cache.rows]
    return _texts(cache, known) if known else "those events"


def not_last(cache: BattleCache, ids: tuple[EventId, ...]) -> str:
    """Why events cannot be undone: recorded over, already undone, or gone."""
    what = _what(cache, ids)
    standing = set(cache.ids)
    if all(i in standing for i in ids):
        first = min(cache.ids.index(i) for i in ids)
        after = [i for i in cache.ids[first:] if i not in ids]
        return (
            f"Can't undo {what}: someone else recorded {_texts(cache, after)} "
            "after it; nothing was changed (undo those first)."
        )
    if all(i in cache.rows and i not in standing for i in ids):
        return f"Can't undo {what}: someone else undid it already; nothing was changed."
    return (
        f"Can't undo {what}: the battle's log changed since (someone else undid and "
        "recorded over it); nothing was changed."
    )


def not_next(cache: BattleCache, ids: tuple[EventId, ...]) -> str:
    """Why undone events cannot be redone: redone already, or recorded over (gone)."""
    what = _what(cache, ids)
    present = {i for i, _r in cache.order}
    standing = set(cache.ids)
    if all(i in standing for i in ids):
        return f"Can't redo {what}: someone else redid it already; nothing was changed."
    if not any(i in present for i in ids):
        last = cache.ids[-1:] if cache.ids else []
        since = f" ({_texts(cache, last)})" if last else ""
        return (
            f"Can't redo {what}: someone else recorded new events since{since}, which "
            "replaced the undone ones; nothing was changed."
        )
    return f"Can't redo {what}: the battle's log changed since; nothing was changed."


def moved_on(cache: BattleCache, seen: EventId, doing: str) -> str:
    """The log's last (or first undone) action is not the one the caller saw."""
    what = f"'{cache.rows[seen].text}'" if seen in cache.rows else "the action you saw"
    if doing == "undo" and seen in cache.ids:
        after = cache.ids[cache.ids.index(seen) + 1 :]
        return (
            f"Can't undo {what}: someone else recorded {_texts(cache, after)} "
            "after it; nothing was changed."
        )
    if doing == "undo":
        return f"Can't undo {what}: someone else undid it already; nothing was changed."
    if seen in cache.ids:
        return f"Can't redo {what}: someone else redid it already; nothing was changed."
    return f"Can't redo {what}: someone else recorded new events since; nothing was changed."
