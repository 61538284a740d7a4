"""Where the tests' files are: the project, its fixtures, the shared real samples."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SAMPLES = ROOT.parent / "shared" / "samples"
ENTERPRISE = SAMPLES / "Pewejekubam__qbd-to-gnucash__qbd-all-lists-sample.IIF"
