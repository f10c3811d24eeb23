"""A start on a large log read from disk: what the storage lane does while the start checks
the whole database file, and how long a conversation clicked right after the first screen
takes to show its turns.

    .venv/bin/python tests/bench/start_check.py --home DIR [--runs 3] [--before TREE]
                                                [--open-after 0.2] [--warm]

DIR is a data directory holding a large log (`tests/bench/search.py --keep DIR` builds one
of 100,000 turns, 287 MB). Each run starts a fresh process that opens the window as
`turnlog` does (`open_window(..., first_screen=True)`, the check once the first screen is
up); `--open-after` seconds after the first screen it selects another conversation in the
list and times until that conversation's turns are in the transcript. Every piece of
background work the window runs is logged with its lane and when it started and ended, and
the time the check's verdict came in. Before each run the page cache is dropped (as after a
reboot: needs root; `--warm` keeps it), so the check reads the file from disk.

`--before TREE` runs the same start with the package of another tree (a checkout's root,
its `desktop/` put first on the path), alternating with this one, and prints the medians
side by side. Runs under the platform Qt is given (`xvfb-run -a` for a real X server).
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
THIS_TREE = HERE.parents[2]
TIMEOUT_S = 120

CHILD = r"""
import json, sys, time
from pathlib import Path

began = time.perf_counter()
home, open_after = Path(sys.argv[1]), float(sys.argv[2])
import turnlog
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from turnlog.app import open_window
from turnlog.store import TurnlogStore
from turnlog.ui.infra import tasks
from turnlog.ui.shell.ready import FirstScreen

def now():
    return time.perf_counter() - began

done = []  # (lane, name, submitted, started, ended)
plain_run = tasks.TaskRunner.run

def timed_run(self, lane, name, fn, **callbacks):
    submitted = now()
    def work(context):
        started = now()
        try:
            return fn(context)
        finally:
            done.append((lane, name, submitted, started, now()))
    return plain_run(self, lane, name, work, **callbacks)

tasks.TaskRunner.run = timed_run
app = QApplication(sys.argv)
store = TurnlogStore.open(home)
window = open_window(store, home, first_screen=True)
window.show()
window.raise_()
window.activateWindow()
marks = {}
first = FirstScreen(window.view, window.composer.edit, lambda: window.conversation is not None)

def shown():
    marks["first_screen"] = now()
    window.warm_up()
    QTimer.singleShot(int(open_after * 1000), click)

def click():
    opened = window.conversation.id
    others = [c.id for c in store.conversations() if c.id != opened]
    marks["target"] = others[0]
    marks["clicked"] = now()
    window.sidebar.select(others[0])

def watch():
    if "target" in marks and "turns_shown" not in marks and window.conversation is not None \
            and window.conversation.id == marks["target"] and window.transcript.turns:
        marks["turns_shown"] = now()
    if store.database.checked and "checked" not in marks:
        marks["checked"] = now()
    if "turns_shown" in marks and "checked" in marks:
        QTimer.singleShot(300, app.quit)

first.shown.connect(shown)
ticker = QTimer()
ticker.timeout.connect(watch)
ticker.start(2)
app.exec()
window.shutdown()
store.close()
print(json.dumps({"package": str(Path(turnlog.__file__).parent), "marks": marks,
                  "tasks": done}))
"""


def drop_caches() -> None:
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def one_start(tree: Path, home: Path, open_after: float, warm: bool) -> dict:
    if not warm:
        drop_caches()
    env = {**os.environ, "PYTHONPATH": str(tree / "desktop"), "TURNLOG_HOME": str(home)}
    out = subprocess.run([sys.executable, "-c", CHILD, str(home), str(open_after)], env=env,
                         capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    if out.returncode:
        raise SystemExit(f"the start failed: {out.stderr[-2000:]}")
    found = json.loads(out.stdout.strip().splitlines()[-1])
    if not found["package"].startswith(str(tree)):
        raise SystemExit(f"{found['package']} ran, not the package of {tree}")
    return found


def show(label: str, found: dict) -> None:
    marks = found["marks"]
    zero = marks["first_screen"]
    print(f"  {label}: first screen at {zero:.2f} s; clicked +{marks['clicked'] - zero:.2f} s;"
          f" turns shown +{marks['turns_shown'] - zero:.2f} s "
          f"({marks['turns_shown'] - marks['clicked']:.2f} s after the click); "
          f"check's verdict +{marks['checked'] - zero:.2f} s")
    for lane, name, submitted, started, ended in sorted(found["tasks"], key=lambda t: t[3]):
        if lane in ("storage", "check") and ended > zero - 0.5:
            print(f"      {lane:8} {name:32} asked +{submitted - zero:6.2f}  ran "
                  f"+{started - zero:6.2f} → +{ended - zero:6.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, metavar="TREE")
    parser.add_argument("--open-after", type=float, default=0.2)
    parser.add_argument("--warm", action="store_true")
    args = parser.parse_args()
    if not args.warm and os.geteuid() != 0:
        raise SystemExit("dropping the page cache needs root (or run with --warm)")
    trees = [("before", args.before)] if args.before else []
    trees.append(("this", THIS_TREE))
    waits: dict[str, list[float]] = {label: [] for label, _ in trees}
    for run in range(args.runs):
        print(f"run {run + 1}", flush=True)
        for label, tree in trees:
            found = one_start(tree, args.home, args.open_after, args.warm)
            show(label, found)
            marks = found["marks"]
            waits[label].append(marks["turns_shown"] - marks["clicked"])
            time.sleep(1)
    print(f"\nclick → the clicked conversation's turns shown, median of {args.runs}"
          f" ({'warm' if args.warm else 'cold'} page cache):")
    for label, took in waits.items():
        print(f"  {label}: {statistics.median(took):.2f} s  (each: "
              f"{', '.join(f'{t:.2f}' for t in took)})")
    if args.before:
        ratio = statistics.median(waits["this"]) / statistics.median(waits["before"])
        print(f"  this / before: {ratio:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
