"""The confusable skeleton of Unicode Technical Standard #39 (Unicode Security Mechanisms,
section 4, "Confusable Detection"): two names that look alike ("Margo" and "Mаrgo", whose
second letter is Cyrillic) have the same skeleton.

``skeleton(text)``: the text in NFD, each character replaced by its prototype from Unicode's
``confusables.txt`` (a character with none is its own), then NFD again, as the standard
defines it. The table is ``resources/confusables.json``, made from Unicode's file by
``scripts/make_confusables.py`` (it records the version it was made from); it is read once,
when a name is first compared.

``name_marks(name)``: what BrikDesk compares names by: the skeleton of ``name_key`` (case
folded and NFKC first, spaces collapsed, so that "RED", "Ｒｅｄ" and "Rеd" are one name), and
the skeleton of the name as written (NFKC, spaces collapsed: "IVAN" and "lVAN" look alike
before case folding makes them "ivan" and "lvan"). Two names with a mark in common are the
same name to a reader: ``same_name``.
"""

from __future__ import annotations

import functools
import json
import unicodedata

from brikdesk.limits import name_key
from brikdesk.paths import resource_path

TABLE = "confusables.json"


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from Unicode's data (read once)."""
    with open(resource_path(TABLE), encoding="utf-8") as f:
        table: dict[str, str] = json.load(f)["prototypes"]
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: NFD, prototypes, NFD."""
    table = prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_marks(name: str) -> frozenset[str]:
    """The marks two names a reader could take for one another have in common."""
    written = " ".join(unicodedata.normalize("NFKC", name).split())
    return frozenset((f"folded:{skeleton(name_key(name))}", f"written:{skeleton(written)}"))


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one name to a reader (equal keys, or confusable)."""
    return not name_marks(a).isdisjoint(name_marks(b))
