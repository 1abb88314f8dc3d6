"""tetrad arena: engine-vs-engine matches refereed by a separate tetrad process.

Entry point: ``scripts/arena.py`` (see ``cli.main``). Standard library only. The engines and the
referee are spoken to through the repository's one protocol client, ``python/tetrad/engine.py``
(pure Python), found from this file's place in the checkout.
"""

import os
import sys

__version__ = "1.0"

_PYTHON = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python")
if _PYTHON not in sys.path:
    sys.path.insert(0, _PYTHON)
