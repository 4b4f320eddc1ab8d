"""Benchmark: the players' page under a hall's load (prints numbers; not a test).

Two parts, on 127.0.0.1 only, each bounded in count and time:

1. ``brikdesk share`` (its own process) serves the demo campaign's battle (``--units 500``: a
   battle of 500 units instead) to ``PAGES`` live pages (Server-Sent Events streams) while
   ``LOADS_PER_S`` pages a second are loaded afresh (the page, its CSS, JS and icon, and its
   state) for ``SECONDS`` seconds; meanwhile this process ends a turn every ``EVERY`` seconds
   on the same database (another BrikDesk, as at a club). Printed: the update delay (End
   Turn's commit to each live page receiving the new state: p50, p95, max), the page's bytes,
   the page loads served and their time, and the server's memory (resident at start, peak).
2. The app's side: a 500-unit battle in the battle panel (offscreen Qt) with the server on its
   thread in the same process and ``PAGES`` live pages connected (from a child process): End
   Turn through the panel, with Qt's paint, median and p95 of ``TURNS`` runs, against the same
   with no server. Target: within one 16 ms frame.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_share.py [--units 500]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PAGES = 50
LOADS_PER_S = 20
SECONDS = 30
EVERY = 1.5
TURNS = 30
FILES = ("", "share.css", "share.js", "icon.svg", "state.json")


@dataclass
class Seen:
    """What the live pages and the loads saw."""

    states: list[list[float]] = field(default_factory=list)  # per page: receive times
    loads: list[float] = field(default_factory=list)  # seconds per page load
    load_errors: int = 0
    stream_errors: int = 0
    bytes: dict[str, int] = field(default_factory=dict)


async def _request(host: str, port: int, path: str) -> bytes:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise OSError(head[:40].decode(errors="replace"))
    return body


async def _page(url: str, out: list[float], stop: asyncio.Event, ready: asyncio.Event) -> None:
    """A live page that reads its stream as a phone's network would: big reads, kept apart
    from this process's clock only by where each state event starts (cheap for the CPU the
    measured app shares with it)."""
    u = urlsplit(url)
    assert u.hostname is not None and u.port is not None
    reader, writer = await asyncio.open_connection(u.hostname, u.port)
    writer.write(f"GET {u.path}events HTTP/1.1\r\nHost: {u.hostname}\r\n\r\n".encode())
    await writer.drain()
    mark = b"event: state"
    tail = b""
    first = True
    try:
        while not stop.is_set():
            try:
                chunk = await asyncio.wait_for(reader.read(1 << 20), 0.5)
            except TimeoutError:
                continue
            if not chunk:
                raise OSError("the stream ended")
            seen = (tail + chunk).count(mark)
            tail = (tail + chunk)[-len(mark) + 1 :]
            for _ in range(seen):
                if first:
                    first = False
                    ready.set()
                else:
                    out.append(time.monotonic())
    finally:
        writer.close()


async def watch(url: str, pages: int, seconds: float, loads_per_s: float) -> Seen:
    """``pages`` live pages and ``loads_per_s`` fresh page loads a second, for ``seconds``."""
    seen = Seen(states=[[] for _ in range(pages)])
    u = urlsplit(url)
    assert u.hostname is not None and u.port is not None
    host, port = u.hostname, u.port
    for name in FILES:
        seen.bytes[name or "index.html"] = len(await _request(host, port, u.path + name))
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in range(pages)]
    tasks = [
        asyncio.ensure_future(_page(url, seen.states[i], stop, readies[i])) for i in range(pages)
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
    print(f"  {pages} live pages connected", flush=True)

    async def load() -> None:
        start = time.monotonic()
        try:
            for name in FILES:
                await _request(host, port, u.path + name)
            seen.loads.append(time.monotonic() - start)
        except (OSError, TimeoutError):
            seen.load_errors += 1

    loads = []
    start = time.monotonic()
    for n in range(int(seconds * loads_per_s)):  # evenly spaced, whatever each takes
        await asyncio.sleep(max(0.0, start + n / loads_per_s - time.monotonic()))
        loads.append(asyncio.ensure_future(load()))
    await asyncio.gather(*loads)
    await asyncio.sleep(1.5)  # the last change's updates
    stop.set()
    for t in tasks:
        try:
            await t
        except OSError:
            seen.stream_errors += 1
    return seen


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f} ms"


def _kib(n: int) -> str:
    return f"{n / 1024:.1f} KiB"


def _proc_kib(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def make_database(folder: Path, units: int) -> tuple[str, str]:
    """The demo campaign, or a 500-unit battle: (database URL, battle name)."""
    from brikdesk.persistence.db import open_database
    from brikdesk.services.demo import create_demo

    if units:
        import bench_battle_panel

        bench_battle_panel.UNITS = units
        sv, _battle = bench_battle_panel.build(folder)
        return f"sqlite:///{folder / 'bench.sqlite3'}", "Big battle"
    url = f"sqlite:///{folder / 'demo.sqlite3'}"
    db = open_database(url)
    create_demo(db)
    db.close()
    return url, "Raid on Bilge Cove"


def part_one(folder: Path, units: int) -> None:
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services

    url, battle_name = make_database(folder, units)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "brikdesk",
            "--db",
            url,
            "share",
            "--bind",
            "127.0.0.1",
            "--battle",
            battle_name,
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    page = line.rsplit(" at ", 1)[1].strip()
    time.sleep(0.5)
    idle = _proc_kib(server.pid, "VmRSS")
    db = open_database(url)
    sv = Services.open(db)
    battle = next(
        b.id
        for c in sv.campaigns.list_campaigns()
        for b in sv.battles.list_battles(c.id)
        if b.name == battle_name
    )
    commits: list[float] = []
    done = threading.Event()

    def turns() -> None:  # another BrikDesk ends a turn every EVERY seconds
        time.sleep(3)  # the pages connect first
        for _ in range(int((SECONDS - 2) / EVERY)):  # all while the pages watch
            if done.wait(EVERY):
                return
            sv.tracker.end_turn(battle)
            commits.append(time.monotonic())

    writer = threading.Thread(target=turns)
    writer.start()
    try:
        seen = asyncio.run(watch(page, PAGES, SECONDS, LOADS_PER_S))
    finally:
        done.set()
        writer.join()
        peak = _proc_kib(server.pid, "VmHWM")
        server.send_signal(signal.SIGTERM)
        server.wait(10)
        db.close()
    delays = []
    for times in seen.states:
        for k, t in enumerate(times[: len(commits)]):
            delays.append(t - commits[k])
    total = sum(seen.bytes.values())
    print(
        f"part 1: `brikdesk share`, {battle_name!r}, {PAGES} live pages, "
        f"{LOADS_PER_S} page loads/s for {SECONDS} s, an End Turn every {EVERY} s elsewhere"
    )
    print(
        f"  End Turns: {len(commits)}; updates received: {len(delays)} "
        f"(expected {len(commits) * PAGES})"
    )
    print(
        f"  update delay: p50 {_ms(delays, 0.5)}, p95 {_ms(delays, 0.95)}, "
        f"max {_ms(delays, 1.0)}  (target p95 < 1 s)"
    )
    print(
        "  page bytes: "
        + ", ".join(f"{k} {_kib(v)}" for k, v in seen.bytes.items())
        + f"; in all {_kib(total)}"
    )
    print(
        f"  page loads: {len(seen.loads)} served, {seen.load_errors} failed; "
        f"time p50 {_ms(seen.loads, 0.5)}, p95 {_ms(seen.loads, 0.95)}"
    )
    print(f"  streams dropped: {seen.stream_errors}")
    print(f"  server memory: {idle / 1024:.0f} MiB resident at start, peak {peak / 1024:.0f} MiB")


def _pages_child(url: str, seconds: float) -> None:
    """In a child process: PAGES live pages for ``seconds`` (no loads); prints a summary."""
    seen = asyncio.run(watch(url, PAGES, seconds, 0.5))
    updates = sum(len(s) for s in seen.states)
    print(f"  the child's {PAGES} pages received {updates} updates, {seen.stream_errors} dropped")


def part_two(folder: Path) -> None:
    import bench_battle_panel
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QUndoStack

    from brikdesk.share import Shared
    from brikdesk.share.server import ShareServer
    from ui.app import create_application, resume_garbage_collection
    from ui.bus import Bus
    from ui.main_window import combat_forms
    from ui.panels import BattlePanel

    app = create_application()
    bench_battle_panel.UNITS = 500
    sv, battle_id = bench_battle_panel.build(folder)
    resume_garbage_collection()
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    panel = BattlePanel(sv, Bus(), QUndoStack(), battle_id, settings=settings, forms=combat_forms())
    panel.resize(1400, 900)
    panel.show()
    bench_battle_panel.settle(app)

    def end_turns(pause: float) -> list[float]:
        times = []
        for _ in range(TURNS):
            start = time.perf_counter()
            panel.end_turn()
            bench_battle_panel.settle(app)
            times.append(time.perf_counter() - start)
            end = time.monotonic() + pause  # the organizer's next action comes later
            while time.monotonic() < end:
                app.processEvents()
                time.sleep(0.01)
        return times

    alone = end_turns(0.3)
    campaign = sv.battles.battle(battle_id).battle.campaign_id
    server = ShareServer(sv.for_thread(), Shared(campaign, battle_id))
    server.start()
    child = subprocess.Popen(
        [sys.executable, __file__, "--pages-child", server.url, str(TURNS * 1.3 + 10), str(PAGES)],
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 60
        while server.watchers < PAGES:
            if time.monotonic() > deadline:
                raise SystemExit("the pages did not connect")
            time.sleep(0.05)
        shared = end_turns(1.0)  # time for the server to read and send each change
    finally:
        child.wait(120)
        server.stop()
        panel.close()
    state_bytes = len(server.app.state.body)
    print(
        f"part 2: End Turn through the panel, 500-unit battle, {TURNS} runs "
        f"(the page's state: {_kib(state_bytes)})"
    )
    print(f"  no server:                 median {_ms(alone, 0.5)}, p95 {_ms(alone, 0.95)}")
    print(
        f"  sharing, {PAGES} pages connected: median {_ms(shared, 0.5)}, "
        f"p95 {_ms(shared, 0.95)}  (target: one 16 ms frame)"
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--pages-child":
        global PAGES
        PAGES = int(sys.argv[4])
        _pages_child(sys.argv[2], float(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=0, help="part 1 on a battle of this size")
    parser.add_argument("--part", type=int, choices=(1, 2), help="run one part only")
    parser.add_argument("--pages", type=int, default=PAGES, help=f"live pages (default {PAGES})")
    args = parser.parse_args()
    PAGES = args.pages
    folder = Path(tempfile.mkdtemp(prefix="bench-share-"))
    try:
        if args.part in (None, 1):
            (folder / "one").mkdir()
            part_one(folder / "one", args.units)
        if args.part in (None, 2):
            (folder / "two").mkdir()
            part_two(folder / "two")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"machine load: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
