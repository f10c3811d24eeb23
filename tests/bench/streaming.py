"""Streaming long answers: the GUI thread's longest stall for answers of growing length.

    .venv/bin/python tests/bench/streaming.py [--sizes 20,100,200] [--rate 2000]

For each size (KB of answer) an answer of paragraphs with, after every fifth, a table and
inline and display maths (`window.streamed_pieces`, a word a chunk) streams into the open
window at RATE chunks a second from an in-process fake provider (`window.FakeStreaming…`),
then is committed (the window warmed up first, as the app warms it once its first screen is
up). Printed per size: the longest GUI stall while it streams and its 99th
percentile gap (goal: ≤ 50 ms at every size, flat — the work a piece costs does not grow
with the answer), and the stall when it is committed (goal ≤ 50 ms); with each stall, the
processor time the GUI thread used in it (far below the stall when the machine's other
work held the cores, not the window's); beside them, in the
same run, the window idle and the whole answer's Markdown laid out once on the GUI thread.

Runs offscreen unless QT_QPA_PLATFORM says otherwise. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from PySide6.QtCore import QEventLoop  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from window import (  # noqa: E402
    FakeStreamConnector,
    FakeStreamingProvider,
    StallMeter,
    markdown_render_ms,
    settle,
    streamed_pieces,
    wait,
)

from turnlog.providers import CUSTOM  # noqa: E402
from turnlog.store import TurnlogStore  # noqa: E402
from turnlog.ui.infra.tasks import TaskRunner  # noqa: E402
from turnlog.ui.request.connection import ProviderConfig  # noqa: E402
from turnlog.ui.shell.window import MainWindow  # noqa: E402


def pieces_of(size_kb: int) -> list[str]:
    """About `size_kb` KB of streamed pieces."""
    pieces = streamed_pieces(size_kb * 1024 // 4)
    total, kept = 0, []
    for piece in pieces:
        if total >= size_kb * 1024:
            break
        kept.append(piece)
        total += len(piece)
    return kept


def stream_once(app: QApplication, window: MainWindow, fake: FakeStreamingProvider,
                pieces: list[str]) -> tuple[float, float, float, float, float, bool]:
    """Stream `pieces` and commit them: (longest stall while streaming, the GUI thread's
    processor time in it, the p99 gap, the stall at commit, the processor time in that (ms),
    whether the answer was saved whole)."""
    fake.chunks, fake.delivered = pieces, 0
    committed_at: list[float] = []

    def noted(*_: object) -> None:
        if window.transcript.pending is None and not committed_at:
            committed_at.append(time.perf_counter())

    window.transcript.rowsInserted.connect(noted)
    meter = StallMeter()
    window.composer.set_draft("Stream, please.")
    meter.start()
    started = time.perf_counter()
    window.send()
    wait(app, lambda: not window.running, timeout_s=len(pieces) / fake.rate * 6 + 30)
    finished = time.perf_counter()
    settle(app, 0.5)  # the committed row's repaint
    meter.stop()
    window.transcript.rowsInserted.disconnect(noted)
    commit = committed_at[0] if committed_at else finished
    gaps = sorted(gap for at, gap in meter.gaps if started <= at < commit) or [0.0]
    p99 = gaps[min(len(gaps) - 1, int(len(gaps) * 0.99))]
    saved = window.store.turns.log(window.conversation.id)[-1].answer == "".join(pieces)
    return (gaps[-1], meter.busy_in_worst(started, commit), p99,
            meter.worst_between(commit, float("inf")), meter.busy_in_worst(commit, float("inf")),
            saved)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="20,100,200", help="answer sizes, KB")
    parser.add_argument("--rate", type=int, default=2_000)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    app = QApplication.instance() or QApplication(["turnlog-bench"])
    with tempfile.TemporaryDirectory(prefix="turnlog-bench-") as home:
        os.environ["TURNLOG_HOME"] = home
        subprocess.run([sys.executable, str(Path(__file__).with_name("window.py")),
                        "--turns", "10", "--seed-only", home], check=True)
        store = TurnlogStore.open(Path(home))
        small = min(c.id for c in store.conversations())
        fake = FakeStreamingProvider([], args.rate)
        config = ProviderConfig("bench", "Fake stream", CUSTOM, "http://127.0.0.1:9/v1",
                                "loopback-model")
        window = MainWindow(store, TaskRunner(), FakeStreamConnector(config, fake))
        window.resize(1280, 720)
        window.show()
        wait(app, lambda: window.conversation is not None)
        assert window.sidebar.select(small)
        # What the app starts once its first screen is up (`WarmUp`: the HTTP stack, the
        # formula typesetter's process), not left to the first answer streamed below; it
        # gets ready while the idle baseline is measured.
        window.warm_up()
        settle(app)
        meter = StallMeter()
        meter.start()
        settle(app, 2.0)
        idle = meter.stop()
        print(f"idle window: longest stall {idle:.1f} ms", flush=True)
        for size in sizes:
            pieces = pieces_of(size)
            worst, busy, p99, at_commit, busy_at_commit, saved = stream_once(
                app, window, fake, pieces)
            render = markdown_render_ms("".join(pieces), window.view.viewport().width())
            print(f"{size:4d} KB answer, {len(pieces):,} chunks at {args.rate:,}/s: longest "
                  f"GUI stall while streaming {worst:6.1f} ms (GUI thread busy {busy:5.1f} ms "
                  f"of it; p99 gap {p99:5.1f} ms), at commit {at_commit:6.1f} ms (busy "
                  f"{busy_at_commit:5.1f} ms), committed: {saved}   (baseline: idle "
                  f"{idle:.1f} ms; the whole answer's Markdown laid out once "
                  f"{render:.1f} ms; goal ≤ 50 ms, flat)", flush=True)
        window.shutdown()
        window.close()
        window.deleteLater()
        QEventLoop().processEvents()
        store.close()
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
