"""Benchmark: End Turn and replay on a battle of 500 units (prints numbers; not a test).

The speed rule ("The speed rule" in CONTRIBUTING.md): a command within 100 ms, a key's echo
within 50 ms (p99, at 60 and at 500 units, scaled to the rule's machine: ``speed_rule``); below
those lines simpler code wins.

Run: .venv/bin/python benchmarks/bench_turns.py
"""

from __future__ import annotations

import statistics
import time

from speed_rule import quick

from brikdesk.domain.battle import (
    ActionState,
    ActionUse,
    BattleSetup,
    PlayerSetup,
    UnitSetup,
    apply,
    end_turn,
    initial_state,
    replay,
    spend_action,
)


def big_setup(units: int = 500) -> BattleSetup:
    players = (PlayerSetup(1, "Red"), PlayerSetup(2, "Blue"))
    return BattleSetup(
        players, tuple(UnitSetup(i + 1, 1 + i % 2, f"U{i + 1}") for i in range(units))
    )


def main() -> None:
    setup = big_setup()
    state = initial_state(setup)
    for u in setup.units[::4]:
        state = apply(setup, state, spend_action(state, u.unit_id, ActionUse.ATTACK))
    times = []
    for _ in range(quick(50, 1)):
        start = time.perf_counter()
        end_turn(setup, state)
        times.append(time.perf_counter() - start)
    print(
        f"end turn, 500 units: median {statistics.median(times) * 1000:.2f} ms "
        "(a command, End Turn with its repaint: within 100 ms)"
    )

    state = initial_state(setup)
    events = []
    while len(events) < quick(1000, 20):
        ready = [
            u.unit_id
            for u in state.units
            if u.player_id == state.active and u.action is ActionState.READY
        ]
        event = (
            spend_action(state, ready[len(events) % len(ready)], ActionUse.ATTACK)
            if ready and len(events) % 100
            else end_turn(setup, state)[0]
        )
        state = apply(setup, state, event)
        events.append(event)
    runs = []
    for _ in range(quick(7, 1)):
        start = time.perf_counter()
        replay(setup, events)
        runs.append(time.perf_counter() - start)
    print(f"replay of 1,000 events, 500 units: median {statistics.median(runs) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
