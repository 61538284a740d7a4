"""The upload's one bar in a real Chromium against ``python run.py`` (issue 27, item 4): a
history of 100,000 transactions (the size at which reading takes seconds) chosen at 800 px
wide; the bar is recorded at every change the page makes to it: its phases in order, the file
being read with its rows, one percentage that never goes back; then the files' cards. A
screenshot of the reading in the test's tmp folder (looked at when the test was written)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.browser import choose_files

pytestmark = pytest.mark.browser

NARROW = {"width": 800, "height": 900}
RECORD = """() => {
  window.bars = [];
  const note = () => {
    const panel = document.getElementById('upload-progress');
    const bar = panel && panel.querySelector('[role=progressbar]');
    if (!bar || panel.hidden) { return; }
    const phase = document.getElementById('upload-phase').textContent.trim();
    const said = [+bar.getAttribute('aria-valuenow'), phase, bar.getAttribute('aria-valuetext')];
    const last = window.bars[window.bars.length - 1];
    if (!last || last.join('|') !== said.join('|')) { window.bars.push(said); }
  };
  new MutationObserver(note).observe(document.getElementById('upload-form'),
    { childList: true, subtree: true, attributes: true });
}"""
READING = re.compile(r"Step 2 of 13: Reading journal\.csv — ([\d,]+) rows read \(file [12] of 2\)")


def test_the_upload_has_one_bar_through_sending_and_reading(
    server: str, browser_page, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    from tests.support.companygen import make_company

    company = make_company(100_000, seed=8)
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_journal_csv(tmp_path / "journal.csv"),
    ]
    lines = files[1].read_bytes().count(b"\n")
    page = browser_page
    page.set_viewport_size(NARROW)
    page.goto(server)
    page.click("#new-migration")
    page.wait_for_load_state()
    expect(page.locator("#upload-progress")).to_be_hidden()  # nothing sent yet
    page.evaluate(RECORD)
    choose_files(page, files)
    reading = page.locator("#upload-phase", has_text="rows read")
    reading.wait_for(timeout=120_000)
    shot = tmp_path / "upload-reading.png"
    page.screenshot(path=str(shot))
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"{width} px wide"
    expect(page.locator("#files article.file")).to_have_count(2, timeout=300_000)
    expect(page.locator("#upload-progress")).to_be_hidden()  # put away with the cards shown
    bars = page.evaluate("window.bars")
    percents = [p for p, _, _ in bars]
    assert percents == sorted(percents), bars
    assert all(valuetext.startswith(f"{p} %") for p, _, valuetext in bars), bars
    rows = [int(m[1].replace(",", "")) for _, said, _ in bars if (m := READING.search(said))]
    assert rows, bars
    assert rows == sorted(rows) and rows[-1] <= lines, bars
    steps = [int(s) for _, said, _ in bars for s in re.findall(r"^Step (\d) of 13", said)]
    assert steps == sorted(steps) and 2 in steps, bars
    print(f"bars {bars}; screenshot in {shot}")
