"""``brikdesk share [--campaign NAME_OR_ID] [--battle NAME_OR_ID] [--bind ADDRESS] [--port N]
[--players]``: serve the players' read-only live page with no window (``brikdesk.share``).

Prints one line, ``Serving <campaign> at <URL>`` with the whole address and its token, and
serves until Ctrl-C or SIGTERM, then stops cleanly (exit 0). No Qt. ``--players`` also serves
each player a link of their own and prints one line per player, ``Player <name>: <URL>``.

``--for-app``: how the app's Share dialog runs it, as a process of its own (so serving never
takes the app's CPU or its GIL): the token is the first line of standard input (kept out of the
process listing; an empty line makes a new one), a line ``Watching N`` is printed whenever the
number of watching pages changes, and the end of standard input stops it too (the app closed
it, or quit, or died). The app's further lines (``players {...}``: the players' own links;
``answer {...}``: the organizer's answer to a proposal) are followed as they come, and the
players' proposals go to the app as lines ``proposal {...}`` (and ``dropped {...}`` when the
battle moved on before an answer). An answer is ``accepted``, ``rejected`` or ``correcting``
(opened in the quick form) to a waiting proposal, then ``corrected`` (recorded from that form,
the result as the note) or ``waiting`` (the form closed without recording: it waits again, or
is dropped, with a ``dropped`` line, when the battle moved on); any other is refused
(``brikdesk.share.proposals.ANSWERS``). A standalone share has no app to send them to: it refuses
them, saying so.
"""

from __future__ import annotations

import argparse
import json
import logging
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from brikdesk.share.server import ShareServer

log = logging.getLogger(__name__)

#: Where the page is served by default: every interface of this computer, for the phones.
DEFAULT_BIND = "0.0.0.0"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--campaign",
        metavar="NAME_OR_ID",
        help="the campaign: its id, its name or a unique part of it (needed when "
        "there are several)",
    )
    p.add_argument(
        "--battle",
        metavar="NAME_OR_ID",
        help="the battle to show (default: the campaign's battle in progress)",
    )
    p.add_argument(
        "--bind",
        metavar="ADDRESS",
        default=DEFAULT_BIND,
        help=f"the address to listen on (default {DEFAULT_BIND}: every network of this "
        "computer; 127.0.0.1: this computer only)",
    )
    p.add_argument(
        "--port", metavar="N", type=int, default=0, help="the port (default: a free one)"
    )
    p.add_argument(
        "--players",
        action="store_true",
        help="also serve a link of their own to each player of the campaign and print one "
        "line per player, 'Player <name>: <URL>' (new links each run)",
    )
    p.add_argument(
        "--for-app",
        action="store_true",
        help="run for the app's Share dialog: read the token from the first line of standard "
        "input, print 'Watching N' when the number of watching pages changes, stop when "
        "standard input ends",
    )


#: How often the number of watching pages is looked at (``--for-app``), in seconds.
COUNT_SECONDS = 0.25


def run(args: argparse.Namespace) -> int:
    import signal
    import sys

    from brikdesk.commands._storage import opened, pick_campaign, run_storage
    from brikdesk.errors import UserError
    from brikdesk.share import Shared
    from brikdesk.share.network import shown_address
    from brikdesk.share.players import new_tokens
    from brikdesk.share.server import ShareServer

    if not 0 <= args.port <= 65535:
        raise UserError(f"--port: must be from 0 to 65535, not {args.port}")
    stop = threading.Event()
    token, first_players = _app_start() if args.for_app else (None, "")

    def body() -> int:
        with opened(args) as (_db, sv):
            c = pick_campaign(sv, args.campaign, "share")
            battle = (
                sv.printing.find_battle(args.battle, str(c.id)).id
                if args.battle is not None
                else None
            )
            server = ShareServer(
                sv, Shared(c.id, battle), host=args.bind, port=args.port, token=token
            )
            if args.for_app:  # the app is where the players' rolls go
                server.send_proposals_to(_to_app)
                if first_players:
                    _follow(server, "players", first_players)
            try:
                server.start()
            except OSError as exc:
                print(
                    f"brikdesk share: cannot listen on {args.bind}:{args.port}: {exc}",
                    file=sys.stderr,
                )
                return 1
            previous = {
                sig: signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGINT, signal.SIGTERM)
            }
            try:
                say(f"Serving {server.campaign_name} at {shown_address(server)}")
                if args.players:
                    tokens = new_tokens(p.id for p in sv.campaigns.list_players(c.id))
                    for player_token, seat in server.set_players(tokens).items():
                        url = shown_address(server).replace(
                            f"/{server.token}/", f"/{player_token}/"
                        )
                        say(f"Player {seat.name}: {url}")
                if args.for_app:
                    threading.Thread(target=_app_lines, args=(server, stop), daemon=True).start()
                watching = -1
                while not stop.wait(COUNT_SECONDS):
                    if not server.running:
                        print("brikdesk share: the server stopped", file=sys.stderr)
                        return 1
                    if args.for_app and server.watchers != watching:
                        watching = server.watchers
                        say(f"Watching {watching}")
            finally:
                server.stop()
                for sig, handler in previous.items():
                    signal.signal(sig, handler)
        return 0

    return run_storage("share", body)


def _app_start() -> tuple[str | None, str]:
    """What the app writes first (``--for-app``): the share's token, then the players' links
    (``players {...}``), read before the first request is served: read later, a phone that
    opened its link as the share started was told "not found"."""
    import sys

    from brikdesk.errors import UserError
    from brikdesk.share import valid_token

    token = read_line(sys.stdin.fileno()).strip() or None
    if token is not None and not valid_token(token):
        raise UserError("--for-app: the token on standard input is not a share's token")
    word, _sp, rest = read_line(sys.stdin.fileno()).strip().partition(" ")
    return token, rest if word == "players" else ""


#: The longest line the app sends (the players' tokens, an answer to a proposal).
MAX_LINE = 64 * 1024
_pending = bytearray()


def read_line(fd: int) -> str:
    """The next line of ``fd`` ("" at its end). Reads the file descriptor itself, not
    ``sys.stdin``: a thread blocked in the buffered reader holds its lock, and Python's exit
    after SIGTERM would then abort on it. A line longer than ``MAX_LINE`` is cut there."""
    import os

    while b"\n" not in _pending and len(_pending) < MAX_LINE:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            break
        _pending.extend(chunk)
    end = _pending.find(b"\n")
    end = len(_pending) if end < 0 else end + 1
    line = bytes(_pending[:end])
    del _pending[:end]
    return line.decode("utf-8", "replace")


_out = threading.Lock()


def say(line: str) -> None:
    """One whole line on standard output, never interleaved with another thread's."""
    with _out:
        print(line, flush=True)


def _to_app(word: str, value: dict[str, Any]) -> None:
    """A line to the app (``--for-app``): ``proposal {...}`` (a player's proposal, checked),
    ``dropped {"id": ...}`` (the battle moved on before the organizer answered)."""
    say(f"{word} {json.dumps(value, ensure_ascii=False, separators=(',', ':'))}")


def _app_lines(server: ShareServer, stop: threading.Event) -> None:
    """Follow what the app says on standard input (``--for-app``), one line each:
    ``players {"<player id>": "<token>", ...}`` (the players' own links, all of them each
    time), ``answer {"id": ..., "status": ..., "note": ...}`` (the organizer's answer to a
    proposal, see the module's docstring); set ``stop`` once it ends (the app closed it or is
    gone)."""
    import sys

    fd = sys.stdin.fileno()
    while line := read_line(fd):
        word, _sp, rest = line.strip().partition(" ")
        _follow(server, word, rest)
    stop.set()


def _follow(server: ShareServer, word: str, rest: str) -> None:
    """Act on one of the app's lines (``_app_lines``)."""
    from brikdesk.share.players import parse_tokens

    try:
        if word == "players":
            server.set_players(parse_tokens(rest))
        elif word == "answer":
            said = json.loads(rest)
            server.answer(str(said["id"]), str(said["status"]), str(said.get("note", "")))
    except Exception:  # a line it cannot act on changes nothing; the share goes on
        log.exception("share: could not follow the app's line %r", word)
