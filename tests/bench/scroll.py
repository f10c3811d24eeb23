"""Scrolling a long conversation: frame times beside a plain QListView of as many rows.

    .venv/bin/python tests/bench/scroll.py [--turns 100000] [--steps 300] [--runs 5]

The window opens a conversation of TURNS turns (seeded by a child process, as in
window.py) at its newest turn. Measured per frame (an input event until its repaint is
done), alternating with the baseline, `--runs` times each, medians printed:

- wheel: STEPS steps of the mouse wheel upwards (older pages join as the top is reached),
  then as many back down; goal p99 ≤ 16 ms and ≤ 1.5× the plain list's;
- drag: the whole-log scroll bar dragged from the newest turn to turn 1 in 60 moves and
  back; goal p99 ≤ 33 ms.

Beside each, the p99 of the processor time the GUI thread used per frame: near the frame
time when the window's own work fills it, far below it when other work on the machine held
the cores.

The baseline: a plain QListView (default delegate, no word wrap, scrolling by pixel) over
a QStringListModel of TURNS rows of the same text, given the same wheel steps and its own
scroll bar dragged the same way.

Runs offscreen unless QT_QPA_PLATFORM says otherwise. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from PySide6.QtCore import QEventLoop, QPoint, QPointF, QStringListModel, Qt  # noqa: E402
from PySide6.QtGui import QWheelEvent  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QAbstractItemView,
    QAbstractSlider,
    QApplication,
    QListView,
    QWidget,
)
from window import ANSWER, settle, wait  # noqa: E402

from turnlog.store import TurnlogStore  # noqa: E402
from turnlog.ui.infra.tasks import TaskRunner  # noqa: E402
from turnlog.ui.shell.window import MainWindow  # noqa: E402
from uihelpers import loopback_connector  # noqa: E402

DRAG_MOVES = 60


Frame = tuple[float, float]  # wall time, the GUI thread's processor time (ms)


def frame(action: Callable[[], None]) -> Frame:
    """`action` (an input event) and everything it causes, its repaint included: its wall
    time and the processor time the GUI thread used in it (ms); the second is far below the
    first when the machine's other work held the cores."""
    events = QEventLoop()
    started, busy_from = time.perf_counter(), time.thread_time()
    action()
    events.processEvents()
    return ((time.perf_counter() - started) * 1000, (time.thread_time() - busy_from) * 1000)


def wheel(target: QWidget, notches: int) -> Callable[[], None]:
    def turn() -> None:
        centre = QPointF(target.width() / 2, target.height() / 2)
        event = QWheelEvent(centre, QPointF(target.mapToGlobal(QPoint(0, 0))) + centre,
                            QPoint(0, 0), QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
        QApplication.sendEvent(target, event)
    return turn


def wheel_frames(viewport: QWidget, steps: int) -> list[Frame]:
    frames = [frame(wheel(viewport, 1)) for _ in range(steps)]
    return frames + [frame(wheel(viewport, -1)) for _ in range(steps)]


def drag_frames(bar: QAbstractSlider) -> list[Frame]:
    """The bar's thumb held and moved from its end to its start and back."""
    bar.setSliderDown(True)
    top = bar.maximum()
    places = [round(top * (1 - n / DRAG_MOVES)) for n in range(1, DRAG_MOVES + 1)]
    frames = []
    for place in [*places, *reversed(places[:-1]), top]:
        frames.append(frame(lambda place=place: bar.setValue(place)))
    bar.setSliderDown(False)
    QEventLoop().processEvents()
    return frames


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def plain_list(turns: int) -> QListView:
    rows = [f"Turn {i}. Question {i}: what about item {i}?\n{ANSWER}" for i in
            range(1, turns + 1)]
    view = QListView()
    view.setModel(QStringListModel(rows, view))
    view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    view.verticalScrollBar().setSingleStep(24)
    view.resize(1000, 640)
    view.show()
    view.scrollToBottom()
    return view


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(["turnlog-bench"])
    with tempfile.TemporaryDirectory(prefix="turnlog-bench-") as home:
        os.environ["TURNLOG_HOME"] = home
        subprocess.run([sys.executable, str(Path(__file__).with_name("window.py")),
                        "--turns", str(args.turns), "--seed-only", home], check=True)
        store = TurnlogStore.open(Path(home))
        big = sorted(store.conversations(), key=lambda c: c.id)[1].id
        window = MainWindow(store, TaskRunner(), loopback_connector("http://127.0.0.1:9/v1"))
        window.resize(1280, 720)
        window.show()
        wait(app, lambda: window.conversation is not None)
        assert window.sidebar.select(big)
        wait(app, lambda: len(window.transcript.turns) == args.turns)
        settle(app)
        plain = plain_list(args.turns)
        settle(app, 0.5)
        figures: dict[str, list[tuple[float, float, float]]] = {}
        for _ in range(args.runs):
            for name, viewport, bar in (
                    ("plain", plain.viewport(), plain.verticalScrollBar()),
                    ("turnlog", window.view.viewport(), window.view.history_bar)):
                for kind, frames in (("wheel", wheel_frames(viewport, args.steps)),
                                     ("drag", drag_frames(bar))):
                    walls, busy = [wall for wall, _ in frames], [cpu for _, cpu in frames]
                    figures.setdefault(f"{name} {kind}", []).append(
                        (p99(walls), statistics.median(walls), p99(busy)))
            window.view.show_newest()
            settle(app, 0.3)

        def med(key: str, which: int) -> float:
            return statistics.median(run[which] for run in figures[key])

        print(f"wheel, {args.steps} steps up and down through {args.turns:,} turns: p99 frame "
              f"{med('turnlog wheel', 0):6.1f} ms (p50 {med('turnlog wheel', 1):.1f}; GUI thread "
              f"busy p99 {med('turnlog wheel', 2):.1f})   "
              f"(plain QListView: p99 {med('plain wheel', 0):.1f} ms, p50 "
              f"{med('plain wheel', 1):.1f}; ratio "
              f"{med('turnlog wheel', 0) / max(0.1, med('plain wheel', 0)):.2f}×; goal ≤ 16 ms "
              f"and ≤ 1.5×; medians of {args.runs})")
        print(f"drag of the whole-log bar, {DRAG_MOVES} moves each way: p99 frame "
              f"{med('turnlog drag', 0):6.1f} ms (p50 {med('turnlog drag', 1):.1f}; GUI thread "
              f"busy p99 {med('turnlog drag', 2):.1f})   "
              f"(plain QListView's bar: p99 {med('plain drag', 0):.1f} ms, p50 "
              f"{med('plain drag', 1):.1f}; goal ≤ 33 ms)")
        plain.close()
        window.shutdown()
        window.close()
        window.deleteLater()
        QEventLoop().processEvents()
        store.close()
    app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
