"""``brikdesk print --army NAME_OR_ID|--battle NAME_OR_ID --out FILE.pdf``: a roster sheet.

An army's sheet, or the sheet of exactly the units mustered into a battle.

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
    p.add_argument("--out", metavar="FILE.pdf", required=True, help="the PDF to write")
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
    from brikdesk.domain.sheets import RosterSheetOptions
    from brikdesk.errors import UserError
    from brikdesk.services.printing import PrintService, check_out_path

    def body() -> int:
        out = check_out_path(args.out, ".pdf")
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


def _n(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
