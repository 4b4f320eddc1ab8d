"""The combat wizard: resolve one attack with every modifier shown (issue 6).

The battle panel opens it with :func:`open_combat_wizard`; pyqtgraph is imported only when
its first chart is drawn.
"""

from ui.wizard.wizard import CombatWizard, open_combat_wizard

__all__ = ["CombatWizard", "open_combat_wizard"]
