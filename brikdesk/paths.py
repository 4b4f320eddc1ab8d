"""Where BrikDesk finds its resources and keeps its data.

``resource_path`` works from a checkout (or an editable install), an installed wheel (the files
land in ``<prefix>/share/brikdesk/resources``) and a frozen bundle (``sys._MEIPASS``);
``user_guide_path`` finds ``docs/user-guide.md`` (and its pictures beside it) the same three ways.
``data_dir`` is the user data folder (platformdirs), overridden by ``BRIKDESK_HOME``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "BrikDesk"
APP_ID = "org.brikdesk.BrikDesk"
#: The environment variable that names the database (a SQLAlchemy URL).
DB_ENV = "BRIKDESK_DB"
#: The SQLite file in the data folder used when no database is named.
DB_FILENAME = "brikdesk.sqlite3"


def _shipped(folder: str, what: str) -> Path:
    """The folder ``folder`` shipped with the app: in the frozen bundle, the checkout, or the
    wheel's ``share/brikdesk``; ``FileNotFoundError`` naming where it looked otherwise."""
    candidates = []
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        candidates.append(Path(frozen) / folder)
    candidates.append(Path(__file__).resolve().parent.parent / folder)
    candidates.append(Path(sys.prefix) / "share" / "brikdesk" / folder)
    for c in candidates:
        if c.is_dir():
            return c
    raise FileNotFoundError(
        f"BrikDesk's {what} folder was not found; looked in "
        + ", ".join(str(c) for c in candidates)
    )


def resources_dir() -> Path:
    return _shipped("resources", "resources")


def user_guide_path() -> Path:
    """The user guide (``docs/user-guide.md``; its pictures are in ``images/`` beside it)."""
    path = _shipped("docs", "documentation") / "user-guide.md"
    if not path.is_file():
        raise FileNotFoundError(f"BrikDesk's user guide is missing: {path}")
    return path


def resource_path(name: str) -> Path:
    """Path of a file under ``resources/`` (``resource_path("catalog-2020.json")``)."""
    return resources_dir() / name


def data_dir() -> Path:
    """The user data folder: ``$BRIKDESK_HOME`` or the platform's (created if missing)."""
    home = os.environ.get("BRIKDESK_HOME")
    if home:
        path = Path(home).expanduser()
    else:
        from platformdirs import user_data_path

        path = user_data_path(APP_NAME, appauthor=False)
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_target(url: str | None = None) -> str:
    """The database ``url`` (else ``BRIKDESK_DB``, else the data folder's file) as people read
    it: a SQLite file's path, or the URL with any password hidden. Needs no SQLAlchemy (the app
    names the database while it is still opening it)."""
    url = (url or os.environ.get(DB_ENV, "")).strip()
    if not url:
        return str(data_dir() / DB_FILENAME)
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    if scheme.split("+")[0] == "sqlite":
        return rest[1:] if rest.startswith("/") and len(rest) > 1 else url
    auth, at, host = rest.rpartition("@")
    if at and ":" in auth:
        return f"{scheme}://{auth.split(':')[0]}:***@{host}"
    return url
