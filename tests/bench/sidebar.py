"""The sidebar with thousands of conversations (an import's), beside the flat list it was.

    .venv/bin/python tests/bench/sidebar.py [--conversations 5000] [--runs 30]

Fills a data directory with N conversations (one turn each, as an import leaves them), a
tenth of them starred and spread over 40 folders, then times, p50 and p95 of `--runs`
runs, each until the list has been painted:

- open: the folder list and every conversation (starred first) read and shown, as the
  window's start does (`Sidebar.set_folders` + `store.conversations.listing()` +
  `Sidebar.set_conversations`);
- filter: a title typed in the search box (the query on the GUI thread; the full-text
  part runs on the storage worker and is not waited for), over every conversation and
  inside a folder;
- folder: a folder chosen (its conversations read and shown);
- text search: a word typed, as the window does it: the titles shown at once, then the
  full-text search's answer from the storage worker shown (timed until that is painted),
  beside the same with the answer made into conversations on the worker, as it was (the
  worker then held the interpreter while the list was being painted).

Beside each (but the text search): the flat list as it was before folders — the same
conversations read newest first with no star or folder, into a bare list view. Goal:
every p95 ≤ 50 ms. Runs offscreen unless QT_QPA_PLATFORM says otherwise. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desktop"))

from PySide6.QtWidgets import QApplication, QListView  # noqa: E402

from turnlog.store import TurnlogStore  # noqa: E402
from turnlog.store import rows as store_rows  # noqa: E402
from turnlog.store.models import ConversationRow  # noqa: E402
from turnlog.ui.infra.operations import StorageOp  # noqa: E402
from turnlog.ui.infra.tasks import TaskRunner  # noqa: E402
from turnlog.ui.panels.sidebar import ConversationListModel, Sidebar  # noqa: E402

FOLDERS = 40
WORDS = ["budget", "garden", "trip", "taxes", "recipe", "thesis", "router", "piano",
         "旅行", "预算", "花园", "论文"]


def build(store: TurnlogStore, count: int) -> None:
    """`count` conversations of one turn each, a tenth starred, spread over the folders."""
    db = store.db
    folders = [store.folders.add(f"folder {n:02d}").id for n in range(FOLDERS)]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with db.atomic():
        for n in range(count):
            stamp = (start + timedelta(minutes=n)).isoformat()
            title = f"{WORDS[n % len(WORDS)]} {n} — {WORDS[(n * 7) % len(WORDS)]} notes"
            cid = db.execute_sql(
                "INSERT INTO conversations (title, system_prompt, model, settings, created_at, "
                "updated_at, next_ordinal, generation, folder_id, starred) VALUES "
                "(?, '', '', '{}', ?, ?, 2, 0, ?, ?)",
                (title, stamp, stamp, folders[n % FOLDERS] if n % 3 else None,
                 int(n % 10 == 0))).lastrowid
            db.execute_sql(
                "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
                "finish_reason, created_at) VALUES (?, ?, 1, ?, ?, 'm', 'stop', ?)",
                (f"bench-{n}", cid, f"question {n} about {title}", f"answer {n}", stamp))


def flat_list(store: TurnlogStore, text: str = "") -> list:
    """The list as it was read before folders: newest first, no star, no folder."""
    query = ConversationRow.select()
    if text:
        query = query.where(ConversationRow.title.contains(text))
    found = query.order_by(ConversationRow.updated_at.desc(), ConversationRow.id.desc())
    return [store_rows.conversation(r) for r in found.execute(store.db)]


def painted(app: QApplication, view: QListView) -> None:
    view.viewport().repaint()
    app.processEvents()


def searched(app: QApplication, sidebar: Sidebar, store: TurnlogStore, runner: TaskRunner,
             text: str, *, made_on_worker: bool) -> None:
    """The window's search: titles at once, the text search's answer when it comes."""
    sidebar.set_conversations(store.conversations.listing(text, content=False), None, True)
    painted(app, sidebar.list)
    arrived: list[object] = []

    def shown(found: object) -> None:
        sidebar.set_conversations(found, None)  # type: ignore[arg-type]
        painted(app, sidebar.list)
        arrived.append(found)

    work = (lambda: store.conversations(text)) if made_on_worker else \
        (lambda: store.conversations.listing(text))
    StorageOp("bench search", work).run(runner, on_success=shown, on_failure=arrived.append)
    while not arrived:
        app.processEvents()
        time.sleep(0.0002)


def timed(work: Callable[[], object], runs: int) -> tuple[float, float, float]:
    """p50 and p95 of the wall times, and p95 of this process's CPU times (what the work
    costs however busy the machine is)."""
    times, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        work()
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    ordered = sorted(times)
    at = round(0.95 * (len(ordered) - 1))
    return statistics.median(ordered), ordered[at], sorted(cpu)[at]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp, TurnlogStore.open(Path(tmp)) as store:
        build(store, args.conversations)
        sidebar = Sidebar()
        sidebar.resize(320, 700)
        sidebar.show()
        flat_model = ConversationListModel()
        flat = QListView()
        flat.setUniformItemSizes(True)
        flat.setModel(flat_model)
        flat.resize(320, 620)
        flat.show()
        app.processEvents()
        folder = store.folders()[0]
        runner = TaskRunner()

        def open_sidebar(text: str = "", folder_id: int | None = None) -> None:
            sidebar.set_folders(store.folders())
            # As the window's filter reads them (`ConversationFilter`): rows made into
            # conversations as they are shown.
            sidebar.set_conversations(store.conversations.listing(text, content=False,
                                                                  folder=folder_id), None)
            painted(app, sidebar.list)

        def open_flat(text: str = "") -> None:
            flat_model.set_conversations(flat_list(store, text))
            painted(app, flat)

        cases = [
            ("open", lambda: open_sidebar(), lambda: open_flat()),
            ("filter \"trip\"", lambda: open_sidebar("trip"), lambda: open_flat("trip")),
            ("filter \"旅行 1\"", lambda: open_sidebar("旅行 1"), lambda: open_flat("旅行 1")),
            ("filter in a folder", lambda: open_sidebar("notes", folder.id),
             lambda: open_flat("notes")),
            ("folder chosen", lambda: open_sidebar("", folder.id), lambda: open_flat()),
            ("text search \"notes\"",
             lambda: searched(app, sidebar, store, runner, "notes", made_on_worker=False),
             lambda: searched(app, sidebar, store, runner, "notes", made_on_worker=True)),
        ]
        print(f"{args.conversations:,} conversations, {FOLDERS} folders; p50/p95 of "
              f"{args.runs} runs, each until painted")
        print(f"load {' '.join(f'{n:.2f}' for n in os.getloadavg())}")
        print(f"{'case':<22} {'rows':>6} {'sidebar p50':>12} {'p95':>8} {'CPU p95':>8} "
              f"{'flat p50':>9} {'p95':>8} {'CPU p95':>8} {'ratio':>6}  goal")
        met = True
        for label, new, old in cases:
            for warm in (new, old):
                warm()
            s50, s95, scpu = timed(new, args.runs)
            rows = sidebar.model.rowCount()
            f50, f95, fcpu = timed(old, args.runs)
            ok = s95 * 1000 <= 50
            met &= ok
            print(f"{label:<22} {rows:>6,} {s50 * 1000:>10.1f}ms {s95 * 1000:>6.1f}ms "
                  f"{scpu * 1000:>6.1f}ms {f50 * 1000:>7.1f}ms {f95 * 1000:>6.1f}ms "
                  f"{fcpu * 1000:>6.1f}ms {s95 / f95:>5.2f}×  ≤ 50 ms "
                  f"{'met' if ok else 'MISSED'}")
        sidebar.close()
        flat.close()
        runner.shutdown()
    print("\nall goals met" if met else "\nSOME GOALS MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
