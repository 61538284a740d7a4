"""String slots (KVP), set and read through ``qof_instance_set_kvp`` / ``qof_instance_get_kvp``
(qofinstance.h, public C API in 4.13 and 5.x; the bindings wrap neither) with a GLib ``GValue``:
a split's class (``qb-class``: docs/CLASSES.md), each transaction's key and the book's run
record (docs/UPDATE.md, "Where the keys live in the book"). The XML and SQL backends save every
slot of an instance with it. ``Slots.missing`` names what the engine lacks: the writer then
keeps the class in the memo only and says so; an update refuses.

Never imports ``gnucash``, like ``app.gnc.engine``.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable

from app.classes import SLOT
from app.gnc.engine import Engine, bind

_P = ctypes.c_void_p
_S = ctypes.c_char_p
G_TYPE_STRING = 16 << 2  # G_TYPE_MAKE_FUNDAMENTAL (16): gtype.h
PART = 4000  # characters per slot of a long text (PostgreSQL keeps 4,096 in a string slot)
GVALUE_SIZE = 24  # GType + two 8-byte data words (gvalue.h); zeroed = uninitialised

_SIGNATURES: tuple[tuple[str, str, object, list | None], ...] = (
    ("lib", "qof_instance_set_kvp", None, None),  # variadic: the path's parts
    ("lib", "qof_instance_get_kvp", None, None),
    ("gobject", "g_value_init", _P, [_P, ctypes.c_size_t]),
    ("gobject", "g_value_set_string", None, [_P, _S]),
    ("gobject", "g_value_get_string", _S, [_P]),
    ("gobject", "g_value_unset", None, [_P]),
)


class Slots:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.lib, self.gobject = engine.lib, engine.gobject
        self.missing = bind(self, _SIGNATURES)

    def set_text(self, instance: int, key: str, text: str) -> None:
        """The string slot ``key`` of ``instance`` (a split inside its transaction's edit, a
        transaction or the book outside one before a save that writes the whole book)."""
        value = ctypes.create_string_buffer(GVALUE_SIZE)
        self.gobject.g_value_init(value, G_TYPE_STRING)
        try:
            self.gobject.g_value_set_string(value, text.encode())
            self.lib.qof_instance_set_kvp(_P(instance), value, ctypes.c_uint(1), _S(key.encode()))
        finally:
            self.gobject.g_value_unset(value)

    def text(self, instance: int, key: str) -> str:
        """The string slot ``key`` of ``instance``, "" when it has none."""
        value = ctypes.create_string_buffer(GVALUE_SIZE)
        self.lib.qof_instance_get_kvp(_P(instance), value, ctypes.c_uint(1), _S(key.encode()))
        gtype = ctypes.c_size_t.from_buffer(value).value
        if gtype == 0:
            return ""
        try:
            got = self.gobject.g_value_get_string(value) if gtype == G_TYPE_STRING else None
            return got.decode() if got else ""
        finally:
            self.gobject.g_value_unset(value)

    def put_long(self, instance: int, name: str, text: str) -> None:
        """A text of any length: ``name`` holds the number of parts, ``name-1``... the parts
        (``PART`` characters each)."""
        parts = [text[i : i + PART] for i in range(0, len(text), PART)] or [""]
        self.set_text(instance, name, str(len(parts)))
        for n, part in enumerate(parts, 1):
            self.set_text(instance, f"{name}-{n}", part)

    def get_long(self, instance: int, name: str) -> str | None:
        """What ``put_long`` set; None when there is none."""
        count = self.text(instance, name)
        if not count.isdigit():
            return None
        return "".join(self.text(instance, f"{name}-{n}") for n in range(1, int(count) + 1))

    def copier(self, split: int) -> Callable[[int], None]:
        """A function that gives another split ``split``'s class (``SLOT``), if it has one."""
        klass = self.text(split, SLOT) if not self.missing else ""
        if not klass:
            return lambda _other: None
        return lambda other: self.set_text(other, SLOT, klass)


@functools.cache
def slots(engine: Engine) -> Slots:
    """The process's one ``Slots`` (per engine)."""
    return Slots(engine)
