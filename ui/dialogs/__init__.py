"""Dialogs that ask a question; each exposes ``ask(parent, ...)`` (tests replace it)."""
