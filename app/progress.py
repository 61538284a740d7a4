"""One progress bar over several phases, as the import (``app.jobs``) and the upload
(``app.pages.upload``) show it: each phase has its share of the bar, so the bar never goes back
to 0 at a new phase; the step's number, and the time left at the pace so far once it can be
told. The upload and the import are two legs of one bar from upload to proof (``Leg``): the
upload fills its first part, the import goes on from there, and the steps are numbered across
both ("Step 7 of 13"). Plain arithmetic, no Flask."""

from __future__ import annotations

from dataclasses import dataclass

# The time left is said only after this many seconds and this much of the whole (percent):
# before, one slow start or one quick file would promise nonsense.
SURE_AFTER_SECONDS = 3
SURE_AFTER_PERCENT = 3


@dataclass(frozen=True, slots=True)
class Phases:
    """The phases in their order, each with its share of the whole (the shares add up to 100;
    a phase with no share is passed through but not numbered)."""

    shares: tuple[tuple[str, int], ...]

    @property
    def shown(self) -> tuple[str, ...]:
        """The phases the bar names ("step 2 of 4"): those with a share."""
        return tuple(p for p, share in self.shares if share)

    def overall(self, phase: str, done: float, total: float) -> float:
        """How far the whole is, 0-100: the shares of the phases before ``phase`` and the part
        of its own share that ``done`` of ``total`` says (100 once "done"; 0 for a phase not
        known)."""
        if phase == "done":
            return 100.0
        before = 0
        for name, share in self.shares:
            if name == phase:
                part = min(1.0, max(0.0, done / total)) if total > 0 else 0.0
                return min(100.0, before + share * part)
            before += share
        return 0.0

    def step(self, phase: str) -> tuple[int, int]:
        """(this phase's number, how many there are): "step 2 of 4"; (0, n) before any."""
        shown = self.shown
        return (shown.index(phase) + 1 if phase in shown else 0), len(shown)


def seconds_left(elapsed: float, percent: float) -> float | None:
    """The time left at the pace so far (``percent`` of the whole done in ``elapsed``
    seconds); None until there is enough to tell, and at the end."""
    if elapsed < SURE_AFTER_SECONDS or percent < SURE_AFTER_PERCENT or percent >= 100:
        return None
    return elapsed * (100 - percent) / percent


@dataclass(frozen=True, slots=True)
class Leg:
    """One leg of a migration's one bar (issue 27, hunt 23 M8: the Files step's bar and the
    Import step's were two, the second back at 0): its phases, the part of the whole before it
    (``start``, percent) and its own ``share``; its steps numbered after the ``before`` steps
    of the legs before it, of ``steps`` in all. The time left is this leg's: the wait between
    the legs is the user's own, on the Preview and Map steps."""

    phases: Phases
    start: int
    share: int
    before: int
    steps: int

    def overall(self, phase: str, done: float, total: float) -> float:
        """How far the whole bar is, 0-100."""
        return self.start + self.share * self.phases.overall(phase, done, total) / 100

    def step(self, phase: str) -> tuple[int, int]:
        """(this phase's number in the whole, how many there are); (0, n) before any."""
        n, _ = self.phases.step(phase)
        return (self.before + n if n else 0), self.steps

    def seconds_left(self, elapsed: float, phase: str, done: float, total: float) -> float | None:
        return seconds_left(elapsed, self.phases.overall(phase, done, total))


# Each phase's share of its leg. The upload's measured at 100,000 transactions (a 25 MB Journal,
# the server's part: reading 1.9 s, checking 1.8 s, the preview's models 1.7 s) with a share for
# sending, which takes no time on this machine and the most over a slow network. The import's
# in the order the worker goes through them (estimates, not yet measured with make bench: the
# history's write and the book's reload are known to take the most).
UPLOAD = Phases((("sending", 20), ("reading", 40), ("checking", 20), ("preview", 20)))
IMPORT = Phases(
    (
        ("starting", 0),
        ("reading files", 15),
        ("checking", 10),
        ("accounts", 2),
        ("transactions", 35),
        ("documents", 10),
        ("saving", 8),
        ("loading", 12),
        ("reading", 5),
        ("verifying", 3),
    )
)
_STEPS = len(UPLOAD.shown) + len(IMPORT.shown)
UPLOAD_SHARE = 20  # of the one bar: the upload's leg (the import writes and proves the book)
UPLOAD_LEG = Leg(UPLOAD, 0, UPLOAD_SHARE, 0, _STEPS)
IMPORT_LEG = Leg(IMPORT, UPLOAD_SHARE, 100 - UPLOAD_SHARE, len(UPLOAD.shown), _STEPS)
