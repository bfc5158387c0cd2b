"""The whole test suite as `make test` runs it: the local tests and the cluster's, side by side.

The local suite (two pytest processes on local Spark) and the end-to-end tests against the
standalone cluster's Thrift server (`python -m tideline_tools.cluster test`) share nothing: each
has its own metastore, warehouse, dbt target folders and crash-point report. Run one after the
other they left the two cores idle for about a fifth of the time (the cluster's statements wait
on its Thrift server, the local suite's last module runs alone), so they run together: the
cluster is started, its tests write to a log file that is printed when the local suite is done,
and the cluster is stopped whatever happened (also on Ctrl-C). The exit status is that of the
first part that failed. Arguments are passed to both pytest runs (for example `-x`).
"""

from __future__ import annotations

import subprocess
import sys
import time

from tideline_tools.profile import PROJECT_DIR

LOCAL = [sys.executable, "-m", "pytest", "python_tests", "-n", "2", "--dist", "loadscope"]
CLUSTER = [sys.executable, "-m", "tideline_tools.cluster"]
CLUSTER_LOG = PROJECT_DIR / "target" / "tests" / "cluster_tests.log"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    start = time.monotonic()
    local = subprocess.Popen([*LOCAL, *args], cwd=PROJECT_DIR)
    cluster_status = None
    try:
        up = subprocess.run([*CLUSTER, "up"], cwd=PROJECT_DIR)
        if up.returncode == 0:
            CLUSTER_LOG.parent.mkdir(parents=True, exist_ok=True)
            with open(CLUSTER_LOG, "w") as log:
                cluster = subprocess.Popen([*CLUSTER, "test", *args], cwd=PROJECT_DIR, stdout=log, stderr=subprocess.STDOUT)
                try:
                    local_status = local.wait()
                    cluster_status = cluster.wait()
                finally:
                    if cluster.poll() is None:
                        cluster.terminate()
                        cluster.wait()
        else:
            cluster_status = up.returncode
            local_status = local.wait()
    finally:
        if local.poll() is None:
            local.terminate()
            local.wait()
        subprocess.run([*CLUSTER, "down"], cwd=PROJECT_DIR)
    if CLUSTER_LOG.exists() and cluster_status is not None:
        print(f"\n---- the cluster tests (python -m tideline_tools.cluster test), beside the local suite; log {CLUSTER_LOG}")
        print(CLUSTER_LOG.read_text(), end="")
    minutes, seconds = divmod(round(time.monotonic() - start), 60)
    print(f"tideline suite: local tests exit {local_status}, cluster tests exit {cluster_status}, {minutes}:{seconds:02d} in all")
    return local_status or cluster_status or 0


if __name__ == "__main__":
    sys.exit(main())
