"""What a screen reader is told of a window, read in-process through Qt's own accessibility
interfaces (the same ones Qt's AT-SPI bridge serves on Linux): every control it can reach and
the name it says for it."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QWidget

R = QAccessible.Role
#: The kinds of control that must say what they are for.
CONTROLS = {
    R.PushButton: "push button",
    R.ComboBox: "combo box",
    R.SpinBox: "spin button",
    R.EditableText: "text field",
    R.CheckBox: "check box",
    R.Table: "table",
    R.Tree: "tree",
    R.List: "list",
    R.RadioButton: "radio button",
}
#: Item views' cells and rows: a view names itself; its items are read as text.
_ITEMS = {R.Cell, R.Row, R.ColumnHeader, R.RowHeader, R.TreeItem, R.ListItem}


@dataclass(frozen=True)
class Control:
    kind: str
    name: str
    where: str  # the path of accessible names down to it, for a failure's message


def controls(window: QWidget) -> list[Control]:
    """Every visible control under ``window``, with its accessible name."""
    root = QAccessible.queryAccessibleInterface(window)
    assert root is not None
    found: list[Control] = []

    def walk(node: QAccessibleInterface, path: str, depth: int) -> None:
        if depth > 60:
            return
        for i in range(node.childCount()):
            child = node.child(i)
            if child is None or not child.isValid():
                continue
            state = child.state()
            if state.invisible or state.offscreen and child.role() in _ITEMS:
                continue
            role = child.role()
            if role in _ITEMS:
                continue
            name = child.text(QAccessible.Text.Name).strip()
            here = f"{path} > {name or CONTROLS.get(role, str(role))}"
            if role in CONTROLS:
                obj = child.object()
                what = f"{type(obj).__name__} {obj.objectName()!r}" if obj is not None else ""
                found.append(Control(CONTROLS[role], name, f"{here} ({what})"))
            walk(child, here, depth + 1)

    walk(root, window.objectName() or type(window).__name__, 0)
    return found


def unnamed(window: QWidget) -> list[Control]:
    return [c for c in controls(window) if not c.name]
