"""Cold start of the window and of turnlog-cli, each beside its floor in the same run.

    .venv/bin/python tests/bench/startup.py [--runs 5] [--turns 40] [--only window|cli]
                                            [--imports] [--bundle DIR] [--before DIR]

1. Window: from exec of `turnlog` (offscreen, a data directory holding a conversation of
   TURNS turns, a profile on a loopback chat-completions server) until the window has
   painted that conversation's newest turn with the composer taking keys (the app writes
   the time to `$TURNLOG_READY_FILE` then), alternating with a bare PySide6 QMainWindow
   script started the same way, timed to its first paint. Goal: ratio ≤ 3×. Beside it,
   the processor time each process used until that moment (user + system, every
   thread): steadier than the wall time on a machine that is busy with other work.
2. CLI: wall time from exec to exit of `turnlog-cli list`, `show`, `search` and
   `project` on the same data directory, alternating with
   `python -c "import sqlite3, json, peewee"`. Goal: each ≤ 1.5×.
3. `--imports`: the slowest imports (cumulative) of `python -X importtime -c
   "import turnlog.app"` and of the CLI's entry.

Every child reads and writes its compiled byte code under a cache of this run
(`PYTHONPYCACHEPREFIX`), warmed by one start of each first, as an installed Turnlog's
is; `--compile-each-time` measures with no byte code cache at all
(`PYTHONDONTWRITEBYTECODE`, nothing cached: every module compiled at every start).
`--bundle DIR` starts the built bundle's `turnlog` and `turnlog-cli` from DIR (e.g.
build/bundle/dist/turnlog, or opt/turnlog of an unpacked package) instead of this
environment's: it keeps no byte code, so the warming start changes nothing there.
`--before DIR` times the window and each command of another folder of programs (the bundle
as built before a change) alternately with those of `--bundle` (or this environment's) and
prints the ratios; those programs must read this data directory's schema (a build from
before a schema step stops at its start-up problem, and the bench says so within a minute).
Medians of RUNS; the load average is printed before and after. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from loopback import LoopbackServer  # noqa: E402
from turnlog.config.profiles import Profile, ProfileStore  # noqa: E402
from turnlog.core.model import Usage  # noqa: E402
from turnlog.core.send import PendingTurn  # noqa: E402
from turnlog.store import TurnlogStore  # noqa: E402

MODEL = "loopback-model"
ANSWER = ("Here is a paragraph of an answer with **some bold**, `code`, 中文字符 and an emoji 🙂. "
          "It goes on for a while so rows have realistic heights.\n\n- one\n- two\n")
BIN = Path(sys.executable).parent
READY_TIMEOUT_S = 60.0
T = TypeVar("T")

# The floor: a bare PySide6 main window, timed to its first paint as the app is.
FLOOR_WINDOW = """
import os, sys, time
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMainWindow

class Painted(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            path = os.environ["TURNLOG_READY_FILE"]
            with open(path + ".part", "w") as out:
                out.write(f"{time.time()!r} {time.process_time()!r}")
            os.replace(path + ".part", path)
        return False

app = QApplication(sys.argv)
window = QMainWindow()
window.resize(1024, 700)
painted = Painted()
window.installEventFilter(painted)
window.show()
app.exec()
"""
FLOOR_CLI = "import sqlite3, json, peewee"


def seed(home: Path, turns: int, base_url: str) -> int:
    """A conversation of `turns` turns (the newest one the window opens) and a profile."""
    ProfileStore(home).save([Profile("loopback", "Loopback", "custom", base_url, MODEL)],
                            builtin_offered=True)
    store = TurnlogStore.open(home)
    conversation = store.conversations.create("a start-up bench", model=MODEL)
    for i in range(1, turns + 1):
        store.turns.commit(conversation.id, PendingTurn(
            uuid.uuid4().hex, f"Question {i}: what about item {i}?", ANSWER, MODEL, "stop",
            Usage(), datetime.now(UTC)))
    store.close()
    return conversation.id


def time_window(command: list[str], env: dict[str, str], ready: Path) -> tuple[float, float]:
    """Seconds from exec of `command` to the time it writes to `ready`, and the processor
    seconds it used until then (written with it); then it is ended."""
    ready.unlink(missing_ok=True)
    started = time.time()
    child = subprocess.Popen(command, env={**env, "TURNLOG_READY_FILE": str(ready)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not ready.exists():
            if child.poll() is not None or time.monotonic() > deadline:
                # Ended first: its error output is read to its end (a program still
                # running, e.g. showing a start-up problem, would never give it).
                child.kill()
                _, said = child.communicate()
                raise SystemExit(f"{command[0]} never got ready (within "
                                 f"{READY_TIMEOUT_S:.0f} s, or it ended): {said.decode()}")
            time.sleep(0.002)
        at, used = ready.read_text().split()
        return float(at) - started, float(used)
    finally:
        child.send_signal(signal.SIGTERM)  # the app ends as a logout ends it
        try:
            child.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()


def time_run(command: list[str], env: dict[str, str]) -> float:
    """Seconds from exec to exit of `command`, which must succeed."""
    started = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    took = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"{command} failed: {done.stderr.decode()}")
    return took


def alternate(runs: int, measured: Callable[[], T],
              floor: Callable[[], T]) -> tuple[list[T], list[T]]:
    """`runs` alternating measurements of each, the floor first in each pair, after one
    unmeasured pair (it fills the byte code cache)."""
    floor()
    measured()
    first, second = [], []
    for _ in range(runs):
        second.append(floor())
        first.append(measured())
    return first, second


def report(name: str, measured: float, floor: float, goal: float) -> None:
    ratio = measured / floor
    mark = "ok" if ratio <= goal else "OVER"
    print(f"  {name:<34} {measured * 1000:7.0f} ms   floor {floor * 1000:6.0f} ms   "
          f"{ratio:4.2f}×  (goal ≤ {goal:g}×: {mark})", flush=True)


def bench_window(runs: int, env: dict[str, str], scratch: Path, programs: Path) -> None:
    print("Cold start to the window ready (newest turn painted, composer focused):")
    ready = scratch / "ready"
    floor_script = scratch / "floor_window.py"
    floor_script.write_text(FLOOR_WINDOW, encoding="utf-8")
    app, floor = alternate(
        runs, lambda: time_window([str(programs / "turnlog")], env, ready),
        lambda: time_window([sys.executable, str(floor_script)], env, ready))
    report("turnlog vs bare QMainWindow", statistics.median(wall for wall, _ in app),
           statistics.median(wall for wall, _ in floor), 3.0)
    report("  processor time until then", statistics.median(used for _, used in app),
           statistics.median(used for _, used in floor), 3.0)


def bench_before(runs: int, env: dict[str, str], scratch: Path, programs: Path,
                 before: Path) -> None:
    print(f"Cold start to the window ready, beside {before}:")
    ready = scratch / "ready"
    now, then = alternate(runs, lambda: time_window([str(programs / "turnlog")], env, ready),
                          lambda: time_window([str(before / "turnlog")], env, ready))
    report("turnlog now vs before", statistics.median(wall for wall, _ in now),
           statistics.median(wall for wall, _ in then), 1.0)
    report("  processor time until then", statistics.median(used for _, used in now),
           statistics.median(used for _, used in then), 1.0)


def cli_commands(programs: Path, conversation: int) -> dict[str, list[str]]:
    cli = str(programs / "turnlog-cli")
    return {
        "list": [cli, "list"],
        "show": [cli, "show", str(conversation)],
        "search": [cli, "search", "item"],
        "project": [cli, "project", "--conversation", str(conversation),
                    "--question", "and the next item?", "--profile", "loopback"],
    }


def bench_cli(runs: int, env: dict[str, str], conversation: int, programs: Path,
              before: Path | None) -> None:
    print("turnlog-cli, exec to exit:")
    then = cli_commands(before, conversation) if before is not None else {}
    for name, command in cli_commands(programs, conversation).items():
        measured, floor = alternate(runs, lambda c=command: time_run(c, env),
                                    lambda: time_run([sys.executable, "-c", FLOOR_CLI], env))
        report(f"turnlog-cli {name} vs import peewee", statistics.median(measured),
               statistics.median(floor), 1.5)
        if name in then:
            now, old = alternate(runs, lambda c=command: time_run(c, env),
                                 lambda c=then[name]: time_run(c, env))
            report("  now vs --before", statistics.median(now),
                   statistics.median(old), 1.0)


def slowest_imports(statement: str, env: dict[str, str], count: int = 15) -> None:
    command = [sys.executable, "-X", "importtime", "-c", statement]
    subprocess.run(command, env=env, capture_output=True, check=True)  # the cache filled
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    print(f"Slowest imports (cumulative) of `{statement}`:")
    for micros, name in sorted(rows, reverse=True)[:count]:
        print(f"  {micros / 1000:7.1f} ms {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--only", choices=("window", "cli"))
    parser.add_argument("--imports", action="store_true")
    parser.add_argument("--compile-each-time", action="store_true")
    parser.add_argument("--bundle", type=Path, help="the bundle's folder to start from")
    parser.add_argument("--before", type=Path, help="a folder of programs to compare with")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}  ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory(prefix="turnlog-startup-") as temp, \
            LoopbackServer() as server:
        scratch = Path(temp)
        home = scratch / "home"
        home.mkdir()
        conversation = seed(home, args.turns, server.base_url)
        env = {**os.environ, "TURNLOG_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
        if args.compile_each_time:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
        programs = BIN if args.bundle is None else args.bundle.resolve()
        print(f"programs: {programs}")
        print("byte code: " + ("compiled at every start" if args.compile_each_time
                               else "cached (warmed by one start of each)"))
        if args.only in (None, "window"):
            bench_window(args.runs, env, scratch, programs)
            if args.before is not None:
                bench_before(args.runs, env, scratch, programs, args.before.resolve())
        if args.only in (None, "cli"):
            bench_cli(args.runs, env, conversation, programs,
                      None if args.before is None else args.before.resolve())
        if args.imports:
            slowest_imports("import turnlog.app", env)
            slowest_imports("import turnlog.cli", env)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
