"""The combat forms the battle panel opens: the combat wizard, the quick attack form and the
Sprint dialog. The panels do not import the wizard or the dialogs (import-linter contracts in
``pyproject.toml``): the app shell gives the panel these openers (``ui.main_window.battles``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QTimer

from brikdesk.errors import UserError

#: How long after the quick form and the Sprint dialog the wizard is made ahead (ms).
WIZARD_AFTER_MS = 40

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
    #: The quick attack form and the Sprint dialog made ahead, hidden (the same arguments as
    #: ``quick`` and ``sprint``).
    prepare_quick: QuickOpener
    prepare_sprint: SprintOpener
    #: The combat wizard made ahead, hidden, its pages made a turn of the event loop apart
    #: (the same arguments as ``wizard``); nothing when the panel has one already.
    wizard_ahead: WizardOpener | None = None

    def make_ahead(
        self,
        parent: object,
        services: object,
        bus: object,
        undo_stack: object,
        battle_id: int,
        unit: int,
        context: object,
    ) -> None:
        """The quick attack form, the Sprint dialog and then the combat wizard of ``parent``
        (the battle panel) made ahead, hidden, for ``unit``: the first Q, S or A then opens a
        form already made (they are kept between uses: ``ui.widgets.kept_forms``). If one
        cannot be made (a unit gone meanwhile), the key makes it then and says why."""
        with contextlib.suppress(UserError):
            self.prepare_quick(parent, services, bus, undo_stack, battle_id, unit, context)
            self.prepare_sprint(parent, services, battle_id, unit, bus=bus, undo_stack=undo_stack)
        ahead = self.wizard_ahead
        if ahead is not None and isinstance(parent, QObject):
            # The wizard is the larger: made on a later turn, so that no single one is felt.
            def wizard() -> None:
                with contextlib.suppress(UserError):
                    ahead(parent, services, bus, undo_stack, battle_id, unit, context)

            QTimer.singleShot(WIZARD_AFTER_MS, parent, wizard)
