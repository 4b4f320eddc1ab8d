"""The players' page server: on the local network, live through Server-Sent Events; it writes
nothing (a player's proposal goes to the organizer's app, which records it or not).

``ShareServer(services, shared, host=..., port=...)`` binds its socket in ``start()`` (so a
taken port is an ``OSError`` for the caller to show) and serves on a thread of its own with an
asyncio loop. HTTP/1.1 is parsed by h11 (its public API: a request head is an event) and every
answer is written here, so each one, refusals included, carries the same security headers.
``stop()`` ends every stream (telling the pages the share ended) and the thread. Nothing it
answers changes anything.

What it answers, and only under ``/<token>/`` (``token``: 144 random bits, ``secrets``):
``/`` the page, ``share.css``, ``share.js``, ``icon.svg`` (files of ``resources/share`` read at
start), ``state.json`` (what the page shows, ``page_data``) and ``events`` (a Server-Sent
Events stream: the state when connected and again after every change). A player's own link
(a token of theirs, ``players.Seats``, set by ``set_players``) serves the same and also
``me.json`` (whose link it is), ``attack.json`` (their attack judged as the quick form judges
it) and ``POST propose`` (their roll, checked and handed to the organizer's app: see
``proposals``); those run on a worker thread with services of their own, one at a time, at
most ``MAX_DESK`` waiting. A proposal is taken only as JSON of at most ``proposals.MAX_BODY``
bytes from the page's own origin (a cross-site Origin or Sec-Fetch-Site is 403); on the
watch-only link ``propose`` is 405 like every write. Everything else, and anything without a
token or with another, is 404.

Safe to switch on in a club hall. A device without the token can hold nothing that a holder
of the token needs: no connection counts against anyone until its request head has shown the
token. Connections still waiting for a whole head are at most ``MAX_PENDING``; a new one past
that drops the oldest waiting one of the device (address) that holds the most (a phone's head
arrives within milliseconds of connecting, a hostile device's never does: a device that floods
drops its own), and each is closed after ``HEAD_TIMEOUT`` seconds anyway. A head over
``MAX_HEAD_BYTES`` (request line and query included) or with more than ``MAX_HEADERS``
headers is 431; a request with a body is 413; a method other than GET and HEAD
is 405; a Host that is not the address the connection came to (DNS rebinding: a page of
another site whose name now points here) is 421. Refusals are counted and logged once a
minute (``REFUSALS_SECONDS``), not a line each. A connection is kept alive after an answer
for ``IDLE_TIMEOUT`` seconds while fewer than ``MAX_KEEP_ALIVE`` are. A stream whose phone
stops reading is dropped once ``MAX_BACKLOG`` bytes wait for it or its writes have been
paused for ``SEND_TIMEOUT`` seconds (each connection's kernel send buffer is kept at
``SEND_BUFFER`` so the backlog is seen early); at most ``MAX_WATCHERS`` pages watch at once
(the next gets a page saying the table is full, 503). Every answer carries a strict
Content-Security-Policy (``default-src 'self'``: the page loads nothing from elsewhere,
nothing inline), ``Referrer-Policy: no-referrer`` (the token never leaves in a Referer),
``nosniff`` and ``no-store``.

Live: a watch task polls the services' ``ChangeWatch`` (``others_only=False``: the app's own
writes count too) every ``POLL_SECONDS`` on a worker thread (an idle SQLite file: one PRAGMA);
on a change it waits ``SETTLE_SECONDS`` (the app that wrote repaints meanwhile, with the whole
CPU), reads the page's data again, once for all pages, the battle first and then the campaign's
parts, and every stream sends the parts that changed (``PageState``): a change reaches the
pages in well under a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import logging
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs

import h11

from brikdesk.domain.ids import PlayerId
from brikdesk.errors import StorageError, UserError
from brikdesk.paths import resource_path
from brikdesk.services import Services
from brikdesk.services.watch import ChangeWatch
from brikdesk.share import DROPPED, WAITING, Shared, new_token
from brikdesk.share.page_data import PageData, battle_ids
from brikdesk.share.players import Seat, Seats, seats_for
from brikdesk.share.proposals import MAX_BODY, Desk, Inbox, Proposal, Refused, parse_body

log = logging.getLogger(__name__)

MAX_WATCHERS = 64
MAX_PENDING = 128
MAX_KEEP_ALIVE = 64
MAX_HEADERS = 40
MAX_HEAD_BYTES = 8 * 1024
HEAD_TIMEOUT = 10.0
IDLE_TIMEOUT = 5.0
SEND_TIMEOUT = 10.0
MAX_BACKLOG = 256 * 1024
SEND_BUFFER = 64 * 1024
REFUSALS_SECONDS = 60.0
POLL_SECONDS = 0.1
#: How long after seeing a change the page's data is read again: the app that wrote it is
#: repainting from it meanwhile, and a read alongside would take half of its CPU (the GIL).
SETTLE_SECONDS = 0.25
#: A comment line on quiet streams, so a dead phone is noticed and proxies keep it open.
PING_SECONDS = 15.0

#: The page's files: path under the token -> (file in resources/share, content type).
FILES = {
    "": ("index.html", "text/html; charset=utf-8"),
    "share.css": ("share.css", "text/css; charset=utf-8"),
    "share.js": ("share.js", "text/javascript; charset=utf-8"),
    "propose.js": ("propose.js", "text/javascript; charset=utf-8"),
    "icon.svg": ("icon.svg", "image/svg+xml"),
}

#: What a player's own link answers besides the watch-only link's paths.
SEAT_PATHS = ("me.json", "attack.json")
#: How many questions to the players' desk may wait at once (the rest: "busy").
MAX_DESK = 16

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}

_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
</head><body><h1>{title}</h1><p>{text}</p></body></html>"""

NOT_FOUND = ("Not found", "There is nothing here. Ask the organizer for the page's address.")
TOO_MANY = (
    "The table is full",
    f"This page is already open on {MAX_WATCHERS} devices, the most BrikDesk serves. "
    "Close it on a device that no longer needs it, then reload here.",
)
#: Plain-text refusals: status -> what it says.
REFUSALS = {
    400: "Bad request.\n",
    405: "Method not allowed: this page is read-only.\n",
    413: "A request body is not accepted.\n",
    421: "This page is served only at the address the organizer gave.\n",
    431: "Request head too large.\n",
}


def host_matches(host: bytes, local: str, port: int) -> bool:
    """Whether a request's Host header names the address and port it came to (``local``: the
    socket's own address). A name (``evil.example``) is refused, even if it points here: that
    is how another site's page would reach this one (DNS rebinding); ``localhost`` is allowed
    on the loopback."""
    text = host.decode("ascii", "replace").strip().lower()
    name, sep, given = text.rpartition(":")
    if not sep or name.endswith(":") or (text.startswith("[") and not name.endswith("]")):
        name, given = text, ""  # no port: an IPv6 literal's colons, or no colon at all
    if given != str(port) and not (given == "" and port == 80):
        return False
    name = name.removeprefix("[").removesuffix("]")
    try:
        local_ip = ipaddress.ip_address(local.partition("%")[0])
    except ValueError:
        return False
    if isinstance(local_ip, ipaddress.IPv6Address) and local_ip.ipv4_mapped is not None:
        local_ip = local_ip.ipv4_mapped
    if name == "localhost":
        return local_ip.is_loopback
    try:
        return ipaddress.ip_address(name) == local_ip
    except ValueError:
        return False


#: Reads parts of the page's data; None when they are as last read.
Reader = Callable[[], dict[str, Any] | None]


class PageState:
    """The page's data as last read, in parts (``page_data``'s keys): each part's JSON and the
    count of changes it last changed at, so that a stream sends only the parts that changed
    since it last sent (an End Turn: the battle, not the rosters and the history)."""

    def __init__(self) -> None:
        self.version = 0
        self.parts: dict[str, tuple[int, bytes]] = {}

    def update(self, parts: dict[str, bytes]) -> bool:
        changed = [k for k, v in parts.items() if k not in self.parts or self.parts[k][1] != v]
        if not changed:
            return False
        self.version += 1
        for key in changed:
            self.parts[key] = (self.version, parts[key])
        return True

    def since(self, version: int) -> bytes:
        """One JSON object of the parts changed after ``version`` (0: all of them)."""
        return (
            b"{"
            + b",".join(
                json.dumps(k).encode() + b":" + body
                for k, (v, body) in self.parts.items()
                if v > version
            )
            + b"}"
        )

    @property
    def body(self) -> bytes:
        return self.since(0)


def _response(
    status: int, headers: dict[str, str], body: bytes, *, head_only: bool = False
) -> bytes:
    """A whole HTTP/1.1 answer with the security headers and the body's length."""
    fields = {**SECURITY_HEADERS, **headers, "content-length": str(len(body))}
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}"]
    lines += [f"{k}: {v}" for k, v in fields.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (b"" if head_only else body)


def _page(status: int, page: tuple[str, str], headers: dict[str, str]) -> bytes:
    """A short HTML page as a whole answer that closes the connection."""
    body = _PAGE.format(title=page[0], text=page[1]).encode()
    fields = {"content-type": "text/html; charset=utf-8", "connection": "close", **headers}
    return _response(status, fields, body)


def _parser() -> h11.Connection:
    return h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)


class Connection(asyncio.Protocol):
    """One client's connection: its request heads parsed by h11, each handed to the app once
    whole; closed when a head is too slow (``HEAD_TIMEOUT``) or the app says so."""

    def __init__(self, app: ShareApp) -> None:
        self.app = app
        self.transport: asyncio.Transport | None = None
        self.local = ""
        self.peer = ""
        self.parser = _parser()
        self.streaming = False
        self.kept_alive = False
        self.paused_since: float | None = None
        self.lost = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None
        #: A request's body being read (``read_body``): what came so far, and who takes it.
        self._body: bytearray | None = None
        self._on_body: Callable[[bytes], None] | None = None

    # -- asyncio's calls ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        sock = transport.get_extra_info("socket")
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        sockname = transport.get_extra_info("sockname")
        self.local = str(sockname[0]) if sockname else ""
        peername = transport.get_extra_info("peername")
        self.peer = str(peername[0]) if peername else ""
        transport.set_write_buffer_limits(high=MAX_BACKLOG // 4)
        self._arm(HEAD_TIMEOUT)
        self.app.arrived(self)

    def data_received(self, data: bytes) -> None:
        if self.streaming:
            return  # a watching page sends nothing more; whatever it sends is not read
        self.parser.receive_data(data)
        self.next_request()

    def eof_received(self) -> bool:
        return False  # the client finished sending: close once answered

    def pause_writing(self) -> None:
        self.paused_since = time.monotonic()

    def resume_writing(self) -> None:
        self.paused_since = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.lost.set()
        self.app.gone(self)

    # -- requests -----------------------------------------------------------------------------

    def next_request(self) -> None:
        """Hand the next whole request head to the app, if one has arrived."""
        if self.transport is None or self.transport.is_closing():
            return
        try:
            event = self.parser.next_event()
        except h11.RemoteProtocolError as exc:  # malformed, or a head past MAX_HEAD_BYTES
            self.refuse(exc.error_status_hint if exc.error_status_hint in REFUSALS else 400)
            return
        if event is h11.NEED_DATA:
            return
        if isinstance(event, h11.Request):
            self._disarm()
            self.app.request(self, event)
        elif self._body is not None and isinstance(event, h11.Data):
            self._body += event.data
            if len(self._body) > MAX_BODY:
                self._body = None
                self.refuse(413)
            else:
                self.next_request()
        elif self._body is not None and isinstance(event, h11.EndOfMessage):
            body, self._body = bytes(self._body), None
            on_body, self._on_body = self._on_body, None
            self._disarm()
            if on_body is not None:
                on_body(body)
        else:  # the client closed, or something h11 will not go on from
            self.close()

    def read_body(self, on_body: Callable[[bytes], None]) -> None:
        """Read the request's body (its length checked already), then ``on_body(body)``;
        a body slower than ``HEAD_TIMEOUT`` is cut off as a slow head is."""
        self._body, self._on_body = bytearray(), on_body
        self._arm(HEAD_TIMEOUT)
        self.next_request()

    def answered(self, keep_alive: bool) -> None:
        """An answer was written: wait for the next request on this connection, or close."""
        if not keep_alive or self.transport is None:
            self.close()
            return
        leftover, _closed = self.parser.trailing_data
        self.parser = _parser()
        if leftover:  # (no data at all would tell h11 the client closed)
            self.parser.receive_data(leftover)
        self.kept_alive = True
        self._arm(IDLE_TIMEOUT + HEAD_TIMEOUT)
        self.app.arrived(self)
        if leftover:
            self.next_request()

    def write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def refuse(self, status: int, headers: dict[str, str] | None = None) -> None:
        """Answer with a plain-text refusal and close (counted, not logged one by one)."""
        self.app.refused(status)
        body = REFUSALS[status].encode()
        fields = {"content-type": "text/plain; charset=utf-8", "connection": "close"}
        self.write(_response(status, {**fields, **(headers or {})}, body))
        self.close()

    def close(self) -> None:
        self._disarm()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def abort(self) -> None:
        self._disarm()
        if self.transport is not None:
            self.transport.abort()

    @property
    def backlog(self) -> int:
        """Bytes written for the client that it has not taken yet (beyond the kernel's)."""
        return self.transport.get_write_buffer_size() if self.transport is not None else 0

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._timer = asyncio.get_running_loop().call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if not self.kept_alive or self.parser.trailing_data[0]:  # not a kept-alive one's rest
            self.app.refused("slow")
        self.abort()


class ShareApp:
    """What the server answers: the token gate, the limits, the files, the state and the
    streams; and the count of what it refused."""

    def __init__(self, token: str, readers: Sequence[Reader], port: int = 0) -> None:
        self.token = token
        self.port = port
        self._token = token.encode()
        self.readers = tuple(readers)
        self._files = {
            path: (resource_path(f"share/{name}").read_bytes(), ctype)
            for path, (name, ctype) in FILES.items()
        }
        self.state = PageState()
        self.watchers = 0
        #: Connections waiting for a whole request head, oldest first.
        self.pending: dict[Connection, None] = {}
        self.pending_by_peer: dict[str, dict[Connection, None]] = {}
        self.connections: set[Connection] = set()
        #: The streams' tasks, waited for (briefly) when the share stops.
        self.streams: set[asyncio.Task[None]] = set()
        self.refusals: Counter[int | str] = Counter()
        #: The players' own links (``players``): token -> seat.
        self.seats = Seats()
        #: Where the players' proposals go (the organizer's app: a word and its JSON);
        #: ``None``: nowhere, and they are refused saying so.
        self.to_app: Callable[[str, dict[str, Any]], None] | None = None
        #: Judges and checks the players' attacks (``proposals.Desk``; None: no one does).
        self.desk: Desk | None = None
        self.inbox = Inbox()
        #: Questions to the desk waiting or being answered (at most ``MAX_DESK``).
        self.desk_busy = 0
        self._desk_lock: asyncio.Lock | None = None
        self.ended = False
        self._changed: asyncio.Event | None = None
        self._closing: asyncio.Event | None = None

    @property
    def proposals(self) -> bool:
        """Whether the players' proposals have somewhere to go."""
        return self.to_app is not None

    # -- the state ----------------------------------------------------------------------------

    @staticmethod
    def read(reader: Reader) -> dict[str, bytes]:
        """Read parts of the page's data (on a worker thread), each as JSON; or what went
        wrong, in words (``problem``)."""
        try:
            parts = reader()
        except (UserError, StorageError) as exc:
            parts = {"problem": str(exc)}
        else:
            if parts is None:
                return {}
            parts = {**parts, "problem": None}
        return {
            k: json.dumps(v, ensure_ascii=False, separators=(",", ":")).encode()
            for k, v in parts.items()
        }

    def publish(self, parts: dict[str, bytes]) -> None:
        """New parts of the state (on the loop): every stream sends those that changed."""
        if not self.state.update(parts):
            return
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    def close_all(self, *, ended: bool) -> None:
        """End every stream (``ended``: telling the pages the share ended for good) and close
        every connection."""
        self.ended = ended
        if self._closing is not None:
            self._closing.set()
        for conn in list(self.connections):
            if not conn.streaming:
                conn.abort()

    # -- the connections ----------------------------------------------------------------------

    def arrived(self, conn: Connection) -> None:
        """``conn`` waits for a request head: past ``MAX_PENDING`` such, the oldest of the
        device (address) holding the most goes, so a device that floods drops its own."""
        if self._changed is None:
            self._changed, self._closing = asyncio.Event(), asyncio.Event()
        self.connections.add(conn)
        self.pending[conn] = None
        self.pending_by_peer.setdefault(conn.peer, {})[conn] = None
        while len(self.pending) > MAX_PENDING:
            greedy = max(self.pending_by_peer.values(), key=len)
            oldest = next(iter(greedy))
            self._not_pending(oldest)
            self.refused("dropped")
            oldest.abort()

    def _not_pending(self, conn: Connection) -> None:
        if self.pending.pop(conn, 0) is None:
            mine = self.pending_by_peer[conn.peer]
            del mine[conn]
            if not mine:
                del self.pending_by_peer[conn.peer]

    def gone(self, conn: Connection) -> None:
        self._not_pending(conn)
        self.connections.discard(conn)

    def refused(self, why: int | str) -> None:
        self.refusals[why] += 1

    def refusals_said(self) -> str | None:
        """The refusals since last asked, in one line (None: there were none)."""
        if not self.refusals:
            return None
        counts, self.refusals = self.refusals, Counter()
        parts = ", ".join(
            f"{n} {_REFUSAL_NAMES.get(k, str(k))}" for k, n in sorted(counts.items(), key=str)
        )
        return f"share: refused {sum(counts.values())} requests ({parts})"

    async def report_refusals(self) -> None:
        """Log the refusals once every ``REFUSALS_SECONDS`` there were some."""
        try:
            while True:
                await asyncio.sleep(REFUSALS_SECONDS)
                said = self.refusals_said()
                if said is not None:
                    log.warning("%s in the last %g s", said, REFUSALS_SECONDS)
        finally:
            said = self.refusals_said()
            if said is not None:
                log.warning("%s before stopping", said)

    # -- a request ----------------------------------------------------------------------------

    def request(self, conn: Connection, req: h11.Request) -> None:
        """Answer one whole request head; the token first, before anything it can hold."""
        self._not_pending(conn)
        target = bytes(req.target)
        path = target.partition(b"?")[0]
        token, slash, rest_b = path[1:].partition(b"/")
        rest = rest_b.decode("latin-1")
        watch = hmac.compare_digest(token, self._token)
        seat = None if watch else self.seats.find(token)
        known = (
            slash
            and (
                rest in FILES
                or rest in ("events", "state.json", "propose")
                or (seat and rest in SEAT_PATHS)
            )
        ) or (not slash and path != b"/")
        if not ((watch or seat is not None) and known):
            self.refused(404)
            conn.write(_page(404, NOT_FOUND, {}))
            conn.close()
            return
        size = len(req.method) + len(target) + 12 + sum(len(k) + len(v) + 4 for k, v in req.headers)
        if len(req.headers) > MAX_HEADERS or size > MAX_HEAD_BYTES:
            conn.refuse(431)
            return
        host = [v for k, v in req.headers if k == b"host"]
        if len(host) != 1 or not host_matches(host[0], conn.local, self.port):
            conn.refuse(421)
            return
        if seat is not None and rest == "propose":
            self._propose(conn, req, seat)
            return
        if req.method not in (b"GET", b"HEAD") or rest == "propose":
            conn.refuse(405, {"allow": "GET, HEAD"})
            return
        for key, value in req.headers:
            if (key == b"content-length" and value.strip() not in (b"", b"0")) or (
                key == b"transfer-encoding"
            ):
                conn.refuse(413)
                return
        head_only = req.method == b"HEAD"
        keep_alive = (
            req.http_version == b"1.1"
            and not any(k == b"connection" and b"close" in v.lower() for k, v in req.headers)
            and sum(1 for c in self.connections if c.kept_alive) < MAX_KEEP_ALIVE
        )
        closing = {} if keep_alive else {"connection": "close"}
        if not slash:  # /<token> -> /<token>/
            location = f"/{token.decode('ascii', 'replace')}/"
            answer = _response(308, {"location": location, **closing}, b"")
        elif rest == "attack.json" and seat is not None:
            query = parse_qs(target.partition(b"?")[2].decode("latin-1"), max_num_fields=8)
            asked = {k: v[0] for k, v in query.items()}
            self._ask_desk(conn, keep_alive, head_only, lambda d: d.judge(seat, asked))
            return
        elif rest == "me.json" and seat is not None:
            body = seat.me_json(proposals=self.proposals)
            answer = _response(
                200, {"content-type": "application/json", **closing}, body, head_only=head_only
            )
        elif rest == "events":
            self._start_stream(conn, head_only)
            return
        elif rest == "state.json":
            answer = _response(
                200,
                {"content-type": "application/json", **closing},
                self.state.body,
                head_only=head_only,
            )
        else:
            body, ctype = self._files[rest]
            answer = _response(200, {"content-type": ctype, **closing}, body, head_only=head_only)
        conn.write(answer)
        conn.answered(keep_alive)

    # -- the players' proposals ---------------------------------------------------------------

    def _propose(self, conn: Connection, req: h11.Request, seat: Seat) -> None:
        """``POST /<player token>/propose``: only from the players' page itself. A form of
        another site (a cross-site post, which needs no token to be tried blindly but carries
        the browser's Origin) is refused: the page posts JSON, which another site's page
        cannot send here without asking first, and says where it comes from."""
        headers = {k: v for k, v in req.headers}
        if req.method != b"POST":
            conn.refuse(405, {"allow": "POST"})
            return
        origin = headers.get(b"origin")
        host = headers.get(b"host", b"")
        fetch_site = headers.get(b"sec-fetch-site")
        ctype = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if (origin is not None and origin != b"http://" + host) or (
            fetch_site not in (None, b"same-origin")
        ):
            self._json_refusal(conn, 403, "Proposals are sent from the players' page only.")
            return
        if ctype != b"application/json":
            self._json_refusal(conn, 415, "A proposal is sent as JSON by the players' page.")
            return
        length = headers.get(b"content-length", b"").strip()
        if b"transfer-encoding" in headers or not length.isdigit() or int(length) > MAX_BODY:
            conn.refuse(413)
            return
        if self.to_app is None or self.desk is None:
            self._json_refusal(
                conn,
                503,
                "The organizer's app is not running this share, so a proposal has nowhere to "
                "go: tell the organizer your roll.",
            )
            return
        conn.read_body(lambda body: self._proposed(conn, seat, body))

    def _proposed(self, conn: Connection, seat: Seat, body: bytes) -> None:
        try:
            raw = parse_body(body)
            self.inbox.admit(seat, str(raw["id"]))
        except Refused as exc:
            self._json_refusal(conn, exc.status, exc.reason)
            return
        self._ask_desk(conn, False, False, lambda d: d.check(seat, raw), seat=seat)

    def _ask_desk(
        self,
        conn: Connection,
        keep_alive: bool,
        head_only: bool,
        ask: Callable[[Desk], Any],
        *,
        seat: Seat | None = None,
    ) -> None:
        """Answer with what the desk says (on a worker thread, one question at a time; at
        most ``MAX_DESK`` waiting: the rest are told to try again)."""
        if self.desk is None or self.desk_busy >= MAX_DESK:
            if seat is not None:
                self.inbox.checked(seat, None)
            self.refused(503)
            self._json_refusal(conn, 503, "Busy: try again in a moment.")
            return
        self.desk_busy += 1
        task = asyncio.ensure_future(self._desk_answer(conn, keep_alive, head_only, ask, seat))
        self.streams.add(task)
        task.add_done_callback(self.streams.discard)

    async def _desk_answer(
        self,
        conn: Connection,
        keep_alive: bool,
        head_only: bool,
        ask: Callable[[Desk], Any],
        seat: Seat | None,
    ) -> None:
        desk = self.desk
        assert desk is not None
        if self._desk_lock is None:
            self._desk_lock = asyncio.Lock()
        try:
            async with self._desk_lock:
                answer = await asyncio.to_thread(ask, desk)
        except Refused as exc:
            if seat is not None:
                self.inbox.checked(seat, None)
            self._json_refusal(conn, exc.status, exc.reason)
            return
        except (UserError, StorageError) as exc:
            if seat is not None:
                self.inbox.checked(seat, None)
            self._json_refusal(conn, 409, str(exc))
            return
        finally:
            self.desk_busy -= 1
        if isinstance(answer, Proposal):
            assert seat is not None
            self.inbox.checked(seat, answer)
            if self.to_app is not None:
                self.to_app("proposal", answer.to_json())
            self.publish({"proposals": self.inbox.part()})
            answer = {"id": answer.id, "status": WAITING, "text": answer.text}
        body = json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()
        closing = {} if keep_alive else {"connection": "close"}
        fields = {"content-type": "application/json", **closing}
        conn.write(_response(200, fields, body, head_only=head_only))
        conn.answered(keep_alive)

    def _json_refusal(self, conn: Connection, status: int, reason: str) -> None:
        """A refusal the player's page shows: ``{"error": reason}``; the connection closes."""
        self.refused(status)
        body = json.dumps({"error": reason}, ensure_ascii=False).encode()
        fields = {"content-type": "application/json", "connection": "close"}
        conn.write(_response(status, fields, body))
        conn.close()

    def answered_by_app(self, proposal_id: str, status: str, note: str) -> None:
        """The organizer's answer to a proposal (on the loop): the pages show it. An answer
        its status does not take (``proposals.ANSWERS``) is refused and changes nothing; one
        set aside after correcting that the battle moved on from is dropped, and the app is
        told so as for any other."""
        settled = self.inbox.settle(proposal_id, status, note)
        if settled is None:
            log.info("share: the answer %r to a proposal was refused", status)
            return
        if settled == DROPPED and status != DROPPED and self.to_app is not None:
            self.to_app("dropped", {"id": proposal_id})
        self.publish({"proposals": self.inbox.part()})

    def turn_is(self, turn: str | None) -> None:
        """The battle is at ``turn`` (on the loop): the proposals made before are dropped,
        and the app is told."""
        gone = self.inbox.moved_on(turn)
        for proposal_id in gone:
            if self.to_app is not None:
                self.to_app("dropped", {"id": proposal_id})
        if gone:
            self.publish({"proposals": self.inbox.part()})

    # -- the streams --------------------------------------------------------------------------

    def _start_stream(self, conn: Connection, head_only: bool) -> None:
        if self.watchers >= MAX_WATCHERS:
            self.refused(503)
            conn.write(_page(503, TOO_MANY, {"retry-after": "30"}))
            conn.close()
            return
        head = (
            "HTTP/1.1 200 OK\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in SECURITY_HEADERS.items())
            + "content-type: text/event-stream; charset=utf-8\r\n"
            "x-accel-buffering: no\r\nconnection: close\r\n\r\n"
        ).encode("latin-1")
        conn.write(head)
        if head_only:
            conn.close()
            return
        conn.streaming = True
        self.watchers += 1
        task = asyncio.ensure_future(self._send_states(conn))
        self.streams.add(task)
        task.add_done_callback(lambda t: self._stream_ended(conn, t))

    def _stream_ended(self, conn: Connection, task: asyncio.Task[None]) -> None:
        self.streams.discard(task)
        self.watchers -= 1
        conn.close()

    async def _send_states(self, conn: Connection) -> None:
        """The state now, then after each change; a comment every ``PING_SECONDS`` when
        nothing changes; the end of the share when it ends for good."""
        assert self._changed is not None and self._closing is not None
        sent = -1
        while not conn.lost.is_set():
            state = self.state
            if self._closing.is_set():
                if self.ended:
                    conn.write(b"event: ended\ndata: {}\n\n")
                return
            chunk = (
                b"retry: 1000\nevent: state\ndata: " + state.since(max(sent, 0)) + b"\n\n"
                if state.version != sent
                else b": ping\n\n"
            )
            sent = state.version
            conn.write(chunk)
            paused = conn.paused_since
            if conn.backlog > MAX_BACKLOG or (
                paused is not None and time.monotonic() - paused > SEND_TIMEOUT
            ):
                self.refused("not reading")
                conn.abort()  # the phone stopped reading: let its place go
                return
            if self.state.version != sent:
                continue
            waits = {
                asyncio.ensure_future(self._changed.wait()),
                asyncio.ensure_future(self._closing.wait()),
                asyncio.ensure_future(conn.lost.wait()),
            }
            try:
                await asyncio.wait(waits, timeout=PING_SECONDS, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()


_REFUSAL_NAMES: dict[int | str, str] = {
    400: "malformed",
    404: "not found (no token)",
    405: "write methods",
    403: "cross-site posts",
    409: "proposals refused",
    413: "with a body",
    415: "not JSON",
    422: "proposals refused",
    429: "too many proposals",
    421: "for another host",
    431: "heads too large",
    503: "table full",
    "slow": "heads too slow",
    "dropped": "waiting connections dropped",
    "not reading": "streams not read",
}


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` that no other program shares: Windows binds
    exclusively (``SO_EXCLUSIVEADDRUSE``; its ``SO_REUSEADDR`` would let two programs listen on
    one port), elsewhere ``SO_REUSEADDR`` only lets a restarted share take its port back from
    connections still closing, never from a program listening on it (``OSError``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        exclusive = getattr(socket, "SO_EXCLUSIVEADDRUSE", None)
        if exclusive is not None:
            sock.setsockopt(socket.SOL_SOCKET, exclusive, 1)
        else:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(512)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


class ShareServer:
    """Serves one share on a thread of its own until ``stop()``."""

    def __init__(
        self,
        services: Services,
        shared: Shared,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str | None = None,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self.shared = shared
        self.host = host
        self.token = token or new_token()
        self._data = PageData(services, shared)
        self._services = services
        self._poll_seconds = poll_seconds
        self.app = ShareApp(self.token, (self._data.live, self._data.campaign))
        desk_services = services.for_thread() if services.connected else services
        self.app.desk = Desk(desk_services, lambda: battle_ids(desk_services, shared)[0])
        self._requested_port = port
        self.port = port
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        #: Guards starting against a ``stop()`` from another thread (the app quitting while
        #: its worker is still in ``start()``): a share stopped first never starts serving.
        self._lock = threading.Lock()
        self._stopped = False
        self._ended = True
        self._done: asyncio.Event | None = None
        self.campaign_name = ""

    @property
    def url(self) -> str:
        """The page's address on the address listened on (``network.shown_address`` gives the
        one a phone types when the server listens on every interface)."""
        return self.url_for(self.host)

    def url_for(self, host: str) -> str:
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/{self.token}/"

    def send_proposals_to(self, to_app: Callable[[str, dict[str, Any]], None] | None) -> None:
        """Where the players' proposals go (``to_app(word, value)``, called on the server's
        thread; ``None``: nowhere, they are refused). Set before ``start()``."""
        self.app.to_app = to_app

    def answer(self, proposal_id: str, status: str, note: str = "") -> None:
        """The organizer's answer to a proposal (from any thread): the pages show it."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.app.answered_by_app, proposal_id, status, note)

    def player_url(self, host: str, token: str) -> str:
        """A player's own link on ``host`` (the watch-only link's address, their token)."""
        return self.url_for(host).replace(f"/{self.token}/", f"/{token}/")

    def set_players(self, tokens: Mapping[PlayerId, str]) -> dict[str, Seat]:
        """Serve the players' own links ``tokens`` (player -> token; a player left out has
        none: their old link is not found from now on). Reads the players' names (on the
        caller's thread); the server takes them on its loop. Returns the seats served."""
        seats = seats_for(self._services, self.shared.campaign_id, tokens)
        loop = self._loop
        if loop is None or loop.is_closed():
            self.app.seats.set(seats)
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.app.seats.set, seats)
        return seats

    @property
    def watchers(self) -> int:
        """How many pages are watching now."""
        return self.app.watchers

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Read the campaign, bind the socket and start serving (``OSError`` when the address
        cannot be listened on, ``UserError`` / ``StorageError`` when the campaign cannot be
        read). Does nothing once ``stop()`` was called."""
        self.campaign_name = self._data.campaign_name()
        # The watch takes its first look before the first read: a change made from now on,
        # even before the server thread runs, is seen as a change, not as the starting point.
        watch = self._services.change_watch(others_only=False)
        try:
            watch.poll()
            for reader in self.app.readers:
                self.app.publish(self.app.read(reader))
            self.app.turn_is(self._data.turn)  # what a proposal set aside is checked against
            serving = self._serve_on_thread(watch)
        except BaseException:
            watch.close()
            raise
        if not serving:  # stopped while reading or binding: serve nothing
            watch.close()
            return
        if not self._ready.wait(10):
            raise OSError("the share server did not start")

    def _serve_on_thread(self, watch: ChangeWatch) -> bool:
        """Bind the socket and start the server's thread, which then owns ``watch``; False
        (nothing started) once ``stop()`` was called."""
        sock = listening_socket(self.host, self._requested_port)
        with self._lock:
            if self._stopped:
                sock.close()
                return False
            self._sock, self.port = sock, sock.getsockname()[1]
            self.app.port = self.port
            self._thread = threading.Thread(
                target=self._run, args=(sock, watch), name="brikdesk-share", daemon=True
            )
            self._thread.start()
        return True

    def _run(self, sock: socket.socket, watch: ChangeWatch) -> None:
        asyncio.run(self._serve(sock, watch))

    async def _serve(self, sock: socket.socket, watch: ChangeWatch) -> None:
        loop = asyncio.get_running_loop()
        self._done = asyncio.Event()
        self._loop = loop
        server = await loop.create_server(lambda: Connection(self.app), sock=sock)
        tasks = [
            asyncio.ensure_future(self._watch(watch)),
            asyncio.ensure_future(self.app.report_refusals()),
        ]
        self._ready.set()
        if self._stopped:
            self._done.set()
        try:
            await self._done.wait()
        finally:
            server.close()
            self.app.close_all(ended=self._ended)
            if self.app.streams:  # each stream says goodbye (a second at most for them all)
                await asyncio.wait(set(self.app.streams), timeout=1)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for conn in list(self.app.connections):
                conn.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(server.wait_closed(), 2)

    async def _watch(self, watch: ChangeWatch) -> None:
        """Poll for changes; on one, read the page's data again and publish it."""
        try:
            while True:
                await asyncio.sleep(self._poll_seconds)
                try:
                    if await asyncio.to_thread(watch.poll):
                        await asyncio.sleep(SETTLE_SECONDS)
                        await asyncio.to_thread(watch.poll)  # what came meanwhile is read now
                        for reader in self.app.readers:  # the battle first: what is watched
                            self.app.publish(await asyncio.to_thread(self.app.read, reader))
                        self.app.turn_is(self._data.turn)
                except Exception:  # a bad poll: say so, keep serving the last state
                    log.exception("share: could not read the campaign again")
        finally:
            await asyncio.to_thread(watch.close)

    def stop(self, *, ended: bool = True) -> None:
        """Stop serving: end the streams (``ended``: telling the pages the share ended; False
        when it starts again at once), close the socket, wait for the thread. Called before
        ``start()`` has finished, from any thread: it will not serve."""
        with self._lock:
            self._stopped = True
            self._ended = ended
            loop, thread = self._loop, self._thread
        if thread is None:
            return
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop ended on its own
                loop.call_soon_threadsafe(self._finish)
        thread.join(10)
        self._thread = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _finish(self) -> None:
        if self._done is not None:
            self._done.set()
