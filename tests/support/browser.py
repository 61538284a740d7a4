"""What the browser tests share besides their fixtures (those are in tests/conftest.py):
Debian's chromium and its flags, a free port, and a recorder of the page's dialogs."""

from __future__ import annotations

import contextlib
import socket
from dataclasses import dataclass, field

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Dialogs:
    """The confirm() dialogs a page opened, answered Cancel until ``accept`` is set."""

    asked: list[str] = field(default_factory=list)
    accept: bool = False

    def __call__(self, dialog) -> None:
        self.asked.append(dialog.message)
        dialog.accept() if self.accept else dialog.dismiss()


def answer_dialogs(page) -> Dialogs:
    """Record and answer every dialog ``page`` opens from now on."""
    dialogs = Dialogs()
    page.on("dialog", dialogs)
    return dialogs


def choose_files(page, files) -> None:
    """Choose ``files`` (paths) in the Files step's upload field, once the page has loaded: the
    field uploads on its change event, which htmx listens to only from the page's load on (a
    choice made before is lost, and no card ever comes)."""
    page.wait_for_load_state()
    paths = [str(files)] if not isinstance(files, list | tuple) else [str(f) for f in files]
    page.set_input_files("#file-input", paths)


def new_migration_with(page, server: str, files: list[str]) -> None:
    """A new migration from the home page with ``files`` chosen, on to the Preview step."""
    from playwright.sync_api import expect

    page.goto(server)
    page.click("#new-migration")
    choose_files(page, files)
    expect(page.locator("#files article.file")).to_have_count(len(files))
    page.click("#to-preview")


def import_book(page, book, summary: str = "match QuickBooks to the cent") -> None:
    """From the Map step: Import, start it, wait for the book (a slow machine included), the
    Download step saying ``summary``; the book downloaded and saved as ``book`` (a path)."""
    from playwright.sync_api import expect

    page.click("#to-import")
    page.click("#start-import")
    page.locator("#to-download").wait_for(timeout=180_000)
    page.click("#to-download")
    expect(page.locator("#summary-line")).to_contain_text(summary)
    with page.expect_download() as info:
        page.click("#download-book")
    info.value.save_as(book)


@contextlib.contextmanager
def screenshot_on_failure(page, tmp_path):
    try:
        yield
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
        print(f"screenshot in {tmp_path / 'failure.png'}")
        raise


# What the 800 px checks measure of a page: its sideways scroll, elements wider than the window
# outside a .scroll box, dates wrapped, step numbers off the centre of their circles.
LAYOUT = """() => {
  const doc = document.documentElement;
  const off = (a, b) => Math.abs((a.left + a.right) / 2 - (b.left + b.right) / 2) +
                        Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2);
  const text = (e) => { const r = document.createRange(); r.selectNodeContents(e); return r; };
  return {
    sideways: doc.scrollWidth - doc.clientWidth,
    wide: [...document.querySelectorAll("main *")]
      .filter(e => e.getBoundingClientRect().right > doc.clientWidth + 1
                   && !e.closest(".scroll"))
      .slice(0, 5).map(e => e.tagName + "#" + e.id + "." + e.className),
    wrapped: [...document.querySelectorAll(".date")]
      .filter(e => e.textContent.trim() && text(e).getClientRects().length > 1)
      .map(e => e.textContent.trim()),
    dates: document.querySelectorAll(".date").length,
    offCentre: [...document.querySelectorAll(".steps .num")]
      .map(e => off(e.getBoundingClientRect(), text(e).getBoundingClientRect()))
      .filter(d => d > 1.5),
  };
}"""


def sample_map(page, server: str, timeout: int, viewport: dict | None = None) -> list[str]:
    """From the home page with the sample company to the Map step (every state waited for up
    to ``timeout`` ms; at ``viewport``'s size if given); the list the page's script errors
    are put in from now on (a test ends with it empty)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if viewport:
        page.set_viewport_size(viewport)
    page.set_default_timeout(timeout)
    page.goto(server)
    page.click("#use-sample")
    page.click("#to-preview")
    page.click("#to-map")
    return errors


def htmx_idle(page) -> None:
    """Wait until no htmx request is in flight (a region still loading may swap away the
    element a test is about to focus)."""
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


def settled_after(page, act) -> None:
    """``act()`` (a click, a key), then wait, at most 30 s, until the htmx swap it starts has
    settled and htmx has wired what it swapped in. (An unbounded ``evaluate`` of a promise hung
    the suite for good in one run, when the key went nowhere.)"""
    htmx_idle(page)
    page.evaluate(  # a function returning nothing: evaluate would await a returned promise
        "() => { window.settledNow = false; document.addEventListener('htmx:afterSettle', "
        "() => setTimeout(() => { window.settledNow = true; }, 50), {once: true}); }"
    )
    act()
    page.wait_for_function("() => window.settledNow === true", timeout=30_000)
