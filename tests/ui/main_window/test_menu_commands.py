"""Menu entries run their command as if chosen by the user: Qt's ``checked`` flag never reaches
a command as an argument (File > Export campaign… once received ``path=False``)."""

from __future__ import annotations

import json

from ui.widgets.dialogs import FileChooser


def test_file_export_and_import_from_the_menu_ask_for_a_file(
    open_main, demo_db, tmp_path, monkeypatch, qtbot
):
    main = open_main(demo_db)
    out = tmp_path / "demo.json"
    asked: list[str] = []

    def save_path(parent, title, *args, **kwargs):
        asked.append(title)
        return out

    def open_path(parent, title, *args, **kwargs):
        asked.append(title)
        return None  # the organizer cancels the file dialog

    monkeypatch.setattr(FileChooser, "save_path", staticmethod(save_path))
    monkeypatch.setattr(FileChooser, "open_path", staticmethod(open_path))
    main.main_actions.export_action.trigger()
    assert asked == ["Export campaign"]
    qtbot.waitUntil(out.exists, timeout=20_000)  # written on a worker
    assert json.loads(out.read_text("utf-8"))["format"] == "brikdesk-campaign"
    main.main_actions.import_action.trigger()
    assert asked == ["Export campaign", "Import campaign"]
