"""``brikdesk report --battle NAME_OR_ID --out FILE.pdf|FILE.md``: a battle report.

With ``--campaign NAME`` and no ``--battle``: the campaign report (standings, timeline, charts).

Written from the battle's event log: the account round by round (who attacked whom with what,
the dice and the result), a casualties table per player and a chart of casualties per round.
``.md`` (or ``.markdown``) writes Markdown for a forum post (the chart as a small table) and
needs no Qt; ``.pdf`` loads Qt inside ``run()`` only (offscreen when there is no display).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from brikdesk.commands.print_ import paper_arg


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Write the report of one battle from its event log, or with no --battle "
        "the campaign report (standings, timeline, charts), as a PDF or as "
        "Markdown for a forum post (the file's ending chooses)."
    )
    p.add_argument(
        "--battle", metavar="NAME_OR_ID", help="the battle: its id, its name or a unique part of it"
    )
    p.add_argument(
        "--campaign",
        metavar="NAME_OR_ID",
        help="look for the battle in this campaign only; with no --battle, the "
        "campaign to report on",
    )
    p.add_argument(
        "--out",
        metavar="FILE.pdf|FILE.md",
        required=True,
        help="the file to write: .pdf, or .md for Markdown",
    )
    p.add_argument(
        "--paper",
        type=paper_arg,
        default="a4",
        metavar="a4|letter",
        help="paper size of a PDF, portrait (default a4)",
    )
    p.add_argument(
        "--bw",
        action="store_true",
        help="black and white PDF: no coloured or filled areas, players told apart "
        "by line patterns (saves ink)",
    )


def run(args: argparse.Namespace) -> int:
    from brikdesk.commands._storage import opened, run_storage
    from brikdesk.errors import UserError
    from brikdesk.services.printing import PrintService, check_out_path, write_report_markdown

    def body() -> int:
        out = check_out_path(args.out, ".pdf", ".md", ".markdown")
        if args.bw and out.suffix.lower() != ".pdf":
            raise UserError("--bw is for a PDF; Markdown has no colours", field="bw")
        if args.battle is None:
            return _campaign_report(args, out)
        with opened(args) as (db, _sv):
            service = PrintService(db.sessions)
            battle = service.find_battle(args.battle, args.campaign)
            report = service.battle_report(battle.id)
        rounds = len(report.rounds)
        what = (
            f"'{report.title}' ({report.status_text}; {rounds} round"
            f"{'s' if rounds != 1 else ''}, {report.tally.text})"
        )
        if out.suffix.lower() == ".pdf":
            # Qt only now, and only for a PDF
            from ui.printing import ensure_gui_application
            from ui.printing.report import export_report_pdf

            ensure_gui_application()
            result = export_report_pdf(report, out, args.paper, black_and_white=args.bw)
            pages = result.pages
            bw = ", black and white" if args.bw else ""
            print(f"Wrote {pages} page{'s' if pages != 1 else ''}{bw} to {result.path}: {what}")
        else:
            path = write_report_markdown(report, out)
            print(f"Wrote Markdown to {path}: {what}")
        return 0

    return run_storage("report", body)


def _campaign_report(args: argparse.Namespace, out: Path) -> int:
    """``report --campaign NAME --out FILE`` with no ``--battle``: the campaign report."""
    from brikdesk.commands._storage import opened, pick_campaign
    from brikdesk.domain.history import history_markdown
    from brikdesk.errors import UserError
    from brikdesk.services.printing import write_text

    if args.campaign is None:
        raise UserError(
            "name the battle (--battle) or, for the campaign report, the campaign (--campaign)",
            field="battle",
        )
    with opened(args) as (_db, sv):
        c = pick_campaign(sv, args.campaign, "report on")
        history = sv.history.history(c.id)
    n = len(history.timeline)
    what = f"'{history.campaign}' ({n} finished battle{'s' if n != 1 else ''})"
    if out.suffix.lower() == ".pdf":
        from ui.printing import ensure_gui_application, export_campaign_pdf

        ensure_gui_application()
        result = export_campaign_pdf(history, out, args.paper, black_and_white=args.bw)
        bw = ", black and white" if args.bw else ""
        print(
            f"Wrote {result.pages} page{'s' if result.pages != 1 else ''}{bw} to "
            f"{result.path}: campaign report of {what}"
        )
    else:
        path = write_text(out, history_markdown(history))
        print(f"Wrote Markdown to {path}: campaign report of {what}")
    return 0
