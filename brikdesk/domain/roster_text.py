"""An army's roster as text to paste into a chat or a forum post.

Players post their lists on the BrikWars forum and in chats. ``roster_text(roster, fmt)`` lays
out the same content in three markups:

- ``"text"``: plain lines that read well in any chat (no tables: chats use proportional fonts);
- ``"markdown"``: a heading, a table of the units and the total in bold;
- ``"bbcode"``: the forum's markup, a bold title and a ``[list]`` of the units.

Each gives the army, its player, the campaign and rules edition, every unit (its name, type,
what it holds, wears and carries, its cost, and a campaign status other than alive) and the
total against the budget (and by how much it is over or under). Everything here is pure: the
caller passes the rows it read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

#: The formats and the file endings that choose them.
FORMATS = ("text", "markdown", "bbcode")
SUFFIXES = {".txt": "text", ".md": "markdown", ".bbcode": "bbcode"}


@dataclass(frozen=True)
class TextUnit:
    """One unit as the text lists it (names, not catalog keys)."""

    name: str
    type_name: str
    cost: int
    hands: tuple[str, ...] = ()
    worn: tuple[str, ...] = ()
    carried: tuple[str, ...] = ()
    status: str = "alive"
    notes: str = ""

    @property
    def equipment(self) -> str:
        """``"Long-Ranged Weapon; worn: Armor; carried: Grenade"`` or ``"unarmed"``."""
        parts = []
        if self.hands:
            parts.append(", ".join(self.hands))
        if self.worn:
            parts.append("worn: " + ", ".join(self.worn))
        if self.carried:
            parts.append("carried: " + ", ".join(self.carried))
        return "; ".join(parts) or "unarmed"

    @property
    def status_note(self) -> str:
        """``""`` for a unit alive in the campaign, else ``"wounded"`` or ``"dead"``."""
        return "" if self.status == "alive" else self.status


@dataclass(frozen=True)
class RosterText:
    """What the text says: the army's header, its units in roster order, total and budget."""

    army: str
    player: str
    units: tuple[TextUnit, ...]
    total: int
    budget: int | None
    cost_unit: str = "CP"
    campaign: str = ""
    edition: str = ""

    @property
    def subtitle(self) -> str:
        """``"Margo · Siege of Brickton · BrikWars 2020"`` (what is known of them)."""
        edition = f"BrikWars {self.edition}" if self.edition else ""
        return " · ".join(p for p in (self.player, self.campaign, edition) if p)

    @property
    def total_text(self) -> str:
        """``"Total 86 / 100 CP (14 CP left)"``, ``"... (over budget by 6 CP)"``, or
        ``"Total 86 CP"`` without a budget."""
        unit = self.cost_unit
        if self.budget is None:
            return f"Total {self.total} {unit} (no budget)"
        left = self.budget - self.total
        tail = f"{left} {unit} left" if left >= 0 else f"over budget by {-left} {unit}"
        return f"Total {self.total} / {self.budget} {unit} ({tail})"

    @property
    def count_text(self) -> str:
        n = len(self.units)
        return f"{n} unit{'' if n == 1 else 's'}"


def format_for(path: str | PurePath) -> str | None:
    """The format a file's ending chooses (``.txt``, ``.md``, ``.bbcode``), else None."""
    return SUFFIXES.get(PurePath(path).suffix.lower())


def roster_text(roster: RosterText, fmt: str = "text") -> str:
    """The roster in ``fmt`` (one of ``FORMATS``), ending with a newline."""
    if fmt == "text":
        return _plain(roster)
    if fmt == "markdown":
        return _markdown(roster)
    if fmt == "bbcode":
        return _bbcode(roster)
    raise ValueError(f"unknown roster text format {fmt!r}; use one of {', '.join(FORMATS)}")


def _unit_tail(u: TextUnit, unit: str) -> str:
    status = f" [{u.status_note}]" if u.status_note else ""
    return f"{u.cost} {unit}{status}"


def _plain(r: RosterText) -> str:
    lines = [f"{r.army} ({r.count_text})"]
    if r.subtitle:
        lines.append(r.subtitle)
    lines.append("")
    for u in r.units:
        lines.append(f"- {u.name} ({u.type_name}): {u.equipment} - {_unit_tail(u, r.cost_unit)}")
        if u.notes.strip():
            lines.append(f"    {' '.join(u.notes.split())}")
    if not r.units:
        lines.append("(no units yet)")
    lines += ["", r.total_text]
    return "\n".join(lines) + "\n"


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def _md(text: str) -> str:
    """Text with Markdown's special characters escaped, on one line."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _markdown(r: RosterText) -> str:
    lines = [f"## {_md(r.army)}", ""]
    if r.subtitle:
        lines += [f"*{_md(r.subtitle)}*", ""]
    if r.units:
        lines += [
            "| Unit | Type | Equipment | Cost |",
            "| --- | --- | --- | ---: |",
        ]
        for u in r.units:
            name = _md(u.name) + (f" *({_md(u.status_note)})*" if u.status_note else "")
            if u.notes.strip():
                name += f"<br>*{_md(u.notes)}*"
            lines.append(
                f"| {name} | {_md(u.type_name)} | {_md(u.equipment)} | {u.cost} {r.cost_unit} |"
            )
    else:
        lines.append("*No units yet.*")
    lines += ["", f"**{_md(r.total_text)}** · {r.count_text}"]
    return "\n".join(lines) + "\n"


def _bb(text: str) -> str:
    """Text on one line with square brackets that cannot open a tag."""
    return " ".join(text.split()).replace("[", "(").replace("]", ")")


def _bbcode(r: RosterText) -> str:
    lines = [f"[size=150][b]{_bb(r.army)}[/b][/size]"]
    if r.subtitle:
        lines.append(f"[i]{_bb(r.subtitle)}[/i]")
    lines.append("")
    if r.units:
        lines.append("[list]")
        for u in r.units:
            status = f" [i]({u.status_note})[/i]" if u.status_note else ""
            note = f" [i]{_bb(u.notes)}[/i]" if u.notes.strip() else ""
            lines.append(
                f"[*][b]{_bb(u.name)}[/b] ({_bb(u.type_name)}): {_bb(u.equipment)}"
                f" - {u.cost} {r.cost_unit}{status}{note}"
            )
        lines.append("[/list]")
    else:
        lines.append("[i]No units yet.[/i]")
    lines += ["", f"[b]{_bb(r.total_text)}[/b] · {r.count_text}"]
    return "\n".join(lines) + "\n"
