"""`turnlog --smoke-test`: proof that an installed Turnlog works end to end.

The window (on a temporary data directory, set up by the caller) asks the built-in model
one question the way a person would — the question typed into the composer and sent with
no conversation open — and, once the answer is committed, typesets one formula the way an
answer's maths is (in the typesetter's own process, with the fonts the package carries);
the run passes when both are done and the turn can be read back from the database file
after the window has closed. Each step is printed,
so a failing run in CI says where it stopped.
"""

from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from ...core.outcome import Committed
from ...localmodel import available
from ...store import TurnlogStore
from ..request.send_session import SendResult
from ..transcript.maths import Formula

if TYPE_CHECKING:
    from .window import MainWindow

QUESTION = "Say hello in five words or fewer."
TIMEOUT_S = 300.0
FORMULA = r"\sum_{k=1}^{n} k = \frac{n(n+1)}{2}"
FORMULA_TIMEOUT_S = 60.0


def say(text: str) -> None:
    print(f"smoke test: {text}", flush=True)


class SmokeRun(QObject):
    """Drives one send in `window` and ends the event loop with 0 (committed) or 1."""

    def __init__(self, window: MainWindow, *, timeout_s: float = TIMEOUT_S) -> None:
        super().__init__(window)
        self.window = window
        self.timeout_s = timeout_s
        self.started = time.monotonic()
        self.answer = ""
        window.session.finished.connect(self._finished)
        window.session.stage_entered.connect(lambda _stage, words: say(f"stage: {words}"))

    def exec(self, app: QApplication) -> int:
        """Send the question and run the event loop until the answer is in (or not)."""
        profile = self.window.setup.active() if self.window.setup is not None else None
        if profile is None or not profile.builtin:
            say("FAILED: the built-in model's profile is not the active one")
            return 2
        check = available()
        if not check.ok:
            say(f"FAILED: the built-in model cannot run here: {check.reason}")
            return 2
        say(f"model file {check.model_path}")
        previous_hook = sys.excepthook

        def on_bug(kind: type[BaseException], error: BaseException,
                   tb: TracebackType | None) -> None:
            traceback.print_exception(kind, error, tb)
            app.exit(3)

        sys.excepthook = on_bug
        self.window.composer.set_draft(QUESTION)
        QTimer.singleShot(0, self.window.send)
        QTimer.singleShot(int(self.timeout_s * 1000), lambda: self._give_up(app))
        say(f"asking {profile.name!r}: {QUESTION!r}")
        try:
            return app.exec()
        finally:
            sys.excepthook = previous_hook

    def _give_up(self, app: QApplication) -> None:
        say(f"FAILED: no answer within {self.timeout_s:.0f} s")
        app.exit(1)

    def _finished(self, result: SendResult) -> None:
        outcome = result.outcome
        seconds = time.monotonic() - self.started
        if isinstance(outcome, Committed):
            self.answer = outcome.turn.answer
            say(f"answer committed as turn {outcome.turn.ordinal} after {seconds:.1f} s: "
                f"{self.answer[:80]!r}")
            self._typeset()
        else:
            failure = outcome.failure
            say(f"FAILED after {seconds:.1f} s: {failure.name}: {failure.detail} {failure.hint}")
            QApplication.exit(1)

    def _typeset(self) -> None:
        """One formula through the transcript's typesetter; the run ends when it is in."""
        formulas = self.window.view.delegate.formulas
        started = time.monotonic()
        ended: list[bool] = []

        def look() -> None:
            if ended:
                return
            formula = formulas.get(FORMULA, display=True, pixels=16.0, colour=QColor("black"),
                                   ratio=1.0)
            if formula is None:
                if time.monotonic() - started > FORMULA_TIMEOUT_S:
                    say(f"FAILED: no formula typeset within {FORMULA_TIMEOUT_S:.0f} s")
                    QApplication.exit(1)
                return
            ended.append(True)
            if isinstance(formula, Formula):
                say(f"maths typeset: {formula.width:.0f}×{formula.ascent + formula.descent:.0f}"
                    f" px after {time.monotonic() - started:.1f} s")
                QApplication.exit(0)
            else:
                say(f"FAILED: the formula was not typeset: {formula}")
                QApplication.exit(1)

        formulas.ready.connect(look)
        look()
        QTimer.singleShot(int(FORMULA_TIMEOUT_S * 1000) + 100, look)

    def check_committed(self, home: Path) -> int:
        """Read the database back once the window has closed: exactly one conversation
        with one turn holding the answer."""
        with TurnlogStore.open(home, readonly=True) as store:
            conversations = store.conversations()
            turns = [turn for c in conversations for turn in store.turns(c.id)]
        if len(turns) != 1 or turns[0].answer != self.answer or not self.answer:
            say(f"FAILED: the database holds {len(turns)} turns in {len(conversations)} "
                "conversations, not the one answered")
            return 1
        say("passed: 1 turn committed and read back from the database")
        return 0
