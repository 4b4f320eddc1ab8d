"""Changing the edition on screen: the edition change's preview dialog and the settings dialog's
note, whose texts never overlap."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QLineEdit, QSpinBox, QWidget

from brikdesk.services import Services
from ui.dialogs.campaign import CampaignSettingsDialog
from ui.dialogs.edition_change import EditionChangeDialog


def _mapped(w) -> QRect:
    return QRect(w.mapTo(w.window(), w.rect().topLeft()), w.size())


def test_the_preview_offers_each_missing_type_with_its_suggestion(qtbot, sv: Services) -> None:
    c = sv.campaigns.create_campaign("Specialists").value
    p = sv.campaigns.add_player(c.id, "Red").value
    army = sv.campaigns.add_army(p.id, "Red army").value
    sv.roster.add_unit(army.id, "skirmisher", name="Scout")
    sv.roster.add_unit(army.id, "cannon-fodder", name="Fodder")
    preview = sv.editions.preview(c.id, "2010")
    dlg = EditionChangeDialog(None, preview)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert dlg.missing.rowCount() == 2
    names = [dlg.missing.item(r, 1).text() for r in range(2)]
    assert names == ["Skirmisher", "Cannon Fodder"]
    types, items = dlg.value()
    assert types == preview.types and items == {}
    from PySide6.QtWidgets import QLabel

    costs = dlg.findChild(QLabel, "costChanges")
    assert costs is not None and "Red army 6 →" in costs.text()


def test_the_edition_note_is_never_drawn_over_the_notes_box(qtbot, sv: Services) -> None:
    c = sv.campaigns.create_campaign("Notes").value
    [summary] = [x for x in sv.campaigns.list_campaigns() if x.id == c.id]
    dlg = CampaignSettingsDialog(None, summary)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.edition.setCurrentIndex(dlg.edition.findData("2010"))
    qtbot.waitUntil(lambda: dlg.edition_note.isVisible())
    note, notes = _mapped(dlg.edition_note), _mapped(dlg.notes)
    assert not note.intersects(notes), (note, notes)
    assert dlg.edition_note.height() >= dlg.edition_note.heightForWidth(dlg.edition_note.width())


def _drawn_apart(dlg) -> None:
    """Every visible label, field, table and button of ``dlg`` inside it and over no other."""
    from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QComboBox, QLabel

    kinds = (QLabel, QAbstractButton, QAbstractScrollArea, QComboBox, QLineEdit, QSpinBox)
    shown = [
        w
        for w in dlg.findChildren(QWidget)
        if isinstance(w, kinds)
        and w.isVisible()
        and w.parentWidget() is not None
        and not isinstance(w.parentWidget().parentWidget(), QAbstractScrollArea)
        and w.parentWidget().objectName() != "qt_scrollarea_viewport"
    ]
    for w in shown:
        assert dlg.rect().contains(_mapped(w)), w
    for i, a in enumerate(shown):
        for b in shown[i + 1 :]:
            if a.isAncestorOf(b) or b.isAncestorOf(a):
                continue
            assert not _mapped(a).intersects(_mapped(b)), (a, b)


def test_at_1366x768_the_edition_texts_are_drawn_over_nothing(qtbot, demo_db: str) -> None:
    """On a laptop screen: the settings dialog's edition note (with the cost system's) and
    the edition change dialog of the demo campaign (2020 -> 2005, its longest lines) fit the
    screen, and no text is drawn over another widget."""
    from brikdesk.persistence.db import open_database
    from ui.screen import pretend_screen, usable_size

    database = open_database(demo_db)
    demo_sv = Services.open(database)
    [summary] = demo_sv.campaigns.list_campaigns()
    with pretend_screen(1366, 768):
        dlg = CampaignSettingsDialog(None, summary)
        qtbot.addWidget(dlg)
        dlg.show()
        qtbot.waitExposed(dlg)
        dlg.edition.setCurrentIndex(dlg.edition.findData("2005"))
        dlg.cost_system.setCurrentIndex(dlg.cost_system.findData("Unit Inches"))
        qtbot.waitUntil(lambda: dlg.edition_note.isVisible())
        assert "Unit Inches" in dlg.edition_note.text()
        _drawn_apart(dlg)
        change = EditionChangeDialog(None, demo_sv.editions.preview(summary.id, "2005"))
        qtbot.addWidget(change)
        change.show()
        qtbot.waitExposed(change)
        room = usable_size(change)
        assert change.width() <= room.width() and change.height() <= room.height()
        _drawn_apart(change)
        assert len(change.lines()) > 10  # the demo's armies change a lot in 2005
    database.close()


def _rules(edition: str) -> dict[str, dict[str, dict]]:
    """The rules data of an edition as stored (resources/catalog-<edition>.json), by key."""
    import json

    from brikdesk.paths import resource_path

    data = json.loads(resource_path(f"catalog-{edition}.json").read_text(encoding="utf-8"))
    return {kind: {e["key"]: e for e in data[kind]} for kind in ("unit_types", "items")}


def _specialists(sv: Services):
    from brikdesk.domain.roster import Loadout

    c = sv.campaigns.create_campaign("Specialists").value
    p = sv.campaigns.add_player(c.id, "Red").value
    army = sv.campaigns.add_army(p.id, "Red army").value
    sv.roster.add_unit(army.id, "skirmisher", name="Scout", loadout=Loadout(("hand-weapon",)))
    sv.roster.add_unit(army.id, "heavy", name="Brute", loadout=Loadout((), ("body-armor",)))
    sv.roster.add_unit(army.id, "cannon-fodder", name="Fodder")
    sv.roster.add_unit(army.id, "minifig", name="Grunt", loadout=Loadout(("hand-weapon",)))
    return c


def test_the_preview_lists_each_unit_whose_cost_or_stats_change(qtbot, sv: Services) -> None:
    """2020 -> 2010: the three 2020 specialists become Minifigs (the suggestion); each gets a
    line with its name, cost before and after and the stats that change, worked out here from
    the rules data; the Grunt, the same in both editions, gets none."""
    c = _specialists(sv)
    old, new = _rules("2020"), _rules("2010")
    t, hw, ba = old["unit_types"], old["items"]["hand-weapon"], old["items"]["body-armor"]
    mf = new["unit_types"]["minifig"]
    assert new["items"]["hand-weapon"]["cost"] == hw["cost"]  # the same in both editions
    assert {"skirmisher", "heavy", "cannon-fodder"}.isdisjoint(new["unit_types"])
    sk, hv, cf = t["skirmisher"], t["heavy"], t["cannon-fodder"]
    # chapter 2, the unit table: Minifig d6 5" Armor 4; Skirmisher 7" Armor 3; Heavy 4" Armor 5; Cannon
    # Fodder Armor 0 and never Over the Top.
    assert (mf["move"], mf["armor"], sk["move"], sk["armor"]) == (5, "4", 7, "3")
    assert (hv["move"], hv["armor"], cf["armor"], cf["over_the_top"]) == (4, "5", "0", False)
    dlg = EditionChangeDialog(None, sv.editions.preview(c.id, "2010"))
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)

    scout = (sk["cost"] + hw["cost"], mf["cost"] + hw["cost"])
    brute = (hv["cost"] + ba["cost"], mf["cost"] + ba["cost"])
    fodder = (cf["cost"], mf["cost"])
    grunt = mf["cost"] + hw["cost"]
    before = scout[0] + brute[0] + fodder[0] + grunt
    after = scout[1] + brute[1] + fodder[1] + grunt
    bonus = ba["armor_bonus"]
    assert dlg.lines() == [
        f"Red army | {before} → {after} | 3 units change",
        f"  Scout (Skirmisher → Minifig) | {scout[0]} → {scout[1]} | "
        f'Move {sk["move"]}" → {mf["move"]}", Armor {sk["armor"]} → {mf["armor"]}',
        f"  Brute (Heavy → Minifig) | {brute[0]} → {brute[1]} | "
        f'Move {hv["move"]}" → {mf["move"]}", '
        f"Armor {int(hv['armor']) + bonus} → {int(mf['armor']) + bonus}",
        f"  Fodder (Cannon Fodder → Minifig) | {fodder[0]} → {fodder[1]} | "
        f"Armor {cf['armor']} → {mf['armor']}, Over the Top no → yes",
    ]
    assert (before, after) == (19, 21)  # 4+2, 4+1, 2, 4+2 -> 4+2, 4+1, 4, 4+2 (CP)
    assert dlg.totals.text() == f"Army totals: Red army {before} → {after} CP"


def test_choosing_another_replacement_changes_the_lines_and_the_totals(qtbot, sv: Services) -> None:
    """Cannon Fodder mapped to Incompetent instead of Minifig: its line and the army's totals
    follow at once, and the choice is what the change is given."""
    c = _specialists(sv)
    new = _rules("2010")["unit_types"]
    cf = _rules("2020")["unit_types"]["cannon-fodder"]
    dlg = EditionChangeDialog(None, sv.editions.preview(c.id, "2010"))
    qtbot.addWidget(dlg)
    dlg.show()
    box = dlg.choices[("type", "cannon-fodder")]
    assert box.currentData() == "minifig"
    army_before = dlg.lines()[0]
    box.setCurrentIndex(box.findData("incompetent"))
    inc, mf = new["incompetent"], new["minifig"]
    lines = dlg.lines()
    assert lines[3] == (
        f"  Fodder (Cannon Fodder → Incompetent) | {cf['cost']} → {inc['cost']} | "
        f"Action die d6 → d{inc['action_die']}, Armor {cf['armor']} → {inc['armor']}"
    )
    before, after = 19, 21 - mf["cost"] + inc["cost"]
    assert army_before == "Red army | 19 → 21 | 3 units change"
    assert lines[0] == f"Red army | {before} → {after} | 3 units change"
    assert dlg.totals.text() == f"Army totals: Red army {before} → {after} CP"
    assert dlg.value() == (
        {"skirmisher": "minifig", "heavy": "minifig", "cannon-fodder": "incompetent"},
        {},
    )

    sv.editions.change(c.id, "2010", *dlg.value())  # what the dialog chose is what is done
    from brikdesk.domain.roster import unit_cost

    [army] = sv.campaigns.list_armies(c.id)
    cat = sv.catalog.catalog(c.id)
    units = sv.roster.roster(army.id).units
    assert {u.name: u.type_key for u in units}["Fodder"] == "incompetent"
    assert sum(unit_cost(u.spec, cat).total for u in units) == after
