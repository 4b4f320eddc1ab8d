"""``brikdesk print --army NAME_OR_ID|--battle NAME_OR_ID --out FILE.pdf``: a roster sheet.

An army's sheet, or the sheet of exactly the units mustered into a battle. An army's roster
can also be written as text for a chat or forum post: the ending of ``--out`` chooses the
format (``.md`` Markdown, ``.txt`` plain text, ``.bbcode`` the forum's markup) and ``--out -``
writes it to standard output (``--format`` chooses, plain text by default).

No window opens: Qt is loaded only inside ``run()`` (offscreen when there is no display), after
the database has been read and closed. The army is named by id, by name (any case) or by a
unique part of its name; ``--campaign`` narrows the search. An unknown or ambiguous name exits
with status 2 and one line naming the candidates with their ids.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        t = text.strip()
        if not t.lstrip("-").isdigit() or not lo <= int(t) <= hi:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number from {lo} to {hi}")
        return int(t)

    return parse


def paper_arg(text: str) -> str:
    t = text.strip().lower()
    if t not in ("a4", "letter"):
        raise argparse.ArgumentTypeError(f"'{text}' is not a paper size; use a4 or letter")
    return t


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Write the roster sheet of one army as a PDF (no window): a card per unit "
        "with tick boxes for the Action, the Counters and Dead, a reference "
        "appendix and blank cards."
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--army", metavar="NAME_OR_ID", help="the army: its id, its name or a unique part of it"
    )
    which.add_argument(
        "--battle",
        metavar="NAME_OR_ID",
        help="instead of an army, the units mustered into this battle (every "
        "side; each card says whose unit it is)",
    )
    p.add_argument(
        "--campaign", metavar="NAME_OR_ID", help="look for the army or battle in this campaign only"
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        required=True,
        help="the file to write; its ending chooses: .pdf (the roster sheet), .md, .txt or "
        ".bbcode (the army's roster as text); - writes the text to standard output",
    )
    p.add_argument(
        "--format",
        choices=("text", "markdown", "bbcode"),
        default=None,
        help="the text format for --out - (default text)",
    )
    p.add_argument(
        "--paper",
        type=paper_arg,
        default="a4",
        metavar="a4|letter",
        help="paper size, portrait (default a4)",
    )
    p.add_argument(
        "--turns",
        type=whole_number(1, 12),
        default=6,
        metavar="N",
        help="turns of tick boxes beside each card, 1 to 12 (default 6)",
    )
    p.add_argument(
        "--bw", action="store_true", help="black and white: no coloured or filled areas (saves ink)"
    )
    p.add_argument(
        "--no-fold", action="store_true", help="one card per unit, even for identical units"
    )
    p.add_argument(
        "--warnings", action="store_true", help="print the roster warnings on the last page"
    )
    p.add_argument(
        "--blank-cards",
        type=whole_number(0, 30),
        default=6,
        metavar="N",
        help="blank cards for units gained at the table, 0 to 30 (default 6)",
    )
    p.add_argument(
        "--include-dead", action="store_true", help="also print units that are dead in the campaign"
    )


def run(args: argparse.Namespace) -> int:
    from brikdesk.commands._storage import opened, run_storage
    from brikdesk.domain.roster_text import SUFFIXES, format_for
    from brikdesk.domain.sheets import RosterSheetOptions
    from brikdesk.errors import UserError
    from brikdesk.services.printing import PrintService, check_out_path

    def body() -> int:
        if args.out == "-" or format_for(args.out) is not None:
            return _write_text(args)
        out = check_out_path(args.out, ".pdf", *SUFFIXES)
        options = RosterSheetOptions(
            paper=args.paper,
            turns=args.turns,
            fold_identical=not args.no_fold,
            black_and_white=args.bw,
            include_warnings=args.warnings,
            blank_cards=args.blank_cards,
        )
        if args.battle is not None and args.include_dead:
            raise UserError(
                "--include-dead is for an army: a battle's sheet prints exactly "
                "the units mustered into it",
                field="include_dead",
            )
        left_out: tuple[str, ...]
        with opened(args) as (db, _sv):
            service = PrintService(db.sessions)
            if args.battle is not None:
                battle = service.find_battle(args.battle, args.campaign)
                bjob = service.battle_roster_sheet(battle.id, options)
                sheet, left_out = bjob.sheet, ()
                what = f"'{bjob.battle}' ({' vs '.join(bjob.players)})"
            else:
                army = service.find_army(args.army, args.campaign)
                job = service.roster_sheet(army.id, options, include_dead=args.include_dead)
                sheet, left_out = job.sheet, job.left_out
                what = f"'{job.army.name}' ({job.army.player_name})"
        # Qt only now, and only here (design: printing imports Qt lazily in this command)
        from ui.printing import ensure_gui_application, export_pdf

        ensure_gui_application()
        result = export_pdf(sheet, out)
        units, cards = sheet.unit_count, len(sheet.cards)
        paper = "A4" if args.paper == "a4" else "Letter"
        print(
            f"Wrote {_n(result.pages, 'page')} to {result.path}: {what}, "
            f"{_n(units, 'unit')} on {_n(cards, 'card')}, "
            f"{paper}, {_n(args.turns, 'turn')}{', black and white' if args.bw else ''}"
        )
        if left_out:
            print(
                f"Left out {_n(len(left_out), 'unit')} dead in the campaign: "
                f"{', '.join(left_out)} (--include-dead prints "
                "them)"
            )
        return 0

    return run_storage("print", body)


def _write_text(args: argparse.Namespace) -> int:
    """The army's roster as text: to the file ``--out`` (its ending chooses the format) or,
    with ``--out -``, to standard output."""
    import sys

    from brikdesk.commands._storage import opened
    from brikdesk.domain.roster_text import SUFFIXES, format_for
    from brikdesk.errors import UserError
    from brikdesk.services.printing import PrintService, check_out_path, write_text

    if args.battle is not None:
        raise UserError(
            "--battle prints a PDF sheet; the text formats are for an army's roster (--army)",
            field="out",
        )
    to_stdout = args.out == "-"
    fmt = (args.format or "text") if to_stdout else format_for(args.out)
    if not to_stdout and args.format is not None and args.format != fmt:
        raise UserError(
            f"--format {args.format} does not match the ending of '{args.out}' ({fmt})",
            field="format",
        )
    out = None if to_stdout else check_out_path(args.out, *SUFFIXES)
    with opened(args) as (db, sv):
        army = PrintService(db.sessions).find_army(args.army, args.campaign)
        text = sv.roster.roster_text(army.id, fmt or "text")
    if out is None:
        sys.stdout.write(text)
        return 0
    written = write_text(out, text)
    print(f"Wrote the roster of '{army.name}' as {fmt} to {written}")
    return 0


def _n(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
