"""How the combat forms are styled without a style sheet: the cards, the boxed notes and
the dice chips look as they did, and a form's widgets take its table-sized font."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QVBoxLayout, QWidget

from brikdesk.domain.rolling import DieRoll, Role
from ui.colours import CAUTION_BG, CAUTION_BORDER, ERROR, GOOD, PROBLEM_BG, Named
from ui.widgets.combat_style import (
    BASE_PT,
    BIG_PT,
    CARD_BG,
    CARD_BORDER,
    Card,
    apply_style,
    label,
    set_problem,
)
from ui.widgets.dice import CRIT_COLOUR, DieChip

_HOLDERS: list[QWidget] = []  # the windows the widgets are shown in, for the test's length


def _shot(qtbot, widget: QWidget, width: int, height: int) -> QImage:
    holder = QWidget()
    qtbot.addWidget(holder)
    _HOLDERS[:] = [holder]
    QVBoxLayout(holder).addWidget(widget)
    holder.layout().setContentsMargins(0, 0, 0, 0)
    holder.resize(width, height)
    holder.show()
    qtbot.waitExposed(holder)
    return widget.grab().toImage()


def _near(pixel: QColor, colour: str | Named, slack: int = 12) -> bool:
    if isinstance(colour, Named):
        colour = colour.light
    want = QColor(colour)
    return all(
        abs(a - b) <= slack
        for a, b in (
            (pixel.red(), want.red()),
            (pixel.green(), want.green()),
            (pixel.blue(), want.blue()),
        )
    )


def test_a_card_is_a_rounded_panel_with_a_thin_border(qtbot) -> None:
    card = Card()
    image = _shot(qtbot, card, 300, 120)
    w, h = image.width(), image.height()
    assert _near(image.pixelColor(w // 2, h // 2), CARD_BG)  # its inside
    for x, y in ((w // 2, 0), (w // 2, h - 1), (0, h // 2), (w - 1, h // 2)):  # its edges
        assert _near(image.pixelColor(x, y), CARD_BORDER), (x, y)
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):  # rounded: no corner pixel
        assert image.pixelColor(x, y).alpha() < 128 or not _near(
            image.pixelColor(x, y), CARD_BORDER, 4
        ), (x, y)


def test_the_rule_warnings_card_takes_its_own_colours(qtbot) -> None:
    card = Card()
    card.set_colours(CAUTION_BG, CAUTION_BORDER, 2)
    image = _shot(qtbot, card, 300, 120)
    w, h = image.width(), image.height()
    assert _near(image.pixelColor(w // 2, h // 2), CAUTION_BG)
    assert _near(image.pixelColor(w // 2, 0), CAUTION_BORDER)
    assert _near(image.pixelColor(w // 2, 1), CAUTION_BORDER)  # two pixels wide


def test_a_problem_is_red_in_a_pink_box_and_a_good_note_green(qtbot) -> None:
    note = label("")
    set_problem(note, "Out of range")
    image = _shot(qtbot, note, 300, 60)
    assert note.isVisible() and note.property("role") == "problem"
    assert note.palette().color(note.foregroundRole()) == ERROR.q()
    assert _near(image.pixelColor(image.width() // 2, 3), PROBLEM_BG)  # the box, in its padding
    set_problem(note, None, good="In range")
    assert note.property("role") == "good"
    assert note.palette().color(note.foregroundRole()) == GOOD.q()


def test_a_form_and_its_labels_take_the_table_sizes(qtbot) -> None:
    form = QWidget()
    qtbot.addWidget(form)
    apply_style(form)
    plain = label("Attacker", None, form)
    big = label("3+", "big", form)
    assert plain.font().pointSize() == BASE_PT
    assert big.font().pointSize() == BIG_PT and big.font().bold()
    assert big.font().family() == plain.font().family()  # the family is the form's


def test_a_die_chip_shows_its_face_and_what_it_was_for(qtbot) -> None:
    chip = DieChip(DieRoll(6, 1, Role.NATURAL, "Action die"))
    assert (chip.face, chip.words) == ("1", "d6 Action")
    assert chip.named is CRIT_COLOUR  # a natural 1 on the Action die: a critical failure
    image = _shot(qtbot, chip, chip.sizeHint().width(), chip.sizeHint().height())
    assert chip.toolTip() == "Action die"
    assert _near(image.pixelColor(image.width() // 2, 1), CRIT_COLOUR, 40)  # its border
