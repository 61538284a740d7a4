"""String slots (KVP) on engine instances: the key stamped on each transaction written and the
run record on the book (docs/UPDATE.md, "Where the keys live in the book").

``qof_instance_set_kvp`` / ``qof_instance_get_kvp`` (qofinstance.h: an instance, a GValue, the
path's length and its parts, variadic) are public C API that the bindings do not wrap; probed
on 4.13: a string slot set this way is saved and read back by the XML and the SQLite backends
(``<trn:slots>``, the ``slots`` table). A slot set outside an edit is saved by a save that
writes the whole book (every save this project makes: a new store, or the update's copy);
the instance is not marked dirty. The PostgreSQL backend keeps at most 4,096 characters in a
string slot, so ``put_long`` cuts a long text into numbered slots.

Like ``app.gnc.engine``, this module never imports ``gnucash``.
"""

from __future__ import annotations

import ctypes
import functools

from app.gnc.engine import Engine

_G_TYPE_STRING = 16 << 2  # G_TYPE_MAKE_FUNDAMENTAL (16): fixed by GObject's ABI
PART = 4000  # characters per slot of a long text (PostgreSQL keeps 4,096)


class _GValue(ctypes.Structure):
    _fields_ = (("g_type", ctypes.c_size_t), ("data0", ctypes.c_uint64), ("data1", ctypes.c_uint64))


class Slots:
    """Typed handles; ``missing`` names what the engine lacks (then nothing is stamped)."""

    def __init__(self, engine: Engine) -> None:
        g, lib = engine.gobject, engine.lib
        self.missing = tuple(
            n
            for n, owner in (
                ("qof_instance_set_kvp", lib),
                ("qof_instance_get_kvp", lib),
                ("g_value_init", g),
                ("g_value_set_string", g),
                ("g_value_get_string", g),
                ("g_value_unset", g),
            )
            if not hasattr(owner, n)
        )
        if self.missing:
            return
        g.g_value_init.restype = ctypes.c_void_p
        g.g_value_init.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        g.g_value_set_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        g.g_value_get_string.restype = ctypes.c_char_p
        g.g_value_get_string.argtypes = [ctypes.c_void_p]
        g.g_value_unset.argtypes = [ctypes.c_void_p]
        self.g = g
        self._set = lib.qof_instance_set_kvp  # variadic: left untyped, arguments typed here
        self._get = lib.qof_instance_get_kvp

    @property
    def works(self) -> bool:
        return not self.missing

    def put(self, instance: int, name: str, text: str) -> None:
        """The string slot ``name`` of ``instance`` (a pointer) set to ``text``."""
        v = _GValue()
        ref = ctypes.byref(v)
        self.g.g_value_init(ref, _G_TYPE_STRING)
        self.g.g_value_set_string(ref, text.encode())
        try:
            self._set(
                ctypes.c_void_p(instance), ref, ctypes.c_uint(1), ctypes.c_char_p(name.encode())
            )
        finally:
            self.g.g_value_unset(ref)

    def get(self, instance: int, name: str) -> str | None:
        """The string slot ``name`` of ``instance``, or None when it has none (or another
        kind of value)."""
        v = _GValue()
        ref = ctypes.byref(v)
        self._get(ctypes.c_void_p(instance), ref, ctypes.c_uint(1), ctypes.c_char_p(name.encode()))
        if v.g_type != _G_TYPE_STRING:
            if v.g_type:
                self.g.g_value_unset(ref)
            return None
        try:
            got = self.g.g_value_get_string(ref)
            return got.decode() if got is not None else None
        finally:
            self.g.g_value_unset(ref)

    def put_long(self, instance: int, name: str, text: str) -> None:
        """A text of any length: ``name`` holds the number of parts, ``name-1``... the parts."""
        parts = [text[i : i + PART] for i in range(0, len(text), PART)] or [""]
        self.put(instance, name, str(len(parts)))
        for n, part in enumerate(parts, 1):
            self.put(instance, f"{name}-{n}", part)

    def get_long(self, instance: int, name: str) -> str | None:
        count = self.get(instance, name)
        if count is None or not count.isdigit():
            return None
        parts = [self.get(instance, f"{name}-{n}") for n in range(1, int(count) + 1)]
        return None if any(p is None for p in parts) else "".join(p or "" for p in parts)


@functools.cache
def slots(engine: Engine) -> Slots:
    """The process's one ``Slots`` (per engine)."""
    return Slots(engine)
