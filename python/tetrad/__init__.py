"""tetrad: Poddavki, Phutball, Diamond and Pods from Python.

The rules, the engine's search and batched play come from the compiled extension
(``tetrad._native``, the engine library itself); ``tetrad.engine`` is a pure-Python client for
any engine that speaks GTP or UGI. Importing ``tetrad`` or ``tetrad.engine`` does not load the
extension: it is loaded on first use of one of its names, so scripts that put this folder on
``sys.path`` without installing it can still use the engine client.
"""

__all__ = ["games", "Game", "State", "SearchResult", "Line", "VecEnv", "IllegalMove"]

_NATIVE_NAMES = frozenset(__all__)


def __getattr__(name):
    # PEP 562: the extension is imported only when one of its names is asked for.
    if name in _NATIVE_NAMES:
        from . import _native

        value = getattr(_native, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tetrad' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _NATIVE_NAMES)
