"""Two players and their armies for the campaign history's tests (the records themselves and
the charts of them): Ann's Owls with a budget of 30, Bo's Bats with none."""

from __future__ import annotations

from datetime import UTC, datetime

from brikdesk.domain.history import ArmyInfo, PlayerInfo

ANN, BO = 1, 2
PLAYERS = [PlayerInfo(ANN, "Ann", "#ff0000"), PlayerInfo(BO, "Bo", "#0000ff")]
ARMIES = [ArmyInfo(10, "Owls", ANN, 30), ArmyInfo(20, "Bats", BO, None)]


def t(day: int) -> datetime:
    return datetime(2026, 5, day, tzinfo=UTC)
