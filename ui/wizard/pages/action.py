"""Page 3 of the combat wizard: the Action Roll."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.combat import (
    ActionStage,
    StrikerPreview,
    action_preview,
    action_verdict,
    benny_options,
    prose,
    target_name,
)
from brikdesk.domain.odds import percent
from brikdesk.domain.rolling import BennyUse
from ui import colours
from ui.screen import usable_size
from ui.widgets.combat_style import (
    label,
    set_text_style,
    show_readings,
)
from ui.widgets.dice import BennyChooser
from ui.wizard.pages.base import (
    NEED_PT,
    SHORT_SCREEN,
    DiceStep,
    Wizard,
    chart_maker,
    show_verdict,
)
from ui.wizard.pages.dice import DicePage
from ui.wizard.pages.modifiers import ModifierCard
from ui.wizard.pages.reaction import ReactionCard
from ui.wizard.widgets import (
    ChartSlot,
    OddsPanel,
    card,
    fix_size,
    lay_out_now,
    on_card,
)


class ActionPage(DicePage):
    STAGE: DiceStep = "action"
    NEED_TEXT_SLACK = 20  # pixels under the sentence below the number needed

    def __init__(self, wizard: Wizard) -> None:
        super().__init__(
            wizard,
            "3 · Action Roll",
            "Every modifier with its rule; tick the "
            "judgements; then roll or type the faces the dice showed.",
        )

    def build(self) -> None:
        top = QHBoxLayout()
        top.setSpacing(12)
        self.modifiers = ModifierCard(self, self.w)
        top.addWidget(self.modifiers.mods_box, 1)
        right_column = QWidget(self)
        right_width = 580
        right_column.setFixedWidth(right_width)
        right = QVBoxLayout(right_column)
        right.setContentsMargins(0, 0, 0, 0)
        self.need_box, nl = card(self)
        self.need_head = label("Needs on the die", "note")
        self.need = label("-", None, wrap=False, selectable=False)
        self.need.setObjectName("needed")
        set_text_style(self.need, NEED_PT, 800, colours.ACCENT)
        fix_size(self.need, "no roll", NEED_PT)
        self.need_text = label("", "event", selectable=False)
        self.need_text.setObjectName("neededText")
        # A fixed size in this column (its width less the card's margins and 1px border): its
        # size never depends on word wrapping, and a new text repaints the label alone. One
        # line, the usual sentence; a longer one makes it taller (_show_need_text).
        self.need_text.setFixedSize(
            right_width - 2 * 12 - 2,
            self.need_text.fontMetrics().lineSpacing() + self.NEED_TEXT_SLACK,
        )
        # A Combined Attack's other attackers, a line each beside the number needed (the
        # room there is empty): the page is no taller for up to three attackers.
        self.joiner_text = label("", "event")
        self.joiner_text.hide()
        on_card(self.need_head, self.need, self.need_text, self.joiner_text)
        nl.addWidget(self.need_head)
        need_row = QHBoxLayout()
        need_row.setSpacing(10)
        need_row.addWidget(self.need)
        need_row.addWidget(self.joiner_text, 1, Qt.AlignmentFlag.AlignVCenter)
        nl.addLayout(need_row)
        nl.addWidget(self.need_text)
        right.addWidget(self.need_box)
        self.odds = OddsPanel(self)
        self.odds.name_bonus(self.w.ctx.rules.over_the_top)
        right.addWidget(self.odds)
        # On a laptop's screen the page shows the modifiers and the dice at once: a lower
        # chart, and the chart's explanation as its tooltip instead of a paragraph.
        room = usable_size(self.w.window()).height()
        short = room < SHORT_SCREEN
        chart_height = 185 if not short else 130 if room >= 700 else 115  # 1366x768; 1280x720
        self.chart = ChartSlot(chart_maker("action"), self, height=chart_height)
        right.addWidget(self.chart)
        right.addStretch(1)
        top.addWidget(right_column)
        self.body.addLayout(top)
        self._policy_text = prose.chart_policy(self.w.ctx.rules)
        self.policy = label(self._policy_text, "note")
        self.policy.setObjectName("bennyPolicy")
        self.policy.setVisible(not short)
        self.body.addWidget(self.policy)

        self.modifiers.add_judgements()
        self.reaction_card = ReactionCard(self, self.w)
        self.body.addWidget(self.reaction_card.react_box)

        self._add_dice_card(self._benny_rows)

        self.benny.picked.connect(self._benny)
        self.embellishment.textEdited.connect(self._embellishment)

    def _benny_rows(self, dl: QVBoxLayout) -> None:
        """The dice card's Benny choice and embellishment, under the outcome."""
        self.benny = BennyChooser(self)
        show_readings(self.benny, "4.2 Over the Top")
        self.benny.setObjectName("bennyChooser")
        self.benny.hide()
        dl.addWidget(self.benny)
        self.embellish_row = QWidget(self)
        er = QHBoxLayout(self.embellish_row)
        er.setContentsMargins(0, 0, 0, 0)
        embellish_label = QLabel("The embellishment the players agree on:", self)
        self.embellishment = QLineEdit(self)
        self.embellishment.setObjectName("embellishment")
        self.embellishment.setPlaceholderText("e.g. the arrow pins his hat to the door")
        embellish_label.setBuddy(self.embellishment)
        er.addWidget(embellish_label)
        er.addWidget(self.embellishment, 1)
        self.embellish_row.hide()
        dl.addWidget(self.embellish_row)

    # -- showing ---------------------------------------------------------------------------

    def _stage(self) -> ActionStage:
        return self.w.action_stage()

    def initializePage(self) -> None:
        # A new attack: its modifiers in the domain's order, each row the height of its text;
        # then the rows stay in their places at their heights, so that a judgement moves nothing.
        self.ensure_built()
        self.modifiers.new_attack()
        super().initializePage()
        self.modifiers.fit_rows()

    def refresh(self) -> None:
        d, ctx = self.w.draft, self.w.ctx
        preview = action_preview(d, ctx)
        self.modifiers.show(preview)
        first = preview.first
        if first is not None:
            self.need.setText(_needed_figure(first))
            self.need_head.setText(
                f"{first.name}: {first.weapon}, Use "
                f"{first.use if first.use is not None else '-'}, "
                f"Action die d{first.action_die}"
            )
            self._show_need_text(first.needed_text)
            policy = (
                f"{preview.missed_radius_text[0].upper()}{preview.missed_radius_text[1:]}. "
                if preview.missed_radius_text
                else ""
            ) + self._policy_text
            if policy != self.policy.text():
                self.policy.setText(policy)
                self.chart.setToolTip(policy)
                self.odds.setToolTip(policy)
            odds = first.odds
            values: dict[str, Fraction | float | None] = {"kill": preview.kill}
            if odds is not None:
                values.update(
                    critical_failure=odds.critical_failure,
                    over_the_top=odds.over_the_top,
                    hit=odds.hit,
                )
            elif first.automatic is not None:
                values.update(critical_failure=0, over_the_top=0, hit=1)
            self.odds.show_odds(values)
            if odds is not None and odds.action_totals:
                from ui.wizard import charts

                totals = [(t, float(p)) for t, p in odds.action_totals]
                bars = charts.action_bars(totals, first.action_mod, first.use)
                ott = charts.over_the_top_faces(first.action_die, odds.over_the_top > 0)
                need = first.needed
                self.chart.show()
                self.chart.draw(
                    "show_bars",
                    bars,
                    need - 0.5 if need is not None else None,
                    f"needs {need}",
                    ott,
                )
            else:
                self.chart.hide()
        else:
            self.need.setText("-")
            self._show_need_text("")
            self.odds.show_odds({})
        others = preview.strikers[1:]
        text, tip = _others_text(preview.strikers)
        if text != self.joiner_text.text():
            self.joiner_text.setText(text)
            self.joiner_text.setToolTip(tip)
        self.joiner_text.setVisible(bool(others))
        together = bool(others) and preview.kill is not None
        self.odds.name_kill(
            ("Both destroy" if len(others) == 1 else "All destroy") if together else "Destroy",
            prose.together_destroy(target_name(self.w.draft, self.w.ctx), percent(preview.kill))
            if together
            else "",
        )
        self.reaction_card.show()
        self._show_stage()
        self.complete_changed()
        lay_out_now()  # one paint of the final geometry

    def _show_need_text(self, text: str) -> None:
        """The sentence under the number needed. Its box holds its height (a new sentence
        repaints it alone) and grows when a sentence needs more lines (an Automatic Hit
        explains itself at length): no sentence is cut."""
        lab = self.need_text
        if text == lab.text():
            return
        lab.setText(text)
        lines = (
            lab.fontMetrics()
            .boundingRect(
                QRect(0, 0, lab.contentsRect().width(), 100_000), Qt.TextFlag.TextWordWrap, text
            )
            .height()
        )
        height = lines + self.NEED_TEXT_SLACK
        if height > lab.height():
            lab.setFixedHeight(height)

    def _show_stage(self) -> None:
        stage = self.w.action_stage()
        self.dice.ask(
            stage.need,
            stage.dice,
            waiting="How is the Benny spent? Choose below." if stage.pending is not None else "",
        )
        lines = list(stage.messages())
        first = stage.first
        if first is not None and first.automatic is not None:
            lines.insert(0, f"<b>{first.automatic.describe()}</b>")
        self.outcome.setText("<br>".join(lines))
        self.outcome.setVisible(bool(lines))
        show_verdict(self.verdict, action_verdict(stage))
        if stage.pending is not None:
            who = {"bail": "the Bail", "parry": "the Parry"}.get(stage.pending, "the attack")
            self.benny.offer(
                f"{self.w.ctx.rules.over_the_top} on {who}: a natural 6 or more "
                "earns a Benny. How "
                "is it spent? (press its letter)",
                benny_options(self.w.draft, self.w.ctx, stage.pending, stage),
                "The first choice is the one the odds above assume."
                if stage.pending.startswith("attack")
                else "",
            )
            self.benny.show()
        else:
            self.benny.hide()
        d = self.w.draft
        embellished = any(
            use is BennyUse.EMBELLISH and key.startswith("attack") for key, use in d.bennies
        )
        self.embellish_row.setVisible(embellished)
        if not self.embellishment.hasFocus():
            self.embellishment.setText(d.embellishment)
        self._show_problem(stage)

    def focus_input(self) -> None:
        if self.w.action_stage().pending is not None:
            self.benny.setFocus()
            self.show_widget(self.benny)
        else:
            super().focus_input()

    # -- changes ---------------------------------------------------------------------------

    def _embellishment(self, text: str) -> None:
        self.w.change("action", replace(self.w.draft, embellishment=text))

    def _benny(self, use: BennyUse) -> None:
        stage = self.w.action_stage()
        if stage.pending is not None:
            key = stage.pending
            self.w.pick_benny(key, use)
            if (
                use is BennyUse.EMBELLISH
                and key.startswith("attack")
                and self.w.action_stage().need is None
            ):
                self.embellishment.setFocus()
                self.embellishment.selectAll()
            else:
                self.focus_input()


def _others_text(strikers: Sequence[StrikerPreview]) -> tuple[str, str]:
    """A Combined Attack's other attackers (those after the first), a line each beside the
    first one's number needed ("Little John: 4+, hit 50.0%"; "on the d10" when its die is not
    the first one's), and the tooltip with their weapons and whole sentences; nothing for one
    attacker. Short, and the Destroy figure named as the attackers' together ("Both destroy", 5.1) instead of a line of its own: the Action Roll
    page of three attackers opens with its die box in view at 1280x720."""
    if len(strikers) < 2:
        return "", ""
    first, *others = strikers
    lines = [
        f"{s.name}: "
        + (_needed_short(s) if s.action_die != first.action_die else _needed_figure(s))
        + (f", hit {percent(s.odds.hit)}" if s.odds is not None else "")
        for s in others
    ]
    tip = "<br>".join(f"{s.name} ({s.weapon}): needs {s.needed_text}" for s in others)
    return "<br>".join(lines), tip


def _needed_figure(s: StrikerPreview) -> str:
    """The number an attacker needs on its Action die: "2+" ("12" beyond the die: a bonus die
    must add to it), or "no roll"."""
    if s.needed is None:
        return "no roll"
    return f"{s.needed}+" if s.needed <= s.action_die else f"{s.needed}"


def _needed_short(s: StrikerPreview) -> str:
    """What an attacker needs, as the number needed shows it: "2+ on the d6"."""
    figure = _needed_figure(s)
    return figure if s.needed is None else f"{figure} on the d{s.action_die}"
