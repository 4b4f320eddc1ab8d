"""End battle: the post-battle update of the campaign in one pass.

One row per mustered unit with what the log says happened (status, killed by whom, its kills,
Disrupted or off the table at the end), each editable: the organizer may overrule the log (a unit
the players agree survived, a kill given to someone else) and promote survivors to another unit type
(the new cost and the army's budget shown; over budget is a warning, never a refusal). The winner is
suggested from who holds the field and editable (or a draw); notes. Nothing is written until End
battle (one transaction, one undo step); Cancel leaves no trace (``AftermathService``; the dialog
edits a draft; "Wizards edit a draft and commit once" in docs/conventions.md).

The battle is read on a worker ("Never block the GUI thread" in docs/conventions.md): the dialog
opens at once saying it is reading, with End battle disabled, and fills in when the read arrives; so
does a refresh after someone else changed the battle. A slow or locked database never freezes the
window.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.aftermath import FATE_STATUSES, BattleResult, UnitFate
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.domain.statuses import UnitStatus
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Services
from brikdesk.services.aftermath import Aftermath, AftermathUnit, PromotionPreview
from ui import colours
from ui.wheel import guard_wheel
from ui.widgets.common import colour_swatch
from ui.widgets.dialogs import enter_accepts
from ui.workers import start_job

log = logging.getLogger(__name__)

COLUMNS = ("Unit", "Player", "Status", "Killed by", "Kills", "At the end", "Promote to")
UNIT, PLAYER, STATUS, KILLED_BY, KILLS, END, PROMOTE = range(len(COLUMNS))
STATUS_TEXT = {UnitStatus.ALIVE: "Survived", UnitStatus.WOUNDED: "Wounded", UnitStatus.DEAD: "Fell"}


class KillerBox(QComboBox):
    """Who killed a unit: "—" or any other mustered unit. The list of units is filled when it
    first opens (so that the dialog opens quickly on a battle of hundreds of units)."""

    def __init__(
        self,
        parent: QWidget,
        aftermath: Aftermath,
        unit_id: BattleUnitId,
        killed_by: BattleUnitId | None,
    ) -> None:
        super().__init__(parent)
        self._aftermath = aftermath
        self._unit = unit_id
        self._filled = False
        self.addItem("—", None)
        if killed_by is not None:
            killer = aftermath.unit(killed_by)
            self.addItem(self._label(killer), killer.id)
            self.setCurrentIndex(1)

    @staticmethod
    def _label(u: AftermathUnit) -> str:
        return f"{u.name} ({u.player_name})"

    def fill(self) -> None:
        if self._filled:
            return
        self._filled = True
        current = self.currentData()
        self.blockSignals(True)
        self.clear()
        self.addItem("—", None)
        for other in self._aftermath.units:
            if other.id != self._unit:
                self.addItem(self._label(other), other.id)
        self.setCurrentIndex(max(0, self.findData(current)))
        self.blockSignals(False)

    def choose(self, unit_id: BattleUnitId | None) -> None:
        self.fill()
        self.setCurrentIndex(max(0, self.findData(unit_id)))

    def showPopup(self) -> None:
        self.fill()
        super().showPopup()


class EndBattleDialog(QDialog):
    """The post-battle dialog for ``battle_id``; ``battle_result()`` is the organizer's
    result."""

    def __init__(self, parent: QWidget | None, services: Services, battle_id: BattleId) -> None:
        super().__init__(parent)
        self.setObjectName("endBattleDialog")
        self.services = services
        self.battle_id = battle_id
        self._aftermath: Aftermath | None = None
        self.setWindowTitle("End battle")
        self._winner_touched = False
        self._previews_wanted = self.previews_shown = 0
        self._reads_wanted = self._reads_shown = 0
        layout = QVBoxLayout(self)
        intro = QLabel(
            "What the log says happened to each unit. Change anything the players "
            "agree on: the campaign is updated in one step when you end the battle "
            "(Edit > Undo reopens it).",
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.reading = QLabel("Reading the battle…", self)
        self.reading.setObjectName("readingNotice")
        layout.addWidget(self.reading)
        self.notice = QLabel(self)
        self.notice.setObjectName("staleNotice")
        self.notice.setWordWrap(True)
        colours.text_style(
            self.notice,
            colours.ERROR,
            "padding: 4px;",
            background=colours.PROBLEM_BG,
            border=colours.PROBLEM_BORDER,
        )
        self.notice.hide()
        layout.addWidget(self.notice)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("fatesTable")
        self.table.setAccessibleName("Each unit's fate")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.status_boxes: list[QComboBox] = []
        self.killer_boxes: list[KillerBox] = []
        self.promote_boxes: list[QComboBox] = []
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(UNIT, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)

        form = QFormLayout()
        self.winner = QComboBox(self)
        self.winner.setObjectName("winnerBox")
        self.winner.activated.connect(self._winner_chosen)
        form.addRow("&Winner:", self.winner)
        self.suggestion = QLabel(self)
        self.suggestion.setObjectName("winnerSuggestion")
        self.suggestion.setWordWrap(True)
        form.addRow("", self.suggestion)
        self.notes = QPlainTextEdit(self)
        self.notes.setObjectName("battleNotes")
        self.notes.setPlaceholderText("How it ended, in a few words (kept with the battle)")
        self.notes.setMaximumHeight(70)
        self.notes.setTabChangesFocus(True)
        form.addRow("&Notes:", self.notes)
        self.promotions = QLabel(self)
        self.promotions.setObjectName("promotionPreview")
        self.promotions.setWordWrap(True)
        form.addRow("Promotions:", self.promotions)
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.end_button = buttons.addButton("&End battle", QDialogButtonBox.ButtonRole.AcceptRole)
        self.end_button.setObjectName("endBattleButton")
        enter_accepts(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(960, 620)
        guard_wheel(self)
        self._read()

    # -- reading (on a worker) ------------------------------------------------------------

    @property
    def aftermath(self) -> Aftermath:
        """The battle as last read (only once ``loaded()``)."""
        if self._aftermath is None:
            raise UserError("the battle is still being read")
        return self._aftermath

    def loaded(self) -> bool:
        """Whether the dialog shows the newest read of the battle (tests wait for it)."""
        return self._aftermath is not None and self._reads_shown == self._reads_wanted

    def _read(self, reason: str = "") -> None:
        """Read the battle on a worker; until it arrives, say so and keep End battle off."""
        self._reads_wanted += 1
        wanted, services, battle_id = self._reads_wanted, self.services, self.battle_id
        self.end_button.setEnabled(False)
        self.table.setEnabled(False)
        self.reading.setText("Reading the battle again…" if reason else "Reading the battle…")
        self.reading.show()
        start_job(
            self,
            lambda _progress: services.aftermath.aftermath(battle_id),
            on_done=lambda am: self._arrived(wanted, am, reason),
            on_error=lambda exc, trace: self._read_failed(wanted, exc, trace),
        )

    def _arrived(self, wanted: int, am: Aftermath, reason: str) -> None:
        if wanted != self._reads_wanted:
            return  # a newer read is on its way
        first = self._aftermath is None
        winner = self.winner.currentData()
        self._aftermath = am
        self._reads_shown = wanted
        self.setWindowTitle(f"End battle: {am.name}")
        self._fill_rows()
        guard_wheel(self)  # the rows' new boxes too
        self.winner.blockSignals(True)
        self.winner.clear()
        self.winner.addItem("Draw", None)
        for p in am.players:
            self.winner.addItem(p.name, p.id)
        keep = winner if self._winner_touched else am.suggestion.winner
        self.winner.setCurrentIndex(max(0, self.winner.findData(keep)))
        self.winner.blockSignals(False)
        self.reading.hide()
        if reason:
            self.notice.setText(reason)
            self.notice.show()
        self.table.setEnabled(True)
        self.end_button.setEnabled(True)
        self._changed()
        if first and self.status_boxes:
            self.table.setCurrentCell(0, STATUS)
            self.status_boxes[0].setFocus()  # ready to type once there is something (conv. 16)

    def _read_failed(self, wanted: int, exc: BaseException, trace: str) -> None:
        if wanted != self._reads_wanted:
            return
        self._reads_shown = wanted
        if not isinstance(exc, UserError | StorageError):
            log.error("the End battle dialog could not read the battle:\n%s", trace)
        self.reading.setText(f"The battle could not be read: {exc}")
        self.reading.show()

    def _fill_rows(self) -> None:
        """One row per mustered unit, from ``self.aftermath`` (again after a refresh)."""
        am = self.aftermath
        self.table.clearContents()
        self.table.setRowCount(len(am.units))
        self.status_boxes, self.killer_boxes, self.promote_boxes = [], [], []
        fates = {f.unit: f for f in am.proposal.fates}
        for row, u in enumerate(am.units):
            f = fates[u.id]
            name = QTableWidgetItem(u.name)
            name.setData(Qt.ItemDataRole.UserRole, u.id)
            name.setToolTip(
                f"{u.type_name}, {u.cost} {am.cost_unit}" + (f" ({u.army})" if u.army else "")
            )
            self.table.setItem(row, UNIT, name)
            player = QTableWidgetItem(u.player_name)
            colour = next((p.colour for p in am.players if p.id == u.player_id), "")
            if QColor(colour).isValid():  # the colour beside the name, never as its ink
                player.setIcon(colour_swatch(colour))
            self.table.setItem(row, PLAYER, player)
            status = QComboBox(self.table)
            status.setObjectName(f"status{u.id}")
            for s in FATE_STATUSES:
                status.addItem(STATUS_TEXT[s], s.value)
            status.setCurrentIndex(FATE_STATUSES.index(f.status))
            status.currentIndexChanged.connect(self._changed)
            self.table.setCellWidget(row, STATUS, status)
            self.status_boxes.append(status)
            killer = KillerBox(self.table, am, u.id, f.killed_by)
            killer.setObjectName(f"killer{u.id}")
            killer.currentIndexChanged.connect(self._changed)
            self.table.setCellWidget(row, KILLED_BY, killer)
            self.killer_boxes.append(killer)
            self.table.setItem(row, KILLS, QTableWidgetItem("0"))
            end = ", ".join(
                x for x, on in (("Disrupted", f.disrupted), ("off the table", f.out)) if on
            )
            self.table.setItem(row, END, QTableWidgetItem(end or "-"))
            promote = QComboBox(self.table)
            promote.setObjectName(f"promote{u.id}")
            promote.addItem("—", None)
            for t in am.unit_types:
                if t.key != u.type_key:
                    cost = "-" if t.cost is None else f"{t.cost} {am.cost_unit}"
                    promote.addItem(f"{t.name} ({cost})", t.key)
            promote.setEnabled(u.campaign_unit_id is not None)
            promote.currentIndexChanged.connect(self._changed)
            self.table.setCellWidget(row, PROMOTE, promote)
            self.promote_boxes.append(promote)
            status.setAccessibleName(f"Fate of {u.name}")
            killer.setAccessibleName(f"Who destroyed {u.name}")
            promote.setAccessibleName(f"Promote {u.name} to")
        # Tab goes through the rows in reading order, then to the winner: the boxes were made
        # after the dialog's buttons, and would come after them.
        order: list[QWidget] = [self.table]
        for boxes in zip(self.status_boxes, self.killer_boxes, self.promote_boxes, strict=True):
            order += boxes
        order.append(self.winner)
        for before, after in zip(order, order[1:], strict=False):
            QWidget.setTabOrder(before, after)

    def refresh(self, reason: str) -> None:
        """Read the battle again (someone else changed it since the dialog opened) and say
        why at the top once read; the winner chosen by hand and the notes stay."""
        self._read(reason)

    # -- the draft ------------------------------------------------------------------------

    def fates(self) -> tuple[UnitFate, ...]:
        out = []
        proposal = {f.unit: f for f in self.aftermath.proposal.fates}
        for row, u in enumerate(self.aftermath.units):
            status = UnitStatus(self.status_boxes[row].currentData())
            fell = status is UnitStatus.DEAD
            killer = self.killer_boxes[row].currentData() if fell else None
            promote = self.promote_boxes[row].currentData() if not fell else None
            out.append(replace(proposal[u.id], status=status, killed_by=killer, promote_to=promote))
        return tuple(out)

    def battle_result(self) -> BattleResult:
        """The organizer's result (``QDialog.result`` is the dialog's exit code)."""
        return BattleResult(self.fates(), self.winner.currentData(), self.notes.toPlainText())

    def set_fate(
        self, unit_id: BattleUnitId, status: UnitStatus, killed_by: BattleUnitId | None = None
    ) -> None:
        """Overrule the log for one unit (what a user does with the row's boxes)."""
        row = [u.id for u in self.aftermath.units].index(unit_id)
        self.status_boxes[row].setCurrentIndex(FATE_STATUSES.index(status))
        self.killer_boxes[row].choose(killed_by)

    def promote(self, unit_id: BattleUnitId, type_key: str | None) -> None:
        row = [u.id for u in self.aftermath.units].index(unit_id)
        box = self.promote_boxes[row]
        box.setCurrentIndex(max(0, box.findData(type_key)))

    def _winner_chosen(self, *_args: object) -> None:
        self._winner_touched = True

    def _changed(self, *_args: object) -> None:
        fates = self.fates()
        kills = BattleResult(fates).kills()
        for row, (u, f) in enumerate(zip(self.aftermath.units, fates, strict=True)):
            cell = self.table.item(row, KILLS)
            if cell is not None:
                cell.setText(str(kills.get(u.id, 0)))
            self.killer_boxes[row].setEnabled(f.fell)
            self.promote_boxes[row].setEnabled(not f.fell and u.campaign_unit_id is not None)
        suggestion = self.services.aftermath.suggest(self.aftermath, fates)
        self.suggestion.setText(f"Suggested: {suggestion.reason}")
        if not self._winner_touched:
            self.winner.setCurrentIndex(max(0, self.winner.findData(suggestion.winner)))
        promotions = {f.unit: f.promote_to for f in fates if f.promote_to}
        self._previews_wanted += 1
        if not promotions:
            self.promotions.setText("none (pick a unit type in a survivor's row)")
            self.promotions.setStyleSheet("")
            return
        # Read on a worker (it reads whole armies); only the newest answer is shown.
        wanted, services, battle_id = self._previews_wanted, self.services, self.battle_id
        self.promotions.setText("Working out the new army totals…")
        start_job(
            self,
            lambda _progress: services.aftermath.promotion_preview(battle_id, promotions),
            on_done=lambda previews: self._show_previews(wanted, previews),
            on_error=lambda exc, _trace: self._show_previews(wanted, exc),
        )

    def _show_previews(
        self, wanted: int, previews: tuple[PromotionPreview, ...] | BaseException
    ) -> None:
        if wanted != self._previews_wanted:
            return
        self.previews_shown = wanted
        if isinstance(previews, BaseException):
            self.promotions.setText(str(previews))
            return
        self.promotions.setText("\n".join(p.text for p in previews))
        over = any(p.over_by for p in previews)
        self.promotions.setStyleSheet(f"color: {colours.WARNING.hex()};" if over else "")

    def previews_ready(self) -> bool:
        """Whether the promotion preview shows the newest choice (tests wait for it)."""
        return self.previews_shown == self._previews_wanted
