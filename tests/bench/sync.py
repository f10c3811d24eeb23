"""kill -9 of `turnlog-cli sync now` at random points of writing, reading and compaction,
many more times than the test does (tests/cli/test_sync_commands.py runs 50), then a clean
sync: both data directories (real stores, `--feed store`, the default) must hold the same
log, every turn once; no live object may decrypt to deleted text, no data directory may hold
it after the store's checkpoint, and the storage holds no planted title, text or model name.

    dbus-run-session -- sh -c '... gnome-keyring-daemon --unlock ...; \\
        .venv/bin/python tests/bench/sync.py [--runs 500] [--seed 44] [--feed store|lists] \\
        [--server folder|webdav|s3]'

`--server webdav` or `s3` syncs through a real server on 127.0.0.1 (tests/support/
sync_servers.py) instead of a folder, and prints the requests it received per run.

Printed: runs, how many were killed, the time of a killed run beside a
completed one (median), the time of the settling syncs, and whether everything converged.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from sync_cli_runs import KillRuns  # noqa: E402
from sync_servers import s3_server, webdav_server  # noqa: E402


def _server(kind: str, tmp: Path):
    if kind == "webdav":
        return webdav_server(tmp / "dav")
    if kind == "s3":
        return s3_server()
    return contextlib.nullcontext(None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--feed", choices=["store", "lists"], default="store")
    parser.add_argument("--server", choices=["folder", "webdav", "s3"], default="folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, _server(args.server, Path(tmp)) as served:
        runs = KillRuns(Path(tmp), args.feed, random.Random(args.seed), served=served)
        killed_s: list[float] = []
        whole_s: list[float] = []
        for _ in range(args.runs):
            start = time.perf_counter()
            result = runs.one()
            took = time.perf_counter() - start
            if result.returncode == -9:
                killed_s.append(took)
            else:
                whole_s.append(took)
        start = time.perf_counter()
        runs.settle_and_check()
        settle = time.perf_counter() - start
        requests = served.faults.count() if served else 0
    if served:
        print(f"{args.server}: {requests:,} requests, {requests / (runs.runs or 1):.1f} a run")
    print(f"feed {args.feed}: runs {runs.runs}, killed {runs.killed} "
          f"({runs.killed / runs.runs:.0%}), completed {len(whole_s)}")
    print("kills landed by point: " + ", ".join(
        f"{point} {hit}/{tried}" for point, (hit, tried) in sorted(runs.landed.items())))
    print(f"median run: killed {statistics.median(killed_s or [0]):.2f} s, completed "
          f"{statistics.median(whole_s or [0]):.2f} s "
          f"(ratio {statistics.median(killed_s or [0]) / statistics.median(whole_s or [1]):.2f})")
    print(f"conversations {len(runs.expected)}, turns "
          f"{sum(len(t) for t in runs.expected.values())}, deleted texts {len(runs.deleted)}, "
          f"planted strings scanned {len(runs.planted)}")
    print(f"settling syncs {settle:.1f} s; converged, nothing doubled, no deleted text live")
    return 0


if __name__ == "__main__":
    sys.exit(main())
