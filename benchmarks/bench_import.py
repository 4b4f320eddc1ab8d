"""Import benchmark: the largest valid file and the worst hostile ones (prints numbers).

    .venv/bin/python benchmarks/bench_import.py [--units 200000] [--only NAME] [--quick]

Each case runs ``brikdesk import`` in a fresh process (so its peak memory is its own) on a fresh
SQLite file and prints the wall time, the peak resident memory of that process and the first
line it printed; then the peak of ``json.load`` alone on the same file (also in a fresh
process), and the bound the import must keep: a file refused before the parse peaks at no more
than its size + 150 MB, a parsed one at no more than 1.6 times what ``json.load`` needs.
``--quick``: small sizes (2,000 units, the hostile shapes a tenth of their size), for a suite
that runs every benchmark: one case of each kind, and only its file is written (no case that
takes seconds; a FIFO is the before-reading run's; ``/dev/zero`` stands for both devices; the
three shapes, parsed whole at that size, by ``nested-objects``). The cases:

- ``largest``: a valid file at the documented maximum (200,000 units in 40 armies, with notes;
  about 49 MB), which must be imported within 15 s with a peak under 700 MB;
- ``numbers``: 60 MB (under the 64 MB limit) of 30 million small numbers in one event payload;
- ``values-ints``, ``values-texts``: just under the bound on JSON values (8 million), numbers
  or short texts, all parsed before the check refuses them (the most memory a file can take);
- ``long-string``: one 60 MB name;
- ``deep``: 60 MB of nested lists;
- ``nested-23``: 1.3 million lists nested 23 deep (61 MB), ``empty-objects``: 8 million empty
  objects (24 MB): few values but many lists and objects, each a Python object once parsed;
  ``objects-under``: just under the bound on lists and objects (1.25 million objects, each
  holding a list), all parsed before the check refuses them;
- ``short-strings``: 63 MB of short texts, ``small-objects``: 63 MB of small objects,
  ``nested-objects``: 24 MB of objects nested three deep (each over a bound: refused before
  the parse, by the exact count in constant memory);
- ``/dev/zero``, ``/dev/urandom`` (symlinks to them) and a FIFO with no writer;
- ``over``: a file one byte over the limit.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from speed_rule import QUICK

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from brikdesk.limits import MAX_FILE_BYTES, MAX_JSON_CONTAINERS, MAX_JSON_VALUES  # noqa: E402


def demo_document(folder: Path) -> dict[str, Any]:
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services
    from brikdesk.services.demo import ensure_demo

    db = open_database(f"sqlite:///{folder / 'demo.sqlite3'}")
    try:
        ensure_demo(db)
        sv = Services.open(db)
        return sv.transfer.export_campaign(sv.campaigns.list_campaigns()[0].id)
    finally:
        db.close()


def largest_document(folder: Path, units: int) -> dict[str, Any]:
    """The demo campaign with ``units`` units spread over 40 armies (its own units repeated)."""
    doc = demo_document(folder)
    models = [u for a in doc["armies"] for u in a["units"]]
    players = [p["id"] for p in doc["players"]]
    armies = []
    n = 0
    per_army = -(-units // 40)
    for i in range(40):
        army_units = []
        for _ in range(min(per_army, units - n)):
            n += 1
            u = dict(
                models[n % len(models)],
                id=n,
                name=f"Trooper {n}",
                status="alive",
                notes=f"Unit {n}: a few words of notes.",
            )
            army_units.append(u)
        armies.append(
            {
                "id": i + 1,
                "player": players[i % len(players)],
                "name": f"Army {i + 1}",
                "budget": None,
                "units": army_units,
            }
        )
    doc["armies"] = armies
    # Battles refer to units of the demo's armies: keep only the battles' own roster copies.
    for b in doc["battles"]:
        for bu in b["units"]:
            bu["unit"] = None
    doc["campaign"]["name"] = "Largest"
    return doc


#: The cases that take seconds each, left out of ``--quick``.
SLOW = frozenset(
    {"deep", "nested-23", "empty-objects", "objects-under", "long-string", "numbers"}
    | {"values-ints", "values-texts"}
)
#: Left out of ``--quick`` too: each runs as another case of the quick run does.
SAME = frozenset({"fifo", "/dev/urandom", "short-strings", "small-objects"})


def write_cases(
    folder: Path, units: int, scale: int = 1, skip: frozenset[str] = frozenset()
) -> dict[str, Path]:
    """The cases' files, but for those named in ``skip`` (the slow ones as a whole)."""
    cases: dict[str, Path] = {}
    big = folder / "largest.json"
    big.write_text(
        json.dumps(largest_document(folder, units), ensure_ascii=False), encoding="utf-8"
    )
    cases["largest"] = big
    doc = demo_document(folder)
    head = json.dumps(doc)[:-1]
    if not skip.issuperset(SLOW):
        cases.update(_slow_cases(folder, doc, head))
    return _cheap_cases(folder, head, scale, skip, cases)


def _slow_cases(folder: Path, doc: dict[str, Any], head: str) -> dict[str, Path]:
    """The cases that take seconds each to write and to run (``SLOW``)."""
    cases: dict[str, Path] = {}
    numbers = folder / "numbers.json"
    with numbers.open("w", encoding="utf-8") as f:
        f.write(head + ', "x": [')
        f.write("1," * 30_000_000)
        f.write("1]}")
    cases["numbers"] = numbers
    # Just under the bound on values, so that they are all parsed before the check refuses
    # them: the most memory a file can make the import take (strings cost more than numbers).
    for name, item in (("values-ints", "1,"), ("values-texts", '"abcd",')):
        path = folder / f"{name}.json"
        with path.open("w", encoding="utf-8") as f:
            f.write(head + ', "x": [')
            f.write(item * (MAX_JSON_VALUES - 2000))
            f.write("1]}")
        cases[name] = path
    long_string = folder / "long-string.json"
    doc["campaign"]["name"] = "x" * 60_000_000
    long_string.write_text(json.dumps(doc), encoding="utf-8")
    cases["long-string"] = long_string
    deep = folder / "deep.json"
    deep.write_text("[" * 30_000_000 + "]" * 30_000_000, encoding="utf-8")
    cases["deep"] = deep
    # The shapes the number of values does not bound: many small nested lists (1.3 million
    # lists nested 23 deep, 61 MB) and 8 million empty objects (24 MB).
    nested = folder / "nested-23.json"
    with nested.open("w", encoding="utf-8") as f:
        f.write(head + ', "x": [')
        f.write(("[" * 23 + "]" * 23 + ",") * 1_300_000)
        f.write("1]}")
    cases["nested-23"] = nested
    empty = folder / "empty-objects.json"
    with empty.open("w", encoding="utf-8") as f:
        f.write(head + ', "x": [')
        f.write("{}," * (MAX_JSON_VALUES - 2000))
        f.write("1]}")
    cases["empty-objects"] = empty
    # Just under the bound on lists and objects, each object with a member: the most memory
    # the shape of a file can make the import take.
    under = folder / "objects-under.json"
    with under.open("w", encoding="utf-8") as f:
        f.write(head + ', "x": [')
        f.write('{"a": [1]},' * (MAX_JSON_CONTAINERS // 2 - 2000))
        f.write("1]}")
    cases["objects-under"] = under
    return cases


def _cheap_cases(
    folder: Path, head: str, scale: int, skip: frozenset[str], cases: dict[str, Path]
) -> dict[str, Path]:
    """The cases written in a moment (those not in ``skip``), added to ``cases``."""
    # The shapes a hostile file takes to make the checks before the parse expensive: 63 MB of
    # short strings, 63 MB of small objects, 24 MB of nested objects (each over a bound).
    for name, item, count in (
        ("short-strings", '"a",', 63_000_000 // 4 // scale),
        ("small-objects", '{"a":1},', 63_000_000 // 8 // scale),
        ("nested-objects", '{"a":{"b":{}}},', 24_000_000 // 15 // scale),
    ):
        if name in skip:
            continue
        path = folder / f"{name}.json"
        with path.open("w", encoding="utf-8") as f:
            f.write(head + ', "x": [')
            for _ in range(count // 10_000):
                f.write(item * 10_000)
            f.write("1]}")
        cases[name] = path
    over = folder / "over.json"
    with over.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    cases["over"] = over
    for dev in ("/dev/zero", "/dev/urandom"):
        link = folder / f"{Path(dev).name}.json"
        link.symlink_to(dev)
        cases[dev] = link
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    cases["fifo"] = fifo
    return cases


#: ``brikdesk`` in a child that prints its own peak resident memory (kB) as it exits: VmHWM,
#: the high-water mark of this program's memory (ru_maxrss would count the parent's too).
_CHILD = (
    "import atexit, sys\n"
    "def peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            print('PEAK', line.split()[1], file=sys.stderr)\n"
    "atexit.register(peak)\n"
    "from brikdesk.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


#: ``json.load`` alone on the file, in a child that prints its peak the same way.
_JSON_LOAD = (
    "import json, sys\n"
    "json.load(open(sys.argv[1], encoding='utf-8')) if sys.argv[1] != '-' else None\n"
    "for line in open('/proc/self/status'):\n"
    "    if line.startswith('VmHWM:'):\n"
    "        print('PEAK', line.split()[1], file=sys.stderr)\n"
)


def json_load_peak(path: Path | None) -> float:
    """The peak (MB) of ``json.load`` on ``path`` in a fresh process (with ``None``: of the
    interpreter that would run it, reading nothing); 0 if it fails."""
    proc = subprocess.run(
        [sys.executable, "-c", _JSON_LOAD, str(path) if path is not None else "-"],
        capture_output=True,
        encoding="utf-8",
        timeout=900,
    )
    lines = proc.stderr.strip().splitlines()
    return next((int(ln.split()[1]) / 1024 for ln in lines if ln.startswith("PEAK ")), 0.0)


def run_case(path: Path, db: Path) -> tuple[float, float, str, int]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, "--db", f"sqlite:///{db}", "import", str(path)],
        capture_output=True,
        encoding="utf-8",
        timeout=900,
        cwd=ROOT,
    )
    took = time.perf_counter() - start
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    peak = next((int(ln.split()[1]) for ln in lines if ln.startswith("PEAK ")), 0)
    out = [ln for ln in lines if not ln.startswith("PEAK ")]
    return took, peak / 1024, (out[0] if out else "")[:110], proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=200_000)
    ap.add_argument("--only", help="run only this case")
    ap.add_argument("--quick", action="store_true", help="small sizes, one run")
    args = ap.parse_args()
    args.quick = args.quick or QUICK  # BENCH_QUICK=1: the test suite's quick run
    units = 2000 if args.quick else args.units
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        skip = SLOW | SAME if args.quick else frozenset()
        cases = write_cases(folder, units, scale=10 if args.quick else 1, skip=skip)
        bare = json_load_peak(None)
        idle = run_case(cases["fifo"], folder / "idle.sqlite3")[1]
        print(f"before reading: brikdesk import {idle:.0f} MB, json.load's python {bare:.0f} MB")
        print(
            f"{'case':<14} {'size':>9} {'time':>8} {'peak RSS':>9} {'json.load':>9} "
            f"{'ratio':>6} {'bound':>8} {'':<4} rc  first line"
        )
        order = [
            "fifo",
            "/dev/zero",
            "/dev/urandom",
            "over",
            "deep",
            "nested-23",
            "empty-objects",
            "objects-under",
            "long-string",
            "short-strings",
            "small-objects",
            "nested-objects",
            "numbers",
            "values-ints",
            "values-texts",
            "largest",
        ]
        for name in order:
            if args.only and name != args.only or name in skip:
                continue
            path = cases[name]
            size = path.stat().st_size if path.is_file() else 0
            db = folder / f"{name.strip('/').replace('/', '-')}.sqlite3"
            took, peak, line, rc = run_case(path, db)
            base = json_load_peak(path) if path.is_file() and size <= MAX_FILE_BYTES else 0.0
            early = not path.is_file() or size > MAX_FILE_BYTES or "holds more than" in line
            # Refused before the parse: the file's size + 150 MB. Parsed: 1.6 times what
            # json.load needs, each net of its process's own start (brikdesk's modules, or
            # the bare interpreter's).
            bound = size / 2**20 + 150 if early else idle + 1.6 * (base - bare)
            verdict = "ok" if peak <= bound else "OVER"
            if args.quick and not early:
                verdict = "-"  # a few MB parsed: the process's own start outweighs the file
            ratio = f"{(peak - idle) / (base - bare):.2f}x" if not early and base > bare else "-"
            print(
                f"{name:<14} {size / 1e6:>7.1f}MB {took:>7.1f}s {peak:>7.0f}MB {base:>7.0f}MB "
                f"{ratio:>6} {bound:>6.0f}MB {verdict:<4} {rc:>2}  {line}",
                flush=True,
            )


if __name__ == "__main__":
    main()
