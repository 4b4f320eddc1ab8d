"""The players' own links: each player of the shared campaign may get a token of their own.

A player's link serves everything the watch-only link serves and, under the same token,
``me.json`` (who the link belongs to) and what the player's page needs to send their own
rolls (``proposals``). The tokens are made and kept by whoever runs the share (the app keeps
them per campaign, so a player's link stays the same when sharing starts again; a standalone
``brikdesk share --players`` makes new ones for its run); ``Seats`` only looks them up.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from brikdesk.domain.colours import readable_text_on
from brikdesk.domain.ids import CampaignId, PlayerId
from brikdesk.services import Services
from brikdesk.share import new_token, valid_token


@dataclass(frozen=True)
class Seat:
    """A player at the table, as their own link knows them."""

    player_id: PlayerId
    name: str
    colour: str

    def me_json(self, *, proposals: bool) -> bytes:
        """What ``me.json`` answers: the player, the ink for text on their colour, and whether
        their rolls can be sent now (``proposals``: the organizer's app runs the share)."""
        return json.dumps(
            {
                "player_id": self.player_id,
                "name": self.name,
                "colour": self.colour,
                "ink": readable_text_on(self.colour),
                "proposals": proposals,
            },
            ensure_ascii=False,
        ).encode()


class Seats:
    """Token -> seat, compared in constant time (a wrong guess learns nothing from timing)."""

    def __init__(self) -> None:
        self._seats: tuple[tuple[bytes, Seat], ...] = ()

    def set(self, seats: Mapping[str, Seat]) -> None:
        self._seats = tuple((token.encode(), seat) for token, seat in seats.items())

    def find(self, token: bytes) -> Seat | None:
        found = None
        for known, seat in self._seats:
            if hmac.compare_digest(known, token):
                found = seat
        return found

    def __len__(self) -> int:
        return len(self._seats)


def seats_for(
    services: Services, campaign_id: CampaignId, tokens: Mapping[PlayerId, str]
) -> dict[str, Seat]:
    """The seats of the campaign's players that have a (valid) token in ``tokens``."""
    players = services.campaigns.list_players(campaign_id)
    return {
        tokens[p.id]: Seat(p.id, p.name, p.colour)
        for p in players
        if p.id in tokens and valid_token(tokens[p.id])
    }


def new_tokens(player_ids: Iterable[PlayerId]) -> dict[PlayerId, str]:
    """A new token for each player (a standalone share's run)."""
    return {pid: new_token() for pid in player_ids}


def parse_tokens(text: str) -> dict[PlayerId, str]:
    """``{"<player id>": "<token>", ...}`` as the app sends it; what is not that is left out."""
    try:
        raw = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(raw, dict):
        return {}
    return {
        PlayerId(int(k)): v
        for k, v in raw.items()
        if isinstance(k, str) and k.isdigit() and isinstance(v, str) and valid_token(v)
    }
