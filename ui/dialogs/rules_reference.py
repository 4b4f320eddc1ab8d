"""Help > Rules reference: the modifiers with their sections, the rules by edition, what is left
to the table (``LEFT_TO_THE_TABLE``: every rule BrikDesk does not track, with its section) and
every reading BrikDesk chose where the rules are vague (the ``READINGS`` of the domain modules),
with a filter.

Nothing is written here: the texts come from the domain, so what this window says is what the
calculations do.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QLineEdit,
    QTextBrowser,
    QWidget,
)

from brikdesk.domain import (
    actions,
    aftermath,
    attack,
    catalog,
    combat,
    edition_change,
    history,
    odds,
    report,
    roster,
    rulesets,
    sheets,
    tracking,
)
from brikdesk.domain import battle as battle_rules
from brikdesk.domain.battle import busy as battle_busy
from brikdesk.domain.battle import first as first_to_act
from brikdesk.domain.battle import warnings as battle_warnings
from brikdesk.domain.combat import action_roll
from brikdesk.domain.left_to_table import LEFT_TO_THE_TABLE
from ui import colours
from ui.widgets.dialogs import lay_out_reader


@dataclass(frozen=True)
class Reading:
    topic: str  # where it applies ("Attacks", "Rosters"...)
    title: str
    text: str


@dataclass(frozen=True)
class ModifierRow:
    situation: str
    value: str
    applies_to: str
    rule: str


def _title(key: str) -> str:
    if key[:1].isdigit() or key[:1].isupper():
        return key
    return key.replace("_", " ").capitalize()


#: Where each module's readings apply, in the order the reference lists them.
SOURCES: tuple[tuple[str, Mapping[str, str]], ...] = (
    ("Editions (chapter 4 of 2005, 2010 and 2020)", rulesets.READINGS),
    ("Changing a campaign's edition: types, items and costs", edition_change.READINGS),
    ("Attacks (chapter 5)", attack.READINGS),
    ("Other Actions: Sprint, Bail, Parry, Charge (chapters 4 and 5)", actions.READINGS),
    ("Actions that are not attacks: their Action Roll", action_roll.READINGS),
    ("The combat wizard", combat.READINGS),
    ("Battles: turns, Actions and Counters", battle_rules.READINGS),
    ("Who Acts First", first_to_act.READINGS),
    ("Long Actions: when a Busy unit is free", battle_busy.READINGS),
    ("Battles: warnings the organizer may overrule", battle_warnings.READINGS),
    ("The battle tracker: unknown unit types, undo steps", tracking.READINGS),
    ("Odds", odds.READINGS),
    ("Rosters: hands, armour, costs", roster.READINGS),
    ("Catalog", catalog.READINGS),
    ("Printed roster sheets", sheets.READINGS),
    ("Battle reports", report.READINGS),
    ("The end of a battle and the campaign record", aftermath.READINGS),
    ("Campaign history and standings", history.READINGS),
)


def readings() -> tuple[Reading, ...]:
    return tuple(
        Reading(topic, _title(key), text) for topic, table in SOURCES for key, text in table.items()
    )


def modifier_rows() -> tuple[ModifierRow, ...]:
    """The modifiers table (5.1) as the printed sheets' reference lists it."""
    # The sheets module holds the table as data; every row, whatever army prints it.
    return tuple(
        ModifierRow(r.situation, r.value, r.applies_to, r.rule) for _tag, r in sheets.MODIFIER_ROWS
    )


@dataclass(frozen=True)
class EditionRow:
    label: str
    section: str
    cells: tuple[str, ...]  # one per rule set, in ``edition_columns()`` order


def edition_columns() -> tuple[str, ...]:
    """The "Rules by edition" table's columns: one per rule set, oldest first."""
    return tuple(r.edition.value for r in rulesets.RULE_SETS)


def edition_rows() -> tuple[EditionRow, ...]:
    """The "Rules by edition" table: every property of the rule sets, side by side."""
    return tuple(
        EditionRow(label, section, cells) for label, section, cells in rulesets.edition_table()
    )


def _matches(needle: str, *texts: str) -> bool:
    return not needle or any(needle in t.casefold() for t in texts)


def reference_html(filter_text: str = "") -> str:
    """The whole reference (or the rows containing ``filter_text``) as rich text."""
    needle = filter_text.strip().casefold()
    esc = html.escape
    out = [
        "<style>td, th { padding: 3px 8px; vertical-align: top; } "
        f"th {{ text-align: left; background: {colours.TABLE_HEAD_BG.hex()}; }} "
        f"h3 {{ margin-top: 16px; }} .rule {{ color: {colours.NOTE.hex()}; white-space: nowrap; }}"
        f" .section {{ color: {colours.NOTE.hex()}; }}"
        "</style>"
    ]
    mods = [
        m for m in modifier_rows() if _matches(needle, m.situation, m.value, m.applies_to, m.rule)
    ]
    if mods:
        out.append(
            "<h2>Modifiers</h2><table cellspacing='0' width='100%'>"
            "<tr><th>Situation</th><th>Modifier</th><th>Applies to</th>"
            "<th>Rule</th></tr>"
        )
        for m in mods:
            out.append(
                f"<tr><td>{esc(m.situation)}</td><td><b>{esc(m.value)}</b></td>"
                f"<td>{esc(m.applies_to)}</td><td class='rule'>{esc(m.rule)}</td></tr>"
            )
        out.append("</table>")
    editions = [
        r
        for r in edition_rows()
        if _matches(needle, "Rules by edition", r.label, r.section, *r.cells)
    ]
    if editions:
        heads = "".join(f"<th>{esc(c)}</th>" for c in edition_columns())
        out.append(
            "<h2>Rules by edition</h2><p>The campaign's edition chooses these turn "
            "rules (chapter 4) as well as its catalog.</p>"
            "<table cellspacing='0' width='100%'>"
            f"<tr><th>Rule</th>{heads}<th class='rule'>Section</th></tr>"
        )
        for e in editions:
            cells = "".join(f"<td>{esc(c)}</td>" for c in e.cells)
            out.append(
                f"<tr><td><b>{esc(e.label)}</b></td>{cells}"
                f"<td class='rule'>{esc(e.section)}</td></tr>"
            )
        out.append("</table>")
    table_rules = [
        t
        for t in LEFT_TO_THE_TABLE
        if _matches(needle, "Left to the table", t.rule, t.section, t.table, t.app)
    ]
    if table_rules:
        out.append(
            "<h2>Left to the table</h2><p>What the players measure, place or agree on, "
            "which BrikDesk does not track: watch these at the table.</p>"
            "<table cellspacing='0' width='100%'><tr><th width='20%'>Rule</th>"
            "<th width='32%'>At the table</th><th width='32%'>BrikDesk</th>"
            "<th width='16%'>Section</th></tr>"
        )
        for t in table_rules:
            out.append(
                f"<tr><td><b>{esc(t.rule)}</b></td><td>{esc(t.table)}</td>"
                f"<td>{esc(t.app)}</td><td class='section'>{esc(t.section)}</td></tr>"
            )
        out.append("</table>")
    found = [r for r in readings() if _matches(needle, r.topic, r.title, r.text)]
    if found:
        out.append(
            "<h2>How BrikDesk reads the rules</h2><p>Where the rules leave room, "
            "BrikDesk follows these readings (the rule section is named in each).</p>"
        )
        topic = None
        for r in found:
            if r.topic != topic:
                topic = r.topic
                out.append(f"<h3>{esc(topic)}</h3>")
            out.append(f"<p><b>{esc(r.title)}.</b> {esc(r.text)}</p>")
    if not mods and not found and not editions and not table_rules:
        out.append(f"<p>Nothing matches “{esc(filter_text.strip())}”.</p>")
    return "".join(out)


class RulesReferenceDialog(QDialog):
    """A non-modal window; ``show()`` it (F1 in the main window)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rulesReference")
        self.setWindowTitle("Rules reference")
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("rulesFilter")
        self.filter.setAccessibleName("Filter the rules")
        self.filter.setPlaceholderText("Filter: a word or a section, e.g. Parry or 5.1")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._refresh)
        self.text = QTextBrowser(self)
        self.text.setObjectName("rulesText")
        self.text.setOpenLinks(False)
        lay_out_reader(self, self.filter, self.text)
        self.resize(760, 640)
        colours.follow_theme(self, self._refresh)

    def _refresh(self) -> None:
        self.text.setHtml(reference_html(self.filter.text()))

    def plain_text(self) -> str:
        return self.text.toPlainText()
