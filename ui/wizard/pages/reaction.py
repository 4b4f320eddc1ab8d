"""The Action Roll page's reaction card: what the target does against the attack (a Parry,
a Bail) and what that means."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QWidget

from brikdesk.domain.combat import Reaction, parry_preview, prose, reaction_options
from brikdesk.domain.odds import percent
from ui.widgets.combat_style import label, show_readings
from ui.wizard.pages.base import Wizard
from ui.wizard.widgets import ChoiceCombo, card


class ReactionCard:
    """The target's reaction (``box``): the choice, its sentence, and whether a Bail takes
    the target out of the attack."""

    def __init__(self, page: QWidget, wizard: Wizard) -> None:
        self.w = wizard
        self.react_box, rl = card(page)
        row = QHBoxLayout()
        react_label = label("The target's &reaction", "section", wrap=False)
        row.addWidget(react_label)
        self.reaction = ChoiceCombo(page)
        self.reaction.setObjectName("reaction")
        react_label.setBuddy(self.reaction)
        row.addWidget(self.reaction, 1)
        rl.addLayout(row)
        self.reaction_text = label("", "event")
        self.reaction_text.setObjectName("reactionText")
        rl.addWidget(self.reaction_text)
        self.bail_clears = QCheckBox(
            "The dive takes him out of the attack (the attack is avoided)", page
        )
        self.bail_clears.setObjectName("bailClears")
        rl.addWidget(self.bail_clears)
        self.reaction.chosen.connect(self._reaction)
        self.bail_clears.toggled.connect(self._bail_clears)

    def show(self) -> None:
        d, ctx = self.w.draft, self.w.ctx
        options = reaction_options(d, ctx)
        self.reaction.set_choices(
            options, (d.reaction, d.parry_item if d.reaction is Reaction.PARRY else None)
        )
        self.react_box.setVisible(True)
        text = ""
        if d.reaction is Reaction.PARRY:
            words, chance = parry_preview(d, ctx)
            text = words + (f"; succeeds {percent(chance)}" if chance is not None else "")
            if d.kind.incoming.is_damage:
                text += "<br>" + prose.SHIELD_PARRY_DEFLECTS
            else:
                text += "<br>" + prose.parry_cancels(d.kind.label)
        elif d.reaction is Reaction.BAIL and d.target_id is not None:
            f = ctx.fighter(d.target_id)
            text = prose.bail_note(f.name, f.action_die, ctx.rules)
        self.reaction_text.setText(text)
        self.reaction_text.setVisible(bool(text))
        show_readings(
            self.reaction_text,
            *{Reaction.PARRY: ("5.2 Parrying",), Reaction.BAIL: ("4.3 Bailing",)}.get(
                d.reaction, ()
            ),
        )
        self.bail_clears.setVisible(d.reaction is Reaction.BAIL)
        self.bail_clears.blockSignals(True)
        self.bail_clears.setChecked(d.bail_clears)
        self.bail_clears.blockSignals(False)

    def _reaction(self, value: tuple[Reaction, str | None]) -> None:
        reaction, item = value
        self.w.change("reaction", replace(self.w.draft, reaction=reaction, parry_item=item))

    def _bail_clears(self, on: bool) -> None:
        self.w.change("action", replace(self.w.draft, bail_clears=on))
