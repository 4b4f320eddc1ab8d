"""A player's own link sends their rolls as proposals: judged as the quick form judges them,
handed to the organizer's app and never written anywhere; a device that is not the player's
page, another player's unit, a forged unit, a replay, a proposal after End Turn and a flood
are refused with the reason, and nothing is recorded. Served on 127.0.0.1; waits bounded."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from brikdesk.domain.combat import AttackChoice
from brikdesk.domain.ids import BattleId, BattleUnitId, PlayerId
from brikdesk.services import Services
from brikdesk.share.players import Seat
from brikdesk.share.proposals import Inbox, Proposal
from brikdesk.share.server import ShareServer
from tests.share.proposing import ask, ines_strikes, propose, request, serve_players


class App:
    """The organizer's app as the share process sees it: the lines it receives."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, dict[str, Any]]] = []
        self.lock = threading.Lock()

    def __call__(self, word: str, value: dict[str, Any]) -> None:
        with self.lock:
            self.lines.append((word, value))

    def words(self, word: str) -> list[dict[str, Any]]:
        with self.lock:
            return [v for w, v in self.lines if w == word]


@pytest.fixture
def app(server: ShareServer) -> App:
    to_app = App()
    server.send_proposals_to(to_app)
    return to_app


def _battle(sv: Services) -> BattleId:
    c = sv.campaigns.list_campaigns()[0]
    return next(b.id for b in sv.battles.list_battles(c.id) if b.status == "in_progress")


def _events(sv: Services) -> int:
    return len(sv.tracker.view(_battle(sv)).events)


def _proposals(server: ShareServer, token: str) -> list[dict[str, Any]]:
    status, said = request(server, "GET", f"/{token}/state.json")
    assert status == 200
    return list(said.get("proposals") or [])


def _within(check: Any, seconds: float = 3.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.02)


def test_the_page_is_shown_the_quick_forms_odds_and_result(
    server: ShareServer, demo_sv: Services, app: App
) -> None:
    tokens = serve_players(server, demo_sv)
    said = ask(server, tokens["Ines"], "unit=13&target=9")
    assert [u["name"] for u in said["units"]] == [
        "Captain Peg-Leg Pennywhistle",
        "First Mate Barnacle Bess",
        "Gunner Magda",
        "Bosun Grogg",
    ]
    assert "already spent its Action" in said["units"][2]["why"]
    assert said["odds"] == "Needs 2+ on d10 · hit 90.0% · destroy 71.0%"
    assert said["need"]["sides"] == 10 and not said["ready"]
    done = ask(server, tokens["Ines"], "unit=13&target=9&dice=5+4")
    assert done["ready"] and [d["face"] for d in done["dice"]] == [5, 4]
    assert done["result"].startswith("Captain Peg-Leg Pennywhistle's Hand Weapon hits Dynamite")
    me = request(server, "GET", f"/{tokens['Ines']}/me.json")[1]
    assert (me["name"], me["proposals"]) == ("Ines", True)


def test_a_proposal_goes_to_the_app_and_the_pages_and_changes_nothing(
    server: ShareServer, demo_sv: Services, app: App
) -> None:
    tokens = serve_players(server, demo_sv)
    before = _events(demo_sv)
    status, said = propose(server, tokens["Ines"], **ines_strikes(server, tokens["Ines"]))
    assert status == 200 and said["status"] == "waiting"
    text = "Ines: Captain Peg-Leg Pennywhistle strikes Dynamite Dot (Hand Weapon), dice 5 4"
    assert said["text"] == text
    (sent,) = app.words("proposal")
    assert (sent["attacker_id"], sent["target_id"], sent["faces"]) == (13, 9, [5, 4])
    _within(lambda: [p["status"] for p in _proposals(server, tokens["Tobias"])] == ["waiting"])
    server.answer(sent["id"], "rejected", "Measure again")
    _within(lambda: _proposals(server, tokens["Ines"])[0]["status"] == "rejected")
    assert _proposals(server, tokens["Ines"])[0]["note"] == "Measure again"
    assert _events(demo_sv) == before  # nothing a phone sends is written


def test_a_legal_response_may_be_proposed_off_the_players_turn(
    server: ShareServer, demo_sv: Services, app: App
) -> None:
    tokens = serve_players(server, demo_sv)
    said = ask(server, tokens["Tobias"], "unit=10&target=13&dice=5+3+2+1")
    assert said["ready"], said["why"]
    fields = {"turn": said["turn"], "unit": 10, "target": 13, "range": "", "dice": "5 3 2 1"}
    status, _said = propose(server, tokens["Tobias"], weapon=said["weapon"], **fields)
    assert status == 200
    spent = ask(server, tokens["Tobias"], "unit=9&target=13&range=3&dice=5+3+2+1")
    assert "spent its Action" in str(spent["why"])
    status, refused = propose(
        server, tokens["Tobias"], **{**fields, "unit": 9, "range": "3", "weapon": spent["weapon"]}
    )
    assert status == 422 and "spent its Action" in refused["error"]


def test_another_players_unit_a_forged_unit_and_a_replay_are_refused(
    server: ShareServer, demo_sv: Services, app: App
) -> None:
    tokens = serve_players(server, demo_sv)
    fields = ines_strikes(server, tokens["Ines"])
    status, said = propose(server, tokens["Tobias"], **fields)
    assert (status, said["error"]) == (403, "Captain Peg-Leg Pennywhistle is not your unit.")
    status, said = propose(server, tokens["Ines"], **{**fields, "unit": 99999})
    assert (status, said["error"]) == (422, "There is no such unit in this battle.")
    status, said = propose(server, tokens["Ines"], **{**fields, "unit": "13; drop"})
    assert (status, said["error"]) == (422, "The unit is not a number.")
    status, _said = propose(server, tokens["Ines"], id="replayed-once", **fields)
    assert status == 200
    status, said = propose(server, tokens["Ines"], id="replayed-once", **fields)
    assert (status, said["error"]) == (409, "This proposal was sent already.")
    assert len(app.words("proposal")) == 1


def test_end_turn_drops_the_waiting_proposals_and_refuses_late_ones(
    server: ShareServer, demo_sv: Services, app: App
) -> None:
    tokens = serve_players(server, demo_sv)
    fields = ines_strikes(server, tokens["Ines"])
    assert propose(server, tokens["Ines"], **fields)[0] == 200
    demo_sv.tracker.end_turn(_battle(demo_sv))
    before = _events(demo_sv)
    _within(lambda: _proposals(server, tokens["Ines"])[0]["status"] == "dropped")
    assert app.words("dropped") == [{"id": app.words("proposal")[0]["id"]}]
    status, said = propose(server, tokens["Ines"], **fields)
    assert status == 409 and "moved on" in said["error"]
    assert _events(demo_sv) == before


def test_a_hundred_proposals_in_a_second_are_refused_but_the_first(
    server: ShareServer, demo_sv: Services, app: App
) -> None:
    tokens = serve_players(server, demo_sv)
    before = _events(demo_sv)
    fields = ines_strikes(server, tokens["Ines"])
    answers: list[tuple[int, dict[str, Any]]] = []

    def send(n: int) -> None:
        for _ in range(n):
            answers.append(propose(server, tokens["Ines"], **fields))

    threads = [threading.Thread(target=send, args=(10,)) for _ in range(10)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(answers) == 100 and time.monotonic() - start < 10
    accepted = [a for s, a in answers if s == 200]
    refused = [a["error"] for s, a in answers if s == 429]
    assert 1 <= len(accepted) <= 2 and len(accepted) + len(refused) == 100
    assert any("wait for an answer" in r for r in refused)
    assert len(app.words("proposal")) == len(accepted)
    assert _events(demo_sv) == before
    assert ask(server, tokens["Tobias"])["units"]  # the others are served meanwhile


def test_a_cross_site_form_post_and_the_watch_link_write_nothing(
    server: ShareServer, demo_sv: Services, app: App
) -> None:
    tokens = serve_players(server, demo_sv)
    path = f"/{tokens['Ines']}/propose"
    form = b"id=cross-site-01&unit=13&target=9&dice=5+4"
    status, said = request(
        server,
        "POST",
        path,
        form,
        **{"Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"},
    )
    assert status == 403 and "players' page only" in said["error"]
    status, said = request(
        server, "POST", path, form, **{"Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"}
    )
    assert status == 403
    status, said = request(server, "POST", path, form, **{"Content-Type": "text/plain"})
    assert status == 415 and "as JSON" in said["error"]
    big = b'{"id": "too-big-00", "pad": "' + b"x" * 4000 + b'"}'
    status, _said = request(server, "POST", path, big, **{"Content-Type": "application/json"})
    assert status == 413
    watch = f"/{server.token}/propose"
    status, _said = request(server, "POST", watch, b"{}", **{"Content-Type": "application/json"})
    assert status == 405
    assert app.words("proposal") == []


def test_without_the_app_proposals_are_refused_saying_so(
    server: ShareServer, demo_sv: Services
) -> None:
    tokens = serve_players(server, demo_sv)
    me = request(server, "GET", f"/{tokens['Ines']}/me.json")[1]
    assert me["proposals"] is False
    status, said = propose(server, tokens["Ines"], **ines_strikes(server, tokens["Ines"]))
    assert status == 503 and "tell the organizer your roll" in said["error"]


def _waiting_in(inbox: Inbox, ident: str, turn: str = "7:2:1") -> Proposal:
    """A proposal of Ines's made at ``turn``, admitted and checked: it waits."""
    seat = Seat(PlayerId(3), "Ines", "#aa3300")
    choice = AttackChoice(BattleUnitId(13), "hand-weapon", BattleUnitId(9), None, (5, 4))
    proposal = Proposal(ident, seat.player_id, seat.name, BattleId(7), turn, choice, ident)
    inbox.admit(seat, ident)
    inbox.checked(seat, proposal)
    return proposal


def _shown(inbox: Inbox) -> list[tuple[str, str, str]]:
    return [(e["id"], e["status"], e["note"]) for e in inbox.recent]


def test_a_proposal_being_corrected_ends_corrected_or_waits_again_and_nothing_else() -> None:
    inbox = Inbox()
    inbox.moved_on("7:2:1")
    _waiting_in(inbox, "opened-to-fix")
    assert inbox.settle("opened-to-fix", "corrected") is None  # never opened to correct
    assert inbox.settle("opened-to-fix", "waiting") is None
    assert inbox.settle("opened-to-fix", "correcting") == "correcting"
    assert list(inbox.waiting) == [] and _shown(inbox)[0][1] == "correcting"
    for refused in ("accepted", "rejected", "dropped", "correcting", "won", ""):
        assert inbox.settle("opened-to-fix", refused) is None
    assert _shown(inbox) == [("opened-to-fix", "correcting", "")]
    assert inbox.settle("opened-to-fix", "waiting") == "waiting"  # the form closed
    assert list(inbox.waiting) == ["opened-to-fix"]
    assert _shown(inbox) == [("opened-to-fix", "waiting", "")]
    assert inbox.settle("opened-to-fix", "accepted") == "accepted"  # answered as any other
    assert inbox.settle("opened-to-fix", "waiting") is None  # a final answer stays final
    _waiting_in(inbox, "fixed-and-kept")
    inbox.settle("fixed-and-kept", "correcting")
    assert inbox.settle("fixed-and-kept", "corrected", "Captain hits Dot") == "corrected"
    assert inbox.settle("fixed-and-kept", "waiting") is None
    assert _shown(inbox)[1] == ("fixed-and-kept", "corrected", "Captain hits Dot")


def test_a_proposal_set_aside_after_the_battle_moved_on_is_dropped() -> None:
    inbox = Inbox()
    inbox.moved_on("7:2:1")
    _waiting_in(inbox, "fixing-late")
    _waiting_in(inbox, "left-waiting")
    inbox.settle("fixing-late", "correcting")
    assert inbox.moved_on("7:2:2") == ["left-waiting"]  # the one being corrected stays so
    assert _shown(inbox)[0][1] == "correcting"
    assert inbox.settle("fixing-late", "waiting") == "dropped"
    assert list(inbox.waiting) == []
    moved_on = "The battle moved on before the organizer answered."
    assert _shown(inbox)[0] == ("fixing-late", "dropped", moved_on)


def test_the_page_follows_a_correction_and_a_late_one_is_dropped(
    server: ShareServer, demo_sv: Services, app: App
) -> None:
    tokens = serve_players(server, demo_sv)
    fields = ines_strikes(server, tokens["Ines"])
    assert propose(server, tokens["Ines"], **fields)[0] == 200
    (sent,) = app.words("proposal")

    def shown() -> tuple[str, str]:  # the newest of Ines's proposals on the page
        entry = _proposals(server, tokens["Ines"])[-1]
        return entry["status"], entry["note"]

    server.answer(sent["id"], "correcting")
    _within(lambda: shown() == ("correcting", ""))
    server.answer(sent["id"], "accepted")  # refused: it is being corrected
    server.answer(sent["id"], "waiting")  # the organizer closed the form
    _within(lambda: shown() == ("waiting", ""))
    server.answer(sent["id"], "correcting")
    server.answer(sent["id"], "corrected", "Captain hits Dynamite Dot")
    _within(lambda: shown() == ("corrected", "Captain hits Dynamite Dot"))
    server.answer(sent["id"], "waiting")  # refused: a final answer
    assert propose(server, tokens["Ines"], **fields)[0] == 200
    late = app.words("proposal")[1]["id"]
    server.answer(late, "correcting")
    _within(lambda: shown() == ("correcting", ""))

    def turn() -> tuple[object, object]:
        battle = request(server, "GET", f"/{tokens['Ines']}/state.json")[1]["battle"]
        return battle["round"], battle["active"]

    before = turn()
    demo_sv.tracker.end_turn(_battle(demo_sv))
    _within(lambda: turn() != before)  # the share read the battle again
    assert shown() == ("correcting", "")  # the one being corrected stays so
    server.answer(late, "waiting")
    _within(lambda: shown()[0] == "dropped")
    assert app.words("dropped") == [{"id": late}]  # the app is told, as for any other
    assert [p["status"] for p in _proposals(server, tokens["Ines"])] == ["corrected", "dropped"]
