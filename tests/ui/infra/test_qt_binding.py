"""The Qt binding itself must not leak or drop references: a long session makes millions of
Qt calls, and one dropped reference to None per call ends the process ("deallocating None")
on Python before 3.12. PySide6 6.12.0 did this; pyproject.toml keeps it out."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QApplication, QLabel

CALLS = 2_000


@pytest.mark.skipif(sys.version_info >= (3, 12),
                    reason="None is immortal from Python 3.12 on: its count cannot run out")
def test_qt_calls_that_return_nothing_keep_none_alive(qapp: QApplication):
    label = QLabel()
    before = sys.getrefcount(None)
    for _ in range(CALLS):
        label.setText("x")
        qapp.processEvents()
    lost = before - sys.getrefcount(None)
    # A few references may come and go with whatever the event loop ran; one per call
    # (2 × CALLS) is the binding's bug.
    assert lost < CALLS // 10, f"{lost} references to None lost over {2 * CALLS} Qt calls"
