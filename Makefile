# Loko: `make run` serves on http://127.0.0.1:8000, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run migrate test lint format system-deps bench bench-deps bench-pg clean

$(STAMP): pyproject.toml setup.cfg
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/loko db upgrade

run: migrate
	$(BIN)/loko serve

# Debian packages the tests use: GNU gettext's msgfmt checks the PO output.
system-deps:
	@command -v msgfmt >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
		else \
			echo "msgfmt is missing: install GNU gettext (Debian: apt-get install gettext)"; \
		fi; }

test: install system-deps
	$(BIN)/pytest

# Benchmarks: seeds 10k / 100k / 1M values and prints the table (bench/results.json).
# wrk (Debian) drives the 304 load test when present; without it a Python client does.
bench-deps:
	@command -v wrk >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null 2>&1 || \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }; \
		fi; }

bench: install bench-deps
	$(BIN)/python -m bench.run

bench-pg: install bench-deps
	@test -n "$$LOKO_TEST_DATABASE_URL" || { echo "set LOKO_TEST_DATABASE_URL to a PostgreSQL server URL"; exit 1; }
	$(BIN)/python -m bench.run --postgres "$$LOKO_TEST_DATABASE_URL"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
