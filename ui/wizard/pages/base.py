"""What every page of the combat wizard shares: the wizard as the pages see it
(``Wizard``), the page with its scrollable body (``Page``), and the small helpers the pages
use to read what the organizer typed."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Literal, Protocol

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QFrame,
    QGridLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from brikdesk.domain.attack import to_inches
from brikdesk.domain.combat import (
    ActionStage,
    AttackDraft,
    CombatContext,
    DamageStage,
    ResultSummary,
    Tone,
    Verdict,
)
from brikdesk.domain.combat import aimed_at as aimed_at
from brikdesk.domain.combat import of_kind as of_kind
from brikdesk.domain.rolling import BennyUse
from brikdesk.errors import UserError
from ui import colours
from ui.screen import usable_size
from ui.settings import DiceMode
from ui.wheel import guard_wheel
from ui.widgets.combat_style import (
    BASE_PT,
    set_colour,
)
from ui.wizard.widgets import (
    lay_out_now,
)

#: A screen less tall than this (pixels free for a window) is a laptop's: the Action Roll
#: page squeezes its chart to show the modifiers and the dice together.
SHORT_SCREEN = 900
#: The number needed on the die, the figure the whole table looks for.
NEED_PT = 40


#: The wizard's steps whose changes drop the dice typed for later steps (see ``change``).
Step = Literal["attack", "range", "action", "reaction", "damage", "note"]
#: The steps that roll dice.
DiceStep = Literal["action", "damage"]


class Wizard(Protocol):
    """What the pages use of the combat wizard (``ui.wizard.wizard.CombatWizard``): its draft
    and battle, the steps that change the draft, the stages it resolves, and its window (the
    pages' parent)."""

    ctx: CombatContext
    draft: AttackDraft
    dice_mode: DiceMode

    def window(self) -> QWidget: ...

    def button(self, which: QWizard.WizardButton) -> QAbstractButton: ...

    def currentPage(self) -> QWizardPage: ...

    def change(self, step: Step, draft: AttackDraft) -> None: ...

    def replace_draft(self, draft: AttackDraft) -> None: ...

    def add_face(self, step: DiceStep, face: int) -> None: ...

    def drop_face(self, step: DiceStep) -> None: ...

    def clear_faces(self, step: DiceStep) -> None: ...

    def roll_virtual(self, step: DiceStep) -> None: ...

    def pick_benny(self, key: str, use: BennyUse) -> None: ...

    def action_stage(self) -> ActionStage: ...

    def damage_stage(self) -> DamageStage: ...

    def summary(self) -> ResultSummary: ...

    def accept(self) -> None: ...


def chart_maker(kind: DiceStep) -> Callable[[QWidget], QWidget]:
    """What makes the chart of a dice page (``kind``: "action" or "damage"), pyqtgraph
    loaded only when the first chart is made."""

    def make(parent: QWidget) -> QWidget:
        from ui.wizard import charts

        if kind == "action":
            return charts.make_action_chart(parent)
        return charts.make_damage_chart(parent)

    return make


def inches_or_none(text: str, what: str) -> tuple[Fraction | None, str | None]:
    text = text.strip()
    if not text:
        return None, None
    try:
        return to_inches(text, what), None
    except UserError as exc:
        return None, str(exc)


class Page(QWizardPage):
    """A page with a scrollable body; ``build()`` makes its content the first time the page is
    shown (opening the wizard makes only its frame: the Attack page is all the organizer sees
    then), ``refresh()`` shows the draft."""

    def __init__(self, wizard: Wizard, title: str, subtitle: str) -> None:
        super().__init__(wizard.window())
        self.w = wizard
        colours.follow_theme(
            self,
            lambda: self.setTitle(
                f"<span style='font-size:{BASE_PT + 8}pt; "
                f"color:{colours.ACCENT.hex()}'>{title}</span>"
            ),
        )
        # On a laptop's screen the page's room goes to its content, not to the subtitle (a
        # line saying what the page is for).
        if usable_size(wizard.window()).height() >= SHORT_SCREEN:
            self.setSubTitle(subtitle)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # The vertical bar always there: a page that grows past the window's height (the
        # last die's verdict) keeps its width, instead of every text wrapping again and the
        # chart being drawn anew under the organizer's eyes.
        scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        body = QWidget(scroll)
        body.setAutoFillBackground(True)
        self.body = QVBoxLayout(body)
        self.body.setContentsMargins(4, 4, 4, 4)
        self.body.setSpacing(10)
        scroll.setWidget(body)
        outer.addWidget(scroll)
        self.scroller = scroll
        self._told_complete: bool | None = None
        #: Between initializePage and the wizard's open_focus: the page opens at its top.
        self._opening = False
        self._acted = False  # the organizer acted on the page while it opened
        self._stick_to_end = False
        self._unstick = QTimer(self)
        self._unstick.setSingleShot(True)
        self._unstick.setInterval(400)
        self._unstick.timeout.connect(self._release_end)
        scroll.verticalScrollBar().rangeChanged.connect(self._range_changed)
        self._built = False

    def build(self) -> None:  # pragma: no cover - every page overrides it
        raise NotImplementedError

    def ensure_built(self) -> None:
        """Make the page's content, once."""
        if not self._built:
            self._built = True
            self.build()
            # Styled before the first refresh measures its texts (the wizard's large fonts):
            # the page itself was styled when the wizard was shown, its new content was not.
            for child in self.findChildren(QWidget):
                child.ensurePolished()
            guard_wheel(self.w.window())  # its boxes too: no value changes under a passing wheel

    def refresh(self) -> None:  # pragma: no cover - every page overrides it
        raise NotImplementedError

    def complete_changed(self) -> None:
        """Enable Next (or Finish) when the page's completeness changes, and only then.

        Not through ``completeChanged``: QWizard answers it by hiding and showing all its
        contents around the buttons' update (against a flicker), which repaints the whole
        window, the last die of a step included (5-8 ms). What it updates is set here: Next
        enabled and the default button while the page is complete, else Finish on the last
        page. QWizard reads ``isComplete`` itself when it shows a page."""
        complete = self.isComplete()
        if complete == self._told_complete:
            return
        self._told_complete = complete
        if self.w.currentPage() is not self:
            return
        wiz = self.w
        finish = wiz.button(QWizard.WizardButton.FinishButton)
        if self.isFinalPage():
            finish.setEnabled(complete)
            return
        following = wiz.button(QWizard.WizardButton.NextButton)
        following.setEnabled(complete)
        if isinstance(following, QPushButton) and isinstance(finish, QPushButton):
            following.setDefault(complete)
            finish.setDefault(not complete)

    def forget_completeness(self, shown: bool = False) -> None:
        """The wizard reads the shown page's completeness itself when it shows the page: it
        knows it then; the other pages tell it afresh when they are shown again."""
        self._told_complete = self.isComplete() if shown else None

    def initializePage(self) -> None:
        self.ensure_built()
        self.forget_completeness()
        self.refresh()
        # QWizard gives the focus to the page's first child after this: the wizard takes it
        # back when the page is shown (open_focus, before the page's first paint, so that a
        # key typed at once reaches the die box).
        self._acted = False
        self._opening = True
        self.scroll_to_top()

    def scroll_to_top(self) -> None:
        """A page opens at its top: the modifiers first, never scrolled sideways."""
        self._stick_to_end = False
        self.scroller.verticalScrollBar().setValue(0)
        self.scroller.horizontalScrollBar().setValue(0)

    def open_focus(self) -> None:
        """Give the opening page its focus (once): the dice, or Next."""
        if not self._opening:
            return
        if not self._acted:
            self.initial_focus()
        self._opening = False
        self.scroll_to_top()

    def acted(self) -> None:
        """The organizer did something here: the page's opening focus must not steal it."""
        self._acted = True

    def initial_focus(self) -> None:
        self.focus_next_button()

    def show_widget(self, widget: QWidget) -> None:
        """Scroll so that ``widget`` is in view once the layout has settled (the dice follow
        the focus)."""
        if self._opening:
            return  # the page opens at its top (it is sized to show the dice there too)
        self._visible_target = widget
        # Laid out and scrolled now, before the paint: scrolling after it would paint the
        # page twice.
        lay_out_now()
        self._scroll_to_target()

    def _range_changed(self, _low: int, high: int) -> None:
        if self._stick_to_end:
            self.scroller.verticalScrollBar().setValue(high)

    def _release_end(self) -> None:
        self._stick_to_end = False

    def _scroll_to_target(self) -> None:
        widget = getattr(self, "_visible_target", None)
        if widget is None or not widget.isVisible():
            return
        if widget in (
            getattr(self, "outcome", None),
            getattr(self, "dice", None),
            getattr(self, "benny", None),
        ):
            # The dice card is last: show all of it, also once the layout has grown.
            bar = self.scroller.verticalScrollBar()
            bar.setValue(bar.maximum())
            self._stick_to_end = True
            self._unstick.start()
        else:
            self.scroller.ensureWidgetVisible(widget, 20, 20)

    def focus_next_button(self) -> None:
        wiz = self.w
        which = (
            QWizard.WizardButton.FinishButton
            if self.isFinalPage()
            else QWizard.WizardButton.NextButton
        )
        button = wiz.button(which)
        if button.isEnabled():
            button.setFocus()


def form_row(
    grid: QGridLayout, row: int, text: str, widget: QWidget, extra: QWidget | None = None
) -> QLabel:
    lab = QLabel(text)
    lab.setBuddy(widget)
    # The label fills its cell and aligns its text itself: a cell aligned on the label's
    # size hint can clip it when the hint was taken before the wizard's large font applied.
    lab.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    grid.addWidget(lab, row, 0)
    grid.addWidget(widget, row, 1)
    if extra is not None:
        grid.addWidget(extra, row, 2)
    return lab


def mnemonic(text: str, key: str) -> str:
    """``text`` with a keyboard mnemonic (``&``) before the first ``key`` in it."""
    return text.replace(key, "&" + key, 1)


def number_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


#: The colour of each kind of verdict.
TONES: dict[Tone, colours.Named | None] = {
    Tone.NONE: None,
    Tone.HIT: colours.GOOD,
    Tone.MISS: colours.NOTE,
    Tone.CRITICAL: colours.CRITICAL,
    Tone.DESTROYED: colours.ERROR,
    Tone.DAMAGE: colours.ACCENT,
    Tone.MOVED: colours.MOVED,
}


def show_verdict(lab: QLabel, verdict: Verdict) -> None:
    lab.setVisible(bool(verdict.text))
    if verdict.text:
        set_colour(lab, TONES[verdict.tone])
        lab.setText(verdict.text)
