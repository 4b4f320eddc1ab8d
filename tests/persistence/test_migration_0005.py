"""Revision 0005 (a battle's undo groups in a column of their own) keeps existing battles: the
groups stored in ``battle.state`` move into ``battle.undo_groups`` and still undo as one step."""

from __future__ import annotations

import json
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, text

from brikdesk.domain.battle import ActionUse, Status, StatusSet, UnitKilled, spend_action
from brikdesk.persistence.db import alembic_config, head_revision, open_database
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from tests.databases import fresh_url


def _battle_with_a_group(url: str) -> tuple[int, dict[str, int]]:
    """A battle whose log is one event, then a group of three (one action)."""
    db = open_database(url)
    try:
        sv = Services.open(db)
        c = sv.campaigns.create_campaign("Old war").value
        musters = []
        for name in ("Red", "Blue"):
            p = sv.campaigns.add_player(c.id, name).value
            army = sv.campaigns.add_army(p.id, f"{name} army").value
            musters.append(
                Muster(p.id, sv.roster.add_units(army.id, "minifig", 2, f"{name} {{n}}").value)
            )
        view = sv.tracker.begin(c.id, "Old Fight", musters).value
        u = {t.name: t.id for t in view.units}
        sv.tracker.record(view.id, [spend_action(view.state, u["Red 1"], ActionUse.SPRINT)])
        sv.tracker.record(
            view.id,
            [
                spend_action(view.state, u["Red 2"], ActionUse.ATTACK),
                StatusSet(u["Blue 2"], Status.DISRUPTED),
                UnitKilled(u["Blue 1"], u["Red 2"], "shot"),
            ],
        )
        return view.id, u
    finally:
        db.close()


def _state_of(url: str, battle_id: int) -> dict[str, object]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            raw = conn.execute(
                text("SELECT state FROM battle WHERE id = :i"), {"i": battle_id}
            ).scalar_one()
    finally:
        engine.dispose()
    return raw if isinstance(raw, dict) else json.loads(raw)


def test_a_database_at_0004_keeps_its_undo_groups(backend: str, tmp_path: Path) -> None:
    url = fresh_url(tmp_path, "groups")
    battle_id, u = _battle_with_a_group(url)
    # Back to 0004: the groups live in the battle's state cache, as BrikDesk kept them then.
    engine = create_engine(url)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0004")
    engine.dispose()
    assert _state_of(url, battle_id) == {"tracker": {"groups": [[2, 4]]}}

    db = open_database(url)
    try:
        assert db.revision == head_revision() == "0006"
        assert _state_of(url, battle_id) == {}
        with db.engine.connect() as conn:
            groups = conn.execute(
                text("SELECT undo_groups FROM battle WHERE id = :i"), {"i": battle_id}
            ).scalar_one()
        assert (groups if isinstance(groups, list) else json.loads(groups)) == [[2, 4]]
        sv = Services.open(db)
        view = sv.tracker.view(battle_id)
        assert view.state.unit(u["Blue 1"]).dead
        assert view.can_undo is not None and view.can_undo.endswith("(+2 more)")
        # The old group is still one step: one Undo takes back all three events.
        after = sv.tracker.undo(battle_id).value
        assert [e.reverted for e in after.events] == [False, True, True, True]
        assert not after.state.unit(u["Blue 1"]).dead
        assert not after.state.unit(u["Blue 2"]).disrupted
        assert after.can_undo == "Red 1 (Red) Sprints"
    finally:
        db.close()
