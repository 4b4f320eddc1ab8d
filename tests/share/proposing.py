"""What the proposal tests share: the players' own links served, and a phone's requests to
them (the players' page's own requests: JSON, from the page's origin)."""

from __future__ import annotations

import http.client
import itertools
import json
from typing import Any

from brikdesk.services import Services
from brikdesk.share import new_token
from brikdesk.share.server import ShareServer

_ids = itertools.count(1)


def serve_players(server: ShareServer, sv: Services) -> dict[str, str]:
    """Give every player of the shared campaign a link: name -> token."""
    players = sv.campaigns.list_players(server.shared.campaign_id)
    seats = server.set_players({p.id: new_token() for p in players})
    return {seat.name: token for token, seat in seats.items()}


def request(
    server: ShareServer, method: str, path: str, body: bytes | None = None, **headers: str
) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        data = r.read()
    finally:
        conn.close()
    try:
        said = json.loads(data)
    except ValueError:
        said = {"text": data.decode(errors="replace")}
    return r.status, said if isinstance(said, dict) else {"list": said}


def ask(server: ShareServer, token: str, query: str = "") -> dict[str, Any]:
    """What the player's page shows for the attack chosen in ``query``."""
    status, said = request(server, "GET", f"/{token}/attack.json?{query}")
    assert status == 200, said
    return said


def propose(server: ShareServer, token: str, **fields: object) -> tuple[int, dict[str, Any]]:
    """A proposal as the player's page sends it (a new id unless ``id`` is given)."""
    body = {"id": f"proposal-{next(_ids):06d}", **fields}
    origin = f"http://127.0.0.1:{server.port}"
    return request(
        server,
        "POST",
        f"/{token}/propose",
        json.dumps(body).encode(),
        **{"Content-Type": "application/json", "Origin": origin, "Sec-Fetch-Site": "same-origin"},
    )


def ines_strikes(server: ShareServer, token: str, dice: str = "5 4") -> dict[str, object]:
    """Ines's Captain strikes Dynamite Dot (the demo's battle, her turn): the page's fields."""
    said = ask(server, token, f"unit=13&target=9&dice={dice.replace(' ', '+')}")
    return {
        "turn": said["turn"],
        "unit": 13,
        "weapon": said["weapon"],
        "target": 9,
        "range": "",
        "dice": dice,
    }
