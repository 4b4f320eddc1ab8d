"""Starting a battle: muster the armies' units and set the players' turn order.

``StartBattleDialog`` picks the players, their armies and which units are mustered (the
campaign pool stays intact: the battle holds copies), names the battle and sets the turn order.
``OrderDialog`` sets the turn order of a battle that was planned earlier. In both the order is
a list to drag (or move with the buttons), or the result of a roll-off whose dice are shown:
virtual dice, or the faces rolled at the table typed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.battle.rolloff import READING, RollOff, roll_off
from brikdesk.domain.ids import CampaignId, PlayerId, UnitId
from brikdesk.domain.muster import SideMuster, muster_summary
from brikdesk.domain.rolling import DiceSource, NeedDie, RandomDice, TypedDice
from brikdesk.domain.statuses import UnitStatus
from brikdesk.errors import UserError
from brikdesk.limits import MAX_NUMBER
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from brikdesk.words import plural
from ui import colours
from ui.wheel import guard_wheel
from ui.widgets.common import colour_swatch, tree_children
from ui.widgets.dialogs import enter_accepts

ID = Qt.ItemDataRole.UserRole
COST = Qt.ItemDataRole.UserRole + 1
SWATCH = 14  # the players' colour squares, in pixels


@dataclass(frozen=True)
class PlayerChoice:
    id: PlayerId
    name: str
    colour: str


class OrderEditor(QWidget):
    """The turn order: a list to drag, Up/Down buttons, and a roll-off with its dice shown."""

    order_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("orderEditor")
        self.dice_source: DiceSource | None = None  # None: virtual dice (tests set one)
        self.last_roll: RollOff | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        hint = QLabel("Turn order: the first player starts. Drag to reorder, or roll off.", self)
        hint.setWordWrap(True)
        layout.addWidget(hint)
        row = QHBoxLayout()
        self.list = QListWidget(self)
        self.list.setObjectName("orderList")
        self.list.setAccessibleName("Turn order")
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.list.setIconSize(QSize(16, 16))
        self.list.model().rowsMoved.connect(self._moved)
        row.addWidget(self.list, 1)
        buttons = QVBoxLayout()
        self.up_button = QPushButton("Move &up", self)
        self.up_button.setObjectName("orderUp")
        self.up_button.clicked.connect(self.move_up)
        self.down_button = QPushButton("Move &down", self)
        self.down_button.setObjectName("orderDown")
        self.down_button.clicked.connect(self.move_down)
        self.roll_button = QPushButton("&Roll off", self)
        self.roll_button.setObjectName("rollOff")
        self.roll_button.setToolTip(READING)
        self.roll_button.clicked.connect(self.roll)
        for b in (self.up_button, self.down_button, self.roll_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        row.addLayout(buttons)
        layout.addLayout(row, 1)
        layout.addWidget(QLabel("Dice rolled at the table (optional; empty: virtual dice):", self))
        self.typed = QLineEdit(self)
        self.typed.setObjectName("typedDice")
        self.typed.setAccessibleName("Dice rolled at the table")
        self.typed.setPlaceholderText("e.g. 5 3 — one d6 per player, in list order")
        layout.addWidget(self.typed)
        self.dice_label = QLabel(self)
        self.dice_label.setObjectName("rollOffDice")
        self.dice_label.setWordWrap(True)
        self.dice_label.setTextFormat(Qt.TextFormat.RichText)
        big = QFont(self.font())
        big.setPointSizeF(big.pointSizeF() * 1.25)
        self.dice_label.setFont(big)
        layout.addWidget(self.dice_label)
        self._colours: dict[int, str] = {}

    def set_players(self, players: Sequence[PlayerChoice]) -> None:
        """Show these players: ones already listed stay in their place, new ones go last."""
        current = self.order()
        if sorted(current) == sorted(p.id for p in players) and current:
            return  # the same players: their order and the dice shown stay
        listed = [pid for pid in current if pid in {p.id for p in players}]
        by_id = {p.id: p for p in players}
        order = listed + [p.id for p in players if p.id not in listed]
        self._colours = {p.id: p.colour for p in players}
        self.list.clear()
        for pid in order:
            p = by_id[pid]
            item = QListWidgetItem(colour_swatch(p.colour, SWATCH, radius=3), p.name, self.list)
            item.setData(ID, pid)
        if self.last_roll is not None and set(self.last_roll.order) != set(order):
            self.last_roll = None
            self.dice_label.clear()
        self.order_changed.emit()

    def order(self) -> list[PlayerId]:
        return [self.list.item(i).data(ID) for i in range(self.list.count())]

    def set_order(self, order: Sequence[PlayerId]) -> None:
        items = {self.list.item(i).data(ID): self.list.item(i) for i in range(self.list.count())}
        taken = [self.list.takeItem(0) for _ in range(self.list.count())]
        del taken
        for pid in order:
            old = items[pid]
            item = QListWidgetItem(old.icon(), old.text().split("   ")[0], self.list)
            item.setData(ID, pid)
        self.order_changed.emit()

    def _moved(self, *_args: object) -> None:
        self.order_changed.emit()

    def move_up(self) -> None:
        self._move(-1)

    def move_down(self) -> None:
        self._move(1)

    def _move(self, delta: int) -> None:
        row = self.list.currentRow()
        new = row + delta
        if row < 0 or not 0 <= new < self.list.count():
            return
        item = self.list.takeItem(row)
        self.list.insertItem(new, item)
        self.list.setCurrentRow(new)
        self.order_changed.emit()

    def roll(self) -> RollOff | None:
        """Roll off for the listed players; the list takes the order and shows the dice."""
        players = [
            (self.list.item(i).data(ID), self.list.item(i).text().split("   ")[0])
            for i in range(self.list.count())
        ]
        if len(players) < 2:
            self.dice_label.setText("Pick at least two players to roll off.")
            return None
        text = self.typed.text().strip()
        dice: DiceSource
        if text:
            try:
                typed = [int(t) for t in text.replace(",", " ").split()]
            except ValueError:
                self.dice_label.setText("<b>Type the faces as numbers, e.g. 5 3 6.</b>")
                return None
            dice = TypedDice(typed)
        else:
            dice = self.dice_source or RandomDice()
        try:
            result = roll_off(players, dice)
        except NeedDie:
            self.dice_label.setText(
                "<b>A tie: roll again for the tied players and type "
                "those dice after the first ones.</b>"
            )
            return None
        except UserError as exc:
            self.dice_label.setText(f"<b>{exc}</b>")
            return None
        self.last_roll = result
        self.set_order(result.order)
        faces: dict[int, list[int]] = {}
        for d in result.dice:
            faces.setdefault(d.player_id, []).append(d.face)
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item is None:
                continue
            pid = item.data(ID)
            rolls = ", then ".join(str(f) for f in faces.get(pid, []))
            item.setText(f"{item.text()}   rolled {rolls}")
        self.dice_label.setText("<br>".join(result.lines()))
        return result


class OrderDialog(QDialog):
    """The turn order of a planned battle, before it starts."""

    def __init__(
        self, parent: QWidget | None, battle_name: str, players: Sequence[PlayerChoice]
    ) -> None:
        super().__init__(parent)
        self.setObjectName("orderDialog")
        self.setWindowTitle(f"Start {battle_name}")
        layout = QVBoxLayout(self)
        self.editor = OrderEditor(self)
        self.editor.set_players(players)
        layout.addWidget(self.editor, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.start_button = buttons.addButton(
            "&Start battle", QDialogButtonBox.ButtonRole.AcceptRole
        )
        enter_accepts(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(460, 380)

    @classmethod
    def ask(
        cls, parent: QWidget | None, battle_name: str, players: Sequence[PlayerChoice]
    ) -> list[PlayerId] | None:
        dialog = cls(parent, battle_name, players)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            return dialog.editor.order()
        finally:
            dialog.deleteLater()


@dataclass(frozen=True)
class StartRequest:
    """What the start dialog asks for: a name and the musters in turn order."""

    name: str
    musters: tuple[Muster, ...]
    notes: str = ""


class StartBattleDialog(QDialog):
    """Muster units from the campaign's armies and set the turn order of a new battle."""

    def __init__(self, parent: QWidget | None, services: Services, campaign_id: CampaignId) -> None:
        super().__init__(parent)
        self.setObjectName("startBattleDialog")
        self.setWindowTitle("New battle")
        self.services = services
        self.campaign_id = campaign_id
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.name = QLineEdit(self)
        self.name.setObjectName("battleName")
        self.setFocusProxy(self.name)
        existing = services.battles.list_battles(campaign_id)
        self.name.setText(f"Battle {len(existing) + 1}")
        form.addRow("&Name:", self.name)
        self.budget = QSpinBox(self)
        self.budget.setObjectName("musterBudget")
        self.budget.setRange(0, MAX_NUMBER)
        self.budget.setSpecialValueText("no budget")
        self.budget.setToolTip(
            "Most each side may muster for this battle (0: no budget). Over "
            "it is a warning, never a refusal."
        )
        self._cost_unit = "CP"
        for c in services.campaigns.list_campaigns():
            if c.id == campaign_id:
                self.budget.setValue(c.default_budget)
                self._cost_unit = c.cost_system
        self.budget.setSuffix(f" {self._cost_unit} per side")
        form.addRow("&Budget:", self.budget)
        layout.addLayout(form)
        columns = QHBoxLayout()
        left = QVBoxLayout()
        left.addWidget(
            QLabel(
                "Who fights, with which units (the campaign's units stay in "
                "their armies; the battle keeps copies):",
                self,
            )
        )
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("musterTree")
        self.tree.setAccessibleName("Players, armies and units to muster")
        self.tree.setHeaderLabels(["Player / army / unit", "Type"])
        self.tree.setColumnWidth(0, 300)
        left.addWidget(self.tree, 1)
        self.count_label = QLabel(self)
        self.count_label.setObjectName("musterCount")
        left.addWidget(self.count_label)
        self.budget_warning = QLabel(self)
        self.budget_warning.setObjectName("musterBudgetWarning")
        self.budget_warning.setWordWrap(True)
        colours.text_style(self.budget_warning, colours.WARNING, "font-weight: bold;")
        self.budget_warning.hide()
        left.addWidget(self.budget_warning)
        columns.addLayout(left, 3)
        self.order = OrderEditor(self)
        columns.addWidget(self.order, 2)
        layout.addLayout(columns, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.start_button = self.buttons.addButton(
            "&Start battle", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.start_button.setObjectName("startBattle")
        enter_accepts(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._players: dict[PlayerId, PlayerChoice] = {}
        #: Why each army over its own budget is (a warning, never a refusal).
        self._over_budget: dict[int, str] = {}
        self._load()
        # Checking a player checks every unit under it, one itemChanged each: count once.
        self._recount = QTimer(self)
        self._recount.setSingleShot(True)
        self._recount.setInterval(0)
        self._recount.timeout.connect(self._changed)
        self.tree.itemChanged.connect(self._recount.start)
        self.name.textChanged.connect(self._recount.start)
        self.budget.valueChanged.connect(self._recount.start)
        self._changed()
        self.resize(920, 600)
        guard_wheel(self)
        self.name.selectAll()
        self.name.setFocus()  # "Dialogs open ready to type" (docs/conventions.md)

    def _load(self) -> None:
        players = self.services.campaigns.list_players(self.campaign_id)
        armies = self.services.campaigns.list_armies(self.campaign_id)
        flags_tri = (
            Qt.ItemFlag.ItemIsUserCheckable
            | Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsAutoTristate
        )
        for p in players:
            self._players[p.id] = PlayerChoice(p.id, p.name, p.colour)
            top = QTreeWidgetItem(self.tree, [p.name, p.faction])
            top.setIcon(0, colour_swatch(p.colour, SWATCH, radius=3))
            top.setData(0, ID, ("player", p.id))
            top.setFlags(flags_tri)
            top.setCheckState(0, Qt.CheckState.Unchecked)
            for a in (a for a in armies if a.player_id == p.id):
                army = QTreeWidgetItem(top, [a.name, plural(a.units, "unit")])
                army.setData(0, ID, ("army", a.id))
                army.setFlags(flags_tri)
                army.setCheckState(0, Qt.CheckState.Unchecked)
                roster = self.services.roster.roster(a.id)
                if roster.over_budget and roster.budget is not None:
                    self._over_budget[a.id] = (
                        f"{a.name} is over its own budget of {roster.budget} "
                        f"{roster.cost_unit} by {roster.total - roster.budget} "
                        f"{roster.cost_unit} ({roster.total} {roster.cost_unit}): the battle "
                        "can still start."
                    )
                for u in roster.units:
                    item = QTreeWidgetItem(army, [u.name, u.type_name])
                    item.setData(0, ID, ("unit", u.id))
                    item.setData(0, COST, u.cost)
                    if u.status == UnitStatus.DEAD:
                        item.setFlags(Qt.ItemFlag.ItemIsUserCheckable)
                        item.setText(1, f"{u.type_name} (dead)")
                        item.setToolTip(0, "Dead in the campaign: cannot fight")
                    else:
                        item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
                        if u.status == UnitStatus.WOUNDED:
                            item.setText(1, f"{u.type_name} (wounded)")
                    item.setCheckState(0, Qt.CheckState.Unchecked)
            top.setExpanded(False)

    def player_items(self) -> list[QTreeWidgetItem]:
        return tree_children(self.tree.invisibleRootItem())

    def unit_items(self, top: QTreeWidgetItem) -> list[QTreeWidgetItem]:
        """The unit entries under a player's entry (in its armies' entries)."""
        return [item for army in tree_children(top) for item in tree_children(army)]

    def check_player(self, player_id: PlayerId, on: bool = True) -> None:
        for top in self.player_items():
            if top.data(0, ID) == ("player", player_id):
                top.setCheckState(0, Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def set_unit_checked(self, unit_id: UnitId, on: bool) -> None:
        for top in self.player_items():
            for item in self.unit_items(top):
                if item.data(0, ID) == ("unit", unit_id):
                    item.setCheckState(0, Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    @property
    def _costs(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for top in self.player_items():
            for item in self.unit_items(top):
                out[item.data(0, ID)[1]] = item.data(0, COST) or 0
        return out

    def musters(self) -> dict[PlayerId, list[UnitId]]:
        out: dict[PlayerId, list[UnitId]] = {}
        for top in self.player_items():
            pid = top.data(0, ID)[1]
            ids = [
                item.data(0, ID)[1]
                for item in self.unit_items(top)
                if item.checkState(0) == Qt.CheckState.Checked
                and item.flags() & Qt.ItemFlag.ItemIsEnabled
            ]
            if ids:
                out[pid] = ids
        return out

    def _changed(self, *_args: object) -> None:
        chosen = self.musters()
        self.order.set_players([self._players[pid] for pid in self._players if pid in chosen])
        sides = [
            SideMuster(self._players[pid].name, len(ids), sum(self._costs.get(i, 0) for i in ids))
            for pid, ids in chosen.items()
        ]
        line, warnings = muster_summary(sides, self.budget.value(), self._cost_unit)
        warnings = (*warnings, *self._armies_over_budget())
        self.count_label.setText("Mustered — " + (line or "nobody yet"))
        self.budget_warning.setText("\n".join(warnings))
        self.budget_warning.setVisible(bool(warnings))
        ok = len(chosen) >= 2 and bool(self.name.text().strip())
        self.start_button.setEnabled(ok)
        self.start_button.setToolTip("" if ok else "Pick units of at least two players")

    def _armies_over_budget(self) -> list[str]:
        """A warning for each army with a mustered unit whose roster is over its budget."""
        out = []
        for top in self.player_items():
            for i in range(top.childCount()):
                army = top.child(i)
                if army is None:
                    continue
                army_id = army.data(0, ID)[1]
                if army_id in self._over_budget and army.checkState(0) != Qt.CheckState.Unchecked:
                    out.append(self._over_budget[army_id])
        return out

    def request(self) -> StartRequest | None:
        self._changed()
        chosen = self.musters()
        if len(chosen) < 2:
            return None
        order = [pid for pid in self.order.order() if pid in chosen]
        return StartRequest(
            self.name.text().strip(), tuple(Muster(pid, tuple(chosen[pid])) for pid in order)
        )

    @classmethod
    def ask(
        cls, parent: QWidget | None, services: Services, campaign_id: CampaignId
    ) -> StartRequest | None:
        dialog = cls(parent, services, campaign_id)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            return dialog.request()
        finally:
            dialog.deleteLater()
