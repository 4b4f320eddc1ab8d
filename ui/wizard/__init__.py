"""The combat wizard: resolve one attack with every modifier shown.

The battle panel opens it with :func:`open_combat_wizard`, and the
one-page quick attack form (``quick``) with :func:`open_quick_attack`; pyqtgraph is
imported only when its first chart is drawn. ``wizard`` holds the window and its draft, ``pages`` the five pages,
``widgets`` what they share (also the Sprint dialog's dice entry), ``first`` the Attack page's
Who Acts First box (4.3), ``blast`` the Damage page's sections inside a blast (5.1).
"""

from ui.wizard.quick import QuickAttack, open_quick_attack
from ui.wizard.wizard import CombatWizard, open_combat_wizard

__all__ = [
    "CombatWizard",
    "QuickAttack",
    "open_combat_wizard",
    "open_quick_attack",
]
