"""The players' own rolls, sent from their phones as proposals for the organizer to accept.

Nothing a phone sends changes the battle or is written anywhere: the share process checks a
proposal against the battle as it stands and hands it to the organizer's app, which shows it
in the battle panel; the organizer's answer comes back and the phones show it.

``Desk`` (on a worker thread, reading through the services) judges what a player chose, as
the quick attack form would (``brikdesk.domain.combat.proposal``: the same draft from the same
choices, the same odds line, modifiers and result), and checks a proposal: the link's own
player's unit, the turn it was made in, every die the attack needs, and the battle rules'
own verdict on the events it would record (the unit's turn, or a legal response).
``Inbox`` (on the server's loop) keeps what a device cannot be trusted with: a proposal is
sent once (a replay is refused), a player has at most ``MAX_WAITING`` waiting and sends at most
``MAX_PER_MINUTE`` a minute, and a waiting proposal is dropped when the battle moves on (End
Turn, the battle ended). Every refusal says why, in words a player reads on their phone.

The organizer's answers follow ``ANSWERS``: a waiting proposal is accepted, rejected, dropped
or opened in the quick form to correct (``correcting``); one being corrected ends
``corrected`` (recorded from that form, the result as its note) or waits again (the form
closed without recording; dropped instead when the battle moved on since it was made). Any
other answer is refused and changes nothing.
"""

from __future__ import annotations

import json
import re
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from brikdesk.domain.attack import to_inches
from brikdesk.domain.combat import (
    AttackChoice,
    AttackDraft,
    CombatContext,
    attack_lines,
    attacker_options,
    default_draft,
    proposal_refusal,
    proposal_text,
    proposed_draft,
    resolve_action,
    resolve_damage,
    result_summary,
    target_options,
    weapon_choices,
)
from brikdesk.domain.combat.proposal import parse_faces
from brikdesk.domain.ids import BattleId, BattleUnitId, PlayerId
from brikdesk.errors import UserError
from brikdesk.services import Services
from brikdesk.services.tracker_views import BattleView, context_from_view
from brikdesk.share import ACCEPTED, CORRECTED, CORRECTING, DROPPED, REJECTED, WAITING
from brikdesk.share.players import Seat

#: The largest proposal a phone may send (the page's is about 150 bytes).
MAX_BODY = 2048
#: How many of a player's proposals may wait for the organizer at once.
MAX_WAITING = 2
#: How many proposals a player may send in a minute (refused ones included).
MAX_PER_MINUTE = 6
#: How many answered proposals the pages are shown (newest last).
RECENT = 30
#: How many proposal ids are remembered to refuse a replay.
SEEN = 4096
#: What a bare-hands weapon is called in a query and a proposal.
BARE_HANDS = "-"

_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")

#: The organizer's answers a proposal may be given, by its status now; nothing else is taken.
ANSWERS: dict[str, frozenset[str]] = {
    WAITING: frozenset({ACCEPTED, REJECTED, CORRECTING, DROPPED}),
    CORRECTING: frozenset({CORRECTED, WAITING}),
}
#: Why a proposal was dropped (``Inbox.moved_on``).
MOVED_ON = "The battle moved on before the organizer answered."


class Refused(Exception):
    """A proposal (or a question) refused: the HTTP status and the reason, in words."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(frozen=True)
class Proposal:
    """A checked proposal, as the organizer's app receives it."""

    id: str
    player_id: PlayerId
    player: str
    battle_id: BattleId
    turn: str
    choice: AttackChoice
    text: str

    def to_json(self) -> dict[str, Any]:
        c = self.choice
        return {
            "id": self.id,
            "player_id": self.player_id,
            "player": self.player,
            "battle_id": self.battle_id,
            "turn": self.turn,
            "attacker_id": c.attacker_id,
            "item_key": c.item_key,
            "target_id": c.target_id,
            "distance": None if c.distance is None else str(c.distance),
            "faces": list(c.faces),
            "text": self.text,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Proposal:
        """The proposal the app received (``ValueError``/``KeyError``/``TypeError`` when it
        is not one)."""
        distance = raw["distance"]
        target = raw["target_id"]
        item = raw["item_key"]
        return cls(
            id=str(raw["id"]),
            player_id=PlayerId(int(raw["player_id"])),
            player=str(raw["player"]),
            battle_id=BattleId(int(raw["battle_id"])),
            turn=str(raw["turn"]),
            choice=AttackChoice(
                BattleUnitId(int(raw["attacker_id"])),
                None if item is None else str(item),
                None if target is None else BattleUnitId(int(target)),
                None if distance is None else Fraction(str(distance)),
                tuple(int(f) for f in raw["faces"]),
            ),
            text=str(raw["text"]),
        )


def turn_key(view: BattleView) -> str:
    """What a proposal was made in: the battle, its round and whose turn; a change of any of
    them (an End Turn, the battle over) drops the proposals made before."""
    state = view.state
    return f"{view.id}:{'over' if state.finished else state.round}:{state.active}"


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Refused(422, f"{what} is missing.")
    try:
        return int(value)
    except ValueError:
        raise Refused(422, f"{what} is not a number.") from None


class Desk:
    """Judges and checks a player's attack, reading the battle through the services (on a
    worker thread; one call at a time)."""

    def __init__(self, services: Services, battle: Callable[[], BattleId | None]) -> None:
        self._sv = services
        self._battle = battle

    def _view(self) -> tuple[BattleView, CombatContext]:
        battle_id = self._battle()
        if battle_id is None:
            raise Refused(409, "No battle is being fought now.")
        view = self._sv.tracker.view(battle_id)
        if not view.in_progress or view.state.finished:
            raise Refused(409, "The battle is over.")
        return view, context_from_view(view)

    def _choice(
        self, ctx: CombatContext, seat: Seat, unit: int, q: Mapping[str, object]
    ) -> AttackChoice:
        weapon = q.get("weapon")
        target = q.get("target")
        distance: Fraction | None = None
        if q.get("range") not in (None, ""):
            try:
                distance = to_inches(str(q["range"]), "range")
            except UserError as exc:
                raise Refused(422, str(exc)) from None
        try:
            faces = parse_faces(str(q.get("dice") or ""))
        except UserError as exc:
            raise Refused(422, str(exc)) from None
        item_key = (
            default_draft(ctx, BattleUnitId(unit)).item_key
            if weapon in (None, "")
            else (None if weapon == BARE_HANDS else str(weapon))
        )
        return AttackChoice(
            BattleUnitId(unit),
            item_key,
            BattleUnitId(_int(target, "The target")) if target not in (None, "") else None,
            distance,
            faces,
        )

    def _mine(self, ctx: CombatContext, seat: Seat) -> list[dict[str, Any]]:
        out = []
        for c in attacker_options(ctx):
            f = ctx.fighter(c.value)
            u = ctx.state.unit(c.value)
            if f.player_id == seat.player_id and not (u.dead or u.out):
                out.append({"id": c.value, "name": f.name, "why": c.problem})
        return out

    def judge(self, seat: Seat, q: Mapping[str, str]) -> dict[str, Any]:
        """What the player's page shows for the attack chosen in ``q`` (``unit``, ``weapon``,
        ``target``, ``range``, ``dice``; each may be left out): their units, the weapons and
        targets the rules offer, the quick form's odds line and modifiers, the dice typed and
        the one wanted next, the result, and whether it can be sent."""
        view, ctx = self._view()
        mine = self._mine(ctx, seat)
        out: dict[str, Any] = {"turn": turn_key(view), "units": mine}
        if not mine:
            out["problem"] = "None of your units is in this battle."
            return out
        ids: list[int] = [u["id"] for u in mine]
        asked = _int(q["unit"], "The unit") if q.get("unit") else None
        ready = [i for i, u in zip(ids, mine, strict=True) if u["why"] is None]
        unit = asked if asked is not None and asked in ids else (ready or ids)[0]
        out["unit"] = unit
        try:
            draft = proposed_draft(ctx, self._choice(ctx, seat, unit, q))
        except UserError as exc:
            out["problem"] = str(exc)
            draft = default_draft(ctx, BattleUnitId(unit))
        out.update(self._said(draft, ctx))
        return out

    def _said(self, d: AttackDraft, ctx: CombatContext) -> dict[str, Any]:
        lines = attack_lines(d, ctx)
        action = resolve_action(d, ctx)
        need = action.need
        dice = list(action.dice)
        if need is None and action.complete:
            damage = resolve_damage(d, ctx, action)
            need = damage.need
            dice += list(damage.dice)
        why: str | None = None
        result = ""
        if action.pending is not None:
            why = "Over the Top: tell the organizer how the Benny is spent."
        elif need is not None:
            why = f"Type the next die: a d{need.sides} ({need.why})."
        else:
            summary = result_summary(d, ctx)
            result = summary.paragraph
            why = summary.problem
            if why is None and summary.needs_decision:
                why = "The organizer must judge this one: " + "; ".join(summary.warnings)
            why = why or proposal_refusal(ctx, summary.events)
        return {
            "weapons": [
                {"key": BARE_HANDS if key is None else key, "label": label, "why": why}
                for key, label, why in weapon_choices(ctx, d)
            ],
            "weapon": BARE_HANDS if d.item_key is None else d.item_key,
            "targets": [
                {"id": c.value, "label": c.label} for c in target_options(ctx, d) if c.allowed
            ],
            "target": d.target_id,
            "ranged": not d.kind.close_combat,
            "odds": lines.odds,
            "modifiers": list(lines.modifiers),
            "dice": [{"face": r.face, "sides": r.sides, "why": r.why} for r in dice],
            "need": None if need is None else {"sides": need.sides, "why": need.why},
            "result": result,
            "why": why,
            "ready": why is None,
        }

    def check(self, seat: Seat, raw: Mapping[str, object]) -> Proposal:
        """The proposal ``raw`` (the page's JSON) checked against the battle as it stands:
        ``Refused`` with the reason when it may not go to the organizer."""
        view, ctx = self._view()
        if raw.get("turn") != turn_key(view):
            raise Refused(409, "The battle moved on since you chose this: look again.")
        unit = _int(raw.get("unit"), "The unit")
        if not view.setup.has_unit(BattleUnitId(unit)):
            raise Refused(422, "There is no such unit in this battle.")
        fighter = ctx.fighter(BattleUnitId(unit))
        if fighter.player_id != seat.player_id:
            raise Refused(403, f"{fighter.name} is not your unit.")
        choice = self._choice(ctx, seat, unit, raw)
        try:
            draft = proposed_draft(ctx, choice)
        except UserError as exc:
            raise Refused(422, str(exc)) from None
        said = self._said(draft, ctx)
        if not said["ready"]:
            raise Refused(422, said["why"])
        faces = (*draft.action_faces, *draft.damage_faces)
        if len(faces) != len(choice.faces):
            raise Refused(422, f"The attack needs {len(faces)} dice, not {len(choice.faces)}.")
        return Proposal(
            id=str(raw["id"]),
            player_id=seat.player_id,
            player=seat.name,
            battle_id=view.id,
            turn=turn_key(view),
            choice=AttackChoice(
                choice.attacker_id, draft.item_key, draft.target_id, draft.distance, faces
            ),
            text=proposal_text(seat.name, draft, ctx),
        )


def parse_body(body: bytes) -> dict[str, object]:
    """A proposal's JSON object with a well-formed ``id``; ``Refused`` otherwise."""
    try:
        raw = json.loads(body)
    except ValueError:
        raise Refused(400, "A proposal is sent as JSON by the players' page.") from None
    if not isinstance(raw, dict) or not _ID.fullmatch(str(raw.get("id", ""))):
        raise Refused(400, "A proposal is sent as JSON by the players' page.")
    return raw


class Inbox:
    """The proposals on their way (on the server's loop): replays, rates, the waiting ones,
    and the last answers the pages show."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._seen: dict[str, None] = {}
        self._sent: dict[PlayerId, deque[float]] = {}
        self._busy: dict[PlayerId, int] = {}
        self.waiting: dict[str, Proposal] = {}
        #: Proposals opened in the organizer's quick form, until recorded or set aside.
        self.correcting: dict[str, Proposal] = {}
        #: The battle's turn as last told (``moved_on``); ``None``: no battle in progress.
        self.turn: str | None = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)

    def admit(self, seat: Seat, proposal_id: str) -> None:
        """Let a proposal be checked, or refuse it: a replay, too many waiting, too many a
        minute. Call ``checked`` once it has been."""
        if proposal_id in self._seen:
            raise Refused(409, "This proposal was sent already.")
        self._seen[proposal_id] = None
        while len(self._seen) > SEEN:
            del self._seen[next(iter(self._seen))]
        now = self._clock()
        sent = self._sent.setdefault(seat.player_id, deque())
        while sent and now - sent[0] > 60:
            sent.popleft()
        if self._busy.get(seat.player_id, 0) >= MAX_WAITING:
            raise Refused(
                429, f"{MAX_WAITING} of your proposals wait for the organizer: wait for an answer."
            )
        if len(sent) >= MAX_PER_MINUTE:
            raise Refused(429, f"At most {MAX_PER_MINUTE} proposals a minute: wait a moment.")
        sent.append(now)
        self._busy[seat.player_id] = self._busy.get(seat.player_id, 0) + 1

    def checked(self, seat: Seat, proposal: Proposal | None) -> None:
        """The check of an admitted proposal ended: ``proposal`` waits for the organizer
        (``None``: it was refused)."""
        if proposal is None:
            self._done(seat.player_id)
            return
        self.waiting[proposal.id] = proposal
        self.recent.append(
            {
                "id": proposal.id,
                "player_id": proposal.player_id,
                "text": proposal.text,
                "status": WAITING,
                "note": "",
            }
        )

    def _done(self, player_id: PlayerId) -> None:
        self._busy[player_id] = max(0, self._busy.get(player_id, 0) - 1)

    def settle(self, proposal_id: str, status: str, note: str = "") -> str | None:
        """The organizer's answer to a proposal (``ANSWERS``): the status it has now, or
        ``None`` when refused (no such proposal waits or is being corrected, or its status
        does not take that answer). One that waits again after ``correcting`` is dropped
        instead when the battle moved on since it was made (``turn``, as last told)."""
        held = self.waiting if proposal_id in self.waiting else self.correcting
        proposal = held.get(proposal_id)
        if proposal is None:
            return None
        was = WAITING if held is self.waiting else CORRECTING
        if status not in ANSWERS[was]:
            return None
        del held[proposal_id]
        if was == WAITING:
            self._done(proposal.player_id)
        if status == CORRECTING:
            self.correcting[proposal_id] = proposal
        elif status == WAITING and proposal.turn != self.turn:
            status, note = DROPPED, MOVED_ON
        elif status == WAITING:
            self.waiting[proposal_id] = proposal
            self._busy[proposal.player_id] = self._busy.get(proposal.player_id, 0) + 1
        for entry in self.recent:
            if entry["id"] == proposal_id:
                entry["status"], entry["note"] = status, note
        return status

    def moved_on(self, turn: str | None) -> list[str]:
        """The battle is at ``turn`` now (``None``: no battle in progress): the waiting
        proposals made before are dropped (their ids)."""
        self.turn = turn
        gone = [p.id for p in self.waiting.values() if p.turn != turn]
        for pid in gone:
            self.settle(pid, DROPPED, MOVED_ON)
        return gone

    def part(self) -> bytes:
        """The page's ``proposals`` part: the last proposals and their answers."""
        return json.dumps(list(self.recent), ensure_ascii=False, separators=(",", ":")).encode()
