# tideline: `make demo` runs the pipeline on local Spark, `make test` runs every test.
# Both set up everything first (a virtual environment in .venv with pinned packages).

SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := $(CURDIR)/.venv
BIN := $(VENV)/bin
SITE := $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_path("purelib").replace(sysconfig.get_path("data"), ""))' 2>/dev/null)
STAMP := $(VENV)/.tideline-installed
JARS_STAMP := $(CURDIR)/.tideline-jars/.fetched
export DBT_PROFILES_DIR := $(CURDIR)/profiles
export TZ := UTC
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: setup demo next-load test test-fast test-local test-extended test-cluster lint cluster-up cluster-down clean java airflow-setup test-airflow

java:
	@tideline_tools/check_java.sh

setup: java $(STAMP) $(JARS_STAMP)

# The pinned Delta Lake and Iceberg jars (profiles/jars.lock), fetched with Maven and checked by sha256.
$(JARS_STAMP): profiles/jars.lock $(STAMP)
	$(BIN)/python -m tideline_tools.jars fetch
	touch $(JARS_STAMP)

# The venv also learns where the project is: a .pth file makes tideline_tools importable, and
# the activate script exports the profile folder and the local data folder for plain `dbt`,
# and bin/dbt checks the local metastore's lock before dbt starts Spark (tideline_tools/dbt_cli.py).
$(STAMP): requirements.txt constraints.txt
	@test -n "$(PYTHON)" || { echo "tideline: Python 3.11 was not found" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -c constraints.txt
	echo "$(CURDIR)" > "$(VENV)$(SITE)/tideline.pth"
	printf '#!/bin/sh\n# dbt with a one-line message when the local metastore is held by another process\nexec "%s" -m tideline_tools.dbt_cli "$$@"\n' "$(BIN)/python" > $(BIN)/dbt
	grep -q TIDELINE_DATA_DIR $(BIN)/activate || printf '%s\n' \
	  'export DBT_PROFILES_DIR="$(CURDIR)/profiles"' \
	  'export TIDELINE_DATA_DIR="$(CURDIR)/.tideline/local"' \
	  'export TIDELINE_JARS="$$($(BIN)/python -c "from tideline_tools.localenv import jars_setting; print(jars_setting())")"' \
	  'export SPARK_CONF_DIR="$(CURDIR)/profiles/spark-conf"' \
	  'export SPARK_LOCAL_IP=127.0.0.1' \
	  'export TZ=UTC' >> $(BIN)/activate
	touch $(STAMP)

demo: setup
	$(BIN)/python -m tideline_tools.demo

# The next hour of the demo's events (HOURS=N for more), then `dbt run`, as an hourly schedule would.
next-load: setup
	$(BIN)/python -m tideline_tools.demo next-load --hours $(or $(HOURS),1)

# sqlfluff lints SQL as rendered: a file of macro definitions renders to nothing, so macros/ is
# left out (measured 2026-12-01: 68 of lint's 81 s, no rule applied; a Jinja syntax error there
# fails every dbt parse of the suite). The SQL the macros write is linted where it is rendered:
# the models, tests, analyses and examples, and test_attribute_view's generated views.
lint: setup
	$(BIN)/sqlfluff lint models tests analyses examples/derivations/models examples/continual_tasks/models examples/channels/models

# The whole suite: lint, the tests on local Spark, then the end-to-end tests on a real
# standalone cluster through the Thrift server (started and stopped around them). Run side by
# side (measured 2026-11-27) the two took as long as one after the other: docs/decisions.md.
test: setup lint test-local test-cluster

# The fast tier alone: rules checked on tiny tables in one SparkSession per process, or macros
# evaluated by dbt without a model run, against the references (pytest marker `fast`), in two
# processes, the longest units first (one process: 7.7 minutes, measured 2026-12-06).
# `make test-local` runs these too.
test-fast: setup
	$(BIN)/python -m pytest python_tests -m fast -n 2 --dist loadscope --no-loadscope-reorder

# The longest units of work first (python_tests/conftest.py, UNIT_SECONDS), not xdist's order by
# number of tests.
test-local: setup
	$(BIN)/python -m pytest python_tests -n 2 --dist loadscope --no-loadscope-reorder

# The extended tier: what `make test` leaves out to stay within CI's time (the crash tests at
# every statement, the property tests with all their cases, the variants on the formats a test's
# make_test_formats marker leaves out, the tests marked extended): docs/tests.md, "Tiers".
test-extended: setup
	TIDELINE_EXTENDED=1 $(BIN)/python -m pytest python_tests -n 2 --dist loadscope --no-loadscope-reorder

# The cluster's Thrift server runs with the suite's speed settings (tideline_tools/suite_speed.py,
# as the local tier's Spark): `make cluster-up` starts it with Spark's defaults.
# Two pytest processes against the one Thrift server: one client leaves the cores idle while it
# reads and compares (measured 2026-12-06: pytest 436 s with one process, 334 s with two).
test-cluster: setup
	$(BIN)/python -m tideline_tools.cluster up --suite-speed
	$(BIN)/python -m tideline_tools.cluster test -n 2 --dist loadscope --no-loadscope-reorder; status=$$?; \
	  $(BIN)/python -m tideline_tools.cluster down; exit $$status

# The orchestration extra (orchestration/airflow): Airflow and astronomer-cosmos in their own
# venv, .venv-airflow (about 320 MB); the DAG calls the project's .venv/bin/dbt by path.
AIRFLOW_VENV := $(CURDIR)/.venv-airflow
AIRFLOW_STAMP := $(AIRFLOW_VENV)/.tideline-installed

airflow-setup: setup $(AIRFLOW_STAMP)

$(AIRFLOW_STAMP): orchestration/airflow/requirements.txt orchestration/airflow/constraints.txt
	$(PYTHON) -m venv $(AIRFLOW_VENV)
	$(AIRFLOW_VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
	  -r orchestration/airflow/requirements.txt -c orchestration/airflow/constraints.txt
	touch $(AIRFLOW_STAMP)

# The example DAG run for real by `airflow dags test`, on the local target and on the cluster
# (started and stopped around it). Not part of `make test`: see the README ("Scheduling").
test-airflow: airflow-setup
	$(BIN)/python -m tideline_tools.cluster up
	TIDELINE_AIRFLOW_BIN=$(AIRFLOW_VENV)/bin $(BIN)/python -m pytest orchestration/airflow/tests; status=$$?; \
	  $(BIN)/python -m tideline_tools.cluster down; exit $$status

cluster-up: setup
	$(BIN)/python -m tideline_tools.cluster up

cluster-down: setup
	$(BIN)/python -m tideline_tools.cluster down

# Deletes dbt's output and every table of the local target and the cluster (.tideline).
clean:
	@echo "tideline: deleting target/, logs/ and .tideline/ (the local and cluster metastores and tables)"
	rm -rf target logs .tideline
