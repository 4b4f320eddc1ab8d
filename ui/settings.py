"""User interface preferences stored in ``QSettings`` with typed reads.

Rules and campaign data live in the database; what lives here is how the organizer likes the
windows: their geometry and layout, column widths, the last campaign and the recent ones.
Campaign ids mean something only in their own database, so the last and recent campaigns are
stored per database (``use_database``): ``--db`` another file and its own list comes back.

``AppSettings()`` uses the platform's usual place (``QSettings`` with the application's
organization and name); with ``BRIKDESK_HOME`` set, or for tests, ``AppSettings.at(path)``
stores everything in one INI file.
"""

from __future__ import annotations

import hashlib
import os
from enum import StrEnum
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QWidget

from brikdesk.domain.ids import CampaignId
from ui.appearance import ThemeMode

#: How many campaigns File > Recent campaigns remembers.
MAX_RECENT = 8

#: Edit > Settings keys (the paper and black and white are the print dialogs' own choices,
#: ``ui.widgets.print_options``).
KEY_DICE_MODE = "preferences/dice_mode"
KEY_TABLE_FONT = "preferences/table_font_percent"
KEY_EDITION = "preferences/new_campaign_edition"
KEY_THEME = "preferences/theme"
#: The kinds of files whose dialogs start in the folder last used for that kind: roster sheets
#: and texts, battle and campaign reports, campaign and chart exports, imported campaigns.
FOLDER_KINDS = ("rosters", "reports", "exports", "imports")
#: Table mode's text size in percent of the application's: the default and the range offered.
DEFAULT_TABLE_FONT = 155
MIN_TABLE_FONT = 100
MAX_TABLE_FONT = 300


class DiceMode(StrEnum):
    """What the combat wizard's dice cards offer first (Edit > Settings); either can always
    be used. Stored in the settings as its value."""

    VIRTUAL = "virtual"  # BrikDesk rolls: the Roll button has the focus
    TYPED = "typed"  # the faces rolled at the table are typed in: the face entry has it


class AppSettings:
    """Typed access to the keys BrikDesk stores (a thin layer over one ``QSettings``)."""

    def __init__(self, settings: QSettings | None = None) -> None:
        self._s = settings if settings is not None else QSettings()
        self._campaigns = "campaigns"

    def use_database(self, database: str) -> None:
        """Remember the last and recent campaigns of ``database`` (its file or URL) from now on."""
        digest = hashlib.sha1(database.encode("utf-8")).hexdigest()[:16]
        self._campaigns = f"campaigns/{digest}" if database else "campaigns"

    def campaign_key(self, campaign_id: CampaignId, name: str) -> str:
        """The key of a campaign's own setting ``name`` in the database used."""
        return f"{self._campaigns}/{int(campaign_id)}/{name}"

    @classmethod
    def at(cls, path: str | os.PathLike[str]) -> AppSettings:
        """Settings stored in the INI file ``path`` (created when first written)."""
        return cls(QSettings(str(path), QSettings.Format.IniFormat))

    @classmethod
    def for_app(cls) -> AppSettings:
        """``$BRIKDESK_HOME/settings.ini`` when ``BRIKDESK_HOME`` is set, else the platform's
        usual place for the application's settings."""
        home = os.environ.get("BRIKDESK_HOME", "").strip()
        if home:
            return cls.at(Path(home).expanduser() / "settings.ini")
        return cls()

    @property
    def qsettings(self) -> QSettings:
        return self._s

    def sync(self) -> None:
        self._s.sync()

    # -- typed reads ----------------------------------------------------------------------

    def get_int(self, key: str, default: int | None = None) -> int | None:
        value = self._s.value(key)
        if value is None or value == "":
            return default
        try:
            return int(value)
        except (TypeError, ValueError):
            return default

    def get_bool(self, key: str, default: bool = False) -> bool:
        value = self._s.value(key)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        return str(value).strip().lower() in ("1", "true", "yes", "on")

    def get_bytes(self, key: str) -> QByteArray | None:
        value = self._s.value(key)
        if isinstance(value, QByteArray) and not value.isEmpty():
            return value
        if isinstance(value, bytes | bytearray) and value:
            return QByteArray(bytes(value))
        return None

    def get_ints(self, key: str) -> list[int]:
        value = self._s.value(key)
        if value is None:
            return []
        parts = value if isinstance(value, list) else str(value).split(",")
        out: list[int] = []
        for p in parts:
            try:
                out.append(int(str(p).strip()))
            except ValueError:
                continue
        return out

    def set(self, key: str, value: object) -> None:
        if value is None:
            self._s.remove(key)
        else:
            self._s.setValue(key, value)

    # -- campaigns ------------------------------------------------------------------------

    @property
    def last_campaign(self) -> CampaignId | None:
        last = self.get_int(f"{self._campaigns}/last")
        return None if last is None else CampaignId(last)

    @last_campaign.setter
    def last_campaign(self, campaign_id: CampaignId | None) -> None:
        self.set(f"{self._campaigns}/last", campaign_id)

    @property
    def recent_campaigns(self) -> list[CampaignId]:
        """Ids of the campaigns opened last, most recent first."""
        return [CampaignId(i) for i in self.get_ints(f"{self._campaigns}/recent")[:MAX_RECENT]]

    def add_recent(self, campaign_id: CampaignId) -> None:
        ids = [campaign_id] + [i for i in self.recent_campaigns if i != campaign_id]
        self._s.setValue(f"{self._campaigns}/recent", ",".join(str(i) for i in ids[:MAX_RECENT]))

    def forget_recent(self, campaign_id: CampaignId) -> None:
        ids = [i for i in self.recent_campaigns if i != campaign_id]
        self._s.setValue(f"{self._campaigns}/recent", ",".join(str(i) for i in ids))

    # -- preferences (Edit > Settings) -------------------------------------------------------

    @property
    def dice_mode(self) -> DiceMode:
        """How dice are entered by default (virtual when the stored text is none of the
        modes)."""
        value = str(self._s.value(KEY_DICE_MODE) or "").strip()
        try:
            return DiceMode(value)
        except ValueError:
            return DiceMode.VIRTUAL

    @dice_mode.setter
    def dice_mode(self, mode: DiceMode) -> None:
        self.set(KEY_DICE_MODE, mode.value)

    @property
    def table_font_percent(self) -> int:
        """Table mode's text size, in percent of the application's (large print across a
        table)."""
        value = self.get_int(KEY_TABLE_FONT, DEFAULT_TABLE_FONT) or DEFAULT_TABLE_FONT
        return max(MIN_TABLE_FONT, min(MAX_TABLE_FONT, value))

    @table_font_percent.setter
    def table_font_percent(self, percent: int) -> None:
        self.set(KEY_TABLE_FONT, max(MIN_TABLE_FONT, min(MAX_TABLE_FONT, percent)))

    @property
    def theme(self) -> ThemeMode:
        """System, Light or Dark (System when the stored text is none of them)."""
        value = str(self._s.value(KEY_THEME) or "").strip()
        try:
            return ThemeMode(value)
        except ValueError:
            return ThemeMode.SYSTEM

    @theme.setter
    def theme(self, mode: ThemeMode) -> None:
        self.set(KEY_THEME, mode.value)

    @property
    def new_campaign_edition(self) -> str | None:
        """The rules edition New campaign offers first (None: the app's default)."""
        value = str(self._s.value(KEY_EDITION) or "").strip()
        return value or None

    @new_campaign_edition.setter
    def new_campaign_edition(self, edition: str | None) -> None:
        self.set(KEY_EDITION, edition or None)

    # -- file dialogs ---------------------------------------------------------------------

    def last_folder(self, kind: str) -> Path:
        """The folder the last file of ``kind`` (one of ``FOLDER_KINDS``) was saved to or
        opened from, while it exists; else the home folder."""
        value = str(self._s.value(f"folders/{kind}") or "").strip()
        if value and Path(value).is_dir():
            return Path(value)
        return Path.home()

    def remember_folder(self, kind: str, folder: str | os.PathLike[str]) -> None:
        """A file of ``kind`` was just chosen in ``folder``: start there next time."""
        if kind in FOLDER_KINDS:
            self._s.setValue(f"folders/{kind}", str(Path(folder).resolve()))

    # -- windows --------------------------------------------------------------------------

    def save_geometry(self, key: str, widget: QWidget) -> None:
        self._s.setValue(f"{key}/geometry", widget.saveGeometry())
        place = widget.normalGeometry()
        self._s.setValue(f"{key}/place", [place.x(), place.y(), place.width(), place.height()])

    def restore_geometry(self, key: str, widget: QWidget, *, exactly: bool = False) -> bool:
        """``widget`` as it was saved (its state, maximized or not); ``exactly``: at the
        place and size it had even where Qt would have moved it (the caller fits it to the
        screen, ``ui.screen.fit_to_screen``)."""
        data = self.get_bytes(f"{key}/geometry")
        if data is None or not widget.restoreGeometry(data):
            return False
        place = self.get_ints(f"{key}/place")
        normal = not (widget.isMaximized() or widget.isFullScreen())
        if exactly and normal and len(place) == 4 and place[2] > 0 and place[3] > 0:
            widget.setGeometry(*place)
        return True

    def save_bytes(self, key: str, data: QByteArray) -> None:
        self._s.setValue(key, data)
