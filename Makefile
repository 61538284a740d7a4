# qb2gnucash: `make run` starts the wizard (installing only what it needs to run), `make test`
# runs the whole suite (lint and type checks, then pytest, browser tests included).
VENV := .venv
PY := $(VENV)/bin/python
CODE := app tests run.py

.PHONY: setup setup-run run test lint format bench lock clean sample

setup:
	@bash .ci/setup test

setup-run:
	@bash .ci/setup run

run: setup-run
	$(PY) run.py

test: lint
	$(PY) -m pytest

lint: setup
	$(PY) -m ruff check $(CODE)
	$(PY) -m ruff format --check $(CODE)
	$(PY) -m mypy app

format: setup
	$(PY) -m ruff format $(CODE)
	$(PY) -m ruff check --fix $(CODE)

bench: setup
	$(PY) -m tests.support.bench

# The home page's sample company (app/sample/), written again by the project's generator; the
# tests check that the files kept are what it writes.
sample: setup
	$(PY) -m tests.support.sample app/sample

# Rewrites both lock files from requirements.in and requirements-dev.in: every package pinned,
# with the hashes of all its files, for Python 3.11 (Debian 12) through 3.13 (Debian 13).
lock: setup
	$(VENV)/bin/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
		requirements.in -o requirements.txt
	$(VENV)/bin/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
		requirements-dev.in -o requirements-dev.txt

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache instance
