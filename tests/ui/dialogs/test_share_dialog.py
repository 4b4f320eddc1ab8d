"""Battle > Share with players...: the dialog starts the players' page off the GUI thread,
shows its address with a QR code and the devices watching, stops it with Stop and when the
app quits, and a share remembered for the campaign starts again when the campaign opens.
Served on 127.0.0.1 only."""

from __future__ import annotations

import json
import os
import signal
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton

from ui.dialogs.share import LOOPBACK, ShareDialog, interface_addresses


def _state(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url + "state.json", timeout=5) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def _me(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url + "me.json", timeout=5) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return True
    return False


def _command_line(pid: int) -> str:
    """A process's command line as any user of the computer can read it (``ps``)."""
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().replace(b"\0", b" ").decode()


def _open(main, qtbot) -> ShareDialog:
    main.sharing.share_battle()
    dialog = main.sharing.dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def _start_on_loopback(dialog: ShareDialog, qtbot) -> str:
    box = dialog.findChild(QComboBox, "interfaceBox")
    box.setCurrentIndex(box.findText(LOOPBACK))
    dialog.findChild(QPushButton, "startButton").click()
    field = dialog.findChild(QLineEdit, "addressField")
    qtbot.waitUntil(lambda: field.text().startswith("http://127.0.0.1:"), timeout=10_000)
    return field.text()


def test_sharing_a_battle_shows_the_address_qr_code_and_watchers_and_stop_stops(
    open_main, demo_db, qtbot
) -> None:
    main = open_main(demo_db)
    battle = next(b for b in main.nav.battles if b.status == "in_progress")
    main.open_battle(battle.id)
    assert main.sharing.battle_action.isEnabled()
    dialog = _open(main, qtbot)
    assert "Raid on Bilge Cove" in dialog.what.text()
    assert dialog.findChild(QComboBox, "interfaceBox").currentText() == interface_addresses()[0]
    url = _start_on_loopback(dialog, qtbot)
    assert not dialog.findChild(QLabel, "qrCode").pixmap().isNull()
    assert _state(url)["battle"]["name"] == "Raid on Bilge Cove"  # type: ignore[index]
    watchers = dialog.findChild(QLabel, "watchersLabel")
    assert watchers.text() == "No device is watching yet."
    port = urlsplit(url).port
    assert port is not None
    with socket.create_connection(("127.0.0.1", port), timeout=5) as phone:
        phone.sendall(
            f"GET {urlsplit(url).path}events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        )
        qtbot.waitUntil(lambda: watchers.text() == "1 device watching.", timeout=3000)
    assert urlsplit(url).path.strip("/") not in _command_line(
        main.sharing.server.process.processId()
    )
    dialog.findChild(QPushButton, "stopButton").click()
    assert not main.sharing.running
    assert dialog.findChild(QLineEdit, "addressField").text() == ""
    qtbot.waitUntil(lambda: _refused(port), timeout=5000)


def test_quitting_the_app_stops_sharing(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    url = _start_on_loopback(_open_campaign_share(main, qtbot), qtbot)
    port = urlsplit(url).port
    main.close()
    assert port is not None and _refused(port)


def _open_campaign_share(main, qtbot) -> ShareDialog:
    main.sharing.share_campaign()
    dialog = main.sharing.dialog
    assert dialog is not None and "the campaign Demo" in dialog.what.text()
    return dialog


def test_a_remembered_share_starts_again_on_the_same_address(
    open_main, demo_db, qtbot, settings
) -> None:
    main = open_main(demo_db)
    campaign = main.campaign_id
    dialog = _open_campaign_share(main, qtbot)
    url = _start_on_loopback(dialog, qtbot)
    dialog.remember_box.setChecked(True)
    main.close()
    again = open_main(demo_db)  # the app started again: the campaign opens, and its share
    assert again.campaign_id == campaign
    qtbot.waitUntil(lambda: again.sharing.running and not again.sharing.starting, timeout=10_000)
    assert again.sharing.server.url == url  # the phones' bookmarks still work
    assert _state(url)["campaign"]["name"].startswith("Demo")  # type: ignore[index]
    again.sharing.share_campaign()
    assert again.sharing.dialog.remember_box.isChecked()
    again.sharing.dialog.remember_box.setChecked(False)
    again.close()
    third = open_main(demo_db)
    assert not third.sharing.running


def test_a_kept_port_taken_by_another_program_moves_the_page_and_says_so(
    open_main, demo_db, qtbot
) -> None:
    main = open_main(demo_db)
    dialog = _open_campaign_share(main, qtbot)
    url = _start_on_loopback(dialog, qtbot)
    main.sharing.stop()
    port = urlsplit(url).port
    assert port is not None
    qtbot.waitUntil(lambda: _refused(port), timeout=5000)
    with socket.socket() as busy:  # another program took the port meanwhile
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past closing connections
        busy.bind(("127.0.0.1", port))
        busy.listen(1)
        dialog.findChild(QPushButton, "startButton").click()
        field = dialog.findChild(QLineEdit, "addressField")
        # two server processes start in turn (the first finds the port taken): on a busy
        # machine each may take seconds to import
        qtbot.waitUntil(lambda: field.text().startswith("http://127.0.0.1:"), timeout=30_000)
        moved = field.text()
    assert urlsplit(moved).port != port
    assert urlsplit(moved).path == urlsplit(url).path  # the same token
    assert f"Port {port} is taken by another program now" in dialog.status.text()
    assert "scan the new code" in dialog.status.text()
    assert not dialog.qr.pixmap().isNull()  # the new code is shown
    assert _state(moved)["campaign"]["name"].startswith("Demo")  # type: ignore[index]


def test_sharing_again_serves_the_same_address_until_new_address(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    dialog = _open_campaign_share(main, qtbot)
    url = _start_on_loopback(dialog, qtbot)
    os.kill(main.sharing.server.process.processId(), signal.SIGKILL)  # the server died
    qtbot.waitUntil(lambda: not main.sharing.running, timeout=5000)
    again = _start_on_loopback(dialog, qtbot)  # "remember" was never ticked
    assert again == url  # the phones' pages reconnect by themselves
    main.close()
    reopened = open_main(demo_db)  # and after the app started again
    second = _open_campaign_share(reopened, qtbot)
    assert _start_on_loopback(second, qtbot) == url
    second.findChild(QPushButton, "newAddressButton").click()  # the link leaked
    field = second.findChild(QLineEdit, "addressField")
    qtbot.waitUntil(
        lambda: field.text().startswith("http://127.0.0.1:") and field.text() != url,
        timeout=10_000,
    )
    fresh = field.text()
    assert urlsplit(fresh).path != urlsplit(url).path
    assert "the old one no longer works" in second.status.text()
    with pytest.raises(urllib.error.URLError):
        _state(url)  # the old address answers nothing any more
    assert _state(fresh)["campaign"]["name"].startswith("Demo")  # type: ignore[index]


def test_a_server_that_dies_is_said_in_the_dialog(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    dialog = _open_campaign_share(main, qtbot)
    url = _start_on_loopback(dialog, qtbot)
    os.kill(main.sharing.server.process.processId(), signal.SIGKILL)
    qtbot.waitUntil(
        lambda: (
            "Sharing stopped on 127.0.0.1: the server stopped unexpectedly" in dialog.status.text()
        ),
        timeout=5000,
    )
    assert not main.sharing.running
    assert dialog.findChild(QLineEdit, "addressField").text() == ""
    assert dialog.findChild(QPushButton, "startButton").isEnabled()
    port = urlsplit(url).port
    assert port is not None and _refused(port)


def test_print_the_players_links_previews_a_card_for_each_player(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    dialog = _open_campaign_share(main, qtbot)
    button = dialog.findChild(QPushButton, "printLinksButton")
    assert not button.isEnabled()  # nothing shared yet: no address to print
    url = _start_on_loopback(dialog, qtbot)
    assert button.isEnabled()
    links = dialog.players_links()
    assert sorted(link.name for link in links) == ["Ines", "Margo", "Tobias"]
    assert len({link.url for link in links} | {url}) == 4  # each card its player's own link
    for link in links:
        assert _me(link.url)["name"] == link.name
    button.click()
    qtbot.waitUntil(
        lambda: dialog.preview is not None and dialog.preview.isVisible(), timeout=10_000
    )
    assert dialog.preview.windowTitle() == "Print preview: the players' links"
    dialog.preview.close()


def test_each_player_has_an_own_link_that_stays_until_revoked(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    dialog = _open_campaign_share(main, qtbot)
    watch = _start_on_loopback(dialog, qtbot)
    chooser = dialog.findChild(QComboBox, "linkFor")
    revoke = dialog.findChild(QPushButton, "revokeButton")
    field = dialog.findChild(QLineEdit, "addressField")
    assert chooser.currentText() == "Everyone (watch only)" and not revoke.isEnabled()
    chooser.setCurrentIndex(chooser.findText("Tobias's own link"))
    tobias = field.text()
    assert tobias != watch and revoke.isEnabled()
    qtbot.waitUntil(lambda: _answers(tobias), timeout=5000)
    assert _me(tobias)["name"] == "Tobias"
    main.sharing.stop()
    assert _start_on_loopback(dialog, qtbot) == tobias  # the printed links go on working
    chooser.setCurrentIndex(0)
    assert field.text() == watch and not revoke.isEnabled()
    chooser.setCurrentIndex(chooser.findText("Tobias's own link"))
    qtbot.waitUntil(lambda: _answers(tobias), timeout=5000)
    revoke.click()
    qtbot.waitUntil(lambda: field.text() != tobias, timeout=5000)
    assert "Tobias's old link no longer works" in dialog.status.text()
    qtbot.waitUntil(lambda: not _answers(tobias), timeout=5000)
    qtbot.waitUntil(lambda: _answers(field.text()), timeout=5000)


def _answers(url: str) -> bool:
    try:
        _me(url)
    except urllib.error.HTTPError:
        return False
    return True
