"""Item views that are not painted again when their window gains or loses the activation.

Qt repaints every visible cell of an item view when its window is activated or deactivated
(the selection may have another colour in an inactive window). The panel's window loses the
activation at every form it opens (Q, A, S) and gets it back when the form closes: on a
500-unit battle that is the unit table's ~180 cells and the log's lines twice per attack,
about 10 ms each time here. Where the view's palette is the same in both states (the panel's
themes, Fusion on Linux) nothing would change, so the repaint is skipped; where it differs
(a platform palette with a grey inactive selection) Qt's repaint happens as before.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractItemView, QWidget

_ACTIVATION = (QEvent.Type.WindowActivate, QEvent.Type.WindowDeactivate)


class _SameWhenInactive(QObject):
    """On a view's viewport: the activation's events are dropped while they would repaint
    nothing new (the viewport has no children to pass them to)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _ACTIVATION and isinstance(watched, QWidget):
            palette = watched.palette()
            return palette.isEqual(QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive)
        return False


def steady_on_activation(view: QAbstractItemView) -> None:
    """Keep ``view`` from repainting all its cells when its window's activation changes
    (see the module docstring)."""
    view.viewport().installEventFilter(_SameWhenInactive(view))
