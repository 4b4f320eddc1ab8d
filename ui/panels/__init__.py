"""Panels of the main window: the battle tracker's initiative and response panel."""

from ui.panels.battle_panel import BattlePanel
from ui.panels.new_battle import start_new_battle

__all__ = ["BattlePanel", "start_new_battle"]
