"""An AT-SPI client, as a screen reader is one: run by Debian's system ``python3`` (pyatspi is
not on PyPI), it reads the accessible tree BrikDesk (process ``PID``) serves on the bus.

    python3 client.py walk PID TITLE        -> JSON: every control in the window and its name
    python3 client.py quick PID TITLE ENEMY -> JSON: a quick attack made through the tree only

``quick`` finds the form's controls by the names they say, types through AT-SPI's keyboard
(the way an on-screen keyboard does) and presses buttons through their actions.
"""

from __future__ import annotations

import json
import re
import sys
import time

import pyatspi  # type: ignore[import-not-found]  # Debian's python3-pyatspi

#: The roles that must say what they are for, by the name AT-SPI gives them.
CONTROLS = {
    "push button",
    "toggle button",
    "combo box",
    "spin button",
    "text",
    "entry",
    "password text",
    "check box",
    "radio button",
    "table",
    "tree",
    "tree table",
    "list",
    "list box",
}
#: Views whose items are read as their text: not walked into.
VIEWS = {"table", "tree", "tree table", "list", "list box"}
MAX_NODES = 20_000


def application(pid: int) -> object:
    desktop = pyatspi.Registry.getDesktop(0)
    for _ in range(200):  # the app registers on the bus a moment after it starts: 20 s at most
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            try:
                if app is not None and app.get_process_id() == pid:
                    return app
            except Exception:  # an application that went away meanwhile
                continue
        time.sleep(0.1)
    raise SystemExit(f"client: no application of process {pid} on the accessibility bus")


def window(pid: int, title: str) -> object:
    for _ in range(100):  # the window shows up in the tree once mapped: 10 s at most
        app = application(pid)
        for i in range(app.childCount):
            child = app.getChildAtIndex(i)
            if child is not None and title in (child.name or ""):
                return child
        time.sleep(0.1)
    raise SystemExit(f"client: no window named {title!r}")


def showing(node: object) -> bool:
    return node.getState().contains(pyatspi.STATE_SHOWING)


def controls(root: object) -> list[tuple[str, str]]:
    """(role, name) of every control showing under ``root``."""
    found: list[tuple[str, str]] = []
    stack = [root]
    seen = 0
    while stack and seen < MAX_NODES:
        node = stack.pop()
        seen += 1
        try:
            role = node.getRoleName()
            name = (node.name or "").strip()
            count = node.childCount
        except Exception:  # a node that went away while read
            continue
        if node is not root and not showing(node):
            continue
        if role in CONTROLS:
            found.append((role, name))
        if role in VIEWS:
            continue
        stack.extend(node.getChildAtIndex(i) for i in range(count))
    return found


def find(root: object, role: str, name: str | re.Pattern[str]) -> object:
    for _ in range(50):  # a control shows a moment after what made it: 5 s at most
        stack = [root]
        while stack:
            node = stack.pop()
            try:
                here, said, count = node.getRoleName(), node.name or "", node.childCount
            except Exception:
                continue
            matches = name.search(said) if isinstance(name, re.Pattern) else said == name
            if here == role and matches and showing(node):
                return node
            if here not in VIEWS:
                stack.extend(node.getChildAtIndex(i) for i in range(count))
        time.sleep(0.1)
    raise SystemExit(f"client: no {role} named {name!r}")


def type_into(field: object, text: str) -> None:
    field.queryComponent().grabFocus()
    time.sleep(0.2)
    pyatspi.Registry.generateKeyboardEvent(0, text, pyatspi.KEY_STRING)
    time.sleep(0.4)


def press(button: object) -> None:
    action = button.queryAction()
    names = [action.getName(i) for i in range(action.nActions)]
    action.doAction(names.index("Press") if "Press" in names else 0)
    time.sleep(0.4)


def quick(pid: int, title: str, enemy: str) -> dict[str, object]:
    form = window(pid, title)
    steps: list[str] = []
    target = find(form, "text", "Target")
    type_into(target, enemy[:4])
    steps.append(f"typed {enemy[:4]!r} into Target")
    distance = find(form, "text", "Range")
    type_into(distance, "6")
    steps.append("typed '6' into Range")
    for _ in range(12):  # each die the rules ask for, in turn; bounded
        try:
            die = find(form, "text", re.compile(r"die \d+, d\d+$"))
        except SystemExit:
            break
        said = die.name
        type_into(die, "5")
        steps.append(f"typed '5' into {said!r}")
    record = find(form, "push button", re.compile(r"^Record"))
    said = record.name
    press(record)
    steps.append(f"pressed {said!r}")
    return {"steps": steps}


def main(argv: list[str]) -> int:
    command, pid, title = argv[1], int(argv[2]), argv[3]
    if command == "walk":
        found = controls(window(pid, title))
        print(json.dumps({"controls": found}))
    elif command == "quick":
        print(json.dumps(quick(pid, title, argv[4])))
    else:
        raise SystemExit(f"client: unknown command {command!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
