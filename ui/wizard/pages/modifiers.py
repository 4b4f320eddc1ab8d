"""The Action Roll page's modifier list: every modifier with its value and its rule, and the
judgements the organizer makes on it (the target's Size, Disrupted, Outnumbered, Engaged)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLineEdit, QWidget

from brikdesk.domain.attack import SizeClass, Target
from brikdesk.domain.combat import (
    ActionPreview,
    ModifierRow,
    judgement_values,
    size_options,
    target_of,
)
from ui import colours
from ui.widgets.combat_style import label, set_problem, show_readings
from ui.wizard.pages.base import Wizard, inches_or_none, number_text
from ui.wizard.widgets import ChoiceCombo, ModifierText, ModifierValue, card, on_card


class ModifierCard:
    """The card of the Action Roll's modifiers (``box``), a row each, the judgement a row
    asks for beside it. The rows keep their places while the page is open: a judgement that
    gives a modifier or takes one away moves nothing under the organizer's pointer."""

    def __init__(self, page: QWidget, wizard: Wizard) -> None:
        self.page = page
        self.w = wizard
        self.mods_box, ml = card(page)
        ml.addWidget(label("Modifiers to the Action Roll", "section"))
        self.mods_error = label("", "problem")
        self.mods_error.hide()
        ml.addWidget(self.mods_error)
        self.mods = QGridLayout()
        self.mods.setHorizontalSpacing(14)
        self.mods.setColumnStretch(1, 1)  # once: setting it lays the list out again
        ml.addLayout(self.mods)
        self.visible_problem = label("", "problem")
        self.visible_problem.setObjectName("visibleProblem")
        self.visible_problem.hide()
        ml.addWidget(self.visible_problem)
        self.row_widgets: list[tuple[ModifierValue, ModifierText]] = []
        self._order: dict[str, int] = {}
        self.placed: dict[QWidget, tuple[int, int]] = {}
        ml.addStretch(1)

    def add_judgements(self) -> None:
        """Make the judgement widgets, once (reused across refreshes). Made after the page's
        other cards, as before: the order they take the focus in."""
        page = self.page
        self.judge_size = ChoiceCombo(page)
        self.judge_size.setObjectName("judgeSize")
        self.judge_size.setMinimumContentsLength(13)
        self.visible = QLineEdit(page)
        self.visible.setObjectName("visibleInches")
        self.visible.setPlaceholderText('visible "')
        self.visible.setMaximumWidth(130)
        self.disrupted = QCheckBox("&Disrupted", page)
        self.disrupted.setObjectName("judgeDisrupted")
        self.outnumbered = QCheckBox("O&utnumbered", page)
        self.outnumbered.setObjectName("judgeOutnumbered")
        self.engaged = QCheckBox("Attacker is &engaged", page)
        self.engaged.setObjectName("judgeEngaged")
        for w in (self.judge_size, self.visible, self.disrupted, self.outnumbered, self.engaged):
            w.setParent(self.mods_box)
            w.hide()
        on_card(self.judge_size, self.disrupted, self.outnumbered, self.engaged)
        self.judge_size.chosen.connect(self._size)
        self.visible.textEdited.connect(self._visible)
        self.disrupted.toggled.connect(self._disrupted)
        self.outnumbered.toggled.connect(self._outnumbered)
        self.engaged.toggled.connect(self._engaged)

    def new_attack(self) -> None:
        """A new attack: its modifiers in the domain's order again."""
        self._order.clear()

    def fit_rows(self) -> None:
        """Each row takes the height of its text anew (then holds it while the page is open)."""
        for _value, what in self.row_widgets:
            what.forget()

    def _steady(self, rows: Sequence[ModifierRow]) -> list[ModifierRow]:
        """``rows`` in the order their modifiers first appeared since the page was opened: a
        judgement that gives a modifier (or takes it away) leaves its row, and the check box
        the organizer just clicked, where they were. A modifier is known by its judgement, or
        by its rule section (and how many rows before it cite that section)."""
        keys = []
        cited: Counter[str] = Counter()
        for r in rows:
            rule = r.modifier.rule
            keys.append(r.judgement or f"{rule}#{cited[rule]}")
            cited[rule] += 1
        for key in keys:
            self._order.setdefault(key, len(self._order))
        return [
            r for _key, r in sorted(zip(keys, rows, strict=True), key=lambda kr: self._order[kr[0]])
        ]

    def _row(self, i: int) -> tuple[ModifierValue, ModifierText]:
        """The value and text of row ``i`` of the modifier list (made once, reused)."""
        while len(self.row_widgets) <= i:
            n = len(self.row_widgets)
            value = ModifierValue(self.mods_box)
            what = ModifierText(self.mods_box)
            what.setObjectName("modifierRow")
            on_card(what)
            self.mods.addWidget(value, n, 0, Qt.AlignmentFlag.AlignRight)
            self.mods.addWidget(what, n, 1)
            self.row_widgets.append((value, what))
        return self.row_widgets[i]

    def _place(self, widget: QWidget, row: int, col: int) -> None:
        if self.placed.get(widget) != (row, col):
            self.mods.removeWidget(widget)
            self.mods.addWidget(widget, row, col)
            self.placed[widget] = (row, col)
        widget.show()

    def show(self, preview: ActionPreview) -> None:
        first = preview.first
        set_problem(self.mods_error, preview.error)
        rows = [] if preview.error or first is None else self._steady(first.rows)
        used: set[QWidget] = set()
        d, ctx = self.w.draft, self.w.ctx
        target = target_of(d, ctx) if rows else None
        for i, r in enumerate(rows):
            m = r.modifier
            value, what = self._row(i)
            value.show_value(
                f"{m.value:+d}" if m.value else "0",
                colours.GOOD if m.value > 0 else colours.ERROR if m.value < 0 else colours.NOTE,
            )
            read = show_readings(what, m.rule)
            what.set_texts(m.reason, m.rule + (" · BrikDesk's reading (hover)" if read else ""))
            value.show()
            what.show()
            widget = self._judgement(r.judgement, target) if target is not None else None
            if widget is not None:
                self._place(widget, i, 2)
                used.add(widget)
                if r.judgement == "size" and target is not None and target.size is SizeClass.LARGE:
                    self._place(self.visible, i, 3)
                    used.add(self.visible)
        if rows and first is not None:
            value, what = self._row(len(rows))
            value.show_value(
                f"{first.action_mod:+d}" if first.action_mod else "0", None, total=True
            )
            what.set_texts("all Action Roll modifiers together")
            value.show()
            what.show()
        for value, what in self.row_widgets[len(rows) + (1 if rows else 0) :]:
            value.hide()
            what.hide()
        for widget in (
            self.judge_size,
            self.visible,
            self.disrupted,
            self.outnumbered,
            self.engaged,
        ):
            if widget not in used:
                widget.hide()
        if self.visible not in used:
            self.visible_problem.hide()

    def _judgement(self, key: str | None, target: Target) -> QWidget | None:
        if key == "size":
            current = (target.size, target.sections_visible if target.is_minifig else 3)
            self.judge_size.set_choices(size_options(target), current)
            if not self.visible.hasFocus():
                self.visible.setText(
                    number_text(target.visible_size) if target.visible_size else ""
                )
            return self.judge_size
        box = {
            "disrupted": self.disrupted,
            "outnumbered": self.outnumbered,
            "engaged": self.engaged,
        }.get(key or "")
        if box is None:
            return None
        judged = judgement_values(self.w.draft, self.w.ctx)
        value = {
            "disrupted": judged.disrupted,
            "outnumbered": judged.outnumbered,
            "engaged": judged.engaged,
        }[key or ""]
        box.blockSignals(True)
        box.setChecked(bool(value))
        box.blockSignals(False)
        return box

    # -- changes ---------------------------------------------------------------------------

    def _size(self, value: tuple[SizeClass, int]) -> None:
        size, n = value
        self.w.change("action", replace(self.w.draft, size=size, sections_visible=n))

    def _visible(self, text: str) -> None:
        """The visible Size of a large target: a bad entry is explained under the modifiers
        and leaves the draft as it was (it never silently becomes 0)."""
        value, err = inches_or_none(text, "visible Size")
        set_problem(self.visible_problem, err)
        if err is None:
            self.w.change("action", replace(self.w.draft, visible_size=value or Fraction(0)))

    def _disrupted(self, on: bool) -> None:
        self.w.change("action", replace(self.w.draft, target_disrupted=on))

    def _outnumbered(self, on: bool) -> None:
        self.w.change("action", replace(self.w.draft, outnumbered=on))

    def _engaged(self, on: bool) -> None:
        self.w.change("action", replace(self.w.draft, attacker_engaged=on))
