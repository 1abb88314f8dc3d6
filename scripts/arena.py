#!/usr/bin/env python3
"""Engine-vs-engine matches for tetrad's games, refereed by tetrad. Standard library only.

    python3 scripts/arena.py --game diamond \\
        --engine cmd=target/release/tetrad,name=a,proto=ugi,option.Hash=64 \\
        --engine cmd=target/release/tetrad,name=b --games 100 --tc 2+0.02 \\
        --concurrency 2 --out results/

See scripts/ARENA.md and ``--help``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena.cli import main  # noqa: E402  (the path must be set first)

if __name__ == "__main__":
    sys.exit(main())
