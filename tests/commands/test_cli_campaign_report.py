"""``brikdesk report --campaign NAME`` with no ``--battle``: the campaign report."""

from __future__ import annotations

from pathlib import Path

from tests.commands.headless import run
from tests.pdfread import pdf_pages, pdf_text


def test_the_campaign_report_as_pdf_and_markdown(tmp_path: Path, demo_copy: str) -> None:
    url = demo_copy
    out = tmp_path / "campaign.pdf"
    done = run(["--db", url, "report", "--campaign", "demo", "--out", str(out)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (
        "campaign report of 'Demo: Battle for Baseplate Valley' (1 finished battle)" in done.stdout
    )
    text = pdf_text(out)
    for words in (
        "campaign report",
        "Standings",
        "Army value",
        "Units alive",
        "Casualties so far",
        "Kills so far",
        "Timeline of battles",
        "Skirmish at Baseplate Ford",
        "Margo vs Tobias",
        "Leaderboard: units by kills",
        "Crossbow Kate",
        f"Page 1 of {pdf_pages(out)}",
    ):
        assert words in text, words
    md = tmp_path / "campaign.md"
    done = run(["--db", url, "report", "--campaign", "demo", "--out", str(md)], tmp_path)
    assert done.returncode == 0, done.stderr
    body = md.read_text(encoding="utf-8")
    assert body.startswith("# Demo: Battle for Baseplate Valley: campaign report")
    assert "| Margo | 1 | 1 | 0 | 0 |" in body
    assert "| Skirmish at Baseplate Ford | Margo vs Tobias | Margo |" in body
    assert "Margo holds Baseplate Ford" in body  # the notes typed when it was finished
    bw = run(["--db", url, "report", "--campaign", "demo", "--out", str(out), "--bw"], tmp_path)
    assert bw.returncode == 0 and "black and white" in bw.stdout
    neither = run(["--db", url, "report", "--out", str(out)], tmp_path)
    assert neither.returncode == 2 and "--campaign" in neither.stderr
