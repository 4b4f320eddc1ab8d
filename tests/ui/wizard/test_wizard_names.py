"""Same-named units of different owners in the combat wizard: its title, target list, menus
and hints say whose is whose, as the quick form does ("Minifig 1 hits Minifig 1" told
nothing); a name no one else has stays plain."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton

from brikdesk.domain.rolling import RandomDice
from tests.ui.keyboard import shown
from tests.ui.wizard_battle import make_twins
from ui.bus import Bus
from ui.wizard import CombatWizard

#: "Minifig 1" not followed by its owner.
BARE = re.compile(r"Minifig 1(?! \((Bob|Ann)\))")


def texts(w: CombatWizard) -> list[str]:
    """Every text the wizard shows now: labels, buttons, list entries, its title."""
    out = [w.windowTitle()]
    out += [lab.text() for lab in w.findChildren(QLabel) if lab.isVisible()]
    out += [b.text() for b in w.findChildren(QPushButton) if b.isVisible()]
    for combo in w.findChildren(QComboBox):
        if combo.isVisible():
            out += [combo.itemText(i) for i in range(combo.count())]
    return out


def test_the_wizard_names_same_named_units_with_their_owners(qtbot, tmp_path: Path) -> None:
    twins = make_twins(tmp_path / "twins.sqlite3")
    try:
        w = CombatWizard(
            twins.services,
            Bus(),
            QUndoStack(),
            twins.battle_id,
            twins.ids["mine"],
            dice=RandomDice(1),
        )
        shown(qtbot, w)
        target = w.pages[0].target
        labels = [target.itemText(i) for i in range(target.count())]
        assert any("Minifig 1 (Ann)" in t for t in labels), labels
        target.choose(twins.ids["theirs"])
        for page in range(4):
            shown_texts = texts(w)
            bare = [t for t in shown_texts if BARE.search(t)]
            assert bare == [], (page, bare)
            if page < 3:
                w.next()
                qtbot.wait(5)
        w.close()
    finally:
        twins.db.close()
