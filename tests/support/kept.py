"""The wizard's kept copy of an upload (``app.readers.redact``), checked as the privacy tests
need it: no number of ``secret``'s shapes left in it, and read as the original is read."""

from __future__ import annotations

import re
from pathlib import Path

from app.ledger_text import to_text
from app.plan import Plan
from app.readers import read
from app.readers.redact import redact


def kept_reads_the_same(tmp_path: Path, original: Path, secret: re.Pattern[str]) -> Path:
    """A kept copy of ``original`` (in ``tmp_path``/kept), checked: nothing ``secret`` finds,
    and (unless no copy may be kept) the same ledger as the original's."""
    (tmp_path / "kept").mkdir(exist_ok=True)
    kept = tmp_path / "kept" / original.name
    kept.write_bytes(original.read_bytes())
    done = redact(kept)
    assert not secret.search(kept.read_text(encoding="utf-8"))
    if not done.withheld:
        assert to_text(read([kept], Plan())) == to_text(read([original], Plan()))
    return kept
