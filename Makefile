# dogcase developer and CI entry points. Every target can be run again safely.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
RUNSERVER_ADDR ?= 127.0.0.1:8000
# `make run`: the host of every link the demo's documents and messages carry (seed_demo issues them before the
# server starts); the environment's DOGCASE_SITE_URL wins.
DOGCASE_SITE_URL ?= http://$(RUNSERVER_ADDR)

.PHONY: help venv system-packages run serve check-deploy test test-sqlite test-postgres mutate bench bench-sweep bench-reminders bench-imports bench-pages bench-api bench-documents bench-scale bench-report-scale bench-scale-stop lint fmt messages pg-start pg-stop browsers clean

help:
	@echo "make venv       create .venv and install requirements (only when they changed)"
	@echo "make system-packages  install the Debian packages the documents need (Pango, DejaVu fonts, pdftotext)"
	@echo "make run        migrate, seed demo users, serve on http://$(RUNSERVER_ADDR)/ with the worker and the daily sweep"
	@echo "make serve      production: gunicorn (DEBUG=False) + the worker + the daily sweep; needs SECRET_KEY, ALLOWED_HOSTS, DOGCASE_SITE_URL"
	@echo "make test       lint, check-deploy, then the tests on SQLite (with the browser tests) and on PostgreSQL"
	@echo "make mutate     change the law packs one rule at a time and report each change the tests miss (MUTATE=--pack tracy-mn ...)"
	@echo "make check-deploy  manage.py check --deploy with a production-like environment: no warning allowed"
	@echo "make bench      run the benchmarks (bench/run.py, bench/documents.py)"
	@echo "make bench-sweep  the daily sweep beside a raw SQL query, 2,000 cases on SQLite (N_CASES=...)"
	@echo "make bench-reminders  the day's reminders beside a raw SQL query, at 500 and 2,000 cases on SQLite (N_CASES=...)"
	@echo "make bench-imports  bringing in 10,000 and 100,000 dogs from a CSV: rows/s and peak memory (bench/imports.py)"
	@echo "make bench-pages  the staff pages at 10,000 and 100,000 dogs (bench/pages.py)"
	@echo "make bench-api  the classify API beside a bare Django JSON view (bench/api_classify.py)"
	@echo "make bench-documents  notice PDFs: median ms warm, and a batch of 500 (bench/documents.py; N_DOCS=...)"
	@echo "make bench-scale  the statewide benchmarks on their own PostgreSQL (bench/scale.py; SCALE_DOGS=...)"
	@echo "make bench-report-scale  a year's report over 20,000 cases of one city, from bench-scale's data set (bench/report_scale.py)"
	@echo "make bench-scale-stop  stop that PostgreSQL and remove its cached data sets"
	@echo "make lint       ruff check + ruff format --check"
	@echo "make fmt        ruff format + ruff check --fix"
	@echo "make messages   compile the translation catalogues (dogcase/locale/*/LC_MESSAGES/*.po -> .mo)"
	@echo "make pg-start   start the throwaway PostgreSQL cluster; make pg-stop removes it"
	@echo "make browsers   install Debian's chromium when /usr/bin/chromium is missing"
	@echo "make clean      remove .venv, caches and var/"

# Reinstall only when a requirements or project file is newer than the stamp.
$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	@if ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
		pybin=$$(scripts/find-python.sh) || exit 1; \
		echo "creating $(VENV) with $$pybin"; \
		rm -rf $(VENV); \
		"$$pybin" -m venv $(VENV); \
	fi
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet -e .
	@touch $(STAMP)

venv: $(STAMP) system-packages

# Debian packages beside Python's (WeasyPrint's Pango and the DejaVu fonts; pdftotext for the tests).
system-packages:
	@scripts/system-packages.sh

run: venv
	@VENV=$(VENV) RUNSERVER_ADDR=$(RUNSERVER_ADDR) DOGCASE_SITE_URL=$(DOGCASE_SITE_URL) scripts/run.sh

serve: venv
	VENV=$(VENV) scripts/serve.sh

# The production settings (docs/deploy.md) behind a TLS proxy, with a throwaway key and folder.
check-deploy: venv
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	env DEBUG=False SECRET_KEY="check-deploy-$$(head -c 48 /dev/urandom | base64 | tr -d '/+=\n')" \
		DOGCASE_AUDIT_KEY="check-deploy-$$(head -c 48 /dev/urandom | base64 | tr -d '/+=\n')" \
		ALLOWED_HOSTS=dogcase.example.org CSRF_TRUSTED_ORIGINS=https://dogcase.example.org \
		SECURE_PROXY_SSL=True DOGCASE_CLIENT_IP_HEADER=X-Forwarded-For DOGCASE_VAR_DIR="$$tmp" \
		EMAIL_HOST=smtp.example.org DEFAULT_FROM_EMAIL=animals@example.org DOGCASE_SITE_URL=https://dogcase.example.org \
		$(PY) manage.py check --deploy --fail-level WARNING

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

fmt: venv
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

test: lint check-deploy browsers
	scripts/test-all.sh

test-sqlite: venv browsers
	scripts/test-sqlite.sh

test-postgres: venv browsers
	scripts/test-postgres.sh

# Each change to a pack's rules (a condition dropped, an actor added, a period a day longer...) must fail a law
# test; `tests/mutation/equivalent/` lists the changes that alter nothing, each with its reason. MUTATE passes
# options (--pack, --only, --workers, --list, --json FILE).
mutate: venv
	$(PY) -m tests.mutation.mutate $(MUTATE)

bench: venv
	$(PY) bench/run.py
	$(PY) bench/documents.py --batch 500
	$(PY) bench/imports.py

N_CASES ?= 2000
bench-sweep: venv
	$(PY) bench/sweep_scale.py $(N_CASES)
bench-reminders: venv
	$(PY) bench/reminders_scale.py $(N_CASES)
bench-imports: venv
	$(PY) bench/imports.py
bench-pages: venv
	$(PY) bench/pages.py
bench-api: venv
	$(PY) bench/api_classify.py
N_DOCS ?= 500
bench-documents: venv
	$(PY) bench/documents.py --batch $(N_DOCS)
# The full statewide size by default; e.g. `make bench-scale SCALE_DOGS=100000 SCALE_INCIDENTS=10000
# SCALE_CASES=2000` for a quicker run. The cluster and its seeded data sets are kept for the next run.
SCALE_DOGS ?= 1000000
SCALE_INCIDENTS ?= 100000
SCALE_CASES ?= 20000
SCALE_SEED ?= 1
SCALE_PG := DOGCASE_PG_PORT=54344 DOGCASE_PG_DIR=/tmp/dogcase-pg-scale

bench-scale: venv
	$(SCALE_PG) $(PY) bench/scale.py --dogs $(SCALE_DOGS) --incidents $(SCALE_INCIDENTS) \
		--cases $(SCALE_CASES) --seed $(SCALE_SEED)

# A year's report over 20,000 cases of one city: bench-scale's data set with its cases copied (bench/report_scale.py).
bench-report-scale: venv
	$(SCALE_PG) $(PY) bench/report_scale.py

bench-scale-stop:
	@$(SCALE_PG) scripts/pg.sh stop

# The compiled .mo files are committed (a fresh clone needs no gettext tools); compile after editing a .po.
messages: venv
	$(PY) -m dogcase.i18n

pg-start:
	@scripts/pg.sh start

pg-stop:
	@scripts/pg.sh stop

browsers:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" -ne 0 ]; then echo "missing $(CHROMIUM): sudo apt-get install chromium" >&2; exit 1; fi; \
		echo "installing Debian's chromium"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y --no-install-recommends chromium \
			|| { apt-get update && apt-get install -y --no-install-recommends chromium; }; \
	fi

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis build dist *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
