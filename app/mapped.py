"""A report mapped by hand (``FileOptions.columns``) is read as the wizard reads it: from a copy
with its columns named like an SSN or a bank number blank and SSNs written out masked
(``app.readers.redact``, the rule of the copies the wizard keeps; a long number, a Trans # or an
amount, is read as it is). The command line read
the file itself, so a column named "Payee SSN" mapped as the Name went into the book there and
not in the wizard (hunt 11). Every other file is read as it is."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from app.plan import Plan
from app.readers.redact import redact


@contextmanager
def as_kept(paths: Sequence[Path], plan: Plan) -> Iterator[list[Path]]:
    """``paths``, each file mapped by hand replaced by its redacted copy while in the block (a
    file of which no copy can be kept is read as it is: its reader refuses it the same way)."""
    mapped = [Path(p) for p in paths if plan.file_options(Path(p).name).columns]
    if not mapped:
        yield [Path(p) for p in paths]
        return
    with tempfile.TemporaryDirectory(prefix="qb2gnucash-mapped-") as folder:
        given = []
        for p in map(Path, paths):
            if p not in mapped:
                given.append(p)
                continue
            (Path(folder) / p.parent.name).mkdir(exist_ok=True)
            copy = Path(folder) / p.parent.name / p.name  # (the name the plan knows it by)
            shutil.copyfile(p, copy)
            given.append(copy if not redact(copy, p.name).withheld else p)
        yield given
