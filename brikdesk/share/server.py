"""The players' page server: read-only, on the local network, live through Server-Sent Events.

``ShareServer(services, shared, host=..., port=...)`` binds its socket in ``start()`` (so a
taken port is an ``OSError`` for the caller to show) and serves on a thread of its own with an
asyncio loop: uvicorn's HTTP/1.1 (h11) under a small ASGI app that answers with Starlette's
responses. ``stop()`` ends every stream and the thread. Nothing it answers changes anything.

What it answers, and only under ``/<token>/`` (``token``: 144 random bits, ``secrets``):
``/`` the page, ``share.css``, ``share.js``, ``icon.svg`` (files of ``resources/share`` read at
start), ``state.json`` (what the page shows, ``page_data``) and ``events`` (a Server-Sent
Events stream: the state when connected and again after every change). Everything else,
and anything without the token or with another, is 404.

Safe to switch on in a club hall: only GET and HEAD (else 405); a request with a
body (413) or more than ``MAX_HEADERS`` headers (431) is refused; h11 refuses a request head
over ``MAX_HEAD_BYTES`` (400); a connection that has not sent a whole request head within
``HEAD_TIMEOUT`` seconds, or sits idle ``IDLE_TIMEOUT`` seconds after an answer, is closed; a
stream the client stops reading for ``SEND_TIMEOUT`` seconds is dropped; at most
``MAX_WATCHERS`` pages watch at once (the next gets a page saying so, 503), and uvicorn refuses
more than ``MAX_CONNECTIONS`` sockets in all. Every answer carries a strict Content-Security-
Policy (``default-src 'self'``: the page loads nothing from elsewhere, nothing inline),
``Referrer-Policy: no-referrer`` (the token never leaves in a Referer), ``nosniff`` and
``no-store``.

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
import json
import logging
import socket
import threading
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

import uvicorn
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from uvicorn.protocols.http.h11_impl import H11Protocol

from brikdesk.errors import StorageError, UserError
from brikdesk.paths import resource_path
from brikdesk.services import Services
from brikdesk.services.watch import ChangeWatch
from brikdesk.share import Shared, new_token
from brikdesk.share.page_data import PageData

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

MAX_WATCHERS = 64
MAX_CONNECTIONS = 160
MAX_HEADERS = 40
MAX_HEAD_BYTES = 8 * 1024
HEAD_TIMEOUT = 10.0
IDLE_TIMEOUT = 5
SEND_TIMEOUT = 10.0
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
    "icon.svg": ("icon.svg", "image/svg+xml"),
}

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}

#: Refusals close the connection.
_CLOSING = {**SECURITY_HEADERS, "connection": "close"}

_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
</head><body><h1>{title}</h1><p>{text}</p></body></html>"""


def _html(status: int, title: str, text: str, headers: dict[str, str] | None = None) -> Response:
    return HTMLResponse(
        _PAGE.format(title=title, text=text),
        status_code=status,
        headers={**SECURITY_HEADERS, **(headers or {})},
    )


NOT_FOUND = ("Not found", "There is nothing here. Ask the organizer for the page's address.")
TOO_MANY = (
    "Too many devices",
    f"This page is already open on {MAX_WATCHERS} devices, the most BrikDesk serves. "
    "Close it on a device that no longer needs it, then reload here.",
)


class _TimedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for the request head: a client that opens a
    connection (or keeps one alive) and trickles its headers is closed after
    ``HEAD_TIMEOUT`` seconds, so slow clients cannot hold the connections."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if (self.cycle is None or self.cycle.response_complete) and not (
            self.transport.is_closing()
        ):
            self.transport.close()

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # a whole request head arrived
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # The next request's head must come within the idle time plus the head's own time.
        self._disarm()
        self._head_timer = self.loop.call_later(IDLE_TIMEOUT + HEAD_TIMEOUT, self._head_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


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


class ShareApp:
    """The ASGI app: the token gate, the limits, the files, the state and the streams."""

    def __init__(self, token: str, readers: Sequence[Reader]) -> None:
        self.token = token
        self._prefix = f"/{token}"
        self.readers = tuple(readers)
        self._files = {
            path: (resource_path(f"share/{name}").read_bytes(), ctype)
            for path, (name, ctype) in FILES.items()
        }
        self.state = PageState()
        self.watchers = 0
        self._changed: asyncio.Event | None = None
        self._closing: asyncio.Event | None = None

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

    def close_streams(self) -> None:
        if self._closing is not None:
            self._closing.set()

    # -- ASGI ---------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        if self._changed is None:
            self._changed = asyncio.Event()
            self._closing = asyncio.Event()
        response = self._refusal(scope)
        if response is not None:
            await response(scope, receive, send)
            return
        rest = scope["path"][len(self._prefix) :]
        if rest == "":
            await RedirectResponse(f"{self._prefix}/", 308, SECURITY_HEADERS)(scope, receive, send)
        elif rest == "/events":
            await self._stream(scope, receive, send)
        elif rest == "/state.json":
            await Response(
                self.state.body, headers=SECURITY_HEADERS, media_type="application/json"
            )(scope, receive, send)
        else:
            body, ctype = self._files[rest[1:]]
            await Response(body, headers=SECURITY_HEADERS, media_type=ctype)(scope, receive, send)

    def _refusal(self, scope: Scope) -> Response | None:
        """The answer to a request refused before it is served, or None to serve it."""
        path: str = scope["path"]
        token, _, rest = path[1:].partition("/")
        known = rest in FILES or rest in ("events", "state.json") or path == self._prefix
        if not (hmac.compare_digest(token.encode(), self.token.encode()) and known):
            return _html(404, *NOT_FOUND, {"connection": "close"})
        if scope["method"] not in ("GET", "HEAD"):
            return PlainTextResponse(
                "Method not allowed: this page is read-only.\n",
                405,
                {**_CLOSING, "allow": "GET, HEAD"},
            )
        headers: list[tuple[bytes, bytes]] = scope["headers"]
        if len(headers) > MAX_HEADERS or sum(len(k) + len(v) for k, v in headers) > MAX_HEAD_BYTES:
            return PlainTextResponse("Request headers too large.\n", 431, _CLOSING)
        for key, value in headers:
            if (key == b"content-length" and value.strip() not in (b"", b"0")) or (
                key == b"transfer-encoding"
            ):
                return PlainTextResponse("A request body is not accepted.\n", 413, _CLOSING)
        if rest == "events" and self.watchers >= MAX_WATCHERS:
            return _html(503, *TOO_MANY, {"retry-after": "30"})
        return None

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The Server-Sent Events stream: the state now, then after each change."""
        assert self._changed is not None and self._closing is not None
        self.watchers += 1
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [
                        (k.encode(), v.encode())
                        for k, v in {
                            **SECURITY_HEADERS,
                            "content-type": "text/event-stream; charset=utf-8",
                            "x-accel-buffering": "no",
                        }.items()
                    ],
                }
            )
            if scope["method"] == "HEAD":
                await send({"type": "http.response.body", "body": b""})
                return
            gone = asyncio.ensure_future(self._until_disconnect(receive))
            try:
                await self._send_states(send, gone)
            finally:
                gone.cancel()
        finally:
            self.watchers -= 1

    async def _until_disconnect(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    async def _send_states(self, send: Send, gone: asyncio.Future[None]) -> None:
        assert self._changed is not None and self._closing is not None
        closing = asyncio.ensure_future(self._closing.wait())
        sent = -1
        try:
            while True:
                state = self.state
                chunk = (
                    b"retry: 1000\nevent: state\ndata: " + state.since(max(sent, 0)) + b"\n\n"
                    if state.version != sent
                    else b": ping\n\n"
                )
                sent = state.version
                try:
                    await asyncio.wait_for(
                        send({"type": "http.response.body", "body": chunk, "more_body": True}),
                        SEND_TIMEOUT,
                    )
                except (TimeoutError, OSError):
                    return  # the phone stopped reading: let its place go
                if self.state.version != sent:
                    continue
                changed = asyncio.ensure_future(self._changed.wait())
                waits: set[asyncio.Future[Any]] = {changed, gone, closing}
                await asyncio.wait(
                    waits,
                    timeout=PING_SECONDS,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                changed.cancel()
                if gone.done() or closing.done():
                    break
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            closing.cancel()


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
        self._requested_port = port
        self.port = port
        self._sock: socket.socket | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        #: Guards starting against a ``stop()`` from another thread (the app quitting while
        #: its worker is still in ``start()``): a share stopped first never starts serving.
        self._lock = threading.Lock()
        self._stopped = False
        self.campaign_name = ""

    @property
    def url(self) -> str:
        """The page's address on the address listened on (``network.shown_address`` gives the
        one a phone types when the server listens on every interface)."""
        return self.url_for(self.host)

    def url_for(self, host: str) -> str:
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/{self.token}/"

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
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self._requested_port))
            sock.listen(128)
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            http=_TimedH11,
            ws="none",
            lifespan="off",
            loop="asyncio",
            log_config=None,
            log_level="warning",
            access_log=False,
            server_header=False,
            date_header=False,
            limit_concurrency=MAX_CONNECTIONS,
            timeout_keep_alive=IDLE_TIMEOUT,
            timeout_graceful_shutdown=2,
            h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        )
        with self._lock:
            if self._stopped:
                sock.close()
                return False
            self._sock, self.port = sock, port
            self._server = uvicorn.Server(config)
            self._thread = threading.Thread(
                target=self._run, args=(watch,), name="brikdesk-share", daemon=True
            )
            self._thread.start()
        return True

    def _run(self, watch: ChangeWatch) -> None:
        assert self._server is not None and self._sock is not None
        asyncio.run(self._serve(self._server, self._sock, watch))

    async def _serve(self, server: uvicorn.Server, sock: socket.socket, watch: ChangeWatch) -> None:
        self._loop = asyncio.get_running_loop()
        watcher = asyncio.ensure_future(self._watch(watch))
        self._ready.set()
        try:
            await server.serve(sockets=[sock])
        finally:
            watcher.cancel()

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
                except Exception:  # a bad poll: say so, keep serving the last state
                    log.exception("share: could not read the campaign again")
        finally:
            await asyncio.to_thread(watch.close)

    def stop(self) -> None:
        """Stop serving: end the streams, close the socket, wait for the thread (called before
        ``start()`` has finished, from any thread: it will not serve)."""
        with self._lock:
            self._stopped = True
            loop, server, thread = self._loop, self._server, self._thread
        if server is None or thread is None:
            return
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop ended on its own
                loop.call_soon_threadsafe(self.app.close_streams)
        server.should_exit = True
        thread.join(10)
        self._server = self._thread = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None
