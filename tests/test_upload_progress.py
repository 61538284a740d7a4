"""The upload's one bar (issue 27, item 4): sending, reading (the part of the files' bytes the
readers have got through, with their rows), checking and the preview on one percentage that
never goes back, the time left told only once it can be, and the poll that shows it."""

from __future__ import annotations

import re
import sys
import threading
import time
from pathlib import Path

from app import pipeline
from app.pages.upload import UploadProgress, upload_progress
from app.plan import Plan
from app.progress import IMPORT, UPLOAD, UPLOAD_SHARE, seconds_left
from app.read_progress import ReadProgress, ReadState
from tests.support.companygen import make_company
from tests.support.web import HX, new_migration, signed_in, soup, upload


def _files(tmp_path: Path, sizes: tuple[int, ...]) -> list[Path]:
    paths = []
    for i, size in enumerate(sizes):
        path = tmp_path / f"f{i}.csv"
        path.write_bytes(b"x" * size)
        paths.append(path)
    return paths


def test_the_bar_only_rises_from_sending_to_the_end(tmp_path: Path):
    """Every state an upload goes through, in order: the percentages never go back, each
    phase starts where the one before ended, and the end is 100."""
    seen = ReadProgress()
    states = [upload_progress(None, None, sent, 1000, 0.5) for sent in (0, 250, 1000)]
    states.append(upload_progress("reading", seen, 1000, 1000, 1))  # arrived, not yet reading
    seen.start(_files(tmp_path, (100, 300)))
    for i, size in enumerate((100, 300)):
        seen.file(i)
        states.append(upload_progress("reading", seen, 0, 0, 2))
        for at in (0, size // 2, size):
            seen.follow(lambda at=at: at // 3, lambda at=at, size=size: at / size)
            states.append(upload_progress("reading", seen, 0, 0, 3))
    seen.finish()
    states += [upload_progress(s, seen, 0, 0, 4) for s in ("reading", "preview", "done")]
    bar = [s.percent for s in states]
    assert bar == sorted(bar), list(zip([s.phase for s in states], bar, strict=True))
    assert bar[0] == 0 and bar[-1] == UPLOAD_SHARE  # the first leg of one bar: the import's on
    phases = [s.phase for s in states]
    assert list(dict.fromkeys(phases)) == [*UPLOAD.shown, "done"]
    assert bar[phases.index("reading")] == bar[phases.index("reading") - 1]  # no jump
    steps = len(UPLOAD.shown) + len(IMPORT.shown)
    assert states[-2].step == (4, steps) == (4, 13)  # "Step 4 of 13: Preparing the preview"


def test_reading_is_measured_by_the_bytes_of_all_files(tmp_path: Path):
    seen = ReadProgress()
    seen.start(_files(tmp_path, (100, 300)))
    seen.file(1)
    seen.follow(lambda: 1200, lambda: 0.5)
    now = seen.now()
    assert now is not None
    assert (now.name, now.n, now.of, now.rows) == ("f1.csv", 2, 2, 1200)
    assert now.part == (100 + 150) / 400
    said = upload_progress("reading", seen, 0, 0, 1).said({"f1.csv": "journal.csv"})
    assert said == "Reading journal.csv — 1,200 rows read (file 2 of 2)"

    def closed() -> float:
        raise ValueError("I/O operation on closed file")

    seen.follow(lambda: 1300, closed)  # the reader is done with the file
    assert seen.now().part == 1.0  # type: ignore[union-attr]
    seen.finish()  # the readers let go, their last answers kept
    assert seen.now() == ReadState("f1.csv", 2, 2, 1300, 1.0)


def test_the_time_left_is_told_only_after_a_few_seconds_and_percent():
    assert UploadProgress("sending", 500, 1000, elapsed=1).seconds_left() is None  # too soon
    assert UploadProgress("sending", 1, 1000, elapsed=10).seconds_left() is None  # too little
    assert UploadProgress("done", elapsed=10).seconds_left() is None
    p = UploadProgress("reading", 0.5, 1, elapsed=8)  # 20 + 40 / 2 = 40 % of the upload
    assert p.percent == 40 * UPLOAD_SHARE // 100  # of the one bar
    assert p.seconds_left() == seconds_left(8, 40) == 8 * 60 / 40  # at the upload's own pace


def _asked_while_read(paths: list[Path]) -> list[tuple[int, int, float]]:
    """What another thread was told, every 2 ms, while ``paths`` were read: (file, rows,
    part) each time. The reader holds the interpreter's lock between its switches (5 ms by
    default, and in a long test session the asking thread got it only every 35-70 ms: a few
    questions, or none, in the file's third of a second); switched more often, it is asked
    throughout. Once in a full run on a quiet machine it still got no question in before the
    file's end (a pass of the collector, or the scheduler): the test reads again then."""
    seen = ReadProgress()
    asked: list[tuple[int, int, float]] = []
    reading = threading.Thread(target=pipeline.read, args=(paths, Plan(), (), seen))
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    try:
        reading.start()
        while reading.is_alive():
            if (now := seen.now()) is not None:
                asked.append((now.n, now.rows, now.part))
            time.sleep(0.002)
        reading.join()
    finally:
        sys.setswitchinterval(interval)
    return asked


def test_the_readers_say_how_far_they_are_without_slowing(tmp_path: Path):
    """A real CSV report read while another thread asks: the part and rows only rise, the rows
    never pass the file's lines; the reading is as fast as without being asked (generous: a
    loaded machine; a file read for about a second, so a busy machine still asks mid-file)."""
    company = make_company(60_000, seed=3)
    paths = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_journal_csv(tmp_path / "journal.csv"),
    ]
    lines = paths[1].read_bytes().count(b"\n")
    mid_file: list[tuple[int, int, float]] = []
    for _attempt in range(3):  # (whether a question falls mid-file is the scheduler's: below)
        asked = _asked_while_read(paths)
        assert asked == sorted(asked), asked[:20]
        assert all(rows <= lines for n, rows, _ in asked if n == 2)
        mid_file = [(n, rows, part) for n, rows, part in asked if n == 2 and 0 < rows < lines]
        if mid_file:
            break
    assert mid_file, asked[-5:]
    timed = {}
    for with_seen in (False, True) * 3:
        start = time.perf_counter()
        pipeline.read(paths, Plan(), (), ReadProgress() if with_seen else None)
        took = time.perf_counter() - start
        timed[with_seen] = min(timed.get(with_seen, took), took)
    assert timed[True] < timed[False] * 1.5 + 0.05, timed


def test_the_poll_shows_the_upload_being_read_on_one_rising_bar(app, client, tmp_path: Path):
    """While the upload's request reads, another request (the page's poll, with the id the
    page gave the upload) gets the bar: the file being read with its rows, a percentage that
    only rises, and at the end 100 (asked after the upload answered: never back to sending)."""
    company = make_company(20_000, seed=5)
    data = company.write_journal_csv(tmp_path / "journal.csv").read_bytes()
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    other = signed_in(app)  # the page's poll, a request of its own
    poll = f"{prefix}/files/reading?upload=up-1&sent={len(data)}&size={len(data)}&elapsed="
    before = soup(other.get(poll + "0.2"))
    assert before.select_one("#upload-phase").text.strip() == "Step 1 of 13: Sending the files"
    steps = [li.text for li in before.select("#upload-phases li")]  # the import's in one line
    assert steps == ["1 send", "2 read", "3 check", "4 preview",
                     "5–13 then, on the Import step: write the book and prove it"]  # fmt: skip
    sent = UPLOAD.shares[0][1] * UPLOAD_SHARE // 100  # all sent: the upload leg's first part
    assert before.select_one("[role=progressbar]")["aria-valuenow"] == str(sent) == "4"
    answered = []
    sending = threading.Thread(
        target=lambda: answered.append(
            upload(client, prefix, csrf | {"X-Upload-Id": "up-1"}, "journal.csv", data=data)
        )
    )
    started = time.monotonic()
    sending.start()
    said: list[tuple[int, str, str]] = []
    while sending.is_alive():
        page = soup(other.get(poll + f"{time.monotonic() - started:.2f}", headers=HX))
        bar = page.select_one("#upload-progress [role=progressbar]")
        text = page.select_one("#upload-phase").text
        said.append((int(bar["aria-valuenow"]), text, bar["aria-valuetext"]))
        time.sleep(0.01)
    sending.join()
    assert answered[0].status_code == 200
    percents = [p for p, _, _ in said]
    assert percents == sorted(percents), said
    rows = [
        int(m[1].replace(",", ""))
        for _, text, _ in said
        if (m := re.search(r"Reading journal\.csv — ([\d,]+) rows? read \(file 2 of 2\)", text))
    ]
    assert rows and rows == sorted(rows), said
    assert rows[-1] <= data.count(b"\n")
    assert all(valuetext.startswith(f"{p} %") for p, _, valuetext in said)
    after = soup(other.get(poll + "9"))
    assert after.select_one("[role=progressbar]")["aria-valuenow"] == str(UPLOAD_SHARE)
    assert "Showing the files" in after.select_one("#upload-phase").text


def test_the_poll_takes_no_time_that_is_not_a_number(client):
    """``elapsed`` as nan, inf or a figure past a float's range, sent by hand, was a 500 and a
    traceback (hunt 24): taken as no time at all."""
    prefix, _csrf = new_migration(client)
    for elapsed in ("nan", "inf", "-inf", "Infinity", "1e400", "-nan", "-5"):
        r = client.get(f"{prefix}/files/reading?upload=abc&sent=5&size=10&elapsed={elapsed}")
        assert r.status_code == 200, elapsed
        assert soup(r).select_one("#upload-phase").text.strip().startswith("Step 1 of 13")
