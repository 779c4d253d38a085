# Loko: `make run` serves on http://127.0.0.1:8000, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run migrate test lint format system-deps browser-deps bench bench-deps bench-pg dist clean catalogs

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

# Debian packages the tests use: GNU gettext's msgfmt checks the PO output; git serves real
# repositories to the repository integration's tests; Chromium runs the browser tests; a
# JDK reads the .properties output as Java does. Installed when missing and running as
# root; otherwise the tests that need them say so and skip.
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
system-deps:
	@missing=""; \
	command -v msgfmt >/dev/null 2>&1 || missing="$$missing gettext"; \
	command -v git >/dev/null 2>&1 || missing="$$missing git"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v javac >/dev/null 2>&1 || missing="$$missing default-jdk-headless"; \
	command -v tesseract >/dev/null 2>&1 || missing="$$missing tesseract-ocr"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing Debian packages:$$missing"; \
			apt-get update -qq && $(APT_INSTALL) $$missing >/dev/null; \
		else \
			echo "Missing Debian packages:$$missing (apt-get install$$missing); the tests that need them skip"; \
		fi; \
	fi

# From the npm registry: axe-core checks the pages' accessibility in the browser tests;
# i18next loads the nested JSON output as apps do; FormatJS's ICU parser reads the plural
# messages the editor writes; oidc-provider is the OpenID provider the
# single sign-on tests sign in at.
AXE := tests/browser/node_modules/axe-core/axe.min.js
OIDC_PROVIDER := tests/sso/node_modules/oidc-provider/package.json
I18NEXT := tests/unit/formats/node_modules/i18next/package.json
ICU_PARSER := tests/browser/icu/node_modules/@formatjs/icu-messageformat-parser/package.json
NPM_INSTALL := npm install --no-save --no-package-lock --no-audit --no-fund --silent
browser-deps:
	@[ -f $(AXE) ] || { \
		if command -v npm >/dev/null 2>&1; then \
			$(NPM_INSTALL) --prefix tests/browser axe-core@~4.14.1; \
		else \
			echo "npm is missing: the browser tests skip (they need axe-core from the npm registry)"; \
		fi; }
	@[ -f $(OIDC_PROVIDER) ] || { \
		if command -v npm >/dev/null 2>&1; then \
			$(NPM_INSTALL) --prefix tests/sso oidc-provider@~9.13.3; \
		else \
			echo "npm is missing: the single sign-on tests skip (they need oidc-provider from the npm registry)"; \
		fi; }
	@[ -f $(ICU_PARSER) ] || { \
		if command -v npm >/dev/null 2>&1; then \
			$(NPM_INSTALL) --prefix tests/browser/icu @formatjs/icu-messageformat-parser@~3.5.23; \
		else \
			echo "npm is missing: the ICU parser check of exported plurals skips"; \
		fi; }
	@[ -f $(I18NEXT) ] || { \
		if command -v npm >/dev/null 2>&1; then \
			$(NPM_INSTALL) --prefix tests/unit/formats i18next@~27.1.2; \
		else \
			echo "npm is missing: the i18next check of nested JSON skips"; \
		fi; }

# The tests run in one worker process per core (pytest-xdist), handed out one by one as the
# workers free up (a module whose tests share a costly fixture is an xdist_group, kept in
# one worker). TEST_WORKERS=0 runs them in this process.
TEST_WORKERS ?= auto
test: install system-deps browser-deps
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup

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
	$(BIN)/python -m bench.members
	$(BIN)/python -m bench.saves
	$(BIN)/python -m bench.undo
	$(BIN)/python -m bench.jobs
	$(BIN)/python -m bench.webhooks
	$(BIN)/python -m bench.pretranslate
	$(BIN)/python -m bench.dist
	$(BIN)/python -m bench.memory
	$(BIN)/python -m bench.screenshots
	$(BIN)/python -m bench.notifications
	$(BIN)/python -m bench.releases
	$(BIN)/python -m bench.proposals
	$(BIN)/python -m bench.replace

bench-pg: install bench-deps
	@test -n "$$LOKO_TEST_DATABASE_URL" || { echo "set LOKO_TEST_DATABASE_URL to a PostgreSQL server URL"; exit 1; }
	$(BIN)/python -m bench.run --postgres "$$LOKO_TEST_DATABASE_URL"
	$(BIN)/python -m bench.members --postgres "$$LOKO_TEST_DATABASE_URL"
	$(BIN)/python -m bench.saves --postgres "$$LOKO_TEST_DATABASE_URL"
	$(BIN)/python -m bench.undo --postgres "$$LOKO_TEST_DATABASE_URL"
	$(BIN)/python -m bench.releases --postgres "$$LOKO_TEST_DATABASE_URL" --explain
	$(BIN)/python -m bench.webhooks --postgres "$$LOKO_TEST_DATABASE_URL"
	$(BIN)/python -m bench.proposals --postgres "$$LOKO_TEST_DATABASE_URL"
	$(BIN)/python -m bench.memory --database-url "$$LOKO_TEST_DATABASE_URL"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# One executable for Linux x86_64 (PyInstaller, one-file mode): dist/loko. Built in an
# environment of its own (build/dist-venv: Loko's runtime dependencies and PyInstaller, no
# dev tools), and only when a source is newer than dist/loko.
dist:
	$(PYTHON) packaging/build.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache

# The web app's catalogs: extract every marked message of the templates, page views and
# scripts (babel.cfg) into loko/locale/messages.pot, update each language's messages.po
# from it (a new language: `make catalogs NEW=nl`), write the English source catalog (msgstr
# = msgid, what `loko push` sends from loko/locale/loko.toml), and compile each to the
# messages.mo Loko loads (committed, so an install needs no compiler).
LOCALE_DIR := loko/locale
NEW ?=
catalogs: install
	$(BIN)/pybabel extract -F babel.cfg -k lazy_gettext -k ngettext:1,2 -k lazy_ngettext:1,2 --add-comments=TRANSLATORS: --no-location --sort-output \
		--project Loko --copyright-holder "Loko" -o $(LOCALE_DIR)/messages.pot .
	@if [ -n "$(NEW)" ]; then $(BIN)/pybabel init -i $(LOCALE_DIR)/messages.pot -d $(LOCALE_DIR) -l $(NEW); fi
	$(BIN)/pybabel update -i $(LOCALE_DIR)/messages.pot -d $(LOCALE_DIR) --no-fuzzy-matching --ignore-obsolete
	$(BIN)/python -m loko.web.source_catalog
	$(BIN)/pybabel compile -d $(LOCALE_DIR) --statistics
