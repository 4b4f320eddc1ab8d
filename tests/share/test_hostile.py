"""The players' page against a hostile device on the same network: connections held without
the token, oversized heads, foreign Host names, phones that stop reading, floods of refusals,
a port another program listens on. Servers listen on 127.0.0.1 only; every wait is bounded."""

from __future__ import annotations

import http.client
import logging
import re
import socket
import time
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest

from brikdesk.services import Services
from brikdesk.share import Shared
from brikdesk.share import server as share_server
from brikdesk.share.server import SECURITY_HEADERS, ShareServer, host_matches


def _page(s: ShareServer) -> str:
    return urlsplit(s.url).path


def _raw(s: ShareServer, data: bytes) -> bytes:
    """Send ``data`` on a fresh connection and read until the server closes it."""
    with socket.create_connection(("127.0.0.1", s.port), timeout=5) as c:
        c.sendall(data)
        out = b""
        while chunk := c.recv(65536):
            out += chunk
        return out


def _head(answer: bytes) -> tuple[int, dict[str, str]]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in head[1:])
    return int(head[0].split()[1]), {k.lower(): v for k, v in fields.items()}


def _timed_get(s: ShareServer, path: str) -> tuple[int, float]:
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=5)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        return r.status, time.monotonic() - start
    finally:
        conn.close()


def test_held_connections_without_the_token_cannot_make_a_phone_wait(
    server: ShareServer,
) -> None:
    """300 idle and 300 half-sent connections (a hostile device needs no token for these),
    then a phone with the token: its answer comes within a second, every time."""
    page = _page(server)
    with ExitStack() as held:
        for i in range(600):
            c = held.enter_context(socket.create_connection(("127.0.0.1", server.port), 5))
            if i % 2:
                c.sendall(b"GET " + page.encode() + b"state.json HTTP/1.1\r\nHost: 127.")
        for _ in range(5):
            status, took = _timed_get(server, page + "state.json")
            assert status == 200
            assert took < 1.0
        # and a stranger's request without the token is still only a 404
        assert _timed_get(server, "/nothing/state.json")[0] == 404


@pytest.mark.parametrize(
    ("extra", "status"),
    [
        (b"?q=" + b"a" * 9_000, 431),  # the query counts: the request line is over 8 KB
        (b"?q=" + b"a" * 100_000, 431),
        (b"?q=" + b"a" * 7_000, 200),
    ],
)
def test_a_head_over_8_kb_is_431_query_included(
    server: ShareServer, extra: bytes, status: int
) -> None:
    line = b"GET " + _page(server).encode() + b"state.json" + extra + b" HTTP/1.1\r\n"
    answer = _raw(server, line + b"Host: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % server.port)
    assert _head(answer)[0] == status


def test_every_refusal_carries_the_security_headers(
    server: ShareServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(share_server, "MAX_WATCHERS", 0)
    page = _page(server).encode()
    host = b"Host: 127.0.0.1:%d\r\n" % server.port
    requests = {
        400: b"NOT HTTP AT ALL\r\n\r\n",
        404: b"GET /nope/ HTTP/1.1\r\n" + host + b"\r\n",
        405: b"POST " + page + b" HTTP/1.1\r\n" + host + b"\r\n",
        413: b"GET " + page + b" HTTP/1.1\r\n" + host + b"Content-Length: 3\r\n\r\nabc",
        421: b"GET " + page + b" HTTP/1.1\r\nHost: evil.example\r\n\r\n",
        431: b"GET " + page + b" HTTP/1.1\r\n" + host + b"X: " + b"a" * 9_000 + b"\r\n\r\n",
        503: b"GET " + page + b"events HTTP/1.1\r\n" + host + b"\r\n",
    }
    for status, request in requests.items():
        got, headers = _head(_raw(server, request))
        assert got == status
        for name, value in SECURITY_HEADERS.items():
            assert headers[name] == value, (status, name)
        assert server.token not in headers.get("location", "")
    assert b"table is full" in _raw(server, requests[503])


@pytest.mark.parametrize(
    ("host", "ok"),
    [
        ("127.0.0.1:{port}", True),
        ("localhost:{port}", True),
        ("LOCALHOST:{port}", True),
        ("127.0.0.1:1", False),  # another port
        ("127.0.0.1", False),  # no port: port 80 only
        ("10.1.2.3:{port}", False),  # an address the connection did not come to
        ("evil.example:{port}", False),  # DNS rebinding: a name that now points here
        ("127.0.0.1.nip.io:{port}", False),
        ("[::1]:{port}", False),
        ("", False),
    ],
)
def test_the_host_must_be_the_address_served(server: ShareServer, host: str, ok: bool) -> None:
    named = host.format(port=server.port).encode()
    request = b"GET " + _page(server).encode() + b"state.json HTTP/1.1\r\nHost: " + named
    answer = _raw(server, request + b"\r\nConnection: close\r\n\r\n")
    assert _head(answer)[0] == (200 if ok else 421)


def test_host_matching_of_ipv6_and_mapped_addresses() -> None:
    assert host_matches(b"[::1]:8000", "::1", 8000)
    assert not host_matches(b"[::1]:8000", "::1", 8001)
    assert host_matches(b"192.168.1.5:8000", "::ffff:192.168.1.5", 8000)
    assert host_matches(b"[fe80::1]", "fe80::1%eth0", 80)
    assert not host_matches(b"[::2]:8000", "::1", 8000)


def test_a_phone_that_stops_reading_is_dropped(server: ShareServer) -> None:
    phone = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    phone.settimeout(5)
    with phone:
        phone.connect(("127.0.0.1", server.port))
        host = b"Host: 127.0.0.1:%d\r\n" % server.port
        phone.sendall(b"GET " + _page(server).encode() + b"events HTTP/1.1\r\n" + host + b"\r\n")
        for _ in range(50):
            if server.watchers == 1:
                break
            time.sleep(0.02)
        assert server.watchers == 1
        loop = server._loop
        assert loop is not None
        for n in range(60):  # 60 changes of 40 KB each; the phone reads none of them
            part = b'"' + str(n).encode() * 40_000 + b'"'
            loop.call_soon_threadsafe(server.app.publish, {"battle": part})
            time.sleep(0.01)
            if server.watchers == 0:
                break
        for _ in range(100):
            if server.watchers == 0:
                break
            time.sleep(0.05)
        assert server.watchers == 0  # its place is free
        assert _timed_get(server, _page(server) + "state.json")[0] == 200


def test_refusals_are_logged_as_a_count_not_a_line_each(
    demo_sv: Services, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(share_server, "REFUSALS_SECONDS", 0.5)
    campaign = demo_sv.campaigns.list_campaigns()[0]
    s = ShareServer(demo_sv.for_thread(), Shared(campaign.id))
    with caplog.at_level(logging.INFO, logger="brikdesk.share"):
        s.start()
        try:
            start = time.monotonic()
            for i in range(300):
                conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=5)
                conn.request("GET", f"/wrong-{i}/")
                assert conn.getresponse().status == 404
                conn.close()
            time.sleep(0.7)
            took = time.monotonic() - start
        finally:
            s.stop()
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("brikdesk.share")]
    # a line per half second at most (plus the last, at stop), whatever the machine's speed
    assert 1 <= len(lines) <= took / 0.5 + 2, lines
    assert len(lines) < 30  # not a line each
    counted = sum(int(re.search(r"refused (\d+) requests", m).group(1)) for m in lines)  # type: ignore[union-attr]
    assert counted == 300
    assert "not found" in lines[0]


def test_a_port_another_program_listens_on_is_refused(demo_sv: Services) -> None:
    other = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with other:
        other.bind(("127.0.0.1", 0))
        other.listen(1)
        campaign = demo_sv.campaigns.list_campaigns()[0]
        s = ShareServer(demo_sv.for_thread(), Shared(campaign.id), port=other.getsockname()[1])
        with pytest.raises(OSError):
            s.start()
        assert not s.running


def test_a_kept_alive_connection_serves_request_after_request(server: ShareServer) -> None:
    """A phone's browser sends its page's files one after another on one connection, and may
    send the next before the answer to the last (pipelined)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        for name in ("", "share.css", "share.js", "icon.svg", "state.json"):
            conn.request("GET", _page(server) + name)
            r = conn.getresponse()
            assert r.status == 200 and r.read()
            assert r.getheader("connection") != "close"
        sock = conn.sock
        assert sock is not None
        host = b"Host: 127.0.0.1:%d\r\n\r\n" % server.port
        ask = b"GET " + _page(server).encode() + b"icon.svg HTTP/1.1\r\n" + host
        sock.sendall(ask * 2)  # two at once
        got = b""
        while got.count(b"HTTP/1.1 200 OK") < 2:
            chunk = sock.recv(65536)
            assert chunk
            got += chunk
    finally:
        conn.close()


def test_the_server_uses_only_names_h11_publishes() -> None:
    """The HTTP parser is used through its public API alone (``h11.__all__``), and no server
    library's internals: a release of h11 that drops or renames a name used here fails this."""
    import ast
    from pathlib import Path

    import h11

    used: set[str] = set()
    for path in Path(share_server.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "h11":
                    used.add(node.attr)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                modules = [*names, getattr(node, "module", None) or ""]
                assert not any(m.split(".")[0] in ("uvicorn", "starlette") for m in modules)
                assert not any(m.startswith("h11.") for m in modules), path
    assert used >= {"Connection", "Request", "SERVER", "NEED_DATA", "RemoteProtocolError"}
    assert used <= set(h11.__all__), used - set(h11.__all__)
    assert "trailing_data" in dir(h11.Connection)  # the one property read on a Connection


def test_the_port_is_bound_exclusively_where_the_system_offers_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Windows' SO_REUSEADDR lets a second program listen on a port already in use; there the
    socket is bound with SO_EXCLUSIVEADDRUSE instead (simulated here: the option's number is
    given to this system's socket module, and the options set are recorded)."""
    set_options: list[int] = []

    class Recording(socket.socket):
        def setsockopt(self, level: int, option: int, value: int | bytes, *rest: int) -> None:  # type: ignore[override]
            set_options.append(option)

    monkeypatch.setattr(share_server.socket, "socket", Recording)
    monkeypatch.setattr(share_server.socket, "SO_EXCLUSIVEADDRUSE", -5, raising=False)
    share_server.listening_socket("127.0.0.1", 0).close()
    assert set_options == [-5]  # exclusive, and no SO_REUSEADDR
    monkeypatch.delattr(share_server.socket, "SO_EXCLUSIVEADDRUSE")
    set_options.clear()
    share_server.listening_socket("127.0.0.1", 0).close()
    assert set_options == [socket.SO_REUSEADDR]
