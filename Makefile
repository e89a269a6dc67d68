# homegame: the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: `make run` installs the site's own dependencies only; `make test` adds the
# test tools (the `test` extra: pytest, Playwright, ruff, ...).
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-all lint format migrate seed clean vendor

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(RUN_STAMP) $(STAMP)

# The browser's Python (Pyodide, pinned in package.json and package-lock.json) that runs
# tracker/engine/ in the live logger, copied out of node_modules into static/vendor/pyodide/
# (git-ignored; the service worker caches it). Without npm the logger still works online.
PYODIDE_DIR := static/vendor/pyodide
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
PYODIDE_STAMP := $(PYODIDE_DIR)/.vendored

$(PYODIDE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	mkdir -p $(PYODIDE_DIR)
	cd node_modules/pyodide && cp $(PYODIDE_FILES) ../../$(PYODIDE_DIR)/
	touch $(PYODIDE_STAMP)

## vendor: the browser's Python for the live logger (npm ci, then a copy into static/)
vendor: $(PYODIDE_STAMP)

## run: the site with a demo league on http://127.0.0.1:8000/ (SQLite and eager tasks unless configured)
run: $(RUN_STAMP) $(PYODIDE_STAMP)
	@DEBUG=$${DEBUG:-true} $(BIN)/python manage.py migrate --noinput -v 0
	@DEBUG=$${DEBUG:-true} $(BIN)/python manage.py seed_demo
	@DEBUG=$${DEBUG:-true} $(BIN)/python manage.py runserver $(HOST):$(PORT)

## test: the import contracts (pyproject.toml), then the whole default suite on SQLite with eager
## tasks (worker, outage and slow tests run in .ci/run)
test: $(STAMP) $(PYODIDE_STAMP)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -m "not worker and not slow and not outage" $(PYTEST_ARGS)

## test-all: every test, including the slow oracle runs (needs no services)
test-all: $(STAMP) $(PYODIDE_STAMP)
	$(BIN)/python -m pytest -m "not worker and not outage" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) staticfiles test-artifacts .pytest_cache node_modules static/vendor
