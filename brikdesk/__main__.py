"""``python -m brikdesk``: the same as the ``brikdesk`` command."""

import sys

from brikdesk.cli import main

if __name__ == "__main__":
    sys.exit(main())
