"""The combat wizard's five pages: Attack, Range, Action Roll, Damage, Result, a module each.

Each page reads the wizard's draft (``wizard.draft``) and the battle (``wizard.ctx``), shows
the preview the domain computes from them (``brikdesk.domain.combat``: numbers, rule prose,
verdicts; the pages add no rules of their own), and hands every change back to the wizard as a
new draft (``wizard.change(step, dataclasses.replace(draft, ...))``), which refreshes the
page. Nothing here writes anything: Finish does, once (``CombatWizard.accept``).

``base`` holds what every page shares (the ``Wizard`` the pages see, ``Page``), ``dice`` the
page that ends with the dice (``DicePage``); the Action Roll page's modifier list and its
reaction card are parts of their own (``modifiers``, ``reaction``).
"""

from ui.wizard.pages.action import ActionPage
from ui.wizard.pages.attack import AttackPage
from ui.wizard.pages.base import DiceStep, Step, Wizard, aimed_at, inches_or_none, of_kind
from ui.wizard.pages.damage import DamagePage
from ui.wizard.pages.dice import DicePage
from ui.wizard.pages.range import RangePage
from ui.wizard.pages.result import ResultPage

__all__ = [
    "ActionPage",
    "AttackPage",
    "DamagePage",
    "DicePage",
    "DiceStep",
    "RangePage",
    "ResultPage",
    "Step",
    "Wizard",
    "aimed_at",
    "inches_or_none",
    "of_kind",
]
