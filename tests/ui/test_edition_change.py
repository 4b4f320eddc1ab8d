"""Issue 23, item 3 on screen: the edition change's preview dialog and the settings dialog's
note, whose texts never overlap."""

from __future__ import annotations

from PySide6.QtCore import QRect

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
