"""Answers that would freeze the window — a table of 10,000 columns, 100,000 formulas, a
1000×1000 matrix, quotes and lists nested a thousand deep, a code block of a megabyte —
render through the window's own transcript in slices: the GUI thread is never held for
long, the answer is complete on screen within seconds (past a limit as plain text, after
a note saying why), and nothing of its text is lost. Real window, offscreen."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QTimer

from peaks import peak_memory_kib, reset_peak_memory
from turnlog.ui.transcript.model import Role
from uihelpers import seed
from window_sending import open_window

pytest_plugins = ["uiwindow"]

SLICE_CPU_S = 0.05  # the GUI thread's longest block (its own CPU time, so load cannot skew it)
SLICE_WALL_S = 1.0  # the same on the wall clock: generous, for a loaded machine
NOTE = "The rest of this answer is shown as plain text"


def table(columns: int) -> str:
    return ("Wide:\n\n" + "|" + "|".join("ab" for _ in range(columns)) + "|\n"
            + "|" + "|".join("-" for _ in range(columns)) + "|\n")


def formulas(count: int) -> str:
    return "Many: " + " ".join(f"$x_{{{n % 7}}}$" for n in range(count)) + " end."


def matrix(size: int) -> str:
    rows = " \\\\ ".join(" & ".join("1" for _ in range(size)) for _ in range(size))
    return f"A matrix:\n\n$$\\begin{{pmatrix}} {rows} \\end{{pmatrix}}$$\n\nAfter it."


BOMBS = {
    "table of 10,000 columns": (table(10_000), "a table of more than 32 columns"),
    "100,000 inline formulas": (formulas(100_000), "more than 60 formulas without a break"),
    "1000×1000 matrix": (matrix(1_000), "16,000 characters"),
    "quotes 1000 deep": (">" * 1_000 + " deep\n\nafter", "nested more than 16 deep"),
    "lists 1000 deep": ("".join("  " * n + "- item\n" for n in range(1_000)), "nested"),
    "a code block of a megabyte": ("```\n" + "x = 1\n" * 170_000 + "```\n", "800 lines"),
}


class Heartbeat:
    """A timer that ticks as often as the GUI thread lets it: the gaps between ticks are
    how long the thread was held."""

    def __init__(self) -> None:
        self.ticks: list[tuple[float, float]] = []
        self.timer = QTimer()
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        self.ticks.append((time.perf_counter(), time.thread_time()))

    def start(self) -> None:
        self._tick()
        self.timer.start()

    def stop(self) -> tuple[float, float]:
        """(longest wall-clock gap, longest gap in the GUI thread's own CPU time)."""
        self.timer.stop()
        self._tick()
        pairs = list(zip(self.ticks, self.ticks[1:], strict=False))
        return (max(b[0] - a[0] for a, b in pairs), max(b[1] - a[1] for a, b in pairs))


def answer_shown(window) -> object:
    delegate = window.view.delegate
    index = window.transcript.index(0)
    answer = delegate._answers.get(str(index.data(Role.KEY)))
    finished = answer is not None and getattr(answer, "done", True) \
        and not getattr(delegate, "_unfinished", None)
    # and its formulas typeset and put in place (that renders its sections again)
    typeset = not delegate.formulas.waiting and answer is not None and not answer.awaiting
    return answer if finished and typeset else None


@pytest.mark.parametrize("name", list(BOMBS))
def test_a_hostile_answer_renders_in_slices(qtbot, make_window, store, name):
    text, why = BOMBS[name]
    window, _cid = open_window(qtbot, make_window, store, [("Hello", "A short answer.")])
    bomb = seed(store, "bomb", [("Render this", text)])
    # The transcript paints nothing while the conversation loads: what is measured is
    # the answer's rendering, from its first paint (not the request preview's work).
    window.view.viewport().setUpdatesEnabled(False)
    window.refresh_conversations(select_id=bomb.id)
    qtbot.waitUntil(lambda: window.conversation.id == bomb.id
                    and len(window.transcript.turns) == 1, timeout=20_000)
    qtbot.wait(200)
    held = reset_peak_memory()
    heartbeat = Heartbeat()
    heartbeat.start()
    started = time.perf_counter()
    window.view.viewport().setUpdatesEnabled(True)
    window.view.viewport().update()
    qtbot.waitUntil(lambda: answer_shown(window) is not None, timeout=30_000)
    took = time.perf_counter() - started
    wall, cpu = heartbeat.stop()
    assert cpu <= SLICE_CPU_S, f"the GUI thread was held {cpu * 1000:.0f} ms at once"
    assert wall <= SLICE_WALL_S, f"the window froze {wall * 1000:.0f} ms"
    assert took < 30
    shown = answer_shown(window).plain_text()
    assert NOTE in shown and why in shown, shown[:300]
    tail = text.rstrip()[-200:]  # nothing is lost: the end is there, as plain text
    assert tail in shown.replace("\n", "") or tail.replace("\n", "") in shown.replace("\n", "")
    assert peak_memory_kib() - held < 500 * 1024  # what this answer took
