"""What a person sees of the Preview's problems and chart at 800 px, in a real Chromium against
``python run.py``: the bookkeeper's walk with real files and a letter uploaded by mistake. The
must-fix problem is in the first screen, above the warnings, with its Remove link that lands on
the file's Remove button; the chart fits its box (no column cut off). Screenshots of both land
in the test's tmp folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import ENTERPRISE
from tests.support.browser import LAYOUT, choose_files, screenshot_on_failure
from tests.support.web import LETTER

pytestmark = pytest.mark.browser

FITS = """() => {
  const box = document.querySelector("#accounts .scroll");
  const heads = [...document.querySelectorAll("#account-table th")];
  return {
    overflow: box.scrollWidth - box.clientWidth,
    cut: heads.filter(h => h.getBoundingClientRect().right > box.getBoundingClientRect().right + 1)
      .map(h => h.textContent.trim()),
  };
}"""


def test_must_fix_first_and_the_chart_fits_at_800_pixels(
    server, browser_page, tmp_path: Path, samples_dir: Path
):
    from playwright.sync_api import expect

    page = browser_page
    page.set_viewport_size({"width": 800, "height": 900})
    letter = tmp_path / "letter.txt"
    letter.write_bytes(LETTER)
    real = [samples_dir / ENTERPRISE.name, samples_dir / "minimul__iif-parser__windows-1252.iif"]
    with screenshot_on_failure(page, tmp_path):
        page.goto(server)
        page.click("#new-migration")
        choose_files(page, [*real, letter])
        expect(page.locator("#files article.file")).to_have_count(3)
        page.click("#to-preview")
        expect(page.locator("#must-fix")).to_be_visible()
        page.screenshot(path=str(tmp_path / "preview.png"))  # the first screen, as seen
        first = page.locator("#problem-list > li").first
        expect(first).to_have_class("error")
        expect(first).to_contain_text("letter.txt")
        box = first.bounding_box()
        assert box and box["y"] + box["height"] <= 900, box  # within the first screen
        expect(page.locator("#problem-list > li.many .count")).to_have_text("66 of one kind")
        expect(page.locator("#problem-list li.many details li").first).to_be_hidden()
        layout = page.evaluate(LAYOUT)
        assert layout["sideways"] <= 0 and layout["wide"] == [], layout
        page.evaluate("() => document.querySelector('#accounts').scrollIntoView()")
        page.screenshot(path=str(tmp_path / "chart.png"))
        fits = page.evaluate(FITS)
        assert fits == {"overflow": 0, "cut": []}, fits
        ap = page.locator('#account-table tr[data-account="Accounts Payable"] td.num').first
        assert not ap.inner_text().startswith("-")
        first.locator("a.fix").click()  # to the Files step, at the letter's Remove button
        expect(page).to_have_url(f"{page.url.split('#')[0]}#remove-letter_txt")
        expect(page.locator("#remove-letter_txt button")).to_be_in_viewport()
        page.screenshot(path=str(tmp_path / "files.png"))
