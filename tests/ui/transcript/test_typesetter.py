"""The typesetter's process: a deadline per formula, a memory limit, restarted past them,
no formula blocking the next; and it dies with the window, however the window ends."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from hostile_mcp import wait_gone
from turnlog.ui.transcript.typesetter import Typesetter

MATRIX = ("\\begin{pmatrix}" + "\\\\".join("&".join(["x"] * 1000) for _ in range(1000))
          + "\\end{pmatrix}")
FRACTIONS = "\\frac{" * 5000 + "1" + "}{2}" * 5000


@pytest.fixture
def typesetter():
    made = Typesetter()
    yield made
    made.close()


def typeset(typesetter: Typesetter, latex: str, timeout: float = 30) -> tuple[object, float]:
    answers: queue.Queue[object] = queue.Queue()
    started = time.monotonic()
    typesetter.submit(latex, False, 16.0, "#000000", None, answers.put)
    return answers.get(timeout=timeout), time.monotonic() - started


def peak_memory_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="utf-8") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def test_a_formula_is_typeset_as_svg(typesetter):
    result, _took = typeset(typesetter, "a^2 + \\frac{1}{2}")
    assert isinstance(result, tuple)
    svg, width, ascent, descent = result
    assert svg.startswith("<svg") and width > 0 and ascent > 0


def test_a_1000_by_1000_matrix_is_stopped_at_its_deadline_and_the_next_formula_is_not_blocked(
        typesetter):
    typesetter.submit(MATRIX, True, 16.0, "#000000", None, lambda _result: None)
    result, took = typeset(typesetter, "b^3", timeout=60)
    assert isinstance(result, tuple), result  # the formula after it, typeset
    assert took < 30
    matrix, took = typeset(typesetter, MATRIX, timeout=60)
    assert isinstance(matrix, str)
    assert "took longer than 5 s" in matrix or "more memory" in matrix
    assert took < 30
    assert typesetter.restarts >= 1
    pid = typesetter.pid
    after, _took = typeset(typesetter, "c_1")
    assert isinstance(after, tuple)
    assert typesetter.pid is not None and typesetter.pid != pid  # a new process


def test_a_huge_fraction_nesting_is_named_and_costs_little(typesetter):
    result, took = typeset(typesetter, FRACTIONS)
    assert result == "it is nested too deeply"
    assert took < 30
    pid = typesetter.pid
    if pid is not None:
        assert peak_memory_kib(pid) < 500 * 1024


def test_a_formula_needing_more_memory_than_the_limit_is_shown_as_typed():
    small = Typesetter(address_space=70 * 1024 * 1024, deadline_s=25)
    try:
        result, took = typeset(small, "x+" * 500_000, timeout=60)
        assert result == "it needs more memory than the typesetter may use"
        assert took < 30
        after, _took = typeset(small, "x+y")
        assert isinstance(after, tuple)
    finally:
        small.close()


def test_a_killed_typesetter_is_started_again_for_the_next_formula(typesetter):
    typeset(typesetter, "a")
    os.kill(typesetter.pid, signal.SIGKILL)
    result, _took = typeset(typesetter, "b^2")
    assert isinstance(result, tuple)


WINDOW = textwrap.dedent("""
    import os, sys, time
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from turnlog.ui.transcript.maths import FormulaImages
    images = FormulaImages()
    images.get("a^2", display=False, pixels=16.0, colour=QColor("black"), ratio=1.0)
    deadline = time.monotonic() + 60
    while images.waiting and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    print("typeset", flush=True)
    time.sleep(600)
""")


def descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as stat:
                    text = stat.read()
            except OSError:
                continue
            parents[int(entry)] = int(text[text.rfind(")") + 2:].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def test_the_typesetter_dies_within_2_s_of_a_kill_9_of_its_window():
    window = subprocess.Popen([sys.executable, "-c", WINDOW], stdout=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        assert window.stdout is not None
        assert window.stdout.readline().strip() == "typeset"
        left = descendants(window.pid)
        assert left, "no typesetter process was found"
        window.kill()
        window.wait(10)
        survivors = {pid for pid in left if not wait_gone(pid, 2)}
        assert survivors == set(), "the typesetter outlived its window"
    finally:
        if window.poll() is None:
            window.kill()
            window.wait()
        if window.stdout is not None:
            window.stdout.close()
