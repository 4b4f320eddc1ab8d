"""Ids have kinds: a campaign unit's id is not a battle unit's id (``brikdesk.domain.ids``).

The type checker is what tells them apart, so the checks here run mypy on small programs that
use the real API, once mixing the kinds up and once not. At run time an id is the same int the
database holds: nothing stored or compared changes.
"""

from __future__ import annotations

import re
import tempfile
import tomllib
from pathlib import Path

import pytest
from sqlalchemy import Integer

from brikdesk.domain.ids import BattleUnitId, CampaignId, EventId, PlayerId, UnitId
from brikdesk.persistence.models import Base, BattleEvent, BattleUnit, Unit

ROOT = Path(__file__).resolve().parents[2]

#: One program, each line that mixes kinds up marked ``# wrong``, each right use ``# right``.
PROGRAM = """
from brikdesk.domain.battle.model import BattleSetup, BattleState
from brikdesk.domain.ids import BattleId, BattleUnitId, CampaignId, PlayerId, UnitId
from brikdesk.services import Services
from brikdesk.services.summaries import Muster


def battle(setup: BattleSetup, state: BattleState, unit: UnitId, mustered: BattleUnitId,
           player: PlayerId) -> None:
    setup.unit(unit)  # wrong: a campaign unit where the battle names its own copy
    setup.unit(mustered)  # right
    state.unit(unit)  # wrong
    state.unit(mustered)  # right
    setup.unit(3)  # wrong: a bare int says nothing of its kind
    setup.player(mustered)  # wrong: a unit where a player is meant
    setup.player(player)  # right


def services(sv: Services, campaign: CampaignId, battle: BattleId, unit: UnitId,
             mustered: BattleUnitId, player: PlayerId) -> None:
    sv.tracker.view(campaign)  # wrong: a campaign's id is not a battle's
    sv.tracker.view(battle)  # right
    Muster(player, (mustered,))  # wrong: a muster picks campaign units
    Muster(player, (unit,))  # right
    sv.roster.unit_rows([mustered])  # wrong
    sv.roster.unit_rows([unit])  # right
    for u in sv.tracker.view(battle).units:
        sv.roster.unit_card(u.id)  # wrong: the tracker's units are battle units
        if u.campaign_unit_id is not None:
            sv.roster.unit_card(u.campaign_unit_id)  # right
"""


def _mypy_settings(folder: Path) -> Path:
    """The project's mypy settings (``[tool.mypy]`` in pyproject.toml) as an ini file, without
    the files to check: the same options, so mypy takes every module it already checked from
    the project's cache."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]

    def value(v: object) -> str:
        return ", ".join(map(str, v)) if isinstance(v, list) else str(v)

    lines = ["[mypy]"]
    lines += [f"{k} = {value(v)}" for k, v in config.items() if k not in SETTINGS_LEFT_OUT]
    for override in config.get("overrides", []):
        lines.append(f"[mypy-{value(override['module'])}]".replace(" ", ""))
        lines += [f"{k} = {value(v)}" for k, v in override.items() if k != "module"]
    path = folder / "mypy.ini"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


#: What the ini leaves out: the project's files (the program is checked instead) and the list
#: of overrides (written as sections).
SETTINGS_LEFT_OUT = ("files", "exclude", "overrides")


def _mypy(program: str) -> str:
    """mypy's report on ``program``, run from the project's folder with the project's settings
    and cache: ``./run-tests`` type-checks the project first, so only the program is new (about
    a second, against 13-35 s with a fresh cache; a cold cache is filled as it goes)."""
    from mypy import api

    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)
        settings = _mypy_settings(Path(folder))
        out, err, _status = api.run(
            ["--config-file", str(settings), "--no-error-summary", "-c", program]
        )
    assert not err, err
    return out


@pytest.mark.slow
def test_the_type_checker_refuses_a_campaign_unit_where_a_battle_unit_is_meant() -> None:
    report = _mypy(PROGRAM)
    lines = PROGRAM.splitlines()
    flagged = {int(n) for n in re.findall(r"^<string>:(\d+): error:", report, re.M)}
    wrong = {i for i, line in enumerate(lines, 1) if "# wrong" in line}
    right = {i for i, line in enumerate(lines, 1) if line.endswith("# right")}
    assert len(wrong) == 8 and len(right) == 7
    assert wrong <= flagged, f"not flagged: {sorted(wrong - flagged)}\n{report}"
    assert not right & flagged, report
    assert not flagged - wrong, report  # nothing else in the program is an error
    assert (
        'Argument 1 to "unit" of "BattleSetup" has incompatible type "UnitId"; '
        'expected "BattleUnitId"'
    ) in report
    assert (
        'Argument 1 to "view" of "TrackerService" has incompatible type "CampaignId"; '
        'expected "BattleId"'
    ) in report


def test_an_id_is_the_int_the_database_holds() -> None:
    # NewTypes cost nothing at run time: the same value, the same type, equal to the int.
    ids = (CampaignId(7), PlayerId(7), UnitId(7), BattleUnitId(7), EventId(7))
    assert all(type(i) is int and i == 7 for i in ids)
    assert {UnitId(7): "a"}[7] == "a"


def test_id_columns_stay_integers() -> None:
    # The schema is unchanged (no migration): typed id columns are integer columns.
    for column in (
        Unit.__table__.c.id,
        BattleUnit.__table__.c.id,
        BattleUnit.__table__.c.unit_id,
        BattleEvent.__table__.c.actor_id,
    ):
        assert isinstance(column.type, Integer), column
    for table in Base.metadata.tables.values():
        for column in table.c:
            if column.name == "id" or column.name.endswith("_id"):
                assert isinstance(column.type, Integer), f"{table.name}.{column.name}"
