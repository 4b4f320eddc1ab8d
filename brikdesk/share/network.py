"""Which address the phones reach this computer at (no packet is sent to find it out)."""

from __future__ import annotations

import socket
from typing import Protocol

#: Listening on these means every interface: the address shown is then the local network's.
WILDCARDS = ("0.0.0.0", "::", "")


def lan_address() -> str:
    """This computer's address on its local network: the one the system would send from
    (a UDP socket's ``connect`` picks a route and sends nothing); 127.0.0.1 with no network."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 9))
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return "127.0.0.1" if address.startswith("0.") else address


class _Served(Protocol):
    host: str

    def url_for(self, host: str) -> str: ...


def shown_address(server: _Served) -> str:
    """The page's whole address as a phone on the network would type it."""
    return server.url_for(lan_address() if server.host in WILDCARDS else server.host)
