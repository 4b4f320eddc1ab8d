"""The players' page server as a process of its own: ``brikdesk share --for-app``.

Serving from a thread of the app took the GUI thread's GIL whenever the server read the
battle again and sent it to the phones: with 50 pages, End Turn on the 500-unit battle took
some 9 ms (median) longer. The same server in its own process (the code of ``brikdesk share``,
which reads the database itself and sees the app's writes through the change watch) costs the
app nothing but reading a few lines.

``ShareProcess`` starts it with ``QProcess`` (``[sys.executable, "share", ...]`` in the
PyInstaller bundle, else ``python -m brikdesk share``) and follows what it says on its standard
output: ``Serving <campaign> at <URL>`` once it listens, then ``Watching N`` whenever the number
of watching pages changes, and ``proposal {...}`` / ``dropped {...}`` for the players'
proposals (``proposed``, ``dropped``); the players' links and the organizer's answers go to it
as lines on its standard input (``send_players``, ``answer``: ``answer {"id", "status",
"note"}``, the status ``accepted``, ``rejected`` or ``correcting`` for a waiting proposal, then
``corrected`` or ``waiting`` for one being corrected; see ``brikdesk.commands.share``), written
by Qt when the event loop runs, so the GUI thread never waits on the share. The database URL (it may hold a password) goes in ``BRIKDESK_DB`` and
the token on standard input, so that neither shows in the process listing. ``stop()`` closes
its standard input, which the process takes as its cue to stop cleanly; one that outlives
``STOP_MS`` is killed. No signal is sent first: on Windows ``terminate()`` is a window message
that a console process never sees, so closing the input is the one way that works everywhere. If the app itself dies, the end of the process's standard input
stops it.
"""

from __future__ import annotations

import json
import logging
import sys

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer, Signal

from brikdesk.domain.ids import PlayerId
from brikdesk.paths import DB_ENV
from brikdesk.share import Shared

log = logging.getLogger(__name__)

#: How long a stopped server may take to end before it is killed (milliseconds).
STOP_MS = 5000
#: How many of the server's last error lines are kept to say why it failed.
ERROR_LINES = 5


def share_command() -> list[str]:
    """The program and first arguments that run ``brikdesk share`` in a process of its own."""
    if getattr(sys, "frozen", False):  # the PyInstaller bundle: its executable is brikdesk
        return [sys.executable, "share"]
    return [sys.executable, "-m", "brikdesk", "share"]


class ShareProcess(QObject):
    """One share served by ``brikdesk share --for-app``; ``changed`` tells every change of
    state (started, watchers, ended) and ``problem`` says what went wrong, if anything."""

    changed = Signal()
    #: A player's proposal, checked by the share (``brikdesk.share.proposals.Proposal``).
    proposed = Signal(object)
    #: A proposal's id: the battle moved on before the organizer answered it.
    dropped = Signal(str)

    def __init__(
        self,
        shared: Shared,
        database_url: str,
        *,
        host: str,
        port: int,
        token: str,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.shared = shared
        self.host = host
        self.port = port
        #: The port asked for (0: any free one); ``port`` becomes the one it got.
        self.requested_port = port
        self.token = token
        #: The players' own links' tokens (``send_players``).
        self.players: dict[PlayerId, str] = {}
        self.url = ""
        self.watchers = 0
        self.problem = ""
        self.stopping = False
        self._database_url = database_url
        self._out = b""
        self._errors: list[str] = []
        self.process = QProcess(self)
        self.process.readyReadStandardOutput.connect(self._read_output)
        self.process.readyReadStandardError.connect(self._read_errors)
        self.process.finished.connect(self._finished)
        self.process.errorOccurred.connect(self._error)

    @property
    def starting(self) -> bool:
        return not self.url and self.running

    @property
    def running(self) -> bool:
        return self.process.state() != QProcess.ProcessState.NotRunning and not self.stopping

    def start(self) -> None:
        program, *args = share_command()
        args += ["--for-app", "--bind", self.host, "--port", str(self.port)]
        args += ["--campaign", str(self.shared.campaign_id)]
        if self.shared.battle_id is not None:
            args += ["--battle", str(self.shared.battle_id)]
        env = QProcessEnvironment.systemEnvironment()
        env.insert(DB_ENV, self._database_url)
        self.process.setProcessEnvironment(env)
        self.process.start(program, args)
        self.process.write(f"{self.token}\n".encode())
        # Always, even none: the share reads this line before it serves its first request.
        self.send_players(self.players)

    def send_players(self, tokens: dict[PlayerId, str]) -> None:
        """Serve the players' own links ``tokens`` (all of them: a player left out has none).
        Written to the process's input, which Qt sends when the event loop runs: nothing
        waits here."""
        self.players = dict(tokens)
        self.send("players", {str(k): v for k, v in tokens.items()})

    def send(self, word: str, value: object) -> None:
        """One line to the server: ``word`` and ``value`` as JSON."""
        if self.running:
            line = f"{word} {json.dumps(value, separators=(',', ':'))}\n"
            self.process.write(line.encode())

    def stop(self) -> None:
        """Ask the server to stop (it ends within a second or so; ``changed`` says when)."""
        if self.stopping or self.process.state() == QProcess.ProcessState.NotRunning:
            return
        self.stopping = True
        self.process.closeWriteChannel()
        QTimer.singleShot(STOP_MS, self, self._kill)

    def _kill(self) -> None:
        if self.process.state() != QProcess.ProcessState.NotRunning:
            log.warning("share: the server did not stop within %d ms; killed", STOP_MS)
            self.process.kill()

    def wait(self, ms: int = STOP_MS) -> None:
        """Stop and wait for the process to end (the app quitting), killing it if it must."""
        self.stop()
        if not self.process.waitForFinished(ms):
            self.process.kill()
            self.process.waitForFinished(1000)

    # -- what it says -------------------------------------------------------------------------

    def _read_output(self) -> None:
        self._out += bytes(self.process.readAllStandardOutput().data())
        *lines, self._out = self._out.split(b"\n")
        for raw in lines:
            line = raw.decode(errors="replace").strip()
            if line.startswith("Serving ") and " at " in line:
                self.url = line.rsplit(" at ", 1)[1]
                self.port = _port(self.url, self.port)
            elif line.startswith("Watching "):
                count = line.removeprefix("Watching ")
                self.watchers = int(count) if count.isdigit() else self.watchers
            else:
                self._proposal_line(line)
                continue
            self.changed.emit()

    def _proposal_line(self, line: str) -> None:
        """``proposal {...}`` or ``dropped {...}`` from the share; anything else is left."""
        word, _sp, rest = line.partition(" ")
        if word not in ("proposal", "dropped"):
            return
        try:
            said = json.loads(rest)
            if word == "proposal":
                # The proposals' module brings the combat rules: imported with the first one,
                # not with the main window (it was 84 ms of the start).
                from brikdesk.share.proposals import Proposal

                self.proposed.emit(Proposal.from_json(said))
            else:
                self.dropped.emit(str(said["id"]))
        except (ValueError, KeyError, TypeError):
            log.warning("share: a line the app cannot read: %.80s", line)

    def answer(self, proposal_id: str, status: str, note: str = "") -> None:
        """The organizer's answer to a proposal, for the player's page."""
        self.send("answer", {"id": proposal_id, "status": status, "note": note})

    def _read_errors(self) -> None:
        text = bytes(self.process.readAllStandardError().data()).decode(errors="replace")
        lines = [s for s in text.splitlines() if s.strip()]
        for line in lines:  # into the app's log, where a problem report finds it
            log.warning("share server: %s", line)
        self._errors = [*self._errors, *lines][-ERROR_LINES:]

    def _finished(self, code: int, status: QProcess.ExitStatus) -> None:
        self._read_errors()
        if not self.stopping:
            said = self._errors[-1].removeprefix("brikdesk share: ") if self._errors else ""
            self.problem = said or (
                "the server stopped unexpectedly"
                if status is QProcess.ExitStatus.CrashExit
                else f"the server ended (exit status {code})"
            )
        self.watchers = 0
        self.changed.emit()

    def _error(self, error: QProcess.ProcessError) -> None:
        if error is QProcess.ProcessError.FailedToStart:
            self.problem = f"the server could not be started: {self.process.errorString()}"
            self.changed.emit()


def _port(url: str, default: int) -> int:
    from urllib.parse import urlsplit

    try:
        return urlsplit(url).port or default
    except ValueError:
        return default
