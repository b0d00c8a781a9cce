# The two set-up commands: `make run` (embedded default: SQLite, eager tasks) and `make test` (PostgreSQL + Redis).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/platform
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
PYTEST_ARGS ?= --create-db
HOST ?= 127.0.0.1
PORT ?= 8000
# The demo's published website answers on <slug>.$(SITE_HOST) (browsers resolve *.localhost to this machine).
SITE_HOST ?= sites.localhost:$(PORT)

.PHONY: run test install dotenv services lint bench worker beat migrate clean mcp1 lint-tools

# The handshake-era MCP client (official SDK 1.x) for tests/mcp: its package is named `mcp` like the 2.x client in
# .venv, so it gets a small environment of its own.
MCP1_PIN := mcp==1.27.2
MCP1_STAMP := .venv-mcp1/.installed-$(MCP1_PIN)

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

$(MCP1_STAMP):
	test -x .venv-mcp1/bin/python || $(PYTHON) -m venv .venv-mcp1
	.venv-mcp1/bin/pip install -q --disable-pip-version-check $(MCP1_PIN)
	touch $(MCP1_STAMP)

mcp1: $(MCP1_STAMP)

# The public OpenAPI linters (Redocly, Spectral) that tests/api/test_openapi_lint.py runs on the served document:
# exact versions from tools/openapi-lint/package-lock.json, installed in that folder only (never globally).
LINT_TOOLS := tools/openapi-lint
LINT_STAMP := $(LINT_TOOLS)/node_modules/.installed

$(LINT_STAMP): $(LINT_TOOLS)/package.json $(LINT_TOOLS)/package-lock.json
	npm ci --prefix $(LINT_TOOLS) --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $(LINT_STAMP)

lint-tools: $(LINT_STAMP)

# With DEBUG off (the default) nothing starts on the development secrets: give this checkout its own in .env.
# `make test` does not need it.
dotenv:
	@sh scripts/ensure-env.sh

# A local demo on purpose, so seeding its well-known admin is allowed although DEBUG is off.
run: install dotenv
	$(BIN)/python manage.py migrate --noinput
	SITE_SCHEME=http SITE_HOST=$(SITE_HOST) $(BIN)/python manage.py seed_demo --allow-production
	@echo "Platform API:    http://$(HOST):$(PORT)/v1/platform/me"
	@echo "OpenAPI:         http://$(HOST):$(PORT)/v1/openapi.json  (docs: /v1/docs)"
	@echo "Admin:           http://$(HOST):$(PORT)/admin/  (demo@example.com / demo-password)"
	@echo "Website:         http://demo.$(SITE_HOST)/"
	SITE_SCHEME=http SITE_HOST=$(SITE_HOST) $(BIN)/python manage.py runserver --insecure $(HOST):$(PORT)

services:
	@bash scripts/ensure-services.sh

test: install mcp1 lint-tools services
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CELERY_TASK_ALWAYS_EAGER=true \
		$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

bench: install services
	DATABASE_URL=$(TEST_DATABASE_URL:%/platform=%/platform_bench) REDIS_URL=redis://127.0.0.1:6379/14 \
		$(BIN)/python bench/run.py

worker: install dotenv
	$(BIN)/celery -A config worker -Q celery,webhooks -l info

beat: install dotenv
	$(BIN)/celery -A config beat -l info

migrate: install dotenv
	$(BIN)/python manage.py migrate --noinput

clean:
	rm -rf $(VENV) .venv-mcp1 $(LINT_TOOLS)/node_modules db.sqlite3
