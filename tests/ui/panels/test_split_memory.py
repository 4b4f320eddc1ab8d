"""The split between the battle panel's unit table and its log, built alone (no panel): each
style keeps its own split, in the settings."""

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QLabel, QSplitter

from ui.panels.split_memory import SplitMemory
from ui.panels.theme import TABLE, normal_theme


def splitter(qtbot) -> QSplitter:
    s = QSplitter(Qt.Orientation.Horizontal)
    s.addWidget(QLabel("units"))
    s.addWidget(QLabel("log"))
    qtbot.addWidget(s)
    s.resize(1000, 300)
    s.show()
    qtbot.waitExposed(s)
    return s


def test_a_style_never_saved_gives_the_log_its_default_share(qtbot, qsettings: QSettings):
    s = splitter(qtbot)
    memory = SplitMemory(s, qsettings)
    memory.restore(normal_theme())
    table, log = s.sizes()
    assert abs(log / (table + log) - 0.3) < 0.02
    memory.restore(TABLE)  # table mode gives the table more room
    table, log = s.sizes()
    assert abs(log / (table + log) - 0.22) < 0.02


def test_each_style_brings_back_its_own_split_from_the_settings(qtbot, qsettings: QSettings):
    s = splitter(qtbot)
    memory = SplitMemory(s, qsettings)
    s.setSizes([500, 500])
    memory.save(normal_theme())
    qsettings.sync()
    memory.restore(TABLE)
    assert s.sizes()[1] < 300  # table mode was never saved: its default share
    again = SplitMemory(s, QSettings(qsettings.fileName(), QSettings.Format.IniFormat))
    again.restore(normal_theme())
    assert s.sizes()[0] == s.sizes()[1]
