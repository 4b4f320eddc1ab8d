"""The tracker's per-battle cache: states follow the standing events, undo groups, no database."""

from __future__ import annotations

from brikdesk.domain.battle import (
    ActionUse,
    BattleSetup,
    Event,
    PlayerSetup,
    UnitSetup,
    apply,
    initial_state,
    spend_action,
)
from brikdesk.domain.catalog import load_default_catalog
from brikdesk.services.tracker_cache import (
    BattleCache,
    CachedRow,
    Roster,
    common_prefix,
    parse_groups,
)

SETUP = BattleSetup(
    (PlayerSetup(1, "Red"), PlayerSetup(2, "Blue")),
    tuple(UnitSetup(10 + i, 1, f"Red {i}") for i in range(4)) + (UnitSetup(20, 2, "Blue 0"),),
)


def cache_with(events: list[Event]) -> BattleCache:
    """A cache whose rows are ``events`` with ids 101, 102... and seqs 1, 2..."""
    cache = BattleCache(Roster((1,), SETUP, (), (), load_default_catalog()))
    for n, event in enumerate(events):
        cache.add_row(
            CachedRow(
                101 + n, 1 + n, "action_spent", None, None, None, "", event, None, f"event {n + 1}"
            )
        )
    return cache


def spends(count: int) -> list[Event]:
    state = initial_state(SETUP)
    return [spend_action(state, 10 + i, ActionUse.ATTACK) for i in range(count)]


def test_states_follow_the_events_that_stand() -> None:
    events = spends(3)
    cache = cache_with(events)
    cache.read_order(((101, False), (102, False), (103, False)), (3, 103, 0))
    expected = initial_state(SETUP)
    for e in events:
        expected = apply(SETUP, expected, e)
    assert cache.state == expected and cache.ids == [101, 102, 103]
    # The last two undone: their states are dropped, the first one's is kept (not replayed).
    kept = cache.states[1]
    cache.read_order(((101, False), (102, True), (103, True)), (3, 103, 2))
    assert cache.ids == [101] and cache.states[1] is kept
    assert cache.state.unit(11).action.spent is False and cache.tail_ok


def test_an_event_the_rules_refuse_where_it_stands_does_not_count() -> None:
    twice = spends(1) * 2  # the same unit spends its Action twice
    cache = cache_with(twice)
    cache.read_order(((101, False), (102, False)), (2, 102, 0))
    assert cache.problems[0] is None
    assert cache.problems[1] is not None and cache.problems[1].startswith("not counted")
    assert cache.state == apply(SETUP, initial_state(SETUP), twice[0])


def test_undo_and_redo_take_a_group_as_one_step() -> None:
    cache = cache_with(spends(4))
    cache.set_order(tuple((101 + n, False) for n in range(4)), 104)
    groups = parse_groups([[2, 4]])
    assert cache.undo_group(groups) == (102, 103, 104)
    assert cache.undo_group(()) == (104,)  # without the group: event by event
    assert cache.group_text((102, 103, 104)) == "event 2 (+2 more)"
    cache.set_order(((101, False), (102, True), (103, True), (104, True)), 104)
    assert cache.redo_group(groups) == (102, 103, 104)
    assert cache.undo_group(groups) == (101,)
    assert cache.token == (4, 104, 3)


def test_stored_groups_are_read_strictly() -> None:
    assert parse_groups([[1, 3], [5, 4], ["1", 2], [7], [True, 9], [8, 9]]) == ((1, 3), (8, 9))
    assert parse_groups({"groups": [[1, 2]]}) == () and parse_groups(None) == ()


def test_common_prefix() -> None:
    assert common_prefix([1, 2, 3, 4], [1, 2, 5]) == 2
    assert common_prefix([], [1]) == 0 and common_prefix([1, 2], [1, 2]) == 2
    assert common_prefix(list(range(1000)), [*range(700), -1]) == 700


def test_a_unit_of_an_unknown_type_gets_the_minifig_stats() -> None:
    """READINGS["unknown_type"]: "A mustered unit whose unit type is no longer in the
    campaign's catalog is tracked with the Minifig's stats until the type is back." """
    from brikdesk.domain.roster import UnitSpec, effective_stats
    from brikdesk.domain.tracking import (
        MINIFIG_FALLBACK_STATS,
        READINGS,
        fallback_stats,
    )

    assert "tracked with the Minifig's stats" in READINGS["unknown_type"]
    catalog = load_default_catalog()
    spec = UnitSpec("Ghost", "gone-type")
    stats, note = fallback_stats(spec, catalog)
    minifig = effective_stats(UnitSpec("Ghost", "minifig"), catalog)
    assert (
        (stats.action_die, stats.move, stats.armor, stats.counters)
        == (minifig.action_die, minifig.move, minifig.armor, minifig.counters)
        == (6, 5, "4", 2)
    )
    assert note == "unknown unit type 'gone-type': Minifig stats used" and note in stats.reasons
    # 2.1: Minifig Skill d6, Move 5", Armor 4; two hands, two Counters (5.2).
    assert (
        MINIFIG_FALLBACK_STATS.action_die,
        MINIFIG_FALLBACK_STATS.move,
        MINIFIG_FALLBACK_STATS.armor,
        MINIFIG_FALLBACK_STATS.counters,
    ) == (6, 5, "4", 2)
