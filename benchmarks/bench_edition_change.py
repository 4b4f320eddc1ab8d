"""Benchmark: the edition change preview working out again when a choice changes (prints
numbers; not a test).

The edition change dialog calls ``EditionPreview.choose`` (``army_changes`` over every unit)
on the GUI thread each time the organizer picks another replacement, so it should stay within
a command's 100 ms on 500 units. The preview itself (the first working out) is made with the
service's read, before the dialog opens. Two cases: units that share loadouts (an army as players build
them: a few kinds of trooper) and 500 units that are all different (the worst case: nothing
is worked out once for several units). Median and worst of 30 runs, 2020 -> 2010 and 2020 ->
2005.

Run: .venv/bin/python benchmarks/bench_edition_change.py
"""

from __future__ import annotations

import itertools
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from speed_rule import quick

from brikdesk.domain.catalog import load_default_catalog
from brikdesk.domain.edition_change import ArmyUnits, ChangeCosts
from brikdesk.domain.ids import ArmyId
from brikdesk.domain.roster import Loadout, UnitOverrides, UnitSpec

TYPES = ("minifig", "hero", "skirmisher", "heavy", "cannon-fodder", "incompetent")
HELD = ("hand-weapon", "heavy-weapon", "short-ranged-weapon", "minifig-tool", "explosive", None)
WORN = ((), ("body-armor",), ("heavy-armor",))


def units(n: int, distinct: bool) -> tuple[UnitSpec, ...]:
    rnd = random.Random(5)
    kinds = list(itertools.product(TYPES, HELD, HELD, WORN))
    rnd.shuffle(kinds)
    out = []
    for i in range(n):
        t, a, b, w = kinds[i % (len(kinds) if distinct else 8)]
        cost = UnitOverrides(cost=i) if distinct and i >= len(kinds) else UnitOverrides()
        out.append(UnitSpec(f"Unit {i}", t, Loadout((a, b), w), cost))
    return tuple(out)


def main() -> None:
    old = load_default_catalog("2020")
    for edition in ("2010", "2005"):
        new = load_default_catalog(edition)
        types = {k: "minifig" for k in ("skirmisher", "heavy", "cannon-fodder")}
        for distinct in (False, True):
            specs = units(quick(500, 20), distinct)
            armies = [ArmyUnits(ArmyId(i + 1), f"Army {i}", specs[i::4]) for i in range(4)]
            first, again = [], []
            for _ in range(quick(30, 1)):
                costs = ChangeCosts(old, new)
                t = time.perf_counter()
                costs.armies(armies, types, {})
                first.append((time.perf_counter() - t) * 1000)
                for fodder in ("incompetent", "minifig"):  # the organizer picks another
                    t = time.perf_counter()
                    costs.armies(armies, {**types, "cannon-fodder": fodder}, {})
                    again.append((time.perf_counter() - t) * 1000)
            kind = "all different" if distinct else "shared loadouts"
            print(
                f"2020 -> {edition}, 500 units, {kind}: preview median "
                f"{statistics.median(first):.1f} ms (worst {max(first):.1f}); another choice "
                f"median {statistics.median(again):.1f} ms (worst {max(again):.1f})"
            )


if __name__ == "__main__":
    main()
