"""``brikdesk share``: one line with the whole address, the page served, a clean stop on SIGTERM
and on Ctrl-C (SIGINT). Listens on 127.0.0.1 only; every wait is bounded."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


def _serve(
    db: Path, *extra: str, token: str | None = None, players: str = "{}"
) -> tuple[subprocess.Popen[str], str]:
    """``brikdesk share`` on 127.0.0.1 and its first line (``token``: run ``--for-app`` with
    this token and then the ``players`` line on its standard input, as the app starts it)."""
    if token is not None:
        extra = (*extra, "--for-app")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "brikdesk",
            "--db",
            f"sqlite:///{db}",
            "share",
            "--bind",
            "127.0.0.1",
            *extra,
        ],
        stdin=subprocess.PIPE if token is not None else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        encoding="utf-8",
    )
    assert proc.stdout is not None
    if proc.stdin is not None:
        proc.stdin.write(f"{token}\nplayers {players}\n")
        proc.stdin.flush()
    line = proc.stdout.readline()
    return proc, line


def _end(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait(5)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_share_prints_the_address_serves_the_page_and_stops_cleanly(
    demo_template: Path,
    tmp_path: Path,
    how: signal.Signals,
) -> None:
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    proc, line = _serve(db, "--battle", "Raid")
    try:
        m = re.fullmatch(
            r"Serving Demo: Battle for Baseplate Valley at "
            r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{24}/)\n",
            line,
        )
        assert m, line
        with urllib.request.urlopen(m.group(1) + "state.json", timeout=5) as r:
            assert b"Raid on Bilge Cove" in r.read()
        proc.send_signal(how)
        assert proc.wait(timeout=10) == 0
    finally:
        _end(proc)


def test_share_names_an_unknown_battle(demo_template: Path, tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    proc, line = _serve(db, "--battle", "Nowhere")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "there is no battle called 'Nowhere'" in err


def test_share_for_the_app_takes_its_token_on_stdin_counts_watchers_and_ends_with_stdin(
    demo_template: Path, tmp_path: Path
) -> None:
    """How the app's Share dialog runs it: the token never on the command line, a line per
    change of the watching pages, and the server gone when the app's end of the pipe closes
    (the app quit or died)."""
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    token = "Tok3n-of_the-app-0123456789"
    proc, line = _serve(db, token=token)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        m = re.fullmatch(rf"Serving .* at (http://127\.0\.0\.1:(\d+)/{token}/)\n", line)
        assert m, line
        assert proc.stdout.readline() == "Watching 0\n"
        with socket.create_connection(("127.0.0.1", int(m.group(2))), timeout=5) as phone:
            phone.sendall(
                f"GET /{token}/events HTTP/1.1\r\nHost: 127.0.0.1:{m.group(2)}\r\n\r\n".encode()
            )
            assert proc.stdout.readline() == "Watching 1\n"
        assert proc.stdout.readline() == "Watching 0\n"
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
    finally:
        _end(proc)


def test_share_for_the_app_refuses_a_short_token(demo_template: Path, tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    proc, _line = _serve(db, token="short")
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "the token on standard input is not a share's token" in err


@pytest.mark.parametrize("for_app", [False, True])
def test_sigterm_ends_share_with_exit_0_while_pages_watch(
    demo_template: Path, tmp_path: Path, for_app: bool
) -> None:
    """Watching pages, a half-sent request and an idle connection do not keep the process
    from ending cleanly (``--for-app`` once aborted at exit on its standard-input reader)."""
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    proc, line = _serve(db, token="Tok3n-of_the-app-0123456789" if for_app else None)
    phones: list[socket.socket] = []
    try:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/([A-Za-z0-9_-]+)/", line)
        assert m, line
        port, token = int(m.group(1)), m.group(2)
        for i in range(5):
            phone = socket.create_connection(("127.0.0.1", port), timeout=5)
            phones.append(phone)
            if i < 3:
                phone.sendall(
                    f"GET /{token}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
                )
                assert phone.recv(15).startswith(b"HTTP/1.1 200")
            elif i == 3:
                phone.sendall(f"GET /{token}/state.json HTTP/1.1\r\nHo".encode())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        assert proc.stderr is not None
        assert "Fatal" not in proc.stderr.read()
    finally:
        for phone in phones:
            phone.close()
        _end(proc)


def test_share_players_prints_each_players_own_link(demo_template: Path, tmp_path: Path) -> None:
    """``--players``: one line per player, ``Player <name>: <URL>``, each link a page of its
    own that knows whose it is; the standalone share says proposals cannot go anywhere."""
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    proc, line = _serve(db, "--players")
    assert proc.stdout is not None
    try:
        watch = re.search(r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+/)", line)
        assert watch, line
        links = {}
        for _ in range(3):
            m = re.fullmatch(
                r"Player (\w+): (http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{24}/)\n",
                proc.stdout.readline(),
            )
            assert m
            links[m.group(1)] = m.group(2)
        assert sorted(links) == ["Ines", "Margo", "Tobias"]
        assert len({*links.values(), watch.group(1)}) == 4  # each its own token
        for name, url in links.items():
            with urllib.request.urlopen(url + "me.json", timeout=5) as r:
                me = json.loads(r.read())
            assert (me["name"], me["proposals"]) == (name, False)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(watch.group(1) + "me.json", timeout=5)
        assert refused.value.code == 404  # the watch-only link belongs to no one
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        _end(proc)


def test_share_for_the_app_serves_the_players_links_the_app_sends(
    demo_template: Path, tmp_path: Path
) -> None:
    """The app sends the players' tokens as a line; sending them again without a player
    revokes that player's link at once."""
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    token = "Tok3n-of_the-app-0123456789"
    anna = "Pl4yer-one-token-0123456789"
    proc, line = _serve(db, token=token)
    assert proc.stdin is not None
    try:
        m = re.fullmatch(rf"Serving .* at (http://127\.0\.0\.1:\d+/){token}/\n", line)
        assert m, line
        proc.stdin.write(f'players {{"1": "{anna}"}}\n')
        proc.stdin.flush()
        me = _json_within(m.group(1) + f"{anna}/me.json", 5)
        assert (me["name"], me["proposals"]) == ("Margo", True)
        proc.stdin.write("players {}\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(m.group(1) + f"{anna}/me.json", timeout=5).close()
            except urllib.error.HTTPError as exc:
                assert exc.code == 404
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the revoked link still answers")
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        _end(proc)


def test_a_players_link_answers_from_the_shares_first_line(
    demo_template: Path, tmp_path: Path
) -> None:
    """The players' links the app starts the share with are served from its first request: a
    phone that opens its link as the share starts gets its roll form, not "not found"."""
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    token = "Tok3n-of_the-app-0123456789"
    anna = "Pl4yer-one-token-0123456789"
    proc, line = _serve(db, token=token, players=f'{{"1": "{anna}"}}')
    assert proc.stdin is not None
    try:
        m = re.fullmatch(rf"Serving .* at (http://127\.0\.0\.1:\d+/){token}/\n", line)
        assert m, line
        with urllib.request.urlopen(m.group(1) + f"{anna}/me.json", timeout=5) as r:
            me = json.loads(r.read())
        assert (me["name"], me["proposals"]) == ("Margo", True)
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        _end(proc)


def _json_within(url: str, seconds: float) -> dict[str, object]:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return json.loads(r.read())  # type: ignore[no-any-return]
        except urllib.error.HTTPError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
