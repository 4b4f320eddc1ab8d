"""Help > About says where the log is written, and opens its folder for a bug report."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl

from ui.dialogs import about
from ui.dialogs.about import AboutDialog


class Opened:
    """Stands in for the desktop's file manager: records the URLs it is asked to open."""

    def __init__(self, works: bool = True) -> None:
        self.urls: list[QUrl] = []
        self.works = works

    def openUrl(self, url: QUrl) -> bool:  # QDesktopServices' name
        self.urls.append(url)
        return self.works


@pytest.fixture
def desktop(monkeypatch: pytest.MonkeyPatch) -> Opened:
    opened = Opened()
    monkeypatch.setattr(about, "QDesktopServices", opened)
    return opened


def test_about_names_the_log_and_opens_its_folder(qtbot, tmp_path: Path, desktop: Opened):
    log = tmp_path / "logs" / "brikdesk.log"
    box = AboutDialog(None, "sqlite:///x.sqlite3", log=log)
    qtbot.addWidget(box)
    assert str(log) in box.log_label.text() and "crash.log" in box.log_label.text()
    assert box.log_button.isEnabled() and box.log_button.accessibleName()
    box.log_button.click()
    assert [url.toLocalFile() for url in desktop.urls] == [str(tmp_path / "logs")]


def test_without_a_file_manager_the_folder_is_said(qtbot, tmp_path: Path, desktop: Opened):
    desktop.works = False
    log = tmp_path / "brikdesk.log"
    box = AboutDialog(None, "sqlite:///x.sqlite3", log=log)
    qtbot.addWidget(box)
    box.log_button.click()
    assert f"the folder is {tmp_path}." in box.log_label.text()


def test_with_no_log_file_the_button_is_off(qtbot, monkeypatch, desktop: Opened):
    monkeypatch.setattr(about, "log_path", lambda: None)  # the log folder could not be written
    box = AboutDialog(None, "sqlite:///x.sqlite3")
    qtbot.addWidget(box)
    assert "No log file is written" in box.log_label.text()
    assert not box.log_button.isEnabled()
    box.log_button.click()
    assert desktop.urls == []
