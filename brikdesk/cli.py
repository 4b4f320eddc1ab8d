"""The ``brikdesk`` command.

With no subcommand it opens the app (the only path that imports Qt). Subcommands run headless and
never import a Qt module. Each subcommand lives in ``brikdesk/commands/<name>.py`` with
``add_arguments(parser)`` and ``run(args) -> int``; modules are imported only when needed, and must
keep their own imports light (SQLAlchemy, for instance, is imported inside ``run``).

Bad arguments print one line naming the argument and why, and exit with status 2.
"""

from __future__ import annotations

import argparse
import codecs
import gc
import importlib
import io
import sys
from collections.abc import Sequence

from brikdesk import __version__
from brikdesk.errors import UserError

#: name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "roll": ("brikdesk.commands.roll", "roll a dice expression and show every die"),
    "odds": ("brikdesk.commands.odds", "exact odds of an attack: hit, kill, Damage"),
    "export": ("brikdesk.commands.export", "write one whole campaign to a JSON file"),
    "import": ("brikdesk.commands.import_", "read an exported campaign back as a new campaign"),
    "list": ("brikdesk.commands.list", "show the campaigns, armies and battles with their ids"),
    "demo": ("brikdesk.commands.demo", "recreate the demo campaign"),
    "print": ("brikdesk.commands.print_", "write an army's roster sheet as a PDF (no window)"),
    "report": ("brikdesk.commands.report", "write a battle report as a PDF or Markdown"),
    "history": (
        "brikdesk.commands.history",
        "a campaign's timeline, standings, series over battles and leaderboards",
    ),
    "share": ("brikdesk.commands.share", "serve the players' read-only live page on the network"),
}


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in one line: ``brikdesk odds: --use: ...``."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="brikdesk", description="BrikDesk, a campaign manager for BrikWars.")
    parser.add_argument("--version", action="version", version=f"brikdesk {__version__}")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="SQLAlchemy database URL (default: a SQLite file in the user data "
        "folder; also BRIKDESK_DB)",
    )
    parser.add_argument(
        "--check-start",
        action="store_true",
        help="open the main window, wait until it is painted and the campaign "
        "shown (the database works), exit 0",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            importlib.import_module(module).add_arguments(p)
    return parser


def _command_name(argv: Sequence[str]) -> str | None:
    for arg in argv:
        if arg in COMMANDS:
            return arg
    return None


def utf8_streams() -> None:
    """Standard input, output and error in UTF-8, whatever the locale or the console's code
    page: on Windows a pipe or a file gets cp1252 otherwise, which cannot write "Łódź" or "→"
    (a crash) and makes ``brikdesk export --out - > f.json`` a file the import refuses. Each
    stream keeps its error handler; one that is not a text file (a test's capture) is left."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or ""
        if isinstance(stream, io.TextIOWrapper) and codecs.lookup(encoding).name != "utf-8":
            stream.reconfigure(encoding="utf-8")


def gui_main() -> int:
    """``brikdesk-app``: the app from a launcher with no console window (Windows' pythonw,
    a Start menu or Dock entry). There is no standard output or error then (``None``): what
    would be printed goes nowhere instead of failing; the log keeps what matters."""
    import os

    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    utf8_streams()
    # Only the chosen subcommand's module is imported (keeps `brikdesk odds` fast).
    wanted = _command_name(argv)
    asks_help = "-h" in argv or "--help" in argv
    parser = build_parser(only=None if asks_help and wanted is None else (wanted or ""))
    args = parser.parse_args(argv)
    if args.command is None:
        # Automatic collection stays off for the session: the GUI thread collects between
        # Qt's events (ui.collector, started once the campaign shows), never a worker thread
        # or a paint; start-up's few hundred thousand objects are frozen first.
        gc.disable()
        # Qt is imported only here: PySide6 first (its import question answered more cheaply,
        # ui.qt_start), then the window.
        from ui.qt_start import load_qt

        load_qt()
        from ui.app import run_app

        return run_app(args)
    module = importlib.import_module(COMMANDS[args.command][0])
    try:
        return int(module.run(args) or 0)
    except UserError as exc:
        print(f"brikdesk {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `brikdesk odds --json | head`: the reader went away
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
