"""The page that ends with the dice of one stage of the attack (Action Roll, Damage)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QLabel,
    QVBoxLayout,
)

from brikdesk.domain.combat import (
    ActionStage,
    DamageStage,
)
from ui.screen import usable_size
from ui.settings import DiceMode
from ui.widgets.combat_style import (
    label,
    set_problem,
    show_readings,
)
from ui.widgets.dice import DiceEntry
from ui.wizard.pages.base import SHORT_SCREEN, DiceStep, Page
from ui.wizard.widgets import (
    card,
)


class DicePage(Page):
    """A page that ends with the dice card of one stage of the attack: the faces typed or
    rolled, the verdict, the outcome and the problem. ``STAGE`` is the wizard's name of the
    stage ("action", "damage"), ``_stage()`` its resolution now."""

    STAGE: DiceStep = "action"

    def _stage(self) -> ActionStage | DamageStage:  # pragma: no cover - overridden
        raise NotImplementedError

    def _add_dice_card(self, extra: Callable[[QVBoxLayout], None] | None = None) -> None:
        """Add the dice card at the end of the page; ``extra(layout)`` adds the page's own
        rows between the outcome and the problem. Object names start with ``STAGE``."""
        self.dice_box, dl = card(self)
        self.dice = DiceEntry(self)
        if usable_size(self.w.window()).height() >= SHORT_SCREEN:
            dl.addWidget(_dice_heading())
        else:  # on a laptop the room goes to the die box (in view as the page opens)
            show_readings(self.dice.prompt, "Dice")
        self.dice.setObjectName(f"{self.STAGE}Dice")
        dl.addWidget(self.dice)
        self.verdict = label("", "big")
        self.verdict.setObjectName(f"{self.STAGE}Verdict")
        dl.addWidget(self.verdict)
        self.outcome = label("", "event")
        self.outcome.setObjectName(f"{self.STAGE}Outcome")
        dl.addWidget(self.outcome)
        if extra is not None:
            extra(dl)
        self.problem = label("", "problem")
        self.problem.setObjectName(f"{self.STAGE}Problem")
        dl.addWidget(self.problem)
        self.body.addWidget(self.dice_box)
        self.body.addStretch(1)
        self.dice.face.connect(self._face)
        self.dice.undo.connect(self._undo_face)
        self.dice.roll.connect(self._roll)
        self.dice.clear.connect(self._clear)

    def _show_problem(self, stage: ActionStage | DamageStage) -> None:
        problem = stage.error
        if stage.extra_faces:
            problem = (
                f"{stage.extra_faces} face(s) typed beyond the dice the rules need: "
                "Backspace takes the last one back"
            )
        set_problem(self.problem, problem)

    def isComplete(self) -> bool:
        return self._stage().complete

    def initial_focus(self) -> None:
        self.focus_input()

    def focus_input(self) -> None:
        """The focus to the dice while the stage needs one, else to Next (or Finish)."""
        if self._stage().need is not None:
            if self.w.dice_mode is DiceMode.VIRTUAL:
                self.dice.roll_button.setFocus()
            else:
                self.dice.edit.setFocus()
            self.show_widget(self.dice)
        else:
            self.focus_next_button()
            self.show_widget(self.outcome)

    def _face(self, face: int) -> None:
        self.w.add_face(self.STAGE, face)
        self.focus_input()

    def _undo_face(self) -> None:
        self.w.drop_face(self.STAGE)
        self.focus_input()

    def take_back(self) -> None:
        """Backspace outside the box: the last die typed here is asked again."""
        self.acted()
        self._undo_face()

    def _roll(self) -> None:
        self.w.roll_virtual(self.STAGE)
        self.focus_input()

    def _clear(self) -> None:
        self.w.clear_faces(self.STAGE)
        self.focus_input()


def _dice_heading() -> QLabel:
    heading = label("Roll: virtual dice, or type the faces the dice showed", "section")
    show_readings(heading, "Dice")
    return heading
