"""What the players' page shows, as JSON-ready dicts read through the services.

``PageData(services, shared)`` reads the campaign the way the app's windows do, in two parts
(``live()``: the battle in progress, read again on every change; ``campaign()``: the report,
history and rosters, read again only when the campaign's content stamp changed), and says it
in their words: the battle in progress as the tracker's ``BattleView``
(units with the domain's labels of their Action and statuses, ``busy_text``, the log lines the
tracker wrote), the last attack and the finished battle's report from the battle report
(``brikdesk.domain.report``), the standings, timeline and series from the campaign history
(``history_to_json``), and each army's roster as its roster sheet's cards
(``brikdesk.domain.sheets``: the weapons with their Use, Range and Damage). Nothing here
writes; the page is read-only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from brikdesk.domain.battle import (
    ActionState,
    AttackResolved,
    BattleState,
    Status,
    UnitState,
    close_combat_sides,
)
from brikdesk.domain.battle.busy import busy_text
from brikdesk.domain.colours import readable_text_on
from brikdesk.domain.history import history_to_json
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.domain.modifiers import Stat
from brikdesk.domain.odds import attack_odds
from brikdesk.domain.report import BattleReport, ReportEntry
from brikdesk.domain.sheets import RosterSheetOptions, SheetHeader, UnitCard, build_roster_sheet
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import UserError
from brikdesk.services import Services
from brikdesk.services.events import modifiers_from_payload
from brikdesk.services.tracker_views import BattleView
from brikdesk.share import Shared
from brikdesk.share.proposals import turn_key

#: How many log lines the page lists (newest first).
LOG_LINES = 40

#: A sheet with one card per unit and nothing else (the cards carry the weapons and stats).
CARDS_ONLY = RosterSheetOptions(
    fold_identical=False, include_warnings=False, include_reference=False, blank_cards=0
)


def _names(state: BattleState, ids: Sequence[BattleUnitId] | frozenset[BattleUnitId]) -> str:
    setup = state.setup
    return ", ".join(setup.unit(i).name for i in sorted(ids) if setup.has_unit(i))


def unit_statuses(state: BattleState, u: UnitState) -> list[str]:
    """A unit's statuses in the domain's words; the ones that name other units name them."""
    out: list[str] = []
    for status in u.statuses:
        if status is Status.BUSY:
            out.append(busy_text(state, u.unit_id) or status.label)
        elif status is Status.IN_CLOSE_COMBAT:
            out.append(f"{status.label} with {_names(state, u.close_combat)}")
        elif status is Status.GRABBED:
            out.append(f"{status.label} by {_names(state, u.grabbed_by)}")
        elif status is Status.GRABBING:
            out.append(f"{status.label} {_names(state, u.grabbing)}")
        else:
            out.append(status.label)
    if u.close_combat and u.in_battle:
        ours, theirs = close_combat_sides(state, u.unit_id)
        if ours < theirs:
            out.append(f"Outnumbered {ours} to {theirs}")
    return out


def _card(card: UnitCard) -> dict[str, Any]:
    return {
        "type": card.type_name,
        "die": card.action_die,
        "move": card.move,
        "armor": card.armor,
        "armor_detail": card.armor_detail,
        "traits": list(card.traits),
        "counters": card.counters,
        "items": [
            {"name": i.label, "use": i.use, "range": i.range, "damage": i.damage, "notes": i.notes}
            for i in card.items
        ],
        "notes": card.notes,
    }


def _entry(e: ReportEntry) -> dict[str, Any]:
    return {"headline": e.headline, "rolls": list(e.rolls), "result": e.result, "note": e.note}


def report_json(r: BattleReport) -> dict[str, Any]:
    """A battle report as the page lists it: facts, casualties, round by round."""
    return {
        "title": r.title,
        "sides": r.sides_text,
        "status": r.status_text,
        "outcome": r.outcome,
        "result": r.result,
        "tally": r.tally.text,
        "casualties": [
            {
                "player": c.player,
                "colour": c.colour,
                "mustered": c.mustered,
                "lost": c.lost,
                "kills": c.kills,
                "fallen": list(c.fallen),
            }
            for c in r.casualties
        ],
        "rounds": [
            {
                "number": rd.number,
                "turns": [
                    {"title": t.title, "entries": [_entry(e) for e in t.entries]}
                    for t in rd.turns
                    if t.entries
                ],
            }
            for rd in r.rounds
        ],
    }


def _last_attack(view: BattleView) -> tuple[int, AttackResolved] | None:
    """The battle's last standing attack, with its place in the log (``seq``)."""
    for e in reversed(view.standing_events):
        if isinstance(e.event, AttackResolved):
            return e.seq, e.event
    return None


def last_attack_odds(view: BattleView) -> dict[str, float] | None:
    """The odds the battle's last attack had as it was set up (``domain.odds.attack_odds``):
    the attacker's Action die, the weapon's Use and Damage, the target's Armor and
    Deflection, and the Action Roll and Damage modifiers it logged; as floats for the page.

    ``None`` where one attack's odds would not say it: a combined attack, a blast (its
    Damage falls on every unit in the radius), no Action Roll (an automatic hit or a trivial
    Use), a target that is not a unit, a weapon not in the catalog, an Armor modifier."""
    last = _last_attack(view)
    if last is None:
        return None
    event = last[1]
    if event.target is None or len(event.participants) != 1:
        return None
    details, setup = event.details, view.setup
    outcome = details.get("outcome")
    if not isinstance(outcome, Mapping) or not isinstance(outcome.get("use"), int):
        return None
    if "automatic_hit" in outcome or not (
        setup.has_unit(event.actor) and setup.has_unit(event.target)
    ):
        return None
    item = next((it for it in view.catalog.items if it.name == details.get("weapon")), None)
    if item is None or not item.damage or item.explosive_radius:
        return None
    mods = modifiers_from_payload(details.get("modifiers", ()))
    if any(m.applies_to is Stat.ARMOR for m in mods):
        return None
    attacker, target = view.unit(event.actor), view.unit(event.target)
    try:
        odds = attack_odds(
            attacker.stats.action_die,
            outcome["use"],
            item.damage,
            target.stats.armor,
            action_mod=sum(m.value for m in mods if m.applies_to is Stat.ACTION),
            damage_mod=sum(m.value for m in mods if m.applies_to is Stat.DAMAGE),
            deflection=target.stats.deflection,
            can_go_over_the_top=attacker.stats.over_the_top,
        )
    except UserError:
        return None
    return odds.to_floats()


def battle_ids(sv: Services, shared: Shared) -> tuple[BattleId | None, BattleId | None]:
    """(the battle to show live, the finished battle whose report to show)."""
    battles = sv.battles.list_battles(shared.campaign_id)
    chosen = shared.battle_id
    if chosen is not None:
        b = next((b for b in battles if b.id == chosen), None)
        if b is None:
            raise UserError(f"battle {chosen} is not in this campaign any more")
        if b.status is BattleStatus.FINISHED:
            return None, b.id
        return (b.id if b.status is BattleStatus.IN_PROGRESS else None), None
    live = [b for b in battles if b.status is BattleStatus.IN_PROGRESS]
    done = [b for b in battles if b.status is BattleStatus.FINISHED]
    last_done = max(done, key=lambda b: (b.finished_at or b.created_at, b.id), default=None)
    current = max(live, key=lambda b: (b.created_at, b.id), default=None)
    return (
        current.id if current else None,
        last_done.id if last_done else None,
    )


class PageData:
    """Builds the page's data for one share; keeps the unit cards of the battle shown (its
    musters do not change while it is fought)."""

    def __init__(self, services: Services, shared: Shared) -> None:
        self._sv = services
        self._shared = shared
        self._cards: tuple[object, list[dict[str, Any]]] | None = None
        self._stamp: tuple[object, ...] | None = None
        self._attack: tuple[object, dict[str, Any] | None] | None = None
        #: The turn of the battle in progress as last read (``proposals.turn_key``).
        self.turn: str | None = None

    def campaign_name(self) -> str:
        return self._sv.campaigns.get_campaign(self._shared.campaign_id).name

    def _battle_ids(self) -> tuple[BattleId | None, BattleId | None]:
        return battle_ids(self._sv, self._shared)

    def build(self) -> dict[str, Any]:
        """Everything the page shows (``live`` and ``campaign`` together)."""
        self._stamp = None
        return {**self.live(), **(self.campaign() or {})}

    def live(self) -> dict[str, Any]:
        """What a turn changes: the battle in progress (``battle``; its units' ``card`` is an
        index into ``cards``, which change only with its musters) and the campaign's name."""
        sv, cid = self._sv, self._shared.campaign_id
        campaign = sv.campaigns.get_campaign(cid)
        live_id, _report_id = self._battle_ids()
        battle, cards = None, []
        self.turn = None
        if live_id is not None:
            view = sv.tracker.view(live_id)
            self.turn = turn_key(view) if view.in_progress and not view.state.finished else None
            cards = self._unit_cards(view)
            battle = self._battle(view)
        return {
            "campaign": {"name": campaign.name, "edition": campaign.edition},
            "battle": battle,
            "cards": cards,
        }

    def campaign(self) -> dict[str, Any] | None:
        """What changes between battles: the last report, the history and the rosters; None
        when the campaign's content is as when last read (``content_stamp``: a turn changes
        only the battle's log)."""
        sv, cid = self._sv, self._shared.campaign_id
        stamp = sv.campaigns.content_stamp(cid)
        if stamp == self._stamp:
            return None
        self._stamp = stamp
        _live_id, report_id = self._battle_ids()
        report = report_json(sv.printing.battle_report(report_id)) if report_id else None
        return {
            "report": report,
            "history": history_to_json(sv.history.history(cid)),
            "rosters": self._rosters(),
        }

    # -- the battle in progress ---------------------------------------------------------------

    def _unit_cards(self, view: BattleView) -> list[dict[str, Any]]:
        specs = tuple(t.spec for t in view.units)
        key = (view.id, specs)
        if self._cards is not None and self._cards[0] == key:
            return self._cards[1]
        sheet = build_roster_sheet(
            SheetHeader(army=view.name, player="", campaign="", budget=None),
            specs,
            view.catalog,
            CARDS_ONLY,
        )
        cards = [_card(c) for c in sheet.cards]
        self._cards = (key, cards)
        return cards

    def _last_attack_entry(self, view: BattleView) -> dict[str, Any] | None:
        """The battle report's words for the last attack (headline, rolls, result). The
        report replays the whole log, so it is read again only when the attack or what led
        to it changed (an End Turn changes neither)."""
        last = _last_attack(view)
        if last is None:
            return None
        key = (view.id, tuple(e.seq for e in view.standing_events if e.seq <= last[0]))
        if self._attack is not None and self._attack[0] == key:
            return self._attack[1]
        entries = [e for e in self._sv.printing.battle_report(view.id).entries if e.is_attack]
        entry = _entry(entries[-1]) if entries else None
        self._attack = (key, entry)
        return entry

    def _battle(self, view: BattleView) -> dict[str, Any]:
        state = view.state
        index = view.setup.unit_index
        players = []
        for p in view.players:
            active = p.id == state.active
            units = []
            ready = alive = 0
            for t in view.units:
                if t.player_id != p.id:
                    continue
                u = state.units[index[t.id]]
                if u.in_battle:
                    alive += 1
                    ready += u.action is ActionState.READY if active else u.may_respond
                units.append(
                    {
                        "name": t.name,
                        "type": t.type_name,
                        "action": u.action.label if u.in_battle else "",
                        "counters": f"{u.counters_used} of {u.counters}" if u.counters else "",
                        "statuses": unit_statuses(state, u),
                        "dead": u.dead,
                        "out": not u.in_battle,
                        "card": index[t.id],
                    }
                )
            units.sort(key=lambda x: bool(x["out"]))  # the fallen last, as the panel lists them
            fallen = len(units) - alive
            summary = (
                f"{ready} of {alive} Actions ready" if active else f"{ready} of {alive} can respond"
            ) + (f" · {fallen} fallen" if fallen else "")
            players.append(
                {
                    "name": p.name,
                    "colour": p.colour,
                    "faction": p.faction,
                    "active": active,
                    "summary": summary,
                    "units": units,
                }
            )
        players.sort(key=lambda x: not x["active"])  # the active player first, as the panel
        log = [
            {"when": f"Round {e.round}, {e.player}" if e.round is not None else "", "text": e.text}
            for e in reversed(view.standing_events[-LOG_LINES:])
        ]
        attack = self._last_attack_entry(view)
        return {
            "name": view.name,
            "status": view.status_text,
            "round": state.round,
            "active": view.active_player.name,
            "active_colour": view.active_player.colour,
            "active_ink": readable_text_on(view.active_player.colour),
            "players": players,
            "log": log,
            "last_attack": attack,
            "last_attack_odds": last_attack_odds(view),
        }

    # -- rosters ------------------------------------------------------------------------------

    def _rosters(self) -> list[dict[str, Any]]:
        sv = self._sv
        out = []
        for army in sv.campaigns.list_armies(self._shared.campaign_id):
            printed = sv.printing.roster_sheet(army.id, CARDS_ONLY)
            header = printed.sheet.header
            out.append(
                {
                    "army": army.name,
                    "player": army.player_name,
                    "colour": army.player_colour,
                    "total": header.total_cost,
                    "budget": army.budget,
                    "cost_unit": header.cost_unit,
                    "units": [{"name": c.title, "card": _card(c)} for c in printed.sheet.cards],
                    "left_out": list(printed.left_out),
                }
            )
        return out
