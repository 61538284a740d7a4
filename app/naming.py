"""What the book and its downloads are called: after the company (the name the user gave, else
the one a report's title row gives), else after the first file read as a QuickBooks export. One
place, so the book, the audit pack, the verification report and the home list agree."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from werkzeug.utils import secure_filename

from app.model import FileInfo

Download = Literal["book", "audit", "verification", "documents", "sales-tax", "next-steps"]
SUFFIX: dict[Download, str] = {
    "book": ".gnucash",
    "audit": "-audit.zip",
    "verification": "-verification.csv",
    "documents": "-documents.csv",
    "sales-tax": "-sales-tax.csv",
    "next-steps": "-next-steps.html",
}


def slug(text: str) -> str:
    """A company name as a clean file name: "Rivière Design & Build, LLC." → "Riviere-Design-and-
    Build-LLC" (letters and digits, one hyphen between words; never "__")."""
    ascii_ = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.split(r"[^A-Za-z0-9]+", ascii_.replace("&", " and "))
    return "-".join(w for w in words if w)[:100].strip("-")


def first_read(files: Sequence[Path], infos: Iterable[FileInfo]) -> str:
    """The name of the first of ``files`` read as a QuickBooks export (``infos``: what the
    readers made of them), "" when none was: a letter or an unknown file names nothing."""
    read = {i.filename for i in infos if i.layout != "not read"}
    return next((f.name for f in files if f.name in read), "")


def stem(company: str, first_file: str = "") -> str:
    """The name every download starts with: the company's, else the first file's, else "book"."""
    return slug(company) or slug(Path(first_file).stem) or "book"


def file_name(stem_: str, what: Download) -> str:
    """ "Green-Valley-Landscaping-Inc" → "Green-Valley-Landscaping-Inc-audit.zip" for "audit"."""
    return stem_ + SUFFIX[what]


def upload_name(filename: str) -> str:
    """The name an upload is stored under: werkzeug's safe name of the one given, its accented
    letters without their accents ("Müller.csv" → "Muller.csv"); where letters of another
    script would be dropped (werkzeug keeps ASCII alone: "Журнал.csv" became "csv", refused as
    no export, and "会计 2024.csv" "2024.csv", taken for another file: hunt 24), "upload-" and
    a digest of the name given, with its suffix. "" for a name with nothing to keep."""
    plain = unicodedata.normalize("NFKD", filename or "").encode("ascii", "ignore").decode()
    if not any(c.isalnum() and not c.isascii() for c in plain_letters(filename or "")):
        return secure_filename(plain)
    _, dot, suffix = filename.rpartition(".")
    digest = hashlib.sha256(filename.encode()).hexdigest()[:10]
    return f"upload-{digest}" + (secure_filename(f"x.{suffix}")[1:] if dot else "")


def plain_letters(text: str) -> str:
    """``text`` with the accents of its letters taken off (the letters of other scripts stay)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
