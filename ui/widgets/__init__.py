"""Widgets and helpers shared by the screens (windows, dialogs, panels, the wizard).

The screens do not import one another (import-linter contracts in ``pyproject.toml``): what two
of them need lives here, and only the app shell (``ui.app``, ``ui.main_window``) composes them.
"""
