"""Widgets drawn from pictures of themselves while they show what they showed before."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPixmap, QRegion
from PySide6.QtWidgets import QWidget


class PictureTaker:
    """Takes a widget's pictures of itself. While it does, :attr:`taking` is true: the widget's
    paint event then paints as Qt and its library do, into the picture."""

    def __init__(self) -> None:
        self.taking = False

    def take(self, widget: QWidget, ground: QColor | Qt.GlobalColor) -> QPixmap:
        """``widget`` as it paints now, at its pixel ratio, over ``ground``."""
        ratio = widget.devicePixelRatioF()
        size = widget.size()
        picture = QPixmap(round(size.width() * ratio), round(size.height() * ratio))
        picture.setDevicePixelRatio(ratio)
        picture.fill(ground)
        self.taking = True
        try:
            widget.render(picture, QPoint(), QRegion(), QWidget.RenderFlag.DrawWindowBackground)
        finally:
            self.taking = False
        return picture
