"""Every limit BrikDesk enforces, stated once.

The app's dialogs, the services, the command line and ``brikdesk import`` all read their limits
from here, so a value the app refuses is refused by the command line and by an import too, with
the same words. Nothing here imports anything: every layer may use it.

``text_problem`` is the one check of free text (names and notes, wherever they come from): no
control characters (a name with ``ESC[2J`` would clear the terminal of ``brikdesk list``), no
lone surrogates (they cannot be stored as UTF-8), and the length limit.
"""

from __future__ import annotations

import re
import unicodedata

# -- text ---------------------------------------------------------------------------------------

#: A name (campaign, player, faction, army, unit, battle): one line.
NAME_LEN = 100
#: Notes: several lines (tab and newlines allowed).
NOTES_LEN = 20_000
#: Any other text in an event payload or a catalog entry.
PAYLOAD_TEXT_LEN = 10_000
#: A catalog key (``long-ranged-weapon``) and an event kind, as stored.
KEY_LEN = 64
KIND_LEN = 40

# -- ids ----------------------------------------------------------------------------------------

#: The largest id: ids are ``Integer`` columns, 32-bit on PostgreSQL (and most servers). No row
#: has a larger id on any database, so the services treat one as "not found" without asking.
MAX_ID = 2**31 - 1

# -- numbers ------------------------------------------------------------------------------------

#: Largest budget, cost, count or record number (battles fought, kills) anywhere.
MAX_NUMBER = 1_000_000
#: A distance in inches the combat wizard accepts (the largest table is far smaller).
MAX_INCHES = 1000
#: Armor and Use ratings: the unit editor, the wizard and ``brikdesk odds`` take 0 to this
#: (a negative Armor or Use is not a rating; modifiers are given separately).
MAX_RATING = 1000
#: Modifiers to a roll either way.
MAX_MODIFIER = 1000

# -- dice (bound the work of exact odds, not only the number of dice) ---------------------------

#: Dice in one expression, all terms together.
MAX_DICE = 20
#: The spread of one expression: the sum over its terms of dice x sides (``10d100`` is 1000).
#: Exact odds convolve distributions about this wide, so it bounds their time.
MAX_DICE_SPREAD = 1000

# -- import files -------------------------------------------------------------------------------

MAX_FILE_BYTES = 64 * 1024 * 1024
#: JSON values (numbers, strings, objects...) in one file: a valid file at the documented
#: maximum (200,000 units) has about 4 million; 30 million small numbers are refused before
#: they are parsed.
MAX_JSON_VALUES = 6_000_000
#: Lists and objects in one file (each is a Python object once parsed, 56 to 232 bytes, so
#: their number, not the file's size or its values, bounds the memory a parse takes): a valid
#: file at the documented maximum (200,000 units) has about 1 million; 8 million empty
#: objects or 30 million small nested lists are refused before they are parsed.
MAX_JSON_CONTAINERS = 1_500_000
MAX_DEPTH = 24
MAX_PLAYERS = 1000
MAX_ARMIES = 5000
MAX_UNITS = 200_000
MAX_BATTLES = 10_000
MAX_BATTLE_UNITS = 5000
MAX_EVENTS = 100_000
MAX_CATALOG_ENTRIES = 2000
MAX_LOADOUT = 12
MAX_STATE_BYTES = 256 * 1024
MAX_PAYLOAD_BYTES = 64 * 1024

_CONTROL_ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: Characters a one-line text (a name, a key) can't hold because they change how it reads
#: without being seen: the bidirectional controls (an override makes "Sgt KILLS 1 ok" print
#: from a name that reads otherwise) and the zero-width and blank characters (a name of
#: zero-width spaces, or a look-alike of another's name with one inside).
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0]"
)


def printable(text: str) -> str:
    """``text`` with control characters and lone surrogates written as visible escapes
    (``\\x1b``, ``\\ud800``), safe to print on a terminal."""
    if not (_CONTROL_ONE_LINE.search(text) or _SURROGATE.search(text)):
        return text
    return "".join(
        f"\\x{ord(c):02x}"
        if _CONTROL_ONE_LINE.match(c)
        else f"\\u{ord(c):04x}"
        if _SURROGATE.match(c)
        else c
        for c in text
    )


def name_key(name: str) -> str:
    """What two names are compared by: Unicode NFKC, case folded (so "Ｒｅｄ" and "RED" are
    "red"), spaces collapsed. Two names with one key are duplicates."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message: in double quotes, with ``printable`` escapes, cut to
    ``limit`` characters (``"\\x1b[2J"``)."""
    cut = text if len(text) <= limit else text[: limit - 3] + "..."
    return '"' + printable(cut.replace("\\", "\\\\").replace('"', '\\"')) + '"'


def text_problem(value: str, max_len: int, *, lines: bool = False) -> str | None:
    """What is wrong with ``value`` as stored text, or ``None``.

    ``lines`` allows tab, newline and carriage return (notes); a name allows none. The message
    completes "<what> ...": "is too long (1000000 characters; at most 100)".
    """
    if len(value) > max_len:
        return f"is too long ({len(value)} characters; at most {max_len})"
    bad = (_CONTROL_LINES if lines else _CONTROL_ONE_LINE).search(value)
    if bad is not None:
        code = ord(bad.group())
        return (
            f"contains the control character U+{code:04X} at position {bad.start() + 1}"
            " (text can't hold control characters)"
        )
    hidden = None if lines else _INVISIBLE.search(value)
    if hidden is not None:
        c = hidden.group()
        return (
            f"contains the invisible character U+{ord(c):04X} "
            f"({unicodedata.name(c, 'a format character')}) at position {hidden.start() + 1} "
            "(a name can't hold characters that change how it reads)"
        )
    sur = _SURROGATE.search(value)
    if sur is not None:
        return (
            f"contains a lone surrogate U+{ord(sur.group()):04X} at position "
            f"{sur.start() + 1} (not a character; the text is not valid Unicode)"
        )
    return None
