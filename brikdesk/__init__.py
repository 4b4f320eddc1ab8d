"""BrikDesk: a desktop campaign manager for the BrikWars tabletop wargame.

The ``brikdesk`` package is the domain, persistence and service layers; it never imports Qt.
The widgets live in the sibling ``ui`` package.
"""

__version__ = "0.1.0"
