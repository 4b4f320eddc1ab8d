"""Benchmark: the players' page under a hall's load (prints numbers; not a test).

Two parts, on 127.0.0.1 only, each bounded in count and time:

1. ``brikdesk share`` (its own process) serves the demo campaign's battle (``--units 500``: a
   battle of 500 units instead) to ``PAGES`` live pages (Server-Sent Events streams) while
   ``LOADS_PER_S`` pages a second are loaded afresh (the page, its CSS, JS and icon, and its
   state) for ``SECONDS`` seconds; meanwhile this process ends a turn every ``EVERY`` seconds
   on the same database (another BrikDesk, as at a club). Printed: the update delay (End
   Turn's commit to each live page receiving the new state: p50, p95, max), the page's bytes,
   the page loads served and their time, and the server's memory (resident at start, peak).
2. The app's side: a 500-unit battle in the battle panel (offscreen Qt) with ``PAGES`` live
   pages connected (from a child process) to the server, run as the app runs it (``brikdesk
   share --for-app`` in a process of its own, ``ui.dialogs.share_process``) and, to compare,
   on a thread of the app's process (as it used to be): End Turn through the panel, with Qt's
   paint, median and p95 of ``TURNS`` runs, against the same with no server (target: within
   a command's 100 ms), and the update delay from each End Turn's start to each page receiving
   the new state (p50, p95, max).
3. A hostile device without the token: ``HOSTILE`` idle and ``HOSTILE`` half-sent connections
   to ``brikdesk share``, each opened again as soon as the server drops it, for
   ``HOSTILE_SECONDS``; a valid request every 0.1 s meanwhile: its time (p50, p95, max) and
   failures, against the same with nothing hostile (target: every one within 1 s).

4. The players' proposals (the demo campaign's battle, as the app runs the share: ``brikdesk
   share --for-app`` in a process of its own, the battle panel offscreen): ``PROPOSALS``
   proposals, Ines's and Tobias's in turn, each sent as a player's page sends it (judged first:
   ``attack.json``), then accepted from the panel (recorded, then undone for the next one).
   Printed: the judging's time, proposal -> shown in the panel (from the POST's start to the
   row in the list: p50, p95, max) and accept -> shown on a player's page (from the key to the
   answer arriving on the page's event stream: p50, p95, max).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_share.py [--units 500]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from speed_rule import quick

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

PAGES = quick(50, 2)
LOADS_PER_S = 20
SECONDS = quick(30, 2)
EVERY = quick(1.5, 0.5)
TURNS = quick(30, 2)
#: Part two: the wait between two End Turns (the organizer's next action comes later), and
#: for the pages' first states before the first.
GAP = quick(1.0, 0.5)
FIRST = quick(2.0, 0.5)
#: How long the pages watch after the last change (its updates), and part two's pages after
#: the last End Turn's time.
TAIL = quick(1.5, 0.6)
MARGIN = quick(1.0, 0.5)
#: Part four's proposals (Ines's and Tobias's in turn: at most 6 a minute each).
PROPOSALS = quick(10, 2)
#: Part two's modes take turns in this many rounds of TURNS / ROUNDS End Turns each (one in
#: the quick mode: each round waits some seconds per mode for the pages).
ROUNDS = quick(3, 1)
#: Part two's battle (a small one when quick: the same steps, less to build and paint).
PANEL_UNITS = quick(500, 60)
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
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode()
        )
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
    writer.write(f"GET {u.path}events HTTP/1.1\r\nHost: {u.netloc}\r\n\r\n".encode())
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


async def watch(
    url: str,
    pages: int,
    seconds: float,
    loads_per_s: float,
    connected: threading.Event | None = None,
) -> Seen:
    """``pages`` live pages and ``loads_per_s`` fresh page loads a second, for ``seconds``
    from when every page has its first state (``connected`` is set then)."""
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
    if connected is not None:
        connected.set()

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
    await asyncio.sleep(max(0.0, start + seconds - time.monotonic()))
    await asyncio.gather(*loads)
    await asyncio.sleep(TAIL)  # the last change's updates
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
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
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
        encoding="utf-8",
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
    done, connected = threading.Event(), threading.Event()

    def turns() -> None:  # another BrikDesk ends a turn every EVERY seconds
        if not connected.wait(60):  # the pages connect first
            return
        for _ in range(max(1, int((SECONDS - 2) / EVERY))):  # all while the pages watch
            if done.wait(EVERY):
                return
            sv.tracker.end_turn(battle)
            commits.append(time.monotonic())

    writer = threading.Thread(target=turns)
    writer.start()
    try:
        seen = asyncio.run(watch(page, PAGES, SECONDS, LOADS_PER_S, connected))
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


#: Part 3: hostile connections without the token, idle and as many half-sent.
HOSTILE = quick(300, 5)
HOSTILE_SECONDS = float(quick(10, 1))
#: How much longer than the valid requests the hostile device holds on (their own time).
HOSTILE_MARGIN = quick(3, 1)
#: The valid requests before the hostile device comes.
QUIET = quick(30, 5)


async def _held(
    host: str, port: int, half: bytes, stop: asyncio.Event, count: list[int], source: str
) -> None:
    """A hostile device's connection, opened again each time the server drops it."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(0.05)
            continue
        count[0] += 1
        try:
            if half:
                writer.write(half)
            await asyncio.wait_for(reader.read(), HOSTILE_SECONDS * 2)
        except (OSError, TimeoutError):
            pass
        finally:
            writer.close()


async def _attack(url: str, seconds: float, source: str) -> None:
    """In a child process: the hostile device (from ``source``), for ``seconds``."""
    u = urlsplit(url)
    assert u.hostname is not None and u.port is not None
    stop = asyncio.Event()
    count = [0]
    half = f"GET {u.path}state.json HTTP/1.1\r\nHost: ".encode()
    tasks = [
        asyncio.ensure_future(
            _held(u.hostname, u.port, half if i % 2 else b"", stop, count, source)
        )
        for i in range(2 * HOSTILE)
    ]
    for _ in range(200):
        if count[0] >= 2 * HOSTILE:
            break
        await asyncio.sleep(0.05)
    print(f"HELD {count[0]}", flush=True)
    await asyncio.sleep(seconds)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(f"OPENED {count[0]}", flush=True)


async def _valid(host: str, port: int, path: str, n: int) -> tuple[list[float], int]:
    """``n`` requests with the token, one every 0.1 s: their times and failures."""
    times: list[float] = []
    failed = 0
    for _ in range(n):
        start = time.monotonic()
        try:
            await asyncio.wait_for(_request(host, port, path), 5)
            times.append(time.monotonic() - start)
        except (OSError, TimeoutError):
            failed += 1
        await asyncio.sleep(0.1)
    return times, failed


def _source() -> str:
    """Another loopback address for the hostile device (Linux routes all of 127/8), so it is
    another device to the server; 127.0.0.1 where there is none."""
    import socket

    probe = socket.socket()
    try:
        probe.bind(("127.0.0.2", 0))
        return "127.0.0.2"
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def part_three(folder: Path) -> None:
    url, _battle = make_database(folder, 0)
    server = subprocess.Popen(
        [sys.executable, "-m", "brikdesk", "--db", url, "share", "--bind", "127.0.0.1"],
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
    )
    assert server.stdout is not None
    source = _source()
    try:
        page = server.stdout.readline().rsplit(" at ", 1)[1].strip()
        u = urlsplit(page)
        assert u.hostname is not None and u.port is not None
        path = u.path + "state.json"
        quiet, quiet_failed = asyncio.run(_valid(u.hostname, u.port, path, QUIET))
        attacker = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--attack-child",
                page,
                str(HOSTILE_SECONDS + HOSTILE_MARGIN),
                source,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        assert attacker.stdout is not None
        held_line = attacker.stdout.readline().strip()
        held, held_failed = asyncio.run(_valid(u.hostname, u.port, path, int(HOSTILE_SECONDS * 10)))
        opened = attacker.communicate(timeout=60)[0].strip()
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(10)
    print(
        f"part 3: `brikdesk share` with {HOSTILE} idle and {HOSTILE} half-sent connections "
        f"without the token from {source}, each opened again when dropped "
        f"({held_line.lower()} before measuring, {opened.lower()} in all)"
    )
    print(
        f"  a valid request, quiet: p50 {_ms(quiet, 0.5)}, max {_ms(quiet, 1.0)}, "
        f"{quiet_failed} failed of {len(quiet) + quiet_failed}"
    )
    print(
        f"  a valid request, under attack: p50 {_ms(held, 0.5)}, p95 {_ms(held, 0.95)}, "
        f"max {_ms(held, 1.0)}, {held_failed} failed of {len(held) + held_failed} "
        "(target: every one within 1 s)"
    )
    print(f"  `brikdesk share` exit status after SIGTERM: {code}")


def _pages_child(url: str, seconds: float) -> None:
    """In a child process: PAGES live pages for ``seconds`` (no loads); prints a summary and,
    on its last line, when each page received each state (``time.monotonic``, which is the
    same clock in every process)."""
    seen = asyncio.run(watch(url, PAGES, seconds, 0.5))
    updates = sum(len(s) for s in seen.states)
    print(f"  the child's {PAGES} pages received {updates} updates, {seen.stream_errors} dropped")
    print("TIMES " + json.dumps(seen.states), flush=True)


def _delays(turns: list[float], pages: list[list[float]]) -> tuple[list[float], int]:
    """Per page and turn: the first state received after the turn began, minus its start
    (none before the next turn began: missed). Returns (delays, missed)."""
    delays: list[float] = []
    missed = 0
    for times in pages:
        for k, begun in enumerate(turns):
            until = turns[k + 1] if k + 1 < len(turns) else float("inf")
            after = [t for t in times if begun < t <= until]
            if after:
                delays.append(after[0] - begun)
            else:
                missed += 1
    return delays, missed


class _Served:
    """A share for part two: on a thread of this process, or in a process of its own."""

    def __init__(self, how: str, url: str, shared: object, services: object) -> None:
        self.how = how
        if how == "thread":
            from brikdesk.share.server import ShareServer

            self.thread = ShareServer(services.for_thread(), shared)  # type: ignore[attr-defined]
            self.thread.start()
            self.url = self.thread.url
        else:
            from brikdesk.share import new_token
            from ui.dialogs.share_process import ShareProcess

            self.process = ShareProcess(
                shared,
                url,
                host="127.0.0.1",
                port=0,
                token=new_token(),  # type: ignore[arg-type]
            )
            self.process.start()
            self.url = ""
            deadline = time.monotonic() + 60
            while not self.process.url:
                if time.monotonic() > deadline or self.process.problem:
                    raise SystemExit(f"the server did not start: {self.process.problem}")
                _wait_events(0.05)
            self.url = self.process.url

    @property
    def watchers(self) -> int:
        return self.thread.watchers if self.how == "thread" else self.process.watchers

    def peak_kib(self) -> int:
        """The server process's peak resident memory (the thread's: none of its own)."""
        return _proc_kib(self.process.process.processId(), "VmHWM") if self.how != "thread" else 0

    def stop(self) -> None:
        if self.how == "thread":
            self.thread.stop()
        else:
            self.process.wait()


def _wait_events(seconds: float) -> None:
    from PySide6.QtWidgets import QApplication

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def part_two(folder: Path, modes: tuple[str, ...]) -> None:
    import bench_battle_panel
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QUndoStack

    from brikdesk.share import Shared
    from ui.app import collect_on_gui_thread, create_application
    from ui.bus import Bus
    from ui.main_window import combat_forms
    from ui.panels import BattlePanel

    app = create_application()
    bench_battle_panel.UNITS = PANEL_UNITS
    sv, battle_id = bench_battle_panel.build(folder)
    url = f"sqlite:///{folder / 'bench.sqlite3'}"
    collect_on_gui_thread()
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    panel = BattlePanel(sv, Bus(), QUndoStack(), battle_id, settings=settings, forms=combat_forms())
    panel.resize(1400, 900)
    panel.show()
    bench_battle_panel.settle(app)
    own_kib = _proc_kib(os.getpid(), "VmRSS")

    def end_turns(turns: int, waited: list[float]) -> tuple[list[float], list[float]]:
        """``turns`` End Turns a second apart: (their times, when each began); ``waited``
        gets how long of each the GUI thread was not running (its time less its CPU time: the
        machine's other processes, and on a thread of the app the server holding the GIL)."""
        times, begun = [], []
        for _ in range(turns):
            begun.append(time.monotonic())
            start, cpu = time.perf_counter(), time.thread_time()
            panel.end_turn()
            bench_battle_panel.settle(app)
            times.append(time.perf_counter() - start)
            waited.append(times[-1] - (time.thread_time() - cpu))
            _wait_events(GAP)  # the organizer's next action (and the pages' update) comes later
        return times, begun

    campaign = sv.battles.battle(battle_id).battle.campaign_id
    times: dict[str, list[float]] = {"none": [], **{how: [] for how in modes}}
    waited: dict[str, list[float]] = {how: [] for how in times}
    delays: dict[str, list[float]] = {how: [] for how in modes}
    missed = dict.fromkeys(modes, 0)
    peaks = dict.fromkeys(modes, 0)
    per_round = max(1, TURNS // ROUNDS)
    for _ in range(ROUNDS):  # the modes take turns: the machine's load falls on each alike
        times["none"] += end_turns(per_round, waited["none"])[0]
        for how in modes:
            shared, begun, pages, peak = _turns_shared(
                how,
                url,
                Shared(campaign, battle_id),
                sv,
                partial(end_turns, per_round, waited[how]),
                seconds=FIRST + per_round * (GAP + 0.1) + MARGIN,
            )
            times[how] += shared
            got, lost = _delays(begun, pages)
            delays[how] += got
            missed[how] += lost
            peaks[how] = max(peaks[how], peak)
    panel.close()
    print(
        f"part 2: End Turn through the panel, {PANEL_UNITS}-unit battle, "
        f"{per_round * ROUNDS} runs each "
        f"({ROUNDS} round{'s' if ROUNDS != 1 else ''} taking turns), {PAGES} live pages when sharing"
    )
    names = {
        "none": "no server",
        "thread": "sharing on a thread of the app",
        "process": "sharing in its own process",
    }
    for how, spent in times.items():
        line = (
            f"  {names[how] + ':':33} median {_ms(spent, 0.5)}, p95 {_ms(spent, 0.95)} "
            f"(not running: median {_ms(waited[how], 0.5)})"
        )
        if how != "none":
            line += (
                f"; update delay p50 {_ms(delays[how], 0.5)}, p95 {_ms(delays[how], 0.95)}, "
                f"max {_ms(delays[how], 1.0)} ({missed[how]} missed)"
            )
        if peaks.get(how):
            line += f"; server peak {peaks[how] / 1024:.0f} MiB"
        print(line)
    print(f"  the app's own memory: {own_kib / 1024:.0f} MiB resident")


def _turns_shared(
    how: str,
    url: str,
    shared: object,
    sv: object,
    turns: Callable[[], tuple[list[float], list[float]]],
    seconds: float,
) -> tuple[list[float], list[float], list[list[float]], int]:
    """Share, connect PAGES pages (a child process), run ``turns``, stop: (End Turn times,
    when each began, when each page received each state, the server's peak memory in KiB)."""
    served = _Served(how, url, shared, sv)
    child = subprocess.Popen(
        [sys.executable, __file__, "--pages-child", served.url, str(seconds)] + [str(PAGES)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        encoding="utf-8",
    )
    try:
        deadline = time.monotonic() + 60
        while served.watchers < PAGES:
            if time.monotonic() > deadline:
                raise SystemExit("the pages did not connect")
            _wait_events(0.05)
        _wait_events(FIRST)  # the pages' first states are sent and read meanwhile
        spent, begun = turns()
        peak = served.peak_kib()
        out, _ = child.communicate(timeout=120)  # the pages watch ``seconds``, then go
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(10)
        served.stop()
    last = out.strip().splitlines()[-1]
    return spent, begun, json.loads(last.removeprefix("TIMES ")), peak


class _PageStream(threading.Thread):
    """A player's page's event stream: when each proposal's answer arrived ((id, status) ->
    ``time.monotonic()``)."""

    def __init__(self, port: int, path: str) -> None:
        super().__init__(daemon=True)
        self.port, self.path = port, path
        self.seen: dict[tuple[str, str], float] = {}

    def run(self) -> None:
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", self.path + "events", headers={"Host": f"127.0.0.1:{self.port}"})
        stream = conn.getresponse()
        while True:
            line = stream.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                part = json.loads(line[6:]).get("proposals") or []
                now = time.monotonic()
                for p in part:
                    self.seen.setdefault((p["id"], p["status"]), now)


def part_four(folder: Path) -> None:
    import http.client

    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QUndoStack

    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services
    from brikdesk.share import Shared, new_token
    from ui.app import create_application
    from ui.bus import Bus
    from ui.dialogs.share_process import ShareProcess
    from ui.main_window import combat_forms
    from ui.main_window.proposals import proposal_list
    from ui.models.proposals import ProposalInbox
    from ui.panels import BattlePanel

    app = create_application()
    url, _name = make_database(folder, 0)
    sv = Services.open(open_database(url))
    campaign = sv.campaigns.list_campaigns()[0].id
    battle_id = next(b.id for b in sv.battles.list_battles(campaign) if b.status == "in_progress")
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    stack = QUndoStack()
    panel = BattlePanel(sv, Bus(), stack, battle_id, settings=settings, forms=combat_forms())
    panel.resize(1400, 900)
    panel.show()
    inbox = ProposalInbox()
    rows = proposal_list(panel, inbox)
    players = {p.name: p.id for p in sv.campaigns.list_players(campaign)}
    tokens = {pid: new_token() for pid in players.values()}
    server = ShareProcess(
        Shared(campaign), url, host="127.0.0.1", port=0, token=new_token(), parent=None
    )
    server.players = tokens
    server.proposed.connect(inbox.add)
    server.dropped.connect(inbox.drop)
    inbox.answerer = server.answer
    server.start()
    deadline = time.monotonic() + 60
    while not server.url:
        if time.monotonic() > deadline:
            raise SystemExit("the share did not start")
        _wait_events(0.05)
    port = int(urlsplit(server.url).port or 0)
    paths = {name: f"/{tokens[pid]}/" for name, pid in players.items()}
    _wait_events(0.5)  # the players' links are served
    pages = {name: _PageStream(port, paths[name]) for name in ("Ines", "Tobias")}
    for page in pages.values():
        page.start()
    attacks = {
        "Ines": ("unit=13&target=9&dice=5+4", 13, 9, "5 4"),
        "Tobias": ("unit=10&target=13&dice=5+3+2+1", 10, 13, "5 3 2 1"),
    }
    judged, shown, answered = [], [], []
    for i in range(PROPOSALS):
        name = ("Ines", "Tobias")[i % 2]
        query, unit, target, dice = attacks[name]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        start = time.perf_counter()
        conn.request("GET", paths[name] + "attack.json?" + query)
        said = json.loads(conn.getresponse().read())
        judged.append(time.perf_counter() - start)
        conn.close()
        body = json.dumps(
            {
                "id": f"bench-{i:04d}-{os.getpid()}",
                "turn": said["turn"],
                "unit": unit,
                "weapon": said["weapon"],
                "target": target,
                "range": "",
                "dice": dice,
            }
        ).encode()
        sent: list[float] = []

        def post(path: str = paths[name], payload: bytes = body, sent: list[float] = sent) -> None:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            sent.append(time.monotonic())
            c.request(
                "POST", path + "propose", body=payload, headers={"Content-Type": "application/json"}
            )
            c.getresponse().read()
            c.close()

        threading.Thread(target=post, daemon=True).start()
        deadline = time.monotonic() + 10
        while rows.rows.count() == 0 and time.monotonic() < deadline:
            app.processEvents()
        if rows.rows.count() == 0:
            raise SystemExit("a proposal did not reach the panel")
        shown.append(time.monotonic() - sent[0])
        rows.rows.setCurrentRow(0)
        proposal_id = rows.current_id()
        accepted = time.monotonic()
        rows.accept_current()
        deadline = time.monotonic() + 10
        while (proposal_id, "accepted") not in pages[name].seen and time.monotonic() < deadline:
            _wait_events(0.005)
        if (proposal_id, "accepted") in pages[name].seen:
            answered.append(pages[name].seen[(proposal_id, "accepted")] - accepted)
        panel.undo()  # the next proposal attacks again
        _wait_events(0.6)
    server.wait()
    panel.close()
    print(
        f"part 4: the players' proposals, demo battle, {PROPOSALS} proposals, share in its own process"
    )
    print(f"  judging (attack.json): p50 {_ms(judged, 0.5)}, p95 {_ms(judged, 0.95)}")
    print(
        f"  proposal -> shown in the panel: p50 {_ms(shown, 0.5)}, p95 {_ms(shown, 0.95)}, "
        f"max {_ms(shown, 1.0)}"
    )
    print(
        f"  accept -> shown on the player's page: p50 {_ms(answered, 0.5)}, "
        f"p95 {_ms(answered, 0.95)}, max {_ms(answered, 1.0)} "
        f"({PROPOSALS - len(answered)} not seen)"
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--attack-child":
        asyncio.run(_attack(sys.argv[2], float(sys.argv[3]), sys.argv[4]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--pages-child":
        global PAGES, TURNS, ROUNDS
        PAGES = int(sys.argv[4])
        _pages_child(sys.argv[2], float(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=0, help="part 1 on a battle of this size")
    parser.add_argument("--part", type=int, choices=(1, 2, 3, 4), help="run one part only")
    parser.add_argument(
        "--served",
        choices=("process", "thread", "both"),
        default="both",
        help="part 2: the server in its own process (as the app runs it), on a thread, or both",
    )
    parser.add_argument("--pages", type=int, default=PAGES, help=f"live pages (default {PAGES})")
    parser.add_argument(
        "--turns", type=int, default=TURNS, help=f"part 2: End Turns per mode (default {TURNS})"
    )
    parser.add_argument(
        "--rounds", type=int, default=ROUNDS, help=f"part 2: rounds (default {ROUNDS})"
    )
    args = parser.parse_args()
    PAGES, TURNS, ROUNDS = args.pages, args.turns, args.rounds
    folder = Path(tempfile.mkdtemp(prefix="bench-share-"))
    try:
        if args.part in (None, 1):
            (folder / "one").mkdir()
            part_one(folder / "one", args.units)
        if args.part in (None, 2):
            (folder / "two").mkdir()
            part_two(
                folder / "two",
                ("thread", "process") if args.served == "both" else (args.served,),
            )
        if args.part in (None, 3):
            (folder / "three").mkdir()
            part_three(folder / "three")
        if args.part in (None, 4):
            (folder / "four").mkdir()
            part_four(folder / "four")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"machine load: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
