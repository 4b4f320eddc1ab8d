"""The campaign navigator (players with their armies, and battles) and the main window's
pages: the campaign overview and a battle's summary.

The navigator restores its current entry and what is expanded when it is refreshed. Each entry
carries ``(kind, id)``: ``"player"``, ``"army"``, ``"battle"`` or ``"section"``.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Iterable

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.ids import BattleId
from brikdesk.services.summaries import ArmySummary, BattleDetail, BattleSummary, Navigator
from brikdesk.words import plural
from ui import colours
from ui.widgets.common import colour_swatch, tree_children

KindRole = Qt.ItemDataRole.UserRole + 10
IdRole = Qt.ItemDataRole.UserRole + 11
PLAYER, ARMY, BATTLE, SECTION = "player", "army", "battle", "section"

esc = html.escape


def budget_text(budget: int | None, unit: str) -> str:
    return "no budget" if budget is None else f"budget {budget} {unit}"


class CampaignNavigator(QTreeWidget):
    """``activated_entry(kind, id)`` on double-click or Enter; ``current_entry(kind, id)``."""

    activated_entry = Signal(str, int)
    current_entry = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaignNavigator")
        self.setAccessibleName("Campaign: players, armies and battles")
        self.setHeaderHidden(True)
        self.setColumnCount(1)
        self.setRootIsDecorated(True)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setExpandsOnDoubleClick(False)
        self.itemActivated.connect(self._activated)
        self.currentItemChanged.connect(self._current)
        self._collapsed: set[tuple[str, int]] = set()
        self._players = QTreeWidgetItem()
        self._battles = QTreeWidgetItem()
        self.itemCollapsed.connect(lambda it: self._collapsed.add(self.key_of(it)))
        self.itemExpanded.connect(lambda it: self._collapsed.discard(self.key_of(it)))

    @staticmethod
    def key_of(item: QTreeWidgetItem | None) -> tuple[str, int]:
        if item is None:
            return ("", 0)
        return (str(item.data(0, KindRole)), int(item.data(0, IdRole) or 0))

    def current_key(self) -> tuple[str, int]:
        return self.key_of(self.currentItem())

    def _item(
        self, parent: QTreeWidget | QTreeWidgetItem, kind: str, ident: int, text: str, tip: str = ""
    ) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent)
        item.setText(0, text)
        item.setData(0, KindRole, kind)
        item.setData(0, IdRole, ident)
        if tip:
            item.setToolTip(0, tip)
        return item

    def show_navigator(self, nav: Navigator | None, cost_unit: str = "CP") -> None:
        current = self.current_key()
        self.blockSignals(True)
        self.clear()
        if nav is None:
            self.blockSignals(False)
            return
        bold = QFont(self.font())
        bold.setBold(True)
        players = self._item(self, SECTION, 1, f"Players and armies ({len(nav.players)})")
        players.setFont(0, bold)
        players.setFlags(players.flags() & ~Qt.ItemFlag.ItemIsSelectable)
        by_player: dict[int, list[ArmySummary]] = {}
        for a in nav.armies:
            by_player.setdefault(a.player_id, []).append(a)
        for p in nav.players:
            faction = f" · {p.faction}" if p.faction else ""
            pi = self._item(
                players,
                PLAYER,
                p.id,
                f"{p.name}{faction}",
                f"{p.name}: {plural(p.armies, 'army', 'armies')}. Double-click or "
                "F2 to edit the player.",
            )
            pi.setIcon(0, colour_swatch(p.colour))
            for a in by_player.get(p.id, []):
                self._item(
                    pi,
                    ARMY,
                    a.id,
                    f"{a.name}  ({plural(a.units, 'unit')})",
                    f"{a.name}: {plural(a.units, 'unit')}, "
                    f"{budget_text(a.budget, cost_unit)}. Double-click or Enter opens "
                    "the roster.",
                )
        battles = self._item(self, SECTION, 2, f"Battles ({len(nav.battles)})")
        battles.setFont(0, bold)
        battles.setFlags(battles.flags() & ~Qt.ItemFlag.ItemIsSelectable)
        for b in nav.battles:
            self._item(
                battles,
                BATTLE,
                b.id,
                f"{b.name}  ({b.status_text})",
                f"{b.name}: {b.status_text}, {' vs '.join(b.players)}, "
                f"{plural(b.units, 'unit')}, {plural(b.events, 'event')}",
            )
        self._expand(self.invisibleRootItem())
        self.blockSignals(False)
        found = self.find_entry(*current) if current[0] else None
        if found is not None:
            self.setCurrentItem(found)
        elif self.currentItem() is None and (player_items := tree_children(players)):
            first = player_items[0]  # the first army, so Open roster works at once
            self.setCurrentItem(next(iter(tree_children(first)), first))

    def _expand(self, parent: QTreeWidgetItem) -> None:
        for child in tree_children(parent):
            child.setExpanded(self.key_of(child) not in self._collapsed)
            self._expand(child)

    def find_entry(self, kind: str, ident: int) -> QTreeWidgetItem | None:
        for item in self._walk(self.invisibleRootItem()):
            if self.key_of(item) == (kind, ident):
                return item
        return None

    def _walk(self, parent: QTreeWidgetItem) -> Iterable[QTreeWidgetItem]:
        for child in tree_children(parent):
            yield child
            yield from self._walk(child)

    def entries(self, kind: str) -> list[tuple[int, str]]:
        """``(id, text)`` of every entry of a kind, in order (for tests and menus)."""
        return [
            (self.key_of(i)[1], i.text(0))
            for i in self._walk(self.invisibleRootItem())
            if self.key_of(i)[0] == kind
        ]

    def select(self, kind: str, ident: int) -> bool:
        item = self.find_entry(kind, ident)
        if item is not None:
            self.setCurrentItem(item)
        return item is not None

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        kind, ident = self.key_of(item)
        if kind == SECTION:
            item.setExpanded(not item.isExpanded())
        else:
            self.activated_entry.emit(kind, ident)

    def _current(self, item: QTreeWidgetItem | None, _previous: object) -> None:
        kind, ident = self.key_of(item)
        self.current_entry.emit(kind, ident)


# -- pages ---------------------------------------------------------------------------------------


def page_style() -> str:
    """The pages' style sheet in the theme in use (the body text is the palette's)."""
    note, line, link = colours.NOTE.hex(), colours.RULE_LINE.hex(), colours.LINK.hex()
    return f"""<style>
h1 {{ margin-bottom: 2px; }} .sub {{ color: {note}; }}
table {{ border-collapse: collapse; }} td, th {{ padding: 4px 12px 4px 0; }}
th {{ text-align: left; color: {note}; border-bottom: 1px solid {line}; }}
a {{ color: {link}; text-decoration: none; }} .hint {{ color: {note}; }}
</style>"""


def overview_html(nav: Navigator, cost_unit: str, standings: str = "") -> str:
    """The overview page; ``standings``: the standings' HTML (``ui.windows.standings``)."""
    c = nav.campaign
    out = [
        page_style(),
        f"<h1>{esc(c.name)}</h1>",
        f"<p class='sub'>BrikWars {esc(c.edition)} · costs in {esc(c.cost_system)} · "
        f"default army budget {c.default_budget} {esc(cost_unit)} · "
        "<a href='settings:0'>change…</a></p>",
    ]
    if c.notes:
        out.append(f"<p>{esc(c.notes)}</p>")
    if nav.players:
        out.append(
            "<h3>Players and armies</h3><table><tr><th>Player</th><th>Army</th>"
            "<th>Units</th><th>Budget</th></tr>"
        )
        by_player: dict[int, list[ArmySummary]] = {}
        for a in nav.armies:
            by_player.setdefault(a.player_id, []).append(a)
        for p in nav.players:
            armies = by_player.get(p.id, [])
            swatch = f"<span style='color:{esc(p.colour)}'>■</span> {esc(p.name)}" + (
                f" <span class='hint'>({esc(p.faction)})</span>" if p.faction else ""
            )
            if not armies:
                out.append(
                    f"<tr><td>{swatch}</td><td class='hint'>no army yet</td><td></td><td></td></tr>"
                )
            for i, a in enumerate(armies):
                budget = "none" if a.budget is None else f"{a.budget} {esc(cost_unit)}"
                out.append(
                    f"<tr><td>{swatch if i == 0 else ''}</td>"
                    f"<td><a href='army:{a.id}'>{esc(a.name)}</a></td>"
                    f"<td>{a.units}</td><td>{budget}</td></tr>"
                )
        out.append("</table>")
    else:
        out.append("<p class='hint'>No players yet: Campaign &gt; Add player.</p>")
    out.append(standings)
    if nav.battles:
        out.append(
            "<h3>Battles</h3><table><tr><th>Battle</th><th>Status</th><th>Sides</th>"
            "<th>Units</th></tr>"
        )
        for b in nav.battles:
            out.append(
                f"<tr><td><a href='battle:{b.id}'>{esc(b.name)}</a></td>"
                f"<td>{esc(b.status_text)}</td><td>{esc(' vs '.join(b.players))}</td>"
                f"<td>{b.units}</td></tr>"
            )
        out.append("</table>")
    out.append(
        "<p class='hint'>Open an army's roster with a double-click (or Enter) in the "
        "navigator or a click on its name here. The catalog of weapons and unit types "
        "is under Campaign &gt; Catalog (Ctrl+K).</p>"
    )
    return "".join(out)


def opening_html(database: str) -> str:
    """What the overview says while the database opens (the app's first moments)."""
    return (
        page_style() + "<h1>Opening the campaigns…</h1>"
        f"<p class='sub'>Opening {esc(database) or 'the database'}…</p>"
    )


def empty_html() -> str:
    return (
        page_style() + "<h1>No campaign</h1><p>Start one with File &gt; New campaign "
        "(Ctrl+N), or bring one in with File &gt; Import campaign (Ctrl+I).</p>"
    )


class OverviewPage(QTextBrowser):
    """The campaign at a glance; ``link_activated(kind, id)`` for its army and battle links."""

    link_activated = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("campaignOverview")
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._clicked)
        self.document().setDocumentMargin(18)
        self._page: Callable[[], str] = empty_html
        colours.follow_theme(self, self._render, now=False)

    def _render(self) -> None:
        self.setHtml(self._page())

    def show_navigator(
        self, nav: Navigator | None, cost_unit: str = "CP", standings: str = ""
    ) -> None:
        self._page = (
            empty_html
            if nav is None
            else functools.partial(overview_html, nav, cost_unit, standings)
        )
        self._render()

    def show_opening(self, database: str) -> None:
        self._page = functools.partial(opening_html, database)
        self._render()

    def _clicked(self, url: QUrl) -> None:
        kind, _, ident = url.toString().partition(":")
        if ident.isdigit():
            self.link_activated.emit(kind, int(ident))


def battle_html(detail: BattleDetail) -> str:
    b: BattleSummary = detail.battle
    out = [
        page_style(),
        f"<h1>{esc(b.name)}</h1>",
        f"<p class='sub'>{esc(b.status_text.capitalize())} · started "
        f"{b.created_at.astimezone():%Y-%m-%d %H:%M}"
        + (f" · finished {b.finished_at.astimezone():%Y-%m-%d %H:%M}" if b.finished_at else "")
        + f" · {plural(b.events, 'event')} in the log</p>",
    ]
    if b.notes:
        out.append(f"<p>{esc(b.notes)}</p>")
    out.append("<h3>Sides in turn order</h3><table><tr><th>Player</th><th>Units</th></tr>")
    for p in detail.players:
        units = [u.name for u in detail.units if u.battle_player_id == p.id]
        out.append(
            f"<tr><td><span style='color:{esc(p.colour)}'>■</span> {esc(p.name)}</td>"
            f"<td>{esc(', '.join(units)) or '-'}</td></tr>"
        )
    out.append(
        "</table><p class='hint'>The battle tracker and the combat wizard will open here.</p>"
    )
    return "".join(out)


class BattlePage(QWidget):
    """What ``MainWindow.open_battle`` shows for now: the battle's summary.

    The battle tracker replaces ``body`` (or the page) with its panel.
    """

    back = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("battlePage")
        self.battle_id: BattleId | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.setContentsMargins(8, 6, 8, 0)
        self.back_button = QPushButton("← Campaign overview", self)
        self.back_button.setObjectName("backToCampaign")
        self.back_button.clicked.connect(self.back)
        top.addWidget(self.back_button)
        top.addStretch(1)
        self.title = QLabel(self)
        top.addWidget(self.title)
        layout.addLayout(top)
        self.body = QTextBrowser(self)
        self.body.setObjectName("battleSummary")
        self.body.document().setDocumentMargin(18)
        layout.addWidget(self.body, 1)
        self.detail: BattleDetail | None = None
        colours.follow_theme(self, self._render, now=False)

    def _render(self) -> None:
        if self.detail is not None:
            self.body.setHtml(battle_html(self.detail))

    def show_battle(self, detail: BattleDetail) -> None:
        self.battle_id = detail.battle.id
        self.detail = detail
        self._render()
