"""The combat forms the battle panel opens: the combat wizard, the quick attack form and the
Sprint dialog. The panels do not import the wizard or the dialogs (import-linter contracts in
``pyproject.toml``): the app shell gives the panel these openers (``ui.main_window.battles``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: ``(parent, services, bus, undo_stack, battle_id, attacker)``: the combat wizard, shown.
WizardOpener = Callable[..., Any]
#: ``(parent, services, bus, undo_stack, battle_id, attacker, context)``: the quick attack form.
QuickOpener = Callable[..., object]
#: ``(parent, services, battle_id, unit, *, bus, undo_stack)``: the Sprint dialog.
SprintOpener = Callable[..., object]


@dataclass(frozen=True, slots=True)
class CombatForms:
    """What opens each form."""

    wizard: WizardOpener
    quick: QuickOpener
    sprint: SprintOpener
