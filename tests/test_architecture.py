"""The shape of ``app/``, read from its source: no import cycle of any kind (runtime, lazy inside a
function, or under ``TYPE_CHECKING``), GnuCash imported in one module, Flask only in the web layer,
``app.gnc``'s internals used by nobody outside it, no module over 400 lines (but the one
listed), and no citation of notes outside the repository (every ``docs/`` heading cited exists)."""

from __future__ import annotations

import ast
import re
import tokenize
from pathlib import Path

from tests.paths import ROOT

APP = ROOT / "app"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(APP.rglob("*.py"))}


def _imports(path: Path, known: set[str]) -> set[str]:
    """Every module ``path`` imports, wherever the import statement sits. ``from pkg import x``
    counts as importing ``pkg.x`` when that is a module, else ``pkg``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path, known) for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (as a path that returns to its start), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_cycle_finder_finds_cycles():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_app_has_no_import_cycle():
    graph = _graph()
    assert len(graph) > 40  # the walk found the package
    assert _cycle(graph) == []


def test_only_app_gnc_bindings_imports_gnucash():
    importers = sorted(
        name
        for name, found in _graph().items()
        if any(m == "gnucash" or m.startswith("gnucash.") for m in found)
    )
    assert importers == ["app.gnc.bindings"]


def test_nothing_outside_app_gnc_imports_its_internals():
    reaching_in = sorted(
        (name, m)
        for name, found in _graph().items()
        if not name.startswith("app.gnc")
        for m in found
        if m.startswith("app.gnc.")
    )
    assert reaching_in == []


def test_flask_is_imported_only_by_the_web_layer():
    web = ("app", "app.server")  # create_app and `run.py` serve (both import it lazily)
    importers = sorted(
        name
        for name, found in _graph().items()
        if any(m == "flask" or m.startswith("flask.") for m in found)
        and name not in web
        and not name.startswith("app.web")
    )
    assert importers == []


# The stages after reading, in the order a conversion runs (README, "Development"), and what
# serves them: a reader that imports one of these sits above it in the pipeline.
STAGES = (
    "app.resolve", "app.mapping", "app.cutover", "app.validate", "app.history", "app.documents",
    "app.gnc", "app.verify", "app.verify_report", "app.pipeline", "app.cli", "app.cli_summary",
    "app.jobs", "app.pages", "app.web", "app.store", "app.audit", "app.server",
)  # fmt: skip


def test_the_readers_import_no_later_stage():
    """The readers come first: what they share with later stages (``line_list``, the model,
    QuickBooks' words) lives in modules below both (``app.source``, ``app.model``...)."""
    graph = _graph()
    assert all(any(m == s or m.startswith(s + ".") for m in graph) for s in STAGES)
    upward = sorted(
        (name, m)
        for name, found in graph.items()
        if name.startswith("app.readers")
        for m in found
        if any(m == s or m.startswith(s + ".") for s in STAGES)
    )
    assert upward == []


MAX_LINES = 400
LONG_ON_PURPOSE = {
    "app/readers/qbcsv/grouping.py",  # the measured hot loop of the CSV readers: kept in one piece
}


def _too_long(limit: int) -> list[str]:
    """The modules in app/ longer than ``limit`` lines, but for the ones long on purpose."""
    return sorted(
        f"{rel} ({lines} lines)"
        for path in APP.rglob("*.py")
        if (rel := path.relative_to(ROOT).as_posix()) not in LONG_ON_PURPOSE
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > limit
    )


def test_no_module_in_app_is_longer_than_400_lines():
    assert all((ROOT / rel).is_file() for rel in LONG_ON_PURPOSE)  # the list names real modules
    assert _too_long(MAX_LINES) == []


def test_no_test_module_imports_another():
    """Shared helpers live in tests/support/ and fixtures in tests/conftest.py, so each test
    module can be read, run and moved on its own."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            found += [
                f"{path.relative_to(ROOT)} imports {n}"
                for n in names
                if n.startswith("tests.test_")
            ]
    assert found == []


# ---------------------------------------------------------------- knowledge in the repository

NOTES_OUTSIDE = re.compile(
    r"\.\./shared/docs|§|\b(?:BUSINESS-DOCUMENTS|GNUCASH-SCALING|GNUCASH-BINDINGS|"
    r"LAYOUT-REVIEW)\b|(?<!docs/)\bFORMATS\.md §"
)
CITED = re.compile(r"\b([A-Z][A-Z-]*\.md), \"([^\"]+)\"")


def _texts() -> dict[Path, str]:
    paths = [*APP.rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "docs").glob("*.md")]
    paths += [*(ROOT / "templates").rglob("*.html"), ROOT / "README.md", ROOT / "Makefile"]
    paths += [p for p in (ROOT / ".ci").iterdir() if p.is_file()]
    here = Path(__file__)
    return {p: p.read_text(encoding="utf-8") for p in paths if p != here}


def test_no_code_or_doc_cites_notes_outside_the_repository():
    """What the code relies on is in docs/ (a clone has no ../shared/docs): no section numbers
    of notes kept elsewhere, no pointer to them."""
    found = [
        f"{p.relative_to(ROOT)}: {m[0]!r}"
        for p, text in _texts().items()
        for m in NOTES_OUTSIDE.finditer(text)
    ]
    assert found == []


def test_every_cited_docs_heading_exists():
    """``docs/NAME.md, "Heading"`` in code or docs names a heading that file has (or the start
    of one)."""
    headings = {
        p.name: {line.lstrip("#").strip() for line in p.read_text().splitlines() if line[:1] == "#"}
        for p in (ROOT / "docs").glob("*.md")
    }
    cited = [
        (p.relative_to(ROOT), name, " ".join(title.split()))
        for p, text in _texts().items()
        for name, title in CITED.findall(re.sub(r"\s*\n\s*(?:#\s*)?", " ", text))
    ]
    assert len(cited) >= 5
    missing = [c for c in cited if not any(h.startswith(c[2]) for h in headings.get(c[1], ()))]
    assert missing == []


HAND_PLURAL = re.compile(
    r"""['"]s['"] \* \(|['"]s['"] if .{1,30}!= 1|\w\(s\) (?!for\b|or\b)[a-z]"""
)


def test_counts_are_pluralised_by_words_plural_only():
    """A count and its noun go through ``app.words.plural`` (one rule for "1 account", "2,000
    accounts", "entries"), not ``'s' * (n != 1)`` or "account(s)" written again."""
    found = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
        for p in sorted(APP.rglob("*.py"))
        if p.name != "words.py"
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if HAND_PLURAL.search(line)
    ]
    assert found == []


def test_differs_or_differ_is_worked_out_by_words_differ_only():
    """ "1 account differs", "2 accounts differ": the verb agrees in ``app.words.differ``."""
    files = [*APP.rglob("*.py"), *(ROOT / "templates").rglob("*.html")]
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in sorted(files)
        if p.name != "words.py"
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"""['"]differs['"] if""", line)
    ]
    assert found == []


def test_error_statuses_are_named_in_app_web_errors_only():
    """The views take their 4xx/5xx status from ``app.web.errors`` (``UNPROCESSABLE``...), by
    name; only redirects (303) and success are written where they are used."""
    found = []
    for p in sorted((APP / "web").glob("*.py")):
        if p.name == "errors.py":
            continue
        with p.open("rb") as f:
            for tok in tokenize.tokenize(f.readline):
                if tok.type == tokenize.NUMBER and re.fullmatch(r"[45]\d\d", tok.string):
                    found.append(f"{p.relative_to(ROOT)}:{tok.start[0]}: {tok.line.strip()}")
    assert found == []
