"""tideline every hour, from Airflow with astronomer-cosmos. Copy this file into your DAGs folder.

Each run is one hourly interval, and passes the interval's end as tideline's now (the
environment variable TIDELINE_NOW, which unlike a var keeps dbt's parsed project): the run sees
exactly the loads of the hours up to then, so an `airflow dags backfill` (or a catch-up) over
past intervals of a new target schema replays what the hourly runs would have done, and a rerun
of the last interval finds nothing new and changes nothing. A rerun of an older interval, whose
now is before a model's watermark, is refused by tideline and changes nothing; everything it
would have read was already read by the later runs.

A failed run is retried by Airflow (`retries`); when every try fails, the next interval's run
reads everything loaded since the last committed batch, the failed hour's loads included
(tideline's own watermarks), so nothing is lost and nothing needs a manual backfill.

Two shapes, chosen by the dbt target (TIDELINE_TARGET):
  * local (embedded Spark, one Derby metastore that admits one process at a time): the whole
    pipeline is one task, `dbt build`, in the pool TIDELINE_AIRFLOW_POOL (size 1), so no two
    dbt processes ever meet on the metastore. One JVM start per hour instead of one per model.
  * cluster (the Spark Thrift Server takes concurrent sessions): one task per model, then its
    tests (cosmos's DbtTaskGroup), so a failed model is retried alone and the graph is visible
    in Airflow. tideline takes one run lock per target schema, so the tasks run one at a time
    (max_active_tasks=1); a task started beside another one would be refused by the lock.

dbt runs from the project's own virtual environment (.venv/bin/dbt, called by path: it
defaults the profile and data folders), not from Airflow's: the two keep their own pinned
dependencies. The settings a team changes are in the block below, or in the environment of
the Airflow workers.
"""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path

import pendulum
from airflow.sdk import DAG
from airflow.timetables.interval import CronDataIntervalTimetable
from cosmos import DbtTaskGroup, ExecutionConfig, ProfileConfig, ProjectConfig, RenderConfig
from cosmos import settings as cosmos_settings
from cosmos.constants import ExecutionMode, InvocationMode, LoadMode, TestBehavior
from cosmos.operators.local import DbtBuildLocalOperator

# ---- what a team sets ---------------------------------------------------------------------
# The tideline project (this file sits in <project>/orchestration/airflow/dags by default).
PROJECT_DIR = Path(os.environ.get("TIDELINE_PROJECT_DIR", Path(__file__).resolve().parents[3]))
# The dbt that runs it: the project's own, made by `make setup`.
DBT = os.environ.get("TIDELINE_DBT", str(PROJECT_DIR / ".venv" / "bin" / "dbt"))
TARGET = os.environ.get("TIDELINE_TARGET", "local")            # local | cluster (profiles/profiles.yml)
POOL = os.environ.get("TIDELINE_AIRFLOW_POOL", "tideline_local")
# The first interval the scheduler knows of; with catchup off, only the latest runs when the
# DAG is switched on, and tideline reads everything loaded since its start date by itself.
START = pendulum.parse(os.environ.get("TIDELINE_AIRFLOW_START", "2025-01-01T00:00:00+00:00"))
# More dbt vars (a JSON object), for instance the source's location:
# {"tideline__events_schema": "atomic", "tideline__reprocess_days": 14}
EXTRA_VARS = json.loads(os.environ.get("TIDELINE_DBT_VARS", "{}"))
# ---------------------------------------------------------------------------------------------

# The interval's end in UTC, as tideline reads it ('YYYY-MM-DD HH:MM:SS'), in the environment of
# the dbt command rather than in its vars: dbt parses the whole project again whenever its vars
# change (about 1.2 s a command here), and keeps its parsed project when only TIDELINE_NOW does.
NOW = {"TIDELINE_NOW": "{{ data_interval_end.in_timezone('UTC').strftime('%Y-%m-%d %H:%M:%S') }}"}

# cluster: the graph of models comes from the project's manifest, written by `dbt parse` when the
# project is deployed, so that parsing this file (which Airflow does every few minutes) runs no dbt.
MANIFEST = Path(os.environ.get("TIDELINE_MANIFEST", PROJECT_DIR / "target" / "manifest.json"))
PROFILE = ProfileConfig(profile_name="tideline", target_name=TARGET,
                        profiles_yml_filepath=PROJECT_DIR / "profiles" / "profiles.yml")

with DAG(
    dag_id="tideline_hourly",
    # Hourly intervals [start, end): data_interval_end is the hour just finished.
    schedule=CronDataIntervalTimetable("0 * * * *", timezone="UTC"),
    start_date=START,
    catchup=False,
    max_active_runs=1,                      # intervals run in order, never side by side
    max_active_tasks=1,                     # one dbt process at a time (local metastore, run lock)
    default_args={"retries": 2, "retry_delay": timedelta(minutes=5)},
    tags=["tideline"],
    doc_md=__doc__,
) as dag:
    if TARGET == "local":
        DbtBuildLocalOperator(
            task_id="tideline_build",
            project_dir=str(PROJECT_DIR),
            profile_config=PROFILE,
            dbt_executable_path=DBT,
            invocation_mode=InvocationMode.SUBPROCESS,
            install_deps=False,
            vars=EXTRA_VARS,
            env=NOW,
            # cosmos runs dbt in a fresh copy of the project; from its cache folder it brings dbt's
            # parsed project from one hour to the next (a DbtTaskGroup gets one by itself)
            cache_dir=cosmos_settings.cache_dir / "tideline_hourly" if cosmos_settings.enable_cache else None,
            pool=POOL,
        )
    else:
        if not MANIFEST.exists():
            raise FileNotFoundError(f"tideline: no dbt manifest at {MANIFEST}; write it with `{DBT} parse` "
                                    f"(in {PROJECT_DIR}) when the project is deployed, or set TIDELINE_MANIFEST")
        DbtTaskGroup(
            group_id="tideline",
            project_config=ProjectConfig(dbt_project_path=PROJECT_DIR, manifest_path=MANIFEST, install_dbt_deps=False),
            profile_config=PROFILE,
            execution_config=ExecutionConfig(execution_mode=ExecutionMode.LOCAL, dbt_executable_path=DBT,
                                             invocation_mode=InvocationMode.SUBPROCESS),
            # each model's tests right after it; a test over two models (a relationships test) in a
            # task of its own after both, not in the first model's task before the second exists
            render_config=RenderConfig(load_method=LoadMode.DBT_MANIFEST, test_behavior=TestBehavior.AFTER_EACH,
                                       should_detach_multiple_parents_tests=True),
            operator_args={"vars": EXTRA_VARS, "env": NOW},
        )
