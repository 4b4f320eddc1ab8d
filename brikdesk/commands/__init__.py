"""Headless subcommands of the ``brikdesk`` command (no Qt here)."""
