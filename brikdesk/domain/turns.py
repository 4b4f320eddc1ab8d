"""Turn and response rules: the name the battle tracker issue uses for ``brikdesk.domain.battle``.

Everything public of the ``battle`` package is importable from here as well; new code may import
either. See ``brikdesk.domain.battle.rules`` for the rules and the readings.
"""

from brikdesk.domain.battle import *  # noqa: F403
from brikdesk.domain.battle import __all__  # noqa: F401
