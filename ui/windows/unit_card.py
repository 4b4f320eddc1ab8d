"""The side panel's unit card: stats, each item's Use / Range / Damage, the cost breakdown,
the warnings and notes, all from ``RosterService.unit_card`` (no computation here)."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QTextBrowser, QWidget

from brikdesk.domain.catalog import CatalogItem
from brikdesk.services.roster import UnitCard
from ui import colours
from ui.glyphs import warning_sign

esc = html.escape


def card_style() -> str:
    """The card's style sheet in the theme in use (the body text is the palette's)."""
    note, line, warn = colours.NOTE.hex(), colours.RULE_LINE.hex(), colours.WARNING.hex()
    return f"""
<style>
  h2 {{ margin: 0 0 2px 0; }}
  .sub {{ color: {note}; margin: 0 0 6px 0; }}
  table {{ border-collapse: collapse; }}
  td, th {{ padding: 2px 6px 2px 0; vertical-align: top; }}
  th {{ text-align: left; color: {note}; font-weight: 600; border-bottom: 1px solid {line}; }}
  .stat {{ font-size: large; font-weight: 600; }}
  .label {{ color: {note}; }}
  .num {{ text-align: right; white-space: nowrap; }}
  .nw {{ white-space: nowrap; }}
  .why {{ color: {note}; }}
  .rule {{ color: {note}; font-size: small; }}
  .warn {{ color: {warn}; }}
  .total td {{ border-top: 1px solid {line}; font-weight: 600; }}
  h4 {{ margin: 10px 0 3px 0; }}
</style>
"""


def damage_text(it: CatalogItem, action_die: int | None) -> str:
    """The Damage as written, with ``dA`` worked out for this unit: ``1dA+2 (1d6+2)``."""
    if not it.damage:
        return it.damage_text()
    expr = it.damage_expr
    if expr is not None and expr.uses_action_die and action_die is not None:
        return f"{it.damage} ({expr.resolve(action_die)})"
    return it.damage


def card_html(card: UnitCard, cost_unit: str = "CP", warn: str = "!") -> str:
    row, stats = card.row, card.stats
    out = [card_style(), f"<h2>{esc(row.name)}</h2>"]
    record = f"{row.status}"
    if row.battles_fought or row.kills:
        record += (
            f" · {row.battles_fought} battle{'s' if row.battles_fought != 1 else ''}"
            f" · {row.kills} kill{'s' if row.kills != 1 else ''}"
        )
    out.append(f"<p class='sub'>{esc(row.type_name)} · {esc(record)}</p>")
    if stats is not None:
        cells = [
            ("Action", f"d{stats.action_die}"),
            ("Move", f'{stats.move}"'),
            ("Armor", stats.armor),
            ("Counters", str(stats.counters)),
        ]
        if stats.deflection:
            cells.append(("Deflection", str(stats.deflection)))
        out.append(
            "<table><tr>"
            + "".join(
                f"<td><span class='label'>{esc(k)}</span><br><span class='stat'>{esc(v)}</span>"
                "</td>"
                for k, v in cells
            )
            + "</tr></table>"
        )
        traits = []
        if stats.half_speed:
            traits.append("Half Speed")
        if stats.cant_swim:
            traits.append("can't swim")
        traits.append(
            "goes Over the Top on 6+" if stats.over_the_top else "never goes Over the Top"
        )
        out.append(f"<p>{esc(', '.join(traits).capitalize())}</p>")
    else:
        out.append("<p class='warn'>Its unit type is not in the catalog: no stats.</p>")

    if card.items:
        die = stats.action_die if stats is not None else None
        out.append(
            "<h4>Equipment</h4><table><tr><th>Item</th><th>Where</th><th>Use</th>"
            "<th>Range</th><th>Damage</th></tr>"
        )
        for key, where, it in card.items:
            if it is None:
                out.append(
                    f"<tr><td class='warn' colspan='5'>unknown item '{esc(key)}' "
                    f"({esc(where)})</td></tr>"
                )
                continue
            out.append(
                f"<tr><td>{esc(it.name)}</td><td>{esc(where)}</td>"
                f"<td>{esc(it.use_text())}</td><td>{esc(it.range_text())}</td>"
                f"<td>{esc(damage_text(it, die))}</td></tr>"
            )
        out.append("</table>")
    else:
        out.append("<h4>Equipment</h4><p class='why'>Nothing: Bare Hands only.</p>")

    out.append("<h4>Cost</h4><table>")
    for line in card.cost.lines:
        # The rule under its line, in small type: a narrow card stays two columns wide.
        rule = f"<br><span class='rule'>{esc(line.rule)}</span>" if line.rule else ""
        out.append(
            f"<tr><td>{esc(line.label)}{rule}</td><td class='num'>{line.cost} "
            f"{esc(cost_unit)}</td></tr>"
        )
    out.append(
        f"<tr class='total'><td>Total</td><td class='num'>{card.cost.total} "
        f"{esc(cost_unit)}</td></tr></table>"
    )

    if row.warnings:
        out.append(
            "<h4 class='warn'>Warnings</h4><p class='warn'>"
            + "<br>".join(
                f"{esc(warn)} {esc(w.message)} <span class='why'>({esc(w.rule)})</span>"
                for w in row.warnings
            )
            + "</p>"
        )
    if stats is not None:
        why = [m.describe() for m in stats.modifiers] + list(stats.reasons)
        if why:
            out.append(
                "<h4>How the stats come about</h4><p class='why'>"
                + "<br>".join(esc(w) for w in why)
                + "</p>"
            )
    if row.notes:
        out.append(f"<h4>Notes</h4><p>{esc(row.notes)}</p>")
    return "".join(out)


class UnitCardView(QTextBrowser):
    """Read-only rich text of the selected unit's card."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("unitCard")
        self.setOpenLinks(False)
        self.card: UnitCard | None = None
        self._shown: tuple[str, int] = ("CP", 1)
        colours.follow_theme(self, lambda: self.show_card(self.card, *self._shown))

    def show_card(self, card: UnitCard | None, cost_unit: str = "CP", selected: int = 1) -> None:
        self.card = card
        self._shown = (cost_unit, selected)
        if card is None:
            self.setHtml(
                f"<p style='color:{colours.NOTE.hex()}'>Select a unit to see its card: stats, "
                "equipment with Use, Range and Damage, and what it costs.</p>"
            )
            return
        extra = (
            f"<p class='sub'><i>{selected} units selected; this is the current one.</i></p>"
            if selected > 1
            else ""
        )
        self.setHtml(card_html(card, cost_unit, warning_sign(self.font())) + extra)
