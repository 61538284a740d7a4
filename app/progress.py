"""One progress bar over several phases, as the import (``app.jobs``) and the upload
(``app.pages.upload``) show it: each phase has its share of the bar, so the bar never goes back
to 0 at a new phase; the step's number, and the time left at the pace so far once it can be
told. Plain arithmetic, no Flask."""

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
