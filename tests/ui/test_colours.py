"""The theme (System, Light, Dark) and the colours it gives: every colour on screen comes from
the palette or from ``ui.colours``; every text reads at 4.5:1 in both themes; the players'
preset colours stay apart for colour-blind eyes; a change of theme shows at once."""

from __future__ import annotations

import io
import itertools
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLabel

from brikdesk.domain.colours import AA, contrast_ratio, readable_text_on, rgb
from brikdesk.services.campaigns import PLAYER_COLOURS
from tests.ui.battle_tables import make_panel
from ui import appearance, colours
from ui.appearance import ThemeMode, apply_theme
from ui.panels.theme import NORMAL, NORMAL_DARK, TABLE
from ui.widgets.combat_style import set_colour
from ui.widgets.common import MessageBanner

UI = Path(__file__).resolve().parents[2] / "ui"
#: The only modules that write colour values: the screen's and the printed page's.
COLOUR_MODULES = {UI / "colours.py", UI / "printing" / "ink.py"}
HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3}(?:[0-9a-fA-F]{2})?)?\b")
NAMED = re.compile(
    r"(?:color|background)\s*:\s*(?:white|black|red|green|blue|gr[ae]y|yellow|orange)\b|"
    r"GlobalColor\.(?:white|black|red|green|blue|gray|darkGray|lightGray|yellow)\b"
)


@pytest.fixture
def light_after() -> Iterator[None]:
    """Whatever the test switches to, the next test starts in the light theme."""
    yield
    apply_theme(ThemeMode.LIGHT)


def colour_literals(path: Path) -> list[str]:
    """The colour values written in ``path``'s strings, and Qt's named colours in its code."""
    found: list[str] = []
    source = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            found += [f"{path.name}:{tok.start[0]}: {m}" for m in HEX.findall(tok.string)]
            found += [f"{path.name}:{tok.start[0]}: {m}" for m in NAMED.findall(tok.string)]
        elif tok.type == tokenize.NAME or tok.type == tokenize.OP:
            continue
    found += [f"{path.name}: {m}" for m in re.findall(r"GlobalColor\.(?:white|black)\b", source)]
    return found


def test_no_colour_is_written_outside_the_two_colour_modules() -> None:
    offenders = [
        hit
        for path in sorted(UI.rglob("*.py"))
        if path not in COLOUR_MODULES
        for hit in colour_literals(path)
    ]
    assert offenders == []
    # the check finds what it looks for
    assert colour_literals(UI / "colours.py")


def palette_colour(role: str) -> str:
    return QApplication.palette().color(getattr(QPalette.ColorRole, role)).name()


def every_pair() -> list[tuple[str, str, str]]:
    """(name, text, background) in the theme in use: the named pairs, the palette's own text
    on its backgrounds, and the text chosen for each preset player colour."""
    pairs = []
    for name, text, background in colours.TEXT_PAIRS:
        bg = palette_colour(background) if isinstance(background, str) else background.hex()
        pairs.append((name, text.hex(), bg))
    for text, background in (
        ("WindowText", "Window"),
        ("Text", "Base"),
        ("Text", "AlternateBase"),
        ("ButtonText", "Button"),
        ("HighlightedText", "Highlight"),
        ("ToolTipText", "ToolTipBase"),
        ("PlaceholderText", "Base"),
        ("Link", "Base"),
    ):
        pairs.append((f"palette {text}", palette_colour(text), palette_colour(background)))
    for colour in PLAYER_COLOURS:
        pairs.append((f"player {colour}", readable_text_on(colour), colour))
    return pairs


def test_every_text_reads_at_aa_in_both_themes(qapp, light_after, capsys) -> None:
    lowest: list[tuple[float, str, str]] = []
    for mode in (ThemeMode.LIGHT, ThemeMode.DARK):
        apply_theme(mode)
        assert colours.is_dark() == (mode is ThemeMode.DARK)
        for name, text, background in every_pair():
            ratio = contrast_ratio(text, background)
            assert ratio >= AA, (mode.value, name, text, background, round(ratio, 2))
            lowest.append((ratio, mode.value, name))
    # The battle panel's own styles: normal (light and dark) and table mode.
    for theme in (NORMAL, NORMAL_DARK, TABLE):
        pairs = [
            (theme.text, theme.window),
            (theme.muted, theme.window),
            (theme.text, theme.active_row),
            (theme.text, theme.alt_row),
            (theme.ready, theme.window),
            (theme.held, theme.window),
            (theme.responded, theme.window),
            (theme.spent, theme.window),
            (theme.selection_text, theme.selection),
            (theme.banner_info[1], theme.banner_info[0]),
            (theme.banner_error[1], theme.banner_error[0]),
            *((theme.chip_text, chip) for chip in theme.chips.values()),
            (theme.chip_text, theme.muted),  # a chip of a state without its own colour
        ]
        for text, background in pairs:
            ratio = contrast_ratio(text, background)
            assert ratio >= AA, (theme.name, text, background, round(ratio, 2))
            lowest.append((ratio, f"panel {theme.name}", f"{text} on {background}"))
    ratio, where, name = min(lowest)
    with capsys.disabled():
        print(f"\nlowest contrast: {ratio:.2f}:1 ({where}: {name}) of {len(lowest)} pairs")


# -- colour vision: the preset player colours stay apart ----------------------------------------

#: Machado, Oliveira and Fernandes (2009), full severity, on linear RGB.
SIMULATIONS = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}
#: CIE76 distance under which two colours are hard to tell apart at a glance.
MIN_DISTANCE = 10.0


def _linear(v: int) -> float:
    x = v / 255
    return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4


def seen_as_lab(colour: str, matrix: tuple[tuple[float, ...], ...]) -> tuple[float, ...]:
    """CIE L*a*b* of ``colour`` as seen through the simulation ``matrix``."""
    lin = [_linear(v) for v in rgb(colour)]
    r, g, b = (
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, lin, strict=True)))) for row in matrix
    )
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5


def test_the_simulation_confuses_red_and_green_as_colour_blind_eyes_do() -> None:
    red, green = "#d62728", "#2ca02c"  # apart for normal vision, close for deuteranopes
    normal = distance(*(seen_as_lab(c, SIMULATIONS["normal"]) for c in (red, green)))
    deutan = distance(*(seen_as_lab(c, SIMULATIONS["deuteranopia"]) for c in (red, green)))
    assert normal > 60 and deutan < normal / 3


@pytest.mark.parametrize("vision", list(SIMULATIONS))
def test_preset_player_colours_stay_apart(vision: str, capsys) -> None:
    seen = {c: seen_as_lab(c, SIMULATIONS[vision]) for c in PLAYER_COLOURS}
    closest = min(
        (distance(seen[a], seen[b]), a, b) for a, b in itertools.combinations(PLAYER_COLOURS, 2)
    )
    assert closest[0] >= MIN_DISTANCE, (vision, closest)
    with capsys.disabled():
        print(f"\n{vision}: closest preset colours {closest[1]} {closest[2]}: {closest[0]:.1f}")


# -- the theme changes live -----------------------------------------------------------------------


def test_dark_theme_changes_open_widgets_at_once(qtbot, sv, table, qsettings, light_after) -> None:
    apply_theme(ThemeMode.LIGHT)
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    note = QLabel("A problem")
    qtbot.addWidget(note)
    set_colour(note, colours.ERROR)
    banner = MessageBanner()
    qtbot.addWidget(banner)
    banner.show_error("no such unit")
    assert panel.theme is NORMAL
    assert note.palette().color(QPalette.ColorRole.WindowText).name() == colours.ERROR.light

    apply_theme(ThemeMode.DARK)
    assert palette_colour("Window") == colours.DARK_PALETTE["Window"]
    assert QApplication.style().name().lower() == "fusion"
    assert panel.theme is NORMAL_DARK
    assert panel.table.palette().color(QPalette.ColorRole.Base).name() == NORMAL_DARK.window
    assert note.palette().color(QPalette.ColorRole.WindowText).name() == colours.ERROR.dark
    assert colours.PROBLEM_BG.dark in banner.styleSheet()

    apply_theme(ThemeMode.LIGHT)
    assert panel.theme is NORMAL
    assert note.palette().color(QPalette.ColorRole.WindowText).name() == colours.ERROR.light
    assert colours.PROBLEM_BG.light in banner.styleSheet()


def test_system_follows_the_platforms_colour_scheme(qapp, monkeypatch, light_after) -> None:
    scheme = {"dark": False}
    monkeypatch.setattr(appearance, "system_is_dark", lambda: scheme["dark"])
    apply_theme(ThemeMode.SYSTEM)
    assert not colours.is_dark()
    scheme["dark"] = True
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert colours.is_dark()
    assert palette_colour("Base") == colours.DARK_PALETTE["Base"]
    # Light chosen: the platform's scheme no longer matters.
    apply_theme(ThemeMode.LIGHT)
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert not colours.is_dark()


def test_settings_offer_the_theme_and_apply_it_on_save(
    qtbot, settings, monkeypatch, light_after
) -> None:
    from PySide6.QtWidgets import QDialog

    from ui.dialogs.settings import SettingsDialog, load_preferences

    dialog = SettingsDialog(None, settings)
    qtbot.addWidget(dialog)
    assert dialog.theme.currentData() == ThemeMode.SYSTEM.value  # the default
    assert [dialog.theme.itemData(i) for i in range(dialog.theme.count())] == [
        "system",
        "light",
        "dark",
    ]

    def choose_dark(self: SettingsDialog) -> int:
        self.theme.setCurrentIndex(self.theme.findData("dark"))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(SettingsDialog, "exec", choose_dark)
    prefs = SettingsDialog.ask(None, settings)
    assert prefs is not None and prefs.theme is ThemeMode.DARK
    assert colours.is_dark()  # at once, without a restart
    assert load_preferences(settings).theme is ThemeMode.DARK


def test_a_field_once_styled_takes_the_dark_palette(qtbot, light_after) -> None:
    from PySide6.QtWidgets import QLineEdit

    apply_theme(ThemeMode.LIGHT)
    field = QLineEdit("Hand Weapon")
    qtbot.addWidget(field)
    field.setStyleSheet("QLineEdit { background: yellow; }")  # a house rule, since put back
    field.setStyleSheet("")
    field.show()
    qtbot.waitExposed(field)
    apply_theme(ThemeMode.DARK)
    image = field.grab().toImage()
    inside = image.pixelColor(field.width() - 6, field.height() // 2).name()
    assert inside == colours.DARK_PALETTE["Base"]
