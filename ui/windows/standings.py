"""The standings on the campaign overview page (HTML for its QTextBrowser)."""

from __future__ import annotations

from html import escape as esc

from brikdesk.domain.history import CampaignHistory


def standings_html(h: CampaignHistory) -> str:
    """Per player: battles fought, won, drawn, lost; army value of the living units against
    the budget; units alive, casualties, kills; each army's value before any battle (its
    Start, "≈" when approximate). A link opens Campaign > History."""
    cu = esc(h.cost_unit)
    out = [
        "<h3>Standings</h3><table><tr><th>Player</th><th>Fought</th><th>Won</th>"
        "<th>Drawn</th><th>Lost</th><th>Army value</th><th>Alive</th><th>Casualties</th>"
        "<th>Kills</th></tr>"
    ]
    for s in h.standings:
        budget = f" of {s.budget}" if s.budget is not None else ""
        over = s.budget is not None and s.value > s.budget
        value = f"{s.value}{budget} {cu}"
        if over:
            value = f"<b>{value}</b> <span class='hint'>(over budget)</span>"
        out.append(
            f"<tr><td><span style='color:{esc(s.colour)}'>■</span> {esc(s.name)}</td>"
            f"<td>{s.fought}</td><td>{s.won}</td><td>{s.drawn}</td><td>{s.lost}</td>"
            f"<td>{value}</td><td>{s.alive}</td><td>{s.casualties}</td>"
            f"<td>{s.kills}</td></tr>"
        )
    out.append("</table>")
    if h.series:
        starts = ", ".join(
            f"{esc(a.army)} ({esc(a.player)}) {'≈' if a.approximate[:1] == (True,) else ''}"
            f"{a.value[0]} {cu}"
            for a in h.series
        )
        out.append(f"<p>Each army before any battle: {starts}</p>")
    out.append(
        "<p class='hint'><a href='history:0'>The whole history…</a> "
        "(Campaign &gt; History: timeline, charts, leaderboard)</p>"
    )
    return "".join(out)
