"""The uploads being read, for their bar's poll (``files.reading``): each by its migration and
the id its page gave it, with its stage and its reading. The last few are kept after they end,
so a poll answered after the upload's own answer still finds it at its end (the bar never goes
back). Held in ``app.extensions["uploads"]``."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field

from app.read_progress import ReadProgress

KEPT = 32  # uploads remembered (one a page at a time: many pages, many migrations)
AN_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass
class Upload:
    """One upload's side of the server: its stage ("reading" from its arrival, then
    "preview", "done") and the reading of its migration's files, once begun."""

    stage: str = "reading"
    seen: ReadProgress | None = None
    # each stored file's name as the user gave it, taken once: a poll that read them from the
    # disk would wait behind the reading for every file it opens (Python's GIL, taken back at
    # each I/O), a second and more at 100,000 transactions
    names: Mapping[str, str] = field(default_factory=dict)


class Uploads:
    def __init__(self) -> None:
        self._by_id: OrderedDict[tuple[str, str], Upload] = OrderedDict()
        self._lock = threading.Lock()

    def begin(self, mid: str, upload_id: str) -> Upload:
        """A new upload's record (one not kept when its page gave it no usable id)."""
        upload = Upload()
        if AN_ID.fullmatch(upload_id):
            with self._lock:
                self._by_id[mid, upload_id] = upload
                while len(self._by_id) > KEPT:
                    self._by_id.popitem(last=False)
        return upload

    def get(self, mid: str, upload_id: str) -> Upload | None:
        with self._lock:
            return self._by_id.get((mid, upload_id))
