"""The campaign report is the whole campaign: battles in progress with their
round and sides, and each finished battle's notes, in the history's JSON, text, Markdown and
PDF."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from brikdesk.domain.history import history_markdown, history_to_json, history_to_text
from brikdesk.services import Services
from brikdesk.services.demo import FORD_NOTE
from tests.pdfread import pdf_text
from tests.services.campaign_data import COVE, battle_id


def test_battles_in_progress_and_the_notes_of_finished_ones(
    demo_sv: Services, tmp_path: Path, qapp
) -> None:
    [c] = demo_sv.campaigns.list_campaigns()
    bid = battle_id(demo_sv, COVE)
    round_now = demo_sv.tracker.view(bid).state.round
    h = demo_sv.history.history(c.id)
    [going] = h.in_progress
    assert (going.name, going.round, going.sides) == (COVE, round_now, ("Tobias", "Ines"))
    js = history_to_json(h)
    assert js["in_progress"] == [
        {"battle": bid, "name": COVE, "round": round_now, "sides": ["Tobias", "Ines"]}
    ]
    line = f"{COVE}: round {round_now}, Tobias vs Ines"
    assert f"- {line}" in history_markdown(h)
    assert f"  {line}" in history_to_text(h)
    from ui.printing.campaign_report import export_campaign_pdf

    export_campaign_pdf(h, tmp_path / "going.pdf")
    text = " ".join(pdf_text(tmp_path / "going.pdf").split())
    assert f"Battles in progress {line}" in text

    am = demo_sv.aftermath.aftermath(bid)
    notes = "The posse sank the Bilge Crew's rowboat | twice."
    demo_sv.aftermath.finish(bid, replace(am.proposal, notes=notes))
    h = demo_sv.history.history(c.id)
    assert h.in_progress == ()
    assert history_to_json(h)["in_progress"] == []
    assert [e["notes"] for e in history_to_json(h)["timeline"]] == [FORD_NOTE, notes]
    assert "- **2. Raid on Bilge Cove**: The posse sank the Bilge Crew's rowboat \\| twice." in (
        history_markdown(h)
    )
    assert f"Notes of {COVE}: {notes}" in history_to_text(h)

    out = tmp_path / "campaign.pdf"
    export_campaign_pdf(h, out)
    text = " ".join(pdf_text(out).split())
    assert f"2. {COVE}: {notes}" in text
    assert f"1. Skirmish at Baseplate Ford: {FORD_NOTE}" in text


def test_the_standings_alone_leave_the_battles_in_progress_out_and_say_the_same(
    demo_sv: Services,
) -> None:
    # The campaign overview shows the standings only: it reads the history without the battles
    # in progress, whose rounds need each battle's log played through the tracker.
    [c] = demo_sv.campaigns.list_campaigns()
    whole = demo_sv.history.history(c.id)
    standings = demo_sv.history.history(c.id, in_progress=False)
    assert [b.name for b in whole.in_progress] == [COVE]
    assert standings.in_progress == ()
    assert standings == replace(whole, in_progress=())
