"""An AT-SPI client, as a screen reader is one: run by Debian's system ``python3`` (pyatspi is
not on PyPI), it reads the accessible tree BrikDesk (process ``PID``) serves on the bus.

    python3 client.py PID

One client for the whole session: it reads a command a line from its standard input (a JSON
list) and answers each with a line of JSON on its standard output:

    ["walk", TITLE]         -> {"controls": [[role, name], ...]}: every control in the window
    ["quick", TITLE, ENEMY] -> {"steps": [...]}: a quick attack made through the tree only

``quick`` finds the form's controls by the names they say, types through AT-SPI's keyboard
(the way an on-screen keyboard does) and presses buttons through their actions. A command that
fails answers ``{"error": why}``. Each read of the tree asks only what it needs: a node's state
first (what does not show is not read further), its name only when it is a control.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable

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
#: How long a thing that must appear (the app, a window, a control, a typed key's effect) may
#: take: it is polled for, every ``POLL`` seconds, until then.
DEADLINE = 10.0
POLL = 0.02


class Failed(Exception):
    """The command cannot go on: its reason is the answer."""


def until(what: str, found: Callable[[], object]) -> object:
    """``found()``'s first true value, asked again every ``POLL`` s for ``DEADLINE`` s."""
    end = time.monotonic() + DEADLINE
    while True:
        value = found()
        if value:
            return value
        if time.monotonic() > end:
            raise Failed(f"client: {what} did not appear within {DEADLINE:.0f} s")
        time.sleep(POLL)


def application(pid: int) -> object:
    def look() -> object:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            try:
                if app is not None and app.get_process_id() == pid:
                    return app
            except Exception:  # an application that went away meanwhile
                continue
        return None

    return until(f"the application of process {pid} on the accessibility bus", look)


def window(app: object, title: str) -> object:
    def look() -> object:
        for i in range(app.childCount):
            child = app.getChildAtIndex(i)
            if child is not None and title in (child.name or ""):
                return child
        return None

    return until(f"the window named {title!r}", look)


def showing(node: object) -> bool:
    return node.getState().contains(pyatspi.STATE_SHOWING)


def nodes(root: object) -> list[tuple[object, str, str]]:
    """(node, role, name) of every control showing under ``root``, in one walk; the name is
    read for the controls only."""
    found: list[tuple[object, str, str]] = []
    stack = [root]
    seen = 0
    while stack and seen < MAX_NODES:
        node = stack.pop()
        seen += 1
        try:
            if node is not root and not showing(node):
                continue
            role = node.getRoleName()
            if role in CONTROLS:
                found.append((node, role, (node.name or "").strip()))
            if role in VIEWS:
                continue
            count = node.childCount
            stack.extend(node.getChildAtIndex(i) for i in range(count))
        except Exception:  # a node that went away while read
            continue
    return found


def controls(root: object) -> list[tuple[str, str]]:
    """(role, name) of every control showing under ``root``."""
    return [(role, name) for _node, role, name in nodes(root)]


def find(root: object, role: str, name: str | re.Pattern[str]) -> object:
    """The control of ``role`` whose name is ``name`` (or matches it), once it shows."""

    def look() -> object:
        for node, here, said in nodes(root):
            matches = name.search(said) if isinstance(name, re.Pattern) else said == name
            if here == role and matches:
                return node
        return None

    return until(f"a {role} named {name!r}", look)


def text_of(field: object) -> str:
    text = field.queryText()
    return str(text.getText(0, text.characterCount))


def type_into(field: object, text: str) -> None:
    """Focus ``field`` (waiting until it has the focus), then type ``text`` as keys."""
    field.queryComponent().grabFocus()
    until("the focus in the field", lambda: field.getState().contains(pyatspi.STATE_FOCUSED))
    pyatspi.Registry.generateKeyboardEvent(0, text, pyatspi.KEY_STRING)


def press(button: object) -> None:
    action = button.queryAction()
    names = [action.getName(i) for i in range(action.nActions)]
    action.doAction(names.index("Press") if "Press" in names else 0)


DIE = re.compile(r"die \d+, d\d+$")


def quick(app: object, title: str, enemy: str) -> dict[str, object]:
    form = window(app, title)
    steps: list[str] = []
    target = find(form, "text", "Target")
    type_into(target, enemy[:4])
    until("the typed target", lambda: text_of(target))
    steps.append(f"typed {enemy[:4]!r} into Target")
    distance = find(form, "text", "Range")
    type_into(distance, "6")
    until("the typed range", lambda: text_of(distance) == "6")
    steps.append("typed '6' into Range")
    die = find(form, "text", DIE)  # the form asks for the first die once it has the range
    for _ in range(12):  # each die the rules ask for, in turn; bounded
        said = die.name
        type_into(die, "5")
        steps.append(f"typed '5' into {said!r}")

        def answered(box: object = die, said: str = said) -> object:
            """The box asks for the next die (another name), or hides: no die is left."""
            if not showing(box):
                return "done"
            now = box.name or ""
            return "next" if now != said and DIE.search(now) else None

        if until(f"the answer to the die {said!r}", answered) == "done":
            break
    record = find(form, "push button", re.compile(r"^Record"))
    said = record.name
    press(record)
    steps.append(f"pressed {said!r}")
    return {"steps": steps}


def serve(pid: int, commands: object, answers: object) -> None:
    app = application(pid)
    for line in commands:
        if not line.strip():
            continue
        command, *args = json.loads(line)
        try:
            if command == "walk":
                answer: dict[str, object] = {"controls": controls(window(app, args[0]))}
            elif command == "quick":
                answer = quick(app, args[0], args[1])
            else:
                answer = {"error": f"client: unknown command {command!r}"}
        except Failed as exc:
            answer = {"error": str(exc)}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def main(argv: list[str]) -> int:
    try:
        serve(int(argv[1]), sys.stdin, sys.stdout)
    except Failed as exc:
        print(json.dumps({"error": str(exc)}), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
