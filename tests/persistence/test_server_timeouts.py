"""A database server that accepts connections and never answers does not hang BrikDesk:
``list`` and ``--check-start`` give up after 10 s with one line naming the server. Every server
connection also carries a statement timeout."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from brikdesk.persistence.db import SERVER_CONNECT_S, STATEMENT_TIMEOUT_S, open_database
from tests.databases import fresh_url, on_server

BRIKDESK = str(Path(sys.executable).parent / "brikdesk")


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts every connection and never sends a byte."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join(timeout=5)
    for conn in accepted:
        conn.close()
    listener.close()


@pytest.mark.slow
def test_a_server_that_never_answers_is_given_up_after_10_s(
    silent_server: int, tmp_path: Path
) -> None:
    url = f"postgresql+psycopg://club:secret@127.0.0.1:{silent_server}/brikdesk"
    env = dict(os.environ, BRIKDESK_HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    start = time.monotonic()
    runs = {
        argv[-1]: subprocess.Popen(
            [BRIKDESK, "--db", url, *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            encoding="utf-8",
            env=env,
        )
        for argv in (["list"], ["--check-start"])
    }
    try:
        outs = {name: p.communicate(timeout=60) for name, p in runs.items()}
    finally:
        for p in runs.values():
            p.kill()
    took = time.monotonic() - start
    print(f"\nsilent server: both commands gave up after {took:.1f} s")
    assert SERVER_CONNECT_S <= took < SERVER_CONNECT_S + 15
    said = (
        f"the server 127.0.0.1:{silent_server} did not answer within {SERVER_CONNECT_S} s; "
        "check that it is running and that the address is right"
    )
    for name, p in runs.items():
        assert p.returncode == 1, (name, outs[name])
        assert said in outs[name][1], (name, outs[name][1])
        assert "Traceback" not in outs[name][1]
    assert outs["list"][1].count("\n") == 1


def test_every_server_connection_has_a_statement_timeout(backend: str, tmp_path: Path) -> None:
    db = open_database(fresh_url(tmp_path, "timeouts"))
    try:
        with db.engine.connect() as conn:
            if on_server():
                ms = conn.exec_driver_sql(
                    "SELECT setting FROM pg_settings WHERE name = 'statement_timeout'"
                ).scalar()
                assert ms == str(STATEMENT_TIMEOUT_S * 1000)
            else:  # SQLite: a lock is waited for 5 s, then "busy"
                assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
    finally:
        db.close()
