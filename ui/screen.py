"""Windows and dialogs that fit the screen they open on.

A laptop screen (1366x768, less the task bar) is smaller than the size a window asks for when
it is built for a desktop monitor. ``fit_to_screen(widget, width, height)`` sizes a top-level
window to what it asks for, but never larger than the screen's available geometry (less a
margin for the window frame), and moves it back inside that area if it was placed outside
(a geometry stored on a larger screen). A window whose content is taller than the screen
must scroll it (the combat wizard's pages, the catalog's form do) rather than push its buttons
off the screen.

``available_geometry`` is the one place that asks Qt for the screen's free area; tests fake a
small screen with ``pretend_screen``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

#: Room left for the window manager's frame and title bar (pixels).
FRAME_MARGIN = QSize(16, 40)

_pretended: list[QRect] = []


@contextmanager
def pretend_screen(width: int, height: int) -> Iterator[QRect]:
    """Within the ``with`` block, every window sizes itself to a ``width`` x ``height`` screen
    (a laptop's, for tests)."""
    rect = QRect(0, 0, width, height)
    _pretended.append(rect)
    try:
        yield rect
    finally:
        _pretended.remove(rect)


def available_geometry(widget: QWidget | None = None) -> QRect:
    """The free area (without task bars) of the screen ``widget`` is on, else of the primary
    screen."""
    if _pretended:
        return QRect(_pretended[-1])
    screen = widget.screen() if widget is not None else None
    if screen is None:
        screen = QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1366, 768)


def usable_size(widget: QWidget | None = None) -> QSize:
    """The largest window size that fits the screen with its frame."""
    area = available_geometry(widget)
    return QSize(
        max(1, area.width() - FRAME_MARGIN.width()), max(1, area.height() - FRAME_MARGIN.height())
    )


def fit_to_screen(widget: QWidget, width: int | None = None, height: int | None = None) -> QSize:
    """Size the top-level ``widget`` to ``width`` x ``height`` (default: its size hint), no
    larger than the screen allows, and move it onto the screen; returns the size given.

    The minimum size is lowered too when it would not fit, so that the layout squeezes (and
    scroll areas scroll) rather than the window running off the screen.
    """
    hint = widget.sizeHint()
    want = QSize(
        width if width is not None else max(hint.width(), widget.minimumWidth()),
        height if height is not None else hint.height(),
    )
    room = usable_size(widget)
    if height is None:
        # Word-wrapped texts: the height they take at the width given, not at the hint's
        # (narrower) width, which would leave the difference as gaps between the rows.
        by_width = widget.heightForWidth(min(want.width(), room.width()))
        if by_width > 0:
            want.setHeight(max(by_width, widget.minimumHeight()))
    size = want.boundedTo(room)
    minimum = widget.minimumSize()
    if minimum.width() > room.width() or minimum.height() > room.height():
        widget.setMinimumSize(minimum.boundedTo(room))
    widget.resize(size)
    area = available_geometry(widget)
    pos = widget.pos()
    if not area.contains(QRect(pos, size + FRAME_MARGIN)):  # e.g. stored on a larger screen
        x = min(max(pos.x(), area.left()), area.right() - size.width() - FRAME_MARGIN.width() + 1)
        y = min(max(pos.y(), area.top()), area.bottom() - size.height() - FRAME_MARGIN.height() + 1)
        widget.move(max(area.left(), x), max(area.top(), y))
    return widget.size()


def grow_to_fit(widget: QWidget) -> None:
    """Let a shown dialog grow to what it shows now (a Benny's choices came), never beyond
    the screen; it never shrinks under the organizer's hands."""
    if not widget.isVisible():
        return
    layout = widget.layout()
    if layout is not None:
        layout.activate()
    hint = widget.sizeHint()
    by_width = widget.heightForWidth(max(hint.width(), widget.width()))
    if by_width > 0:  # word-wrapped texts, at the width the dialog will have
        hint.setHeight(by_width)
    if hint.width() > widget.width() or hint.height() > widget.height():
        fit_to_screen(
            widget, max(hint.width(), widget.width()), max(hint.height(), widget.height())
        )


def roomy_size(widget: QWidget, least: QSize, share: float = 0.85) -> QSize:
    """A first size for a main window: ``share`` of the screen's free area, but at least
    ``least`` (what its content needs) and never more than fits (a laptop gets ``least`` or
    the whole screen; a 1920x1080 monitor about 1630x900)."""
    area = available_geometry(widget)
    want = QSize(round(area.width() * share), round(area.height() * share)).expandedTo(least)
    return want.boundedTo(usable_size(widget))


def place_over(window: QWidget, owner: QWidget, step: int = 0) -> None:
    """Put the top-level ``window`` (frame included) over the middle of ``owner`` (the main
    window), ``step`` times 28 px down and right of it (a second roster beside the first), and
    wholly on the owner's screen: its size bounded by the screen, then moved inside it. A
    window stored on another screen, or the window manager's corner, never decides where a
    roster or the history opens."""
    area = available_geometry(owner)
    room = usable_size(owner)
    if window.width() > room.width() or window.height() > room.height():
        window.resize(window.size().boundedTo(room))
    outer = window.size() + FRAME_MARGIN
    centre = owner.frameGeometry().center() if owner.isVisible() else area.center()
    x = centre.x() - outer.width() // 2 + 28 * step
    y = centre.y() - outer.height() // 2 + 28 * step
    x = max(area.left(), min(x, area.right() + 1 - outer.width()))
    y = max(area.top(), min(y, area.bottom() + 1 - outer.height()))
    window.move(x, y)


def centre_on_screen(widget: QWidget) -> None:
    """Put the top-level ``widget`` (frame included) in the middle of its screen's free area."""
    area = available_geometry(widget)
    outer = widget.size() + FRAME_MARGIN
    widget.move(
        area.left() + max(0, (area.width() - outer.width()) // 2),
        area.top() + max(0, (area.height() - outer.height()) // 2),
    )
