"""The Rules reference lists the rule sets side by side and every reading of the edition and
turn modules (the text comes from the domain, so it cannot drift)."""

from __future__ import annotations

import re
from dataclasses import fields

from brikdesk.domain.battle import busy, first
from brikdesk.domain.rulesets import RULE_SETS, RuleSet, rules_for
from ui.dialogs.rules_reference import (
    edition_columns,
    edition_rows,
    readings,
    reference_html,
)


def test_rules_by_edition_has_a_row_per_rule_set_property_and_a_column_per_edition():
    assert edition_columns() == ("2005", "2010", "2020")
    assert len(edition_rows()) == len(fields(RuleSet)) - 1  # all but the edition itself
    for row in edition_rows():
        assert len(row.cells) == len(RULE_SETS)


def test_the_table_follows_the_rule_set_objects():
    row = next(r for r in edition_rows() if r.label == "Die for Sprint and Bail inches")
    assert row.cells[0] == f"d{rules_for('2005').distance_die}"
    row = next(r for r in edition_rows() if r.label == "A natural 6+ on the Action die earns")
    assert row.cells == tuple(r.over_the_top or "none" for r in RULE_SETS)


def test_the_reference_shows_the_table_and_the_readings():
    page = reference_html()
    assert "Rules by edition" in page and "spend 2&quot; of Move to stand up" in page
    titles = {r.title for r in readings()}
    assert set(first.READINGS) <= titles
    assert set(busy.READINGS) <= titles  # when a long Action is done (4.2)
    assert "2005 4.1 Recovery" in titles
    # what an edition change keeps and maps (chapter 2, the unit table and chapter 3, the weapon table)
    assert {"Changing edition", "Edition suggestions"} <= titles
    assert "Skirmisher, Heavy and Cannon Fodder are not in 2005 or 2010" in reference_html(
        "Changing edition"
    )
    assert "Rules by edition" in reference_html("Heavy Armor")
    assert "Rules by edition" not in reference_html("Parrying")


def test_one_list_gathers_what_is_left_to_the_table_each_with_its_section():
    from brikdesk.domain.left_to_table import LEFT_TO_THE_TABLE

    page = reference_html()
    assert page.count("<h2>Left to the table</h2>") == 1
    assert len(LEFT_TO_THE_TABLE) >= 10
    rules = {t.rule for t in LEFT_TO_THE_TABLE}
    # What the Rules reference used to scatter, or not say at all.
    assert {
        "Heroic Feats",
        "Where a missed shot lands",
        "A MOM's straight line",
        "Range, line of sight and Height Advantage",
        "Embellishments",
    } <= rules
    listed = page[page.index("<h2>Left to the table</h2>") :]
    for t in LEFT_TO_THE_TABLE:
        # Each names the section it comes from (chapter.section and its heading).
        assert re.match(r"\d\.\d [A-Z]", t.section), t
        assert f"<b>{t.rule.replace(chr(39), '&#x27;')}</b>" in listed, t.rule
        assert t.section in listed, t.section
    # The filter finds an entry by its section, and the list under its heading.
    assert "Heroic Feats" in reference_html("4.1 Disrupted")
    assert "Where a missed shot lands" in reference_html("Left to the table")
