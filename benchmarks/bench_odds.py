"""Benchmark of the exact odds engine and the ``brikdesk odds`` command.

    python benchmarks/bench_odds.py [--runs 15]

Prints, for a few representative attacks, the median time of one exact query cold (every cache
cleared before each run; the Damage tuple of Fractions included) and cached; then the median wall
time of ``python -m brikdesk odds ... --json`` as a process next to ``python -c pass``.
Targets (the issue): cold under 2 ms, cached under 0.05 ms, the process under 0.4 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from speed_rule import quick

from brikdesk.domain.odds import attack_odds, clear_odds_cache

ROOT = Path(__file__).resolve().parents[1]

#: name -> (action die, Use, Damage, Armor, keyword arguments)
ATTACKS: dict[str, tuple[int, int | None, str, int | str, dict[str, object]]] = {
    "minifig rifle 1d6+1 vs Armor 4": (6, 3, "1d6+1", 4, {}),
    "zombie (d4) 1dA vs Armor 4, Use 3": (4, 3, "1dA", 4, {}),
    "grenade 1d10 Exp vs Armor 4, -2": (6, 1, "1d10 Exp", 4, {"action_mod": -2}),
    "Hero 2dA vs Hero Armor 2d6 (heavy)": (10, 4, "2dA", "2d6", {}),
    "Hero 1dA+2 vs 2d6, Deflection 1": (10, 2, "1dA+2", "2d6", {"deflection": 1}),
    "combined 10d6+10 vs 2d6": (6, 3, "10d6+10", "2d6", {}),
}

COMMAND = [
    "-m",
    "brikdesk",
    "odds",
    "--action",
    "d10",
    "--use",
    "4",
    "--damage",
    "2dA",
    "--armor",
    "2d6",
    "--json",
]


def time_cold(args, kwargs, runs: int) -> float:
    times = []
    for _ in range(runs):
        clear_odds_cache()
        start = time.perf_counter()
        odds = attack_odds(*args, **kwargs)
        _ = odds.damage, odds.action_totals
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_cached(args, kwargs, runs: int, calls: int = 2000) -> float:
    attack_odds(*args, **kwargs)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            attack_odds(*args, **kwargs)
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def time_process(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, *argv], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def worst_accepted() -> list[tuple[float, str]]:
    """The cold time of the largest expressions the parser accepts (``brikdesk.limits``: at
    most 20 dice and dice x sides at most 1000), as Damage and as Armor at once."""
    from brikdesk.domain.distributions import clear_caches
    from brikdesk.limits import MAX_DICE, MAX_DICE_SPREAD

    out = []
    for sides in (2, 6, 10, 12, 20, 30, 50, 60, 100):
        count = min(MAX_DICE, MAX_DICE_SPREAD // sides)
        expr = f"{count}d{sides}"
        for action, damage, armor in (
            (10, expr + " Exp", expr),
            (4, expr, expr),
            (12, f"{count}dA", expr),
        ):
            if "dA" in damage and count * 12 > MAX_DICE_SPREAD:
                damage = f"{MAX_DICE_SPREAD // 12}dA"
            clear_caches()
            clear_odds_cache()
            start = time.perf_counter()
            attack_odds(action, 4, damage, armor)
            out.append((time.perf_counter() - start, f"d{action}: {damage} vs Armor {armor}"))
    return sorted(out, reverse=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=quick(15, 1))
    runs = parser.parse_args().runs
    print(f"exact odds, median of {runs} runs")
    print(f"{'attack':<40} {'cold ms':>9} {'cached ms':>10}")
    for name, (action, use, damage, armor, kwargs) in ATTACKS.items():
        args = (action, use, damage, armor)
        cold = time_cold(args, kwargs, runs)
        cached = time_cached(args, kwargs, runs)
        print(f"{name:<40} {cold * 1e3:>9.3f} {cached * 1e3:>10.5f}")
    print()
    print("the slowest of the largest accepted expressions (cold, one run each)")
    for took, what in worst_accepted()[:5]:
        print(f"  {what:<46} {took * 1e3:9.1f} ms")
    print()
    base = time_process(["-c", "pass"], runs)
    odds = time_process(COMMAND, runs)
    print(f"process wall time, median of {runs} runs")
    print(f"  python -c pass                         {base * 1e3:7.1f} ms")
    print(f"  python {' '.join(COMMAND[:3])} ... --json  {odds * 1e3:7.1f} ms")
    print(f"  ({' '.join(COMMAND[2:])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
