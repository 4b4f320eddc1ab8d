"""Campaign, player and army dialogs: new campaign, campaign settings, open campaign, player,
army."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QColorDialog,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from brikdesk.domain.catalog import DEFAULT_EDITION, Edition
from brikdesk.domain.ids import CampaignId, PlayerId
from brikdesk.services.summaries import CampaignPatch, CampaignSummary, PlayerSummary
from brikdesk.words import plural
from ui import colours
from ui.screen import grow_to_fit
from ui.widgets.common import colour_swatch
from ui.widgets.dialogs import FormDialog, number_box, too_large

COST_SYSTEMS = ("CP", "Unit Inches")


@dataclass(frozen=True)
class NewCampaign:
    name: str
    edition: str
    cost_system: str
    default_budget: int
    notes: str = ""


class _CampaignForm(FormDialog):
    """Name, rules edition, cost system, default army budget and notes of a campaign."""

    def __init__(
        self, parent: QWidget | None, title: str, intro: str, ok_text: str, taken: Sequence[str]
    ) -> None:
        super().__init__(parent, title, intro, ok_text)
        self._taken = {t.casefold() for t in taken}
        self.name = QLineEdit(self)
        self.name.setPlaceholderText("e.g. The Siege of Brickton")
        self.name.setMaxLength(100)
        self.form.addRow("&Name:", self.name)
        self.edition = QComboBox(self)
        for e in Edition:
            self.edition.addItem(
                f"BrikWars {e.value}" + (" (default)" if e is DEFAULT_EDITION else ""), e.value
            )
        self.edition.setToolTip(
            "The rules edition whose weapons, unit types and costs the catalog starts from"
        )
        self.form.addRow("Rules &edition:", self.edition)
        self.cost_system = QComboBox(self)
        for c in COST_SYSTEMS:
            self.cost_system.addItem(c, c)
        self.form.addRow("&Costs in:", self.cost_system)
        self.budget = number_box(self)
        self.budget.setValue(100)
        self.budget.valueChanged.connect(self._check)
        self.budget.setSuffix(" CP")
        self.budget.setToolTip("The budget a new army starts with (each army can have its own)")
        self.cost_system.currentIndexChanged.connect(self._suffix)
        self.form.addRow("Default army &budget:", self.budget)
        self.notes = QPlainTextEdit(self)
        self.notes.setObjectName("campaignNotes")
        self.notes.setTabChangesFocus(True)
        self.notes.setPlaceholderText(
            "optional: the story, the house rules agreed at the table, where you meet…"
        )
        margin = self.notes.document().documentMargin()
        self.notes.setFixedHeight(
            int(
                self.notes.fontMetrics().lineSpacing() * 5
                + 2 * margin
                + 2 * self.notes.frameWidth()
            )
        )
        self.form.addRow("N&otes:", self.notes)
        self.setMinimumWidth(460)
        self.name.textChanged.connect(self._check)

    def _suffix(self) -> None:
        self.budget.setSuffix(f" {self.cost_system.currentData()}")

    def _check(self) -> None:
        name = " ".join(self.name.text().split())
        if not name:
            self.set_problem("Give the campaign a name.")
        elif name.casefold() in self._taken:
            self.set_problem(f"There is already a campaign called '{name}'.")
        else:
            self.set_problem(too_large("The default budget", self.budget))

    def _name(self) -> str:
        return " ".join(self.name.text().split())


class NewCampaignDialog(_CampaignForm):
    """A new campaign; ``edition`` is the rules edition offered first (Edit > Settings)."""

    def __init__(
        self, parent: QWidget | None, taken: Sequence[str] = (), edition: str | None = None
    ) -> None:
        super().__init__(
            parent,
            "New campaign",
            "A campaign holds its players, their armies, the battles they fight "
            "and its own house rules for the catalog.",
            "Create",
            taken,
        )
        if edition is not None and self.edition.findData(edition) >= 0:
            self.edition.setCurrentIndex(self.edition.findData(edition))
        self._check()

    def value(self) -> NewCampaign:
        return NewCampaign(
            self._name(),
            self.edition.currentData(),
            self.cost_system.currentData(),
            self.budget.value(),
            self.notes.toPlainText().strip(),
        )

    @classmethod
    def ask(
        cls, parent: QWidget | None, taken: Sequence[str] = (), edition: str | None = None
    ) -> NewCampaign | None:
        dlg = cls(parent, taken, edition)
        return dlg.value() if dlg.exec() == QDialog.DialogCode.Accepted else None


class CampaignSettingsDialog(_CampaignForm):
    """Change a campaign's name, rules edition, cost system, default budget and notes.

    ``value()`` is a ``CampaignPatch`` holding only what was changed.
    """

    def __init__(
        self, parent: QWidget | None, campaign: CampaignSummary, taken: Sequence[str] = ()
    ) -> None:
        others = [t for t in taken if t.casefold() != campaign.name.casefold()]
        super().__init__(parent, "Campaign settings", "", "Save", others)
        self.campaign = campaign
        self.name.setText(campaign.name)
        self.edition.setCurrentIndex(max(0, self.edition.findData(campaign.edition)))
        self.cost_system.setCurrentIndex(max(0, self.cost_system.findData(campaign.cost_system)))
        self._suffix()
        self.budget.setValue(campaign.default_budget)
        self.notes.setPlainText(campaign.notes)
        self.edition_note = QLabel(self)
        self.edition_note.setObjectName("editionNote")
        self.edition_note.setWordWrap(True)
        colours.text_style(self.edition_note, colours.WARNING)
        self.form.addRow("", self.edition_note)
        self.edition.currentIndexChanged.connect(self._explain)
        self.cost_system.currentIndexChanged.connect(self._explain)
        self._explain()
        self._check()

    def _explain(self) -> None:
        notes = []
        if self.edition.currentData() != self.campaign.edition:
            notes.append(
                f"The catalog will hold the BrikWars {self.edition.currentData()} "
                "weapons, unit types and costs; the campaign's house rules and custom "
                "entries stay. Saving first shows every unit type and item it lacks (you "
                "choose what each becomes), every unit whose cost or stats change and each "
                "army's cost before and after."
            )
        if self.cost_system.currentData() != self.campaign.cost_system:
            notes.append(f"Costs and budgets will be shown in {self.cost_system.currentData()}.")
        self.edition_note.setText(" ".join(notes))
        self.edition_note.setVisible(bool(notes))
        # The note's row grows the form: a shown dialog grows with it, so nothing is drawn
        # over the Notes box below. (Resizing before it is shown fixed Qt's default 640x480,
        # and the spare height spread gaps around the note.)
        grow_to_fit(self)

    def value(self) -> CampaignPatch:
        c = self.campaign
        name = self._name()
        notes = self.notes.toPlainText().strip()
        return CampaignPatch(
            name=name if name != c.name else None,
            edition=self.edition.currentData() if self.edition.currentData() != c.edition else None,
            cost_system=self.cost_system.currentData()
            if self.cost_system.currentData() != c.cost_system
            else None,
            default_budget=self.budget.value() if self.budget.value() != c.default_budget else None,
            notes=notes if notes != c.notes.strip() else None,
        )

    @classmethod
    def ask(
        cls, parent: QWidget | None, campaign: CampaignSummary, taken: Sequence[str] = ()
    ) -> CampaignPatch | None:
        """The changes asked for, or None when cancelled or nothing changed."""
        dlg = cls(parent, campaign, taken)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        patch = dlg.value()
        return patch if patch != CampaignPatch() else None


class OpenCampaignDialog(FormDialog):
    """Pick one of the database's campaigns (most recently changed first)."""

    def __init__(
        self,
        parent: QWidget | None,
        campaigns: Sequence[CampaignSummary],
        current: int | None = None,
    ) -> None:
        super().__init__(parent, "Open campaign", "", "Open")
        self.list = QListWidget(self)
        self.list.setAccessibleName("Campaigns")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        for c in campaigns:
            when = c.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")
            item = QListWidgetItem(
                f"{c.name}\nBrikWars {c.edition} · {plural(c.players, 'player')} · "
                f"{plural(c.armies, 'army', 'armies')} · {plural(c.units, 'unit')} · "
                f"{plural(c.battles, 'battle')} · changed {when}"
            )
            item.setData(Qt.ItemDataRole.UserRole, c.id)
            self.list.addItem(item)
            if c.id == current:
                self.list.setCurrentItem(item)
        if self.list.currentRow() < 0 and self.list.count():
            self.list.setCurrentRow(0)
        self.list.itemDoubleClicked.connect(self.accept)
        self.form.addRow(self.list)
        self.resize(520, 360)
        self.set_problem(None if campaigns else "There is no campaign yet: make a new one.")

    def value(self) -> CampaignId | None:
        item = self.list.currentItem()
        return None if item is None else CampaignId(int(item.data(Qt.ItemDataRole.UserRole)))

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        campaigns: Sequence[CampaignSummary],
        current: CampaignId | None = None,
    ) -> CampaignId | None:
        dlg = cls(parent, campaigns, current)
        return dlg.value() if dlg.exec() == QDialog.DialogCode.Accepted else None


@dataclass(frozen=True)
class PlayerInput:
    name: str
    colour: str
    faction: str


class _ColourButton(QPushButton):
    def __init__(self, colour: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colour = colour
        self.clicked.connect(self._choose)
        self._show()

    def _show(self) -> None:
        self.setIcon(colour_swatch(self.colour, 16))
        self.setText(self.colour)

    def _choose(self) -> None:
        c = QColorDialog.getColor(QColor(self.colour), self, "Player colour")
        if c.isValid():
            self.colour = c.name()
            self._show()


class PlayerDialog(FormDialog):
    def __init__(
        self,
        parent: QWidget | None,
        title: str,
        name: str = "",
        colour: str = "",
        faction: str = "",
    ) -> None:
        super().__init__(parent, title, "", "OK")
        self.name = QLineEdit(name, self)
        self.name.setMaxLength(100)
        self.name.setPlaceholderText("e.g. Margo")
        self.form.addRow("&Name:", self.name)
        self.faction = QLineEdit(faction, self)
        self.faction.setPlaceholderText("optional, e.g. Knights of the Round Brick")
        self.form.addRow("&Faction:", self.faction)
        if not colour:  # the first of the colours offered to new players
            from brikdesk.services.campaigns import PLAYER_COLOURS

            colour = PLAYER_COLOURS[0]
        self.colour = _ColourButton(colour, self)
        self.form.addRow("&Colour:", self.colour)
        self.name.textChanged.connect(self._check)
        self._check()

    def _check(self) -> None:
        self.set_problem(None if self.name.text().strip() else "The player needs a name.")

    def value(self) -> PlayerInput:
        return PlayerInput(
            self.name.text().strip(), self.colour.colour, self.faction.text().strip()
        )

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        title: str = "Add player",
        name: str = "",
        colour: str = "",
        faction: str = "",
    ) -> PlayerInput | None:
        dlg = cls(parent, title, name, colour, faction)
        return dlg.value() if dlg.exec() == QDialog.DialogCode.Accepted else None


@dataclass(frozen=True)
class ArmyInput:
    player_id: PlayerId
    name: str
    budget: int | None  # None: no budget


class ArmyDialog(FormDialog):
    def __init__(
        self,
        parent: QWidget | None,
        title: str,
        players: Sequence[PlayerSummary],
        player_id: PlayerId | None = None,
        name: str = "",
        budget: int | None = 100,
        cost_unit: str = "CP",
    ) -> None:
        super().__init__(parent, title, "", "OK")
        # The name first: the player is usually the one selected already.
        self.name = QLineEdit(name, self)
        self.name.setMaxLength(100)
        self.name.setPlaceholderText("e.g. Sir Reginald's Lancers")
        self.form.addRow("&Name:", self.name)
        self.player = QComboBox(self)
        for p in players:
            self.player.addItem(colour_swatch(p.colour), p.name, p.id)
            if p.id == player_id:
                self.player.setCurrentIndex(self.player.count() - 1)
        self.form.addRow("&Player:", self.player)
        row = QWidget(self)
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        self.budget = number_box(row)
        self.budget.setSuffix(f" {cost_unit}")
        self.budget.setAccessibleName("Budget")
        self.budget.setValue(budget or 0)
        self.has_budget = QCheckBox("budget", row)
        self.has_budget.setAccessibleName("The army has a budget")
        self.has_budget.setChecked(budget is not None)
        self.has_budget.toggled.connect(self.budget.setEnabled)
        self.has_budget.toggled.connect(self._check)
        self.budget.valueChanged.connect(self._check)
        self.budget.setEnabled(budget is not None)
        h.addWidget(self.has_budget)
        h.addWidget(self.budget, 1)
        QWidget.setTabOrder(self.has_budget, self.budget)  # as read: the box, then the amount
        self.form.addRow("&Budget:", row)
        self.name.textChanged.connect(self._check)
        self._check()
        if not players:
            self.set_problem("Add a player first: every army belongs to a player.")

    def _check(self) -> None:
        self.set_problem(
            too_large("The budget", self.budget)
            if self.name.text().strip()
            else "The army needs a name."
        )

    def value(self) -> ArmyInput:
        return ArmyInput(
            PlayerId(int(self.player.currentData())),
            self.name.text().strip(),
            self.budget.value() if self.has_budget.isChecked() else None,
        )

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        players: Sequence[PlayerSummary],
        *,
        title: str = "Add army",
        player_id: PlayerId | None = None,
        name: str = "",
        budget: int | None = 100,
        cost_unit: str = "CP",
    ) -> ArmyInput | None:
        dlg = cls(parent, title, players, player_id, name, budget, cost_unit)
        return dlg.value() if dlg.exec() == QDialog.DialogCode.Accepted else None
