"""The app shell: the main window (``window``) and the parts it composes, one job each (the
campaign shown, the campaign and file commands, the battle page, the windows it opens, its
actions and menus). ``ui.app`` builds it."""

from ui.main_window.battles import combat_forms
from ui.main_window.window import MainWindow

__all__ = ["MainWindow", "combat_forms"]
