"""tetrad: the games of the tetrad engine from Python (``tetrad.engine``: the protocol client)."""
