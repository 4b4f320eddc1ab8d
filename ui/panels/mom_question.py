"""End turn's question about the ending player's MOMs (5.4): which of the units holding one used
up all of its Move in a straight line (and keeps it). The rule and the answers come from
``brikdesk.domain.battle.momentum``; End turn records the lost MOMs with the turn's end."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QWidget

from brikdesk.domain.battle.momentum import MOM_RULE, MomAtTurnEnd
from brikdesk.domain.ids import BattleUnitId
from ui.widgets.dialogs import FormDialog, answer_of


class MomQuestion(FormDialog):
    """One box per unit holding a MOM, ticked when it used up its Move (it keeps the MOM);
    Enter ends the turn with the MOMs of the others lost."""

    def __init__(self, parent: QWidget | None, player: str, asked: MomAtTurnEnd) -> None:
        super().__init__(
            parent,
            f"End {player}'s turn: MOM",
            f"{MOM_RULE} Tick each unit that used up its Move in a straight line: it keeps its "
            "MOM. The others lose theirs with the turn's end (Undo brings them back).",
            f"End {player}'s turn",
        )
        self.setObjectName("momQuestion")
        self.boxes: dict[BattleUnitId, QCheckBox] = {}
        for uid, name in asked.units:
            box = QCheckBox(f"{name} used up his Move: keeps the MOM", self)
            box.setObjectName(f"momKept{uid}")
            box.setAccessibleName(f"{name} used up his Move and keeps the MOM")
            self.form.addRow(box)
            self.boxes[uid] = box

    def lost(self) -> tuple[BattleUnitId, ...]:
        """The units whose box is not ticked: their MOM abandons them."""
        return tuple(uid for uid, box in self.boxes.items() if not box.isChecked())

    @classmethod
    def ask(
        cls, parent: QWidget | None, player: str, asked: MomAtTurnEnd
    ) -> tuple[BattleUnitId, ...] | None:
        """The units whose MOM is lost, or ``None`` when the organizer cancelled End turn."""
        dialog = cls(parent, player, asked)
        return answer_of(dialog, dialog.lost)
