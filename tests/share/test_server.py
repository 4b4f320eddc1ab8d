"""The players' page server (``brikdesk.share.server``) as a phone and as a stranger meet it:
the page and its data behind the token, live updates, and hostile requests refused while the
server goes on serving. Servers listen on 127.0.0.1 only; every wait is bounded."""

from __future__ import annotations

import http.client
import json
import socket
import time
from urllib.parse import urlsplit

import pytest

from brikdesk.domain.ids import BattleId
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.share import Shared
from brikdesk.share import server as share_server
from brikdesk.share.server import ShareServer


def _get(
    s: ShareServer, path: str, method: str = "GET", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=5)
    try:
        conn.request(method, path, headers=headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def _host(s: ShareServer) -> bytes:
    return b"Host: 127.0.0.1:%d\r\n" % s.port


def _page(s: ShareServer) -> str:
    return urlsplit(s.url).path


def _serving(s: ShareServer) -> bool:
    status, _h, body = _get(s, _page(s) + "state.json")
    return status == 200 and b"Raid on Bilge Cove" in body


def _battle(sv: Services) -> BattleId:
    c = sv.campaigns.list_campaigns()[0]
    return next(b.id for b in sv.battles.list_battles(c.id) if b.status == "in_progress")


def test_the_page_and_its_data_are_served_under_the_token_with_strict_headers(
    server: ShareServer,
) -> None:
    status, headers, body = _get(server, _page(server))
    assert status == 200 and b'<script src="share.js"' in body
    assert headers["content-security-policy"].startswith("default-src 'self'")
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"
    for name in ("share.js", "share.css", "icon.svg"):
        assert _get(server, _page(server) + name)[0] == 200
    assert len(server.token) >= 22  # 128 bits and more in URL-safe base64
    data = json.loads(_get(server, _page(server) + "state.json")[2])
    battle = data["battle"]
    assert (battle["name"], battle["round"], battle["active"]) == ("Raid on Bilge Cove", 1, "Ines")
    ines = battle["players"][0]
    assert ines["name"] == "Ines" and ines["summary"] == "3 of 4 Actions ready · 1 fallen"
    magda = next(u for u in ines["units"] if u["name"] == "Gunner Magda")
    assert (magda["action"], magda["counters"]) == ("Spent", "0 of 1")
    assert data["cards"][magda["card"]]["items"][0]["name"] == "Long-Ranged Weapon"
    dory = ines["units"][-1]  # the fallen last
    assert (dory["name"], dory["dead"], dory["statuses"]) == ("Deckhand Dory", True, ["Dead"])
    assert battle["last_attack"]["headline"].startswith("Gunner Magda (Ines) attacks")
    # Her Long-Ranged Weapon (d6 against Use 3, Damage 1d6+1) at Big Hank (Armor 7): a hit on
    # 3 to 6; destroyed 13/72 of the time (`brikdesk odds --use 3 --damage 1d6+1 --armor 7`).
    odds = battle["last_attack_odds"]
    assert (odds["hit"], odds["kill"], odds["over_the_top"]) == (2 / 3, 13 / 72, 1 / 6)
    assert battle["log"][0]["when"] == "Round 1, Ines"  # newest first
    assert data["report"]["title"] == "Skirmish at Baseplate Ford"
    assert data["report"]["outcome"] == "Margo won"  # as the organizer decided at End battle
    assert [s["player"] for s in data["history"]["standings"]] == ["Margo", "Ines", "Tobias"]
    assert {r["army"] for r in data["rosters"]} == {
        "The Red Vanguard",
        "Moonlight Posse",
        "The Salty Bilge Crew",
    }


def test_without_the_token_every_path_is_not_found(server: ShareServer) -> None:
    other = "A" * len(server.token)
    for path in (
        "/",
        "/share.js",
        "/state.json",
        "/events",
        f"/{other}/",
        f"/{other}/state.json",
        f"/{server.token[:-1]}/",
        f"/{server.token}x/",
        f"/x/{server.token}/",
    ):
        status, headers, body = _get(server, path)
        assert status == 404, path
        assert server.token.encode() not in body
        assert headers["content-security-policy"].startswith("default-src 'self'")
    assert _get(server, "/", "POST")[0] == 404  # no token: not even a 405 gives it away
    assert _serving(server)


def test_only_get_and_head_are_answered(server: ShareServer) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        status, headers, _body = _get(server, _page(server) + "state.json", method)
        assert status == 405, method
        assert headers["allow"] == "GET, HEAD"
    status, _headers, body = _get(server, _page(server), "HEAD")
    assert status == 200 and body == b""
    assert _serving(server)


@pytest.mark.parametrize(
    "path",
    [
        "../../../../etc/passwd",
        "..%2f..%2f..%2fetc%2fpasswd",
        "%2e%2e/%2e%2e/pyproject.toml",
        "share/../../pyproject.toml",
        "index.html",
        "share.js/",
        "./share.js",
        "catalog-2020.json",
        "..",
    ],
)
def test_paths_outside_the_page_are_not_found(server: ShareServer, path: str) -> None:
    status, _headers, body = _get(server, _page(server) + path)
    assert status == 404
    assert b"[project]" not in body and b"root:" not in body
    assert _serving(server)


def _raw(s: ShareServer, data: bytes, timeout: float = 5) -> bytes:
    """Send ``data`` on a fresh connection and read until the server closes it."""
    with socket.create_connection(("127.0.0.1", s.port), timeout=timeout) as c:
        c.sendall(data)
        out = b""
        while chunk := c.recv(65536):
            out += chunk
        return out


def test_oversized_heads_many_headers_and_bodies_are_refused(server: ShareServer) -> None:
    page = _page(server).encode()
    huge = (
        b"GET " + page + b" HTTP/1.1\r\n" + _host(server) + b"X-Big: " + b"a" * 9_000 + b"\r\n\r\n"
    )
    assert _raw(server, huge).startswith(b"HTTP/1.1 431")
    endless = b"GET " + page + b" HTTP/1.1\r\n" + _host(server) + b"X-Big: " + b"a" * 40_000
    assert _raw(server, endless).startswith(b"HTTP/1.1 431")  # never whole: still too large
    many = b"".join(b"X-H%d: 1\r\n" % i for i in range(60))
    answer = _raw(
        server,
        b"GET "
        + page
        + b" HTTP/1.1\r\n"
        + _host(server)
        + b""
        + many
        + b"Connection: close\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 431")
    status, _h, _b = _get(server, _page(server), "GET", **{"Content-Length": "0"})
    assert status == 200
    body = (
        b"GET "
        + page
        + b" HTTP/1.1\r\n"
        + _host(server)
        + b"Content-Length: 5\r\nConnection: close\r\n\r\nhello"
    )
    assert _raw(server, body).startswith(b"HTTP/1.1 413")
    assert _serving(server)


def test_a_slow_client_is_cut_off_and_others_are_served_meanwhile(
    server: ShareServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(share_server, "HEAD_TIMEOUT", 0.5)
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as slow:
        start = time.monotonic()
        slow.sendall(b"GET " + _page(server).encode() + b" HTTP/1.1\r\n")
        assert _serving(server)  # served while the slow one dawdles
        got = b""
        for _ in range(20):  # a header every 0.1 s: never a whole head
            try:
                slow.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
            time.sleep(0.1)
        slow.settimeout(3)
        try:
            got = slow.recv(100)
        except (ConnectionResetError, TimeoutError):
            got = b"reset"
        waited = time.monotonic() - start
    assert got in (b"", b"reset")  # closed, unanswered
    assert waited < 3
    assert _serving(server)


def _stream(s: ShareServer) -> tuple[socket.socket, socket.SocketIO]:
    c = socket.create_connection(("127.0.0.1", s.port), timeout=5)
    c.sendall(b"GET " + _page(s).encode() + b"events HTTP/1.1\r\n" + _host(s) + b"\r\n")
    return c, c.makefile("rb")  # type: ignore[return-value]


def _next_state(f: socket.SocketIO) -> dict[str, object]:
    for _ in range(10_000):
        line = f.readline()
        if line.startswith(b"data: "):
            return json.loads(line[6:])  # type: ignore[no-any-return]
        if not line:
            break
    raise AssertionError("the stream ended")


def test_a_change_elsewhere_reaches_the_stream_within_a_second(
    server: ShareServer, demo_db: Database
) -> None:
    c, f = _stream(server)
    with c, f:
        head = f.readline()
        assert head.startswith(b"HTTP/1.1 200")
        first = _next_state(f)
        assert first["battle"]["active"] == "Ines"  # type: ignore[index]
        assert server.watchers == 1
        elsewhere = open_database(demo_db.url)  # another BrikDesk on the same database
        try:
            other = Services.open(elsewhere)
            start = time.monotonic()
            other.tracker.end_turn(_battle(other))
            after = _next_state(f)
            delay = time.monotonic() - start
        finally:
            elsewhere.close()
    assert after["battle"]["active"] == "Tobias"  # type: ignore[index]
    assert "rosters" not in after and "cards" not in after  # only the parts that changed
    assert delay < 1.0


def test_the_apps_own_change_reaches_the_stream(server: ShareServer, demo_sv: Services) -> None:
    c, f = _stream(server)
    with c, f:
        _next_state(f)
        demo_sv.tracker.end_turn(_battle(demo_sv))  # the organizer's End Turn in this app
        assert _next_state(f)["battle"]["active"] == "Tobias"  # type: ignore[index]


def test_more_watchers_than_allowed_get_a_page_saying_so(
    server: ShareServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(share_server, "MAX_WATCHERS", 2)
    streams = [_stream(server) for _ in range(2)]
    try:
        for _c, f in streams:
            _next_state(f)
        assert server.watchers == 2
        status, _headers, body = _get(server, _page(server) + "events")
        assert status == 503 and b"already open on" in body
        assert _serving(server)
    finally:
        for c, f in streams:
            f.close()
            c.close()
    for _ in range(50):
        if server.watchers == 0:
            break
        time.sleep(0.05)
    assert server.watchers == 0  # the places of closed pages are free again


def test_stop_ends_the_streams_and_frees_the_port(demo_sv: Services) -> None:
    campaign = demo_sv.campaigns.list_campaigns()[0]
    s = ShareServer(demo_sv.for_thread(), Shared(campaign.id))
    s.start()
    streams = [_stream(s) for _ in range(20)]
    try:
        for _c, f in streams:
            _next_state(f)
        start = time.monotonic()
        s.stop()
        assert time.monotonic() - start < 3
        assert not s.running
        for _c, f in streams:  # every page is told that the share ended
            assert f.read().strip() == b"event: ended\ndata: {}"
    finally:
        for c, f in streams:
            f.close()
            c.close()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", s.port), timeout=1):
        pass


def test_a_share_stopped_before_it_started_never_serves(demo_sv: Services) -> None:
    # the app quits while its worker is still reading the campaign: no server outlives it
    campaign = demo_sv.campaigns.list_campaigns()[0]
    s = ShareServer(demo_sv.for_thread(), Shared(campaign.id))
    s.stop()
    s.start()
    assert not s.running
    assert s.port == 0  # never bound a port to serve on


def test_a_roster_change_reaches_the_stream_with_the_rosters(
    server: ShareServer, demo_sv: Services
) -> None:
    from brikdesk.services.roster import UnitPatch

    campaign = demo_sv.campaigns.list_campaigns()[0]
    army = next(
        a for a in demo_sv.campaigns.list_armies(campaign.id) if a.name == "Moonlight Posse"
    )
    unit = demo_sv.roster.roster(army.id).units[0]
    c, f = _stream(server)
    with c, f:
        _next_state(f)
        demo_sv.roster.edit_unit(unit.id, UnitPatch(name="Renamed Rider"))
        after = _next_state(f)
    posse = next(r for r in after["rosters"] if r["army"] == "Moonlight Posse")  # type: ignore[union-attr]
    assert posse["units"][0]["name"] == "Renamed Rider"
    assert "battle" not in after  # the battle in progress did not change
