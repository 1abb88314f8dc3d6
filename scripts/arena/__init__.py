"""tetrad arena: engine-vs-engine matches refereed by a separate tetrad process.

Entry point: ``scripts/arena.py`` (see ``cli.main``). Standard library only.
"""

__version__ = "1.0"
