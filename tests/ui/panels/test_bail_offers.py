"""the battle panel offers "Bail, Over the Top" only where the battle's
edition and the unit's type allow it (its menus enable what ``legal.spend_refusal`` allows;
an edition without Over the Top has no such entry at all)."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu

from brikdesk.domain.battle import ActionUse
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from tests.ui.battle_tables import make_panel
from ui.panels.legal import spend_refusal


def _battle(sv: Services, edition: str, red_type: str):
    c = sv.campaigns.create_campaign(f"War {edition} {red_type}", edition=edition).value
    musters = []
    for name, kind in (("Red", red_type), ("Blue", "minifig")):
        p = sv.campaigns.add_player(c.id, name).value
        army = sv.campaigns.add_army(p.id, f"{name} army").value
        musters.append(Muster(p.id, sv.roster.add_units(army.id, kind, 1, f"{name} {{n}}").value))
    view = sv.tracker.begin(c.id, "Gate", musters).value
    blue = next(u.id for u in view.units if u.name == "Blue 1")
    red = next(u.id for u in view.units if u.name == "Red 1")
    return view, red, blue


def test_no_over_the_top_bail_in_2005(sv: Services) -> None:
    view, _red, blue = _battle(sv, "2005", "minifig")
    why = spend_refusal(view, blue, ActionUse.BAIL, over_the_top=True)
    assert why is not None and "BrikWars 2005 has no Over the Top" in str(why)
    assert spend_refusal(view, blue, ActionUse.BAIL) is None


def test_no_over_the_top_bail_for_cannon_fodder_or_the_incompetent(sv: Services) -> None:
    for kind in ("cannon-fodder", "incompetent"):
        view, red, _blue = _battle(sv, "2020", kind)
        why = spend_refusal(view, red, ActionUse.BAIL, over_the_top=True)
        assert why is not None and "can never go Over the Top" in str(why), kind
    view, red, _blue = _battle(sv, "2020", "minifig")
    assert spend_refusal(view, red, ActionUse.BAIL, over_the_top=True) is None


def _act_entries(qtbot, sv: Services, qsettings: QSettings, edition: str, kind: str) -> dict:
    """The Act menu's Bail entries of Red's unit (on its own turn): text -> enabled."""
    view, red, _blue = _battle(sv, edition, kind)
    panel = make_panel(qtbot, sv, view.id, qsettings)
    menu = QMenu(panel)
    panel.fill_unit_menu(menu, red)
    return {
        a.text().replace("&", "").split("\t")[0]: a.isEnabled()
        for a in menu.actions()
        if a.text().replace("&", "").startswith("Bail")
    }


def test_the_act_menu_has_no_over_the_top_bail_in_2005(
    qtbot, sv: Services, qsettings: QSettings
) -> None:
    """2005 has no Over the Top: its battles' Act menus offer the Bail alone, not a greyed
    second Bail; in 2020 a unit that can never go Over the Top sees it greyed (and why)."""
    assert _act_entries(qtbot, sv, qsettings, "2005", "minifig") == {"Bail (ends Disrupted)": True}
    assert _act_entries(qtbot, sv, qsettings, "2020", "minifig") == {
        "Bail (ends Disrupted)": True,
        "Bail, Over the Top (lands on its feet)": True,
    }
    assert _act_entries(qtbot, sv, qsettings, "2020", "cannon-fodder") == {
        "Bail (ends Disrupted)": True,
        "Bail, Over the Top (lands on its feet)": False,
    }
