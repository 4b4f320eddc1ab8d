"""``brikdesk import FILE.json [--name NAME]``: read an exported campaign back as a new one.

A file that is broken, truncated, foreign or hostile is refused whole with a message naming
the place in the file (a JSON path such as ``$.armies[0].units[3].status``); nothing is written.
A campaign of the same name is not replaced: give the import another name with ``--name``.
``-`` reads standard input: ``brikdesk export --out - | brikdesk --db other.sqlite3 import -``.
UTF-8 (with or without a byte order mark) and UTF-16 with one (Windows PowerShell's ``>``) are
read.
"""

from __future__ import annotations

import argparse

from brikdesk.limits import printable


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        metavar="FILE.json",
        help="a file written by 'brikdesk export' ('-' for standard input)",
    )
    p.add_argument("--name", metavar="NAME", help="import under this campaign name")


def run(args: argparse.Namespace) -> int:
    from brikdesk.commands._storage import opened, run_storage
    from brikdesk.commands.common import TerminalProgress
    from brikdesk.errors import UserError

    def body() -> int:
        with opened(args) as (_db, sv):
            progress = TerminalProgress("Importing")
            try:
                if args.file == "-":
                    c = sv.transfer.import_campaign(
                        _standard_input(),
                        name=args.name,
                        source="standard input",
                        progress=progress,
                        undoable=False,
                    ).value
                else:
                    c = sv.transfer.import_file(
                        args.file, name=args.name, progress=progress, undoable=False
                    ).value
            except UserError as exc:
                if exc.field == "name" and args.name is None:
                    raise UserError(
                        f"{exc} (use --name NEW to import it as a copy)", field="name"
                    ) from None
                raise
            finally:
                progress.finish()
            # Flushed at once: the import is committed, so say so before anything else can
            # fail or the process be stopped (output to a pipe is otherwise held back).
            print(
                f"Imported '{printable(c.name)}' as campaign {c.id}: {c.counts}",
                flush=True,
            )
            return 0

    return run_storage("import", body)


def _standard_input() -> bytes:
    """Standard input's bytes, never more than the size limit + 1 (a larger document is then
    refused as too large, as a file would be)."""
    import sys

    from brikdesk.limits import MAX_FILE_BYTES

    return sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
