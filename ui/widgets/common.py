"""What the windows share: performing service actions with undo, showing errors, actions.

"Undo through reversible operations" and "Two kinds of errors" (docs/conventions.md): a user action
calls one service method, which returns a ``Done`` (value, ``Changes``, undo text, redo and undo
steps). :class:`Actions` performs it, records it on the window's ``QUndoStack`` (``ui.undo``) and
publishes the changes on the bus. A ``UserError`` is shown where the user acted (the window's
message banner) and changes nothing; a ``StorageError`` is shown, logged, and the app keeps running.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QColor,
    QIcon,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QPixmap,
    QUndoGroup,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QStyle,
    QTableView,
    QToolBar,
    QToolButton,
    QTreeWidgetItem,
    QWidget,
)

from brikdesk.errors import (
    Abandoned,
    ConflictError,
    OutcomeUnknown,
    ServerError,
    StorageError,
    UserError,
)
from brikdesk.services.changes import Done
from ui import colours
from ui.bus import Bus
from ui.models.table import SummaryTableModel
from ui.undo import ALL_CHANGES, chain, perform

if TYPE_CHECKING:
    from brikdesk.services import Services
    from ui.settings import AppSettings

log = logging.getLogger(__name__)

T = TypeVar("T")
#: The object an action table's commands are looked up on (a window, as its parts see it).
H = TypeVar("H")
#: What an action table's enabled-when reads: the window's state now (what is open, selected).
S = TypeVar("S")
Shortcut = QKeySequence | QKeySequence.StandardKey | str

#: How long an error stays in a banner before it fades away by itself (milliseconds).
BANNER_TIMEOUT_MS = 15_000


class MessageBanner(QFrame):
    """A one-line message under a window's toolbar: errors in red, notes in blue.

    Hidden while there is nothing to say; the close button (or Esc) hides it.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messageBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 4, 4)
        self.label = QLabel(self)
        self.label.setObjectName("bannerText")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.label, 1)
        close = QToolButton(self)
        close.setText("✕")
        close.setToolTip("Hide this message")
        close.setAutoRaise(True)
        close.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        close.clicked.connect(self.clear)
        layout.addWidget(close)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.clear)
        self.kind = ""
        self.hide()
        colours.follow_theme(self, self._restyle, now=False)

    def show_error(self, text: str) -> None:
        self._show(text, "error")

    def show_note(self, text: str) -> None:
        self._show(text, "note")

    def _restyle(self) -> None:
        bg, fg, border = (
            (colours.PROBLEM_BG, colours.ERROR, colours.PROBLEM_BORDER)
            if self.kind == "error"
            else (colours.INFO_BG, colours.INFO_TEXT, colours.INFO_BORDER)
        )
        self.setStyleSheet(
            f"#messageBanner {{ background: {bg.hex()}; border: 1px solid {border.hex()}; "
            f"border-radius: 3px; }} #bannerText {{ color: {fg.hex()}; }}"
        )

    def _show(self, text: str, kind: str) -> None:
        self.kind = kind
        self._restyle()
        self.label.setText(text[:1].upper() + text[1:] if text else text)
        self.show()
        self._timer.start(BANNER_TIMEOUT_MS)

    def text(self) -> str:
        return self.label.text() if self.isVisible() else ""

    def clear(self) -> None:
        self.kind = ""
        self.label.clear()
        self._timer.stop()
        self.hide()


def show_storage_error(parent: QWidget | None, error: StorageError) -> QMessageBox:
    """A window-modal (non-blocking) box for a database problem; the app keeps running."""
    log.error("Storage error: %s", error)
    box = QMessageBox(parent)
    box.setObjectName("storageErrorBox")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("BrikDesk: the database could not be used")
    box.setText("The last change could not be read or saved.")
    if isinstance(error, ServerError):
        box.setWindowTitle("BrikDesk: the database server did not answer")
        advice = (
            "Check that the database server is running and that this computer can reach it, "
            "then try again."
        )
    else:
        advice = "Check the disk and that no other program holds the database, then try again."
    box.setInformativeText(f"{error}\n\nNothing was changed. {advice}")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def report_to_active_window(bus: Bus) -> Callable[[str], None]:
    """A ``report`` for refused undos: the active window's banner and every status bar."""

    def report(text: str) -> None:
        bus.say(text)
        window = QApplication.activeWindow()
        banner = getattr(window, "banner", None)
        if isinstance(banner, MessageBanner):
            banner.show_error(text)

    return report


class Actions(QObject):
    """Performs a window's service calls through the one undo path (``ui.undo.perform``).

    ``perform(call)`` runs ``call()`` (a service method returning ``Done``), records it on the
    window's undo stack, publishes its changes and returns its value, or shows the error in
    ``banner`` and returns ``None``. A ``ConflictError`` (the window showed something someone
    else has changed since) also makes every view read the database again. ``read(call)`` is
    the same for reading calls (no undo, no changes).
    """

    def __init__(self, parent: QWidget, stack: QUndoStack, bus: Bus, banner: MessageBanner) -> None:
        super().__init__(parent)
        self._window = parent
        self.stack = stack
        self.bus = bus
        self.banner = banner
        self._report = report_to_active_window(bus)

    def perform(
        self,
        call: Callable[[], Done[T]],
        text: str | None = None,
        *,
        stack: QUndoStack | None = None,
    ) -> T | None:
        """Run ``call``; ``text`` (default: the service's) names it in the Undo menu;
        ``stack``: another history than the window's (a battle's, for its ending)."""
        try:
            done = perform(
                stack if stack is not None else self.stack,
                self.bus,
                call,
                text=text,
                report=self._report,
                window=self._window,
            )
        except (UserError, StorageError) as exc:
            self._show(exc)
            return None
        if self.banner.kind == "error":
            self.banner.clear()
        return done.value

    def perform_chain(
        self,
        first: Callable[[], Done[T]],
        then: Callable[[T], Done[Any] | None],
        text: str | None = None,
    ) -> T | None:
        """Two service calls as one undo step: ``then(value of first)`` may return ``None``
        (nothing more to do). If ``then`` is refused, ``first`` is undone."""

        def both() -> Done[T]:
            d1 = first()
            try:
                d2 = then(d1.value)
            except (UserError, StorageError):
                d1.undo()
                raise
            return chain(d1, d2, text)

        return self.perform(both, text)

    def _show(self, exc: Exception) -> None:
        if isinstance(exc, Abandoned):  # the user's own Cancel: no box
            self.banner.show_note(f"Cancelled: {exc}.")
        elif isinstance(exc, OutcomeUnknown):  # the user stopped waiting
            self.banner.show_note(f"{exc}.")
        elif isinstance(exc, StorageError):
            show_storage_error(self._window, exc)
        else:
            self.banner.show_error(str(exc))
        if isinstance(exc, ConflictError):
            self.bus.publish(ALL_CHANGES)

    def read(self, call: Callable[[], T]) -> T | None:
        try:
            return call()
        except UserError as exc:
            self.banner.show_error(str(exc))
        except StorageError as exc:
            show_storage_error(self._window, exc)
        return None


class ServicesHost(Protocol):
    """What most parts of a window use of it: the services, the runner that performs a call
    as an undo step (and shows what it refused), and the settings. A part's own Protocol adds
    the rest it uses ("Rooms with their own doors" in docs/conventions.md)."""

    @property
    def services(self) -> Services: ...
    @property
    def runner(self) -> Actions: ...
    @property
    def settings(self) -> AppSettings: ...


def make_action(
    parent: QObject,
    text: str,
    slot: Callable[..., Any] | None = None,
    *,
    name: str = "",
    shortcut: Shortcut | Sequence[Shortcut] | None = None,
    tip: str = "",
    icon: QIcon | None = None,
    checkable: bool = False,
) -> QAction:
    """A ``QAction`` with its shortcut(s), status tip (also the tooltip) and slot."""
    action = QAction(text, parent)
    if name:
        action.setObjectName(name)
    if shortcut is not None:
        if isinstance(shortcut, QKeySequence | QKeySequence.StandardKey | str):
            action.setShortcut(QKeySequence(shortcut))
        else:
            action.setShortcuts([QKeySequence(s) for s in shortcut])
    if tip:
        action.setStatusTip(tip)
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        action.setToolTip(f"{tip} ({keys})" if keys else tip)
    if icon is not None:
        action.setIcon(icon)
    action.setCheckable(checkable)
    if slot is not None:
        if checkable:
            action.triggered.connect(slot)  # the slot receives the new checked state
        else:
            # QAction.triggered carries a ``checked`` flag; a plain command must not receive
            # it as its first argument (``export_campaign(path=False)``).
            action.triggered.connect(lambda _checked=False, _slot=slot: _slot())
    return action


@dataclass(frozen=True)
class ActionSpec(Generic[H, S]):
    """One entry of a window's menus and toolbar as data: the attribute that holds it, its
    text, the command it runs (looked up on the window's ``host``), its object name,
    shortcut(s), tip, standard icon, and when it is enabled (``enabled_when(state)``, the
    window's state now; ``None``: always). :func:`make_actions` reads a table of them,
    :func:`enable_actions` enables them."""

    attr: str
    text: str
    command: Callable[[H], Callable[[], object]]
    name: str
    shortcut: Shortcut | Sequence[Shortcut] | None = None
    tip: str = ""
    icon: QStyle.StandardPixmap | None = None
    enabled_when: Callable[[S], bool] | None = None


def enable_actions(
    actions: Mapping[str, QAction], specs: Sequence[ActionSpec[H, S]], state: S
) -> None:
    """Enable each action of ``specs`` (by attribute) as its ``enabled_when`` says of
    ``state``; one with none is left as it is."""
    for spec in specs:
        if spec.enabled_when is not None:
            actions[spec.attr].setEnabled(spec.enabled_when(state))


def make_actions(
    parent: QWidget, host: H, specs: Sequence[ActionSpec[H, Any]]
) -> dict[str, QAction]:
    """The actions of ``specs`` (by attribute), parented to ``parent``, each connected to its
    command on ``host``: the one builder of the windows' action tables."""
    icon = parent.style().standardIcon
    return {
        spec.attr: make_action(
            parent,
            spec.text,
            spec.command(host),
            name=spec.name,
            shortcut=spec.shortcut,
            tip=spec.tip,
            icon=None if spec.icon is None else icon(spec.icon),
        )
        for spec in specs
    }


def undo_redo_actions(parent: QObject, stack: QUndoStack | QUndoGroup) -> tuple[QAction, QAction]:
    """Undo (Ctrl+Z) and Redo (Ctrl+Shift+Z, also Ctrl+Y) bound to a window's undo history
    (``stack``), or to whichever history of a group is active (the main window's)."""
    undo = stack.createUndoAction(parent, "&Undo")
    undo.setObjectName("undoAction")
    style = QApplication.style()
    undo.setIcon(
        QIcon.fromTheme("edit-undo", style.standardIcon(QStyle.StandardPixmap.SP_ArrowBack))
    )
    undo.setShortcuts([QKeySequence(QKeySequence.StandardKey.Undo)])
    redo = stack.createRedoAction(parent, "&Redo")
    redo.setObjectName("redoAction")
    redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    redo.setIcon(
        QIcon.fromTheme("edit-redo", style.standardIcon(QStyle.StandardPixmap.SP_ArrowForward))
    )
    # A toolbar shows the icon text: a fixed "Undo"/"Redo", so the buttons never change size
    # and nothing shifts under the mouse; the full "Undo Rename unit …" is in the tooltip and
    # the Edit menu.
    undo.setIconText("Undo")
    redo.setIconText("Redo")
    return undo, redo


#: Rows ``fit_columns`` measures at most (evenly spread over a longer table).
FIT_SAMPLE_ROWS = 2000


def fit_columns(
    view: QTableView, available: int | None = None, *, give_last: Sequence[int] = ()
) -> None:
    """Size the columns of ``view`` (over a ``SummaryTableModel``) to what they show.

    A column whose ``Column.fit_chars`` is set gets the width of its header or its longest text
    (and the decoration icon), at most ``fit_chars`` average characters; the other columns get
    their ``width_hint``. When the visible columns would not fit in ``available`` pixels (default:
    the view's width), the fitted ones give up room in proportion to what they asked beyond
    their ``width_hint``, so that every column stays in sight; a text cut short ends in "…" and
    the tooltip gives it whole. The columns in ``give_last`` give up room only after the others
    have given theirs (a roster's names and what units hold). Widths follow the font. Long
    tables are sampled.
    """
    model = view.model()
    if not isinstance(model, SummaryTableModel) or not model.columns:
        return
    columns = model.columns
    rows = model.all_rows()
    if len(rows) > FIT_SAMPLE_ROWS:
        stride = len(rows) / FIT_SAMPLE_ROWS
        rows = [rows[int(i * stride)] for i in range(FIT_SAMPLE_ROWS)]
    hh = view.horizontalHeader()
    fm = view.fontMetrics()
    header_fm = hh.fontMetrics()
    style = view.style()
    pad = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1) + 8
    icon = style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, view) + 6
    sort_arrow = header_fm.horizontalAdvance("▲") + 12
    average = fm.averageCharWidth()
    widths: dict[int, int] = {}
    hint_floors: dict[int, int] = {}
    title_floors: dict[int, int] = {}
    whole: dict[int, int] = {}  # a fitted column's width for its longest text uncut
    for i, col in enumerate(columns):
        if not col.fit_chars:
            widths[i] = hint_floors[i] = title_floors[i] = col.width_hint or hh.defaultSectionSize()
            continue
        texts = {col.text(r): r for r in rows}
        # Measure only the longest few by characters: text width follows length closely.
        widest = 0
        for text in sorted(texts, key=len, reverse=True)[:12]:
            width = fm.horizontalAdvance(text)
            if model.extra_data(texts[text], i, Qt.ItemDataRole.DecorationRole) is not None:
                width += icon
            widest = max(widest, width)
        title = header_fm.horizontalAdvance(col.title) + sort_arrow
        widths[i] = max(title, min(widest + pad, col.fit_chars * average + pad))
        whole[i] = max(title, widest + pad)
        hint_floors[i] = min(widths[i], max(title, col.width_hint))
        title_floors[i] = title
    shown = [i for i in widths if not hh.isSectionHidden(i)]
    room = (view.viewport().width() if available is None else available) - 2
    # Give up room down to the width hints first, then down to the headings if need be; the
    # columns in ``give_last`` give theirs last.
    others = [i for i in shown if i not in give_last]
    final = [i for i in shown if i in give_last]
    for floors in (hint_floors, title_floors):
        for giving in (others, final):
            excess = sum(widths[i] for i in shown) - room
            give = {i: max(0, widths[i] - floors[i]) for i in giving}
            spare = sum(give.values())
            if excess <= 0 or spare <= 0:
                continue
            share = min(1.0, excess / spare)
            for i in giving:
                widths[i] -= min(give[i], int(give[i] * share + 0.999))
    # Room left over goes to the texts the character limit cut short, so they read whole.
    spare_room = room - sum(widths[i] for i in shown)
    for i in shown:
        if spare_room <= 0:
            break
        grow = min(spare_room, whole.get(i, widths[i]) - widths[i])
        if grow > 0:
            widths[i] += grow
            spare_room -= grow
    for i, width in widths.items():
        view.setColumnWidth(i, width)


def colour_swatch(colour: str, size: int = 12, *, radius: float = 2) -> QIcon:
    """A small filled square of a player's colour (for lists and headers), its corners
    rounded by ``radius`` pixels."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    c = QColor(colour)
    p.setBrush(c if c.isValid() else colours.SWATCH_FALLBACK.q())
    p.setPen(colours.SWATCH_EDGE.q())
    p.drawRoundedRect(QRectF(0.5, 0.5, size - 1, size - 1), radius, radius)
    p.end()
    return QIcon(pix)


def tree_children(parent: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    """The child items of ``parent``, in order."""
    return [child for i in range(parent.childCount()) if (child := parent.child(i)) is not None]


class ElidedLabel(QLabel):
    """A one-line label that asks for at most ``chars`` average characters, or more when its
    parent (a status bar) still leaves ``message_chars`` for the messages beside its other
    labels (a desktop monitor's status bar has room for the whole path), and shows what fits,
    with "…" in the middle; ``text()`` stays whole (a status bar's database path)."""

    def __init__(
        self,
        text: str = "",
        parent: QWidget | None = None,
        chars: int = 48,
        message_chars: int = 100,
    ) -> None:
        super().__init__(text, parent)
        self._chars = chars
        self._message_chars = message_chars
        self.setContentsMargins(10, 0, 6, 0)  # apart from the message and the next label
        if parent is not None:
            parent.installEventFilter(self)  # its width sets how much this label may ask

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.parentWidget():
            self.updateGeometry()
        return False

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        average = self.fontMetrics().averageCharWidth()
        most = average * self._chars
        parent = self.parentWidget()
        if parent is not None:
            others = sum(
                w.sizeHint().width()
                for w in parent.findChildren(
                    QLabel, options=Qt.FindChildOption.FindDirectChildrenOnly
                )
                if w is not self and w.isVisible()
            )
            most = max(most, parent.width() - others - average * self._message_chars)
        return QSize(min(hint.width(), most), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().averageCharWidth() * 12), hint.height())

    def shown_text(self) -> str:
        """The text as drawn in the label's width."""
        width = self.contentsRect().width()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle, width)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignVCenter), self.shown_text())


def name_toolbar_extension(toolbar: QToolBar) -> None:
    """Name the button Qt adds to ``toolbar`` for the buttons that do not fit (a screen
    reader would say only "toggle button")."""
    for button in toolbar.findChildren(QToolButton, "qt_toolbar_ext_button"):
        button.setAccessibleName(f"More {toolbar.windowTitle().lower()} buttons")
