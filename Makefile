# qb2gnucash: `make run` starts the wizard, `make test` runs the whole suite (browser test included).
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup run test lint format bench clean

setup:
	@bash .ci/setup

run: setup
	$(PY) run.py

test: setup
	$(PY) -m ruff check app tests run.py
	$(PY) -m ruff format --check app tests run.py
	$(PY) -m pytest

lint: setup
	$(PY) -m ruff check app tests run.py
	$(PY) -m ruff format --check app tests run.py

format: setup
	$(PY) -m ruff format app tests run.py
	$(PY) -m ruff check --fix app tests run.py

bench: setup
	$(PY) -m tests.support.bench

clean:
	rm -rf $(VENV) .pytest_cache instance
