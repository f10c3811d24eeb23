"""Window benchmarks, each printed next to a baseline measured in the same run.

    .venv/bin/python tests/bench/window.py [--turns 100000] [--seconds 10] [--rate 2000]

1. Open: time from selecting a conversation of N turns to the first paint that shows its
   newest turn (goal ≤ 300 ms and ≤ 3× the baseline for 100,000 turns); baseline: a 10-turn
   conversation. Then the peak RSS of this process (the app) with the N-turn conversation
   open (goal ≤ 250 MB), beside the peak with only the 10-turn one opened. The database is
   seeded by a child process, in one transaction, so seeding adds nothing to the peak.
2. Stream: the longest GUI-thread stall while an answer streams at RATE chunks a second
   for SECONDS seconds (`FakeStreamingProvider`, an in-process fake provider feeding
   deltas from its own thread, since the loopback HTTP server cannot reach 2,000
   chunks/s → Sender on the network worker → pending row), goal ≤ 50 ms — paragraphs with,
   after every fifth, a table and inline and display maths; then the stall
   when the finished answer is committed and its row repainted. Baselines: the same
   window idle, and rendering the whole answer's Markdown once on the GUI thread.

Runs offscreen unless QT_QPA_PLATFORM says otherwise. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import threading  # noqa: E402
from collections.abc import Callable  # noqa: E402

from PySide6.QtCore import QElapsedTimer, QEvent, QEventLoop, QObject, QTimer  # noqa: E402
from PySide6.QtGui import QTextDocument  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from turnlog.chat import Connection  # noqa: E402
from turnlog.core.model import ConversationSettings, Usage  # noqa: E402
from turnlog.core.provider import CancelToken, Reply  # noqa: E402
from turnlog.core.send import PendingTurn  # noqa: E402
from turnlog.providers import CUSTOM  # noqa: E402
from turnlog.store import TurnlogStore  # noqa: E402
from turnlog.ui.infra.tasks import TaskRunner  # noqa: E402
from turnlog.ui.request.connection import ProviderConfig, ProviderConnector  # noqa: E402
from turnlog.ui.shell.window import MainWindow  # noqa: E402
from turnlog.ui.transcript.model import Role  # noqa: E402

ANSWER = ("Here is a paragraph of an answer with **some bold**, `code`, 中文字符 and an emoji 🙂. "
          "It goes on for a while so rows have realistic heights.\n\n- one\n- two\n")


class PaintWatch(QObject):
    """Notes when the viewport paints while the newest turn is a loaded row."""

    def __init__(self, window: MainWindow, newest: int) -> None:
        super().__init__()
        self.window = window
        self.newest = newest
        self.painted_at: float | None = None

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and self.painted_at is None:
            model = self.window.transcript
            rows = model.rowCount()
            if rows and model.index(rows - 1).data(Role.ORDINAL) == self.newest:
                index = model.index(rows - 1)
                if self.window.view.viewport().rect().intersects(
                        self.window.view.visualRect(index)):
                    self.painted_at = time.perf_counter()
        return False


class FakeStreamingProvider:
    """A fake provider (in-process, no HTTP): a thread of its own hands `chunks` to
    `on_delta` at `rate` chunks a second, as a fast server's stream would arrive."""

    def __init__(self, chunks: list[str], rate: int) -> None:
        self.chunks = chunks
        self.rate = rate
        self.delivered = 0

    def complete(self, body: bytes, *, on_delta: Callable[[str], None],
                 cancel: CancelToken,
                 on_reasoning: Callable[[str], None] | None = None) -> Reply:
        started = time.perf_counter()
        first: list[float] = []

        def feed() -> None:
            count = len(self.chunks)
            while self.delivered < count and not cancel.cancelled:
                due = min(count, int((time.perf_counter() - started) * self.rate) + 1)
                while self.delivered < due:
                    on_delta(self.chunks[self.delivered])
                    self.delivered += 1
                    if not first:
                        first.append(time.perf_counter() - started)
                time.sleep(0.001)

        feeder = threading.Thread(target=feed, name="fake-provider-stream")
        feeder.start()
        feeder.join()
        return Reply("".join(self.chunks[: self.delivered]), "stop", Usage(),
                     first_token_s=first[0] if first else None)


class FakeStreamConnector(ProviderConnector):
    """The real connector for routes and previews; sends go to `provider`."""

    def __init__(self, config: ProviderConfig, provider: FakeStreamingProvider) -> None:
        super().__init__(lambda: config, lambda: None)
        self.fake = provider

    def connect(self, conversation, *, cancel, on_stage) -> Connection:  # noqa: ANN001
        return Connection(self.fake, self.endpoint(conversation).route)


def wait(app: QApplication, condition, timeout_s: float = 60.0) -> None:
    # Through an event loop object: PySide6 6.12's static `processEvents` drops a reference
    # to None on every call, and the thousands of calls here would free None itself.
    events = QEventLoop()
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out")
        events.processEvents()
        time.sleep(0.0005)


def seed(store: TurnlogStore, title: str, count: int) -> int:
    """A conversation of `count` turns, written in one transaction: the first through the
    store's own commit, the rest as rows like it (one `executemany`)."""
    conversation = store.create_conversation(
        title, model="loopback-model", settings=ConversationSettings(compaction=False))
    first = store.commit_turn(conversation.id, PendingTurn(
        uuid.uuid4().hex, "Question 1: what about item 1?", ANSWER, "loopback-model", "stop",
        Usage(), datetime.now(UTC)))
    stamp = first.created_at.isoformat(timespec="microseconds")
    rows = ((uuid.uuid4().hex, conversation.id, i, f"Question {i}: what about item {i}?",
             ANSWER, "loopback-model", "stop", stamp) for i in range(2, count + 1))
    with store.db.atomic():
        store.db.cursor().executemany(
            "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
            "finish_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        store.db.execute_sql("UPDATE conversations SET next_ordinal = ? WHERE id = ?",
                             (count + 1, conversation.id))
    return conversation.id


def seed_home(home: str, turns: int) -> None:
    """Seed the bench's three conversations into `home` (run in a child process)."""
    store = TurnlogStore.open(Path(home))
    seed(store, "small", 10)
    seed(store, "big", turns)
    seed(store, "start", 1)
    store.close()


def peak_rss_mb() -> float:
    """This process's peak resident set size so far (VmHWM; ru_maxrss where /proc lacks it)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def time_open(app: QApplication, window: MainWindow, cid: int, count: int) -> float:
    # Start from another conversation, cold: a store that keeps whole logs in memory
    # (Turnlog before paging) forgets this one, so every open reads from disk.
    getattr(window.store, "_cache", {}).pop(cid, None)
    watch = PaintWatch(window, count)
    window.view.viewport().installEventFilter(watch)
    started = time.perf_counter()
    assert window.sidebar.select(cid)
    wait(app, lambda: watch.painted_at is not None)
    window.view.viewport().removeEventFilter(watch)
    return (watch.painted_at - started) * 1000


def settle(app: QApplication, seconds: float = 1.0) -> None:
    until = time.monotonic() + seconds
    wait(app, lambda: time.monotonic() > until)


OPENS = 5


def opens(app: QApplication, window: MainWindow, cid: int, count: int, other: int
          ) -> list[float]:
    """OPENS opens of `cid`, each after opening `other` (a 1-turn conversation)."""
    times = []
    for _ in range(OPENS):
        time_open(app, window, other, 1)
        times.append(time_open(app, window, cid, count))
    return times


class StallMeter(QObject):
    """A 5 ms timer on the GUI thread; the longest gap beyond 5 ms is the worst stall.
    Each gap is kept with the time it ended, to split the run at a moment (`worst_since`)."""

    def __init__(self) -> None:
        super().__init__()
        self.clock = QElapsedTimer()
        self.worst = 0.0
        self.gaps: list[tuple[float, float]] = []
        self.timer = QTimer(self)
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.worst = 0.0
        self.gaps = []
        self.clock.start()
        self.timer.start()

    def _tick(self) -> None:
        gap = self.clock.nsecsElapsed() / 1e6
        self.clock.restart()
        self.worst = max(self.worst, gap - 5)
        self.gaps.append((time.perf_counter(), gap - 5))

    def stop(self) -> float:
        self.timer.stop()
        return self.worst

    def worst_between(self, start: float, end: float) -> float:
        return max((gap for at, gap in self.gaps if start <= at < end), default=0.0)


def streamed_pieces(count: int) -> list[str]:
    """`count` chunks of an answer, about one word each: paragraphs of 40 words, and
    after every fifth a table and a paragraph with inline and display maths (formulas
    that differ from one another, as a real answer's do)."""
    pieces: list[str] = []
    paragraph = 0
    while len(pieces) < count:
        pieces += ["word "] * 39 + ["word\n\n"]
        paragraph += 1
        if paragraph % 5 == 0:
            n = paragraph
            pieces += ["| plan | price |\n", "|---|---:|\n", f"| basic | {n} |\n",
                       f"| pro | {2 * n} |\n\n", "So ", f"$\\frac{{a_{{{n}}}}}{{b}}$ ",
                       "and ", f"$x^{{{n}}}$ ", "give\n\n",
                       f"$$\\sum_{{k=1}}^{{{n}}} k^2 = \\frac{{n(n+1)(2n+1)}}{{6}}$$\n\n"]
    return pieces[:count]


def markdown_render_ms(text: str, width: int) -> float:
    """What laying out the whole answer as Markdown costs on this thread, once."""
    started = time.perf_counter()
    doc = QTextDocument()
    doc.setMarkdown(text, QTextDocument.MarkdownFeature.MarkdownNoHTML)
    doc.setTextWidth(width)
    doc.size()
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=2_000)
    parser.add_argument("--seed-only", metavar="HOME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed_only:
        seed_home(args.seed_only, args.turns)
        return 0

    app = QApplication.instance() or QApplication(["turnlog-bench"])
    with tempfile.TemporaryDirectory(prefix="turnlog-bench-") as home:
        os.environ["TURNLOG_HOME"] = home
        print(f"seeding {args.turns:,} turns…", flush=True)
        seeding = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--turns", str(args.turns),
                        "--seed-only", home], check=True)
        print(f"seeded in {time.perf_counter() - seeding:.1f} s", flush=True)
        store = TurnlogStore.open(Path(home))
        small, big, start = (c.id for c in sorted(store.conversations(), key=lambda c: c.id))
        chunks = int(args.rate * args.seconds)
        pieces = streamed_pieces(chunks)
        text = "".join(pieces)
        fake = FakeStreamingProvider(pieces, args.rate)
        # The address is shown, never contacted: sends go to the fake provider.
        config = ProviderConfig("bench", "Fake stream", CUSTOM, "http://127.0.0.1:9/v1",
                                "loopback-model")
        window = MainWindow(store, TaskRunner(), FakeStreamConnector(config, fake))
        window.resize(1280, 720)
        window.show()
        wait(app, lambda: window.conversation is not None)

        # Each open starts from the 1-turn conversation; the median of OPENS opens each.
        baseline = statistics.median(opens(app, window, small, 10, start))
        settle(app)
        rss_small = peak_rss_mb()
        opened = statistics.median(opens(app, window, big, args.turns, start))
        settle(app)  # what the opens left to the workers (the preview, older pages) lands
        rss_big = peak_rss_mb()
        print(f"open → first paint of newest turn: {opened:7.1f} ms for {args.turns:,} turns "
              f"(median of {OPENS})"
              f"   (baseline 10 turns: {baseline:.1f} ms; ratio {opened / baseline:.1f}×; "
              f"goal ≤ 300 ms and ≤ 3×)")
        print(f"peak RSS with {args.turns:,} turns open:  {rss_big:7.1f} MB"
              f"   (baseline, 10 turns open: {rss_small:.1f} MB; "
              f"+{rss_big - rss_small:.1f} MB; goal ≤ 250 MB)", flush=True)

        meter = StallMeter()
        meter.start()
        idle_until = time.monotonic() + min(args.seconds, 3.0)
        wait(app, lambda: time.monotonic() > idle_until)
        idle = meter.stop()

        committed_at: list[float] = []
        window.transcript.rowsInserted.connect(
            lambda *_: committed_at.append(time.perf_counter())
            if window.transcript.pending is None and not committed_at else None)
        window.composer.set_draft("Stream, please.")
        meter.start()
        started = time.perf_counter()
        window.send()
        wait(app, lambda: not window.running, timeout_s=args.seconds * 6 + 30)
        finished = time.perf_counter()
        settle_until = time.monotonic() + 0.5  # the committed row's repaint
        wait(app, lambda: time.monotonic() > settle_until)
        meter.stop()
        commit = committed_at[0] if committed_at else finished
        streaming = meter.worst_between(started, commit)
        at_commit = meter.worst_between(commit, float("inf"))
        saved = store.log(big)[-1].answer == text
        rate = fake.delivered / (commit - started)
        width = window.view.viewport().width()
        render = markdown_render_ms(text, width)
        formulas = getattr(window.view.delegate, "formulas", None)
        typeset = f", {formulas.typeset_count} formulas typeset" if formulas else ""
        print(f"longest GUI stall while streaming:  {streaming:7.1f} ms "
              f"({fake.delivered:,} chunks at {rate:,.0f}/s from the fake provider{typeset}, "
              f"committed: {saved})   (baseline idle: {idle:.1f} ms; goal ≤ 50 ms)")
        print(f"GUI stall when the answer is committed: {at_commit:7.1f} ms   (baseline: "
              f"the whole answer's Markdown laid out once on the GUI thread: {render:.1f} ms; "
              f"goal ≤ 50 ms)")
        window.shutdown()
        window.close()
        window.deleteLater()
        QEventLoop().processEvents()
        store.close()
    app.shutdown()  # destroy the application before the interpreter tears down
    return 0


if __name__ == "__main__":
    sys.exit(main())
