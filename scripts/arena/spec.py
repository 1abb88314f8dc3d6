"""The ``--engine`` option: which program to run and how to talk to it."""

import re
import shlex

from .clock import TimeControl

PROTOCOLS = ("ugi", "uci", "uai", "gtp")
_SPLIT = re.compile(r",(?=\s*(?:[A-Za-z_]\w*|option\.[^=,]+)=)")



class EngineSpec:
    """What ``--engine cmd=...,name=...,proto=ugi,option.Hash=64`` describes.

    cmd may carry arguments (split like a shell does, so quote inside it as needed); ``arg=``
    appends one argument verbatim. Commas split fields only before ``word=``, so a command may
    itself contain commas otherwise (an argument like ``,x=1`` must be passed with ``arg=``).
    """

    def __init__(self):
        self.cmd = None
        self.name = None
        self.proto = "ugi"
        self.dir = None
        self.args = []
        self.options = []
        self.restart = False
        self.tc = None
        self.depth = None
        self.nodes = None
        self.movetime = None

    @property
    def argv(self):
        return shlex.split(self.cmd) + self.args

    def apply(self, text):
        for field in _SPLIT.split(text.strip()):
            field = field.strip()
            if not field:
                continue
            key, sep, value = field.partition("=")
            key = key.strip()
            if not sep:
                raise ValueError("engine field %r is not key=value" % field)
            if key.startswith("option."):
                name = key[len("option."):]
                self.options = [(n, v) for n, v in self.options if n != name] + [(name, value)]
            elif key == "cmd":
                if not value.strip():
                    raise ValueError("empty cmd=")
                self.cmd = value.strip()
            elif key == "name":
                self.name = value.strip()
            elif key == "proto":
                v = value.strip().lower()
                if v not in PROTOCOLS:
                    raise ValueError("proto=%s: expected one of %s" % (value, ", ".join(PROTOCOLS)))
                self.proto = v
            elif key == "dir":
                self.dir = value
            elif key == "arg":
                self.args.append(value)
            elif key == "restart":
                v = value.strip().lower()
                if v not in ("on", "off", "yes", "no", "true", "false", "1", "0"):
                    raise ValueError("restart=%s: expected on or off" % value)
                self.restart = v in ("on", "yes", "true", "1")
            elif key == "tc":
                self.tc = TimeControl.parse(value)
            elif key in ("depth", "nodes", "movetime"):
                try:
                    n = int(value)
                except ValueError:
                    raise ValueError("%s=%s is not a whole number" % (key, value))
                if n <= 0:
                    raise ValueError("%s=%s must be positive" % (key, value))
                setattr(self, key, n)
            else:
                raise ValueError("unknown engine field %r" % key)
        return self

    @classmethod
    def parse(cls, text, each=()):
        spec = cls()
        for e in each:
            spec.apply(e)
        spec.apply(text)
        if spec.cmd is None:
            raise ValueError("engine %r has no cmd=" % text)
        try:
            if not spec.argv:
                raise ValueError("empty command")
        except ValueError as e:
            raise ValueError("engine cmd=%r: %s" % (spec.cmd, e))
        return spec
