"""What a streaming answer costs the window per piece does not grow with the answer.

The real model, view and delegate: an answer streams into the pending row, and one more
piece is measured (the row laid out again and painted) once the answer is 20,000
characters long (tens of sections) and again at ten times that. Counted, not timed: the documents
measured (`size`, the margins between sections) and the answer's characters read out of
the model. A formula arriving renders again only the sections that showed it as typed.
"""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtGui import QColor, QFontInfo, QTextDocument
from PySide6.QtWidgets import QApplication

from turnlog.ui.transcript import answer as answer_module
from turnlog.ui.transcript import delegate as delegate_module
from turnlog.ui.transcript.answer import RENDER_BUDGET, AnswerDocument, section_ends
from turnlog.ui.transcript.markdown import MATH_SCALE, MathStyle
from turnlog.ui.transcript.maths import FormulaImages
from turnlog.ui.transcript.model import PENDING_KEY, Role, TranscriptModel
from turnlog.ui.transcript.view import TranscriptView

PARAGRAPH = "Some words of an answer, **bold** here and `code` there, 中文 too. " * 8 + "\n\n"


class Counts:
    measured = 0  # a document asked for its size or the margins at its edges
    made = 0  # documents made


class CountedDocument(QTextDocument):
    """A real document that counts how often it is measured."""

    def size(self):  # noqa: ANN201
        Counts.measured += 1
        return super().size()

    def firstBlock(self):  # noqa: ANN201, N802
        Counts.measured += 1
        return super().firstBlock()

    def lastBlock(self):  # noqa: ANN201, N802
        Counts.measured += 1
        return super().lastBlock()


class CountingModel(TranscriptModel):
    """The transcript's model, counting the answer characters read out of it."""

    copied = 0

    def data(self, index, role=0):  # noqa: ANN001, ANN201
        value = super().data(index, role)
        if isinstance(value, str) and role in (Role.ANSWER, 0):
            CountingModel.copied += len(value)
        return value


def counted_new_doc(self, width: int) -> QTextDocument:  # noqa: ANN001
    Counts.made += 1
    doc = CountedDocument(self)
    doc.setDocumentMargin(0)
    doc.setDefaultFont(self._view.font())
    doc.setTextWidth(width)
    return doc


def stream_until(qtbot, model: TranscriptModel, view: TranscriptView, length: int) -> None:
    """Stream paragraphs until the answer is `length` characters long, all rendered."""
    while len(model.pending.answer) < length:
        model.append_pending(PARAGRAPH * 5)
        view.executeDelayedItemsLayout()
    sections = len(list(section_ends(model.pending.answer))) + 1
    index = model.index(model.rowCount() - 1)
    qtbot.waitUntil(lambda: len(view.delegate.text_layout(index)) - 1 == sections,
                    timeout=20_000)
    for _settle in range(2):  # (the whole-log bar shows once the rows overflow)
        view.scroll_to_newest()
        view.executeDelayedItemsLayout()
        view.viewport().repaint()
        QApplication.processEvents()


def one_piece(model: TranscriptModel, view: TranscriptView, piece: str) -> tuple[int, int]:
    """What one streamed piece costs: (measurements, answer characters read)."""
    Counts.measured, CountingModel.copied = 0, 0
    model.append_pending(piece)
    view.executeDelayedItemsLayout()
    view.viewport().repaint()
    QApplication.processEvents()
    return Counts.measured, CountingModel.copied


def test_a_streamed_piece_costs_the_same_in_a_short_and_a_long_answer(qtbot, monkeypatch):
    monkeypatch.setattr(delegate_module.TranscriptDelegate, "_new_doc", counted_new_doc)
    view = TranscriptView()
    qtbot.addWidget(view)
    model = CountingModel()
    view.setModel(model)
    view.resize(700, 500)
    view.show()
    qtbot.waitExposed(view)
    model.start_pending("Write at length, please.")
    piece = "Another few words"

    # (The first piece after a long stretch also finds the rows' range changed: the
    # pieces measured follow it.)
    stream_until(qtbot, model, view, 20_000)
    short = [one_piece(model, view, f" {piece} {n}") for n in range(4)][1:]
    stream_until(qtbot, model, view, 200_000)
    long = [one_piece(model, view, f" {piece} {n}") for n in range(4)][1:]

    assert len(model.pending.answer) > 200_000
    assert view.delegate.text_layout(model.index(model.rowCount() - 1))  # it is shown
    short_measured, short_copied = max(m for m, _ in short), max(c for _, c in short)
    long_measured, long_copied = max(m for m, _ in long), max(c for _, c in long)
    # The sections already placed are not measured again, nor walked through to paint.
    assert long_measured <= short_measured + 2, (short, long)
    # Only what arrived is read out of the model: never the whole answer.
    assert long_copied <= short_copied + 10 and long_copied < 1_000, (short, long)
    assert model.index(model.rowCount() - 1).data(Role.KEY) == PENDING_KEY


def test_a_formula_arriving_renders_again_only_the_sections_that_waited_for_it(qtbot):
    images = FormulaImages()
    style = MathStyle(images, QColor("black"), 1.0)
    made: list[QTextDocument] = []

    def new_doc(width: int) -> QTextDocument:
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setTextWidth(width)
        made.append(doc)
        return doc

    filler = "word " * 450 + "\n\n"  # longer than a section: each formula's its own
    text = (f"First $a_{{17}}^2$ here.\n\n{filler}Then $b_{{23}}^3$.\n\n{filler}"
            f"No formula.\n\n{filler}Last $c_{{31}}$ and $a_{{17}}^2$ again.\n")
    answer = AnswerDocument(new_doc, 600, lambda: style)
    answer.update(text)
    assert len(answer.documents) == 4 and answer.awaiting
    pixels = float(QFontInfo(made[0].defaultFont()).pixelSize()) * MATH_SCALE[False]
    first = images.key("a_{17}^2", display=False, pixels=pixels, colour=style.colour,
                       ratio=style.ratio)

    made.clear()
    assert answer.refresh(frozenset({first}))
    answer.advance()
    assert len(made) == 2  # the first section and the last, which both show it
    assert answer.awaiting  # the other formulas are still on their way
    made.clear()
    assert not answer.refresh(frozenset({("x", False, 1.0, "#000000", 1.0)}))
    answer.advance()
    assert made == []  # a formula no section waits for renders nothing again


def test_a_streamed_piece_renders_again_about_a_frame_of_sections_whose_formulas_arrived(
        qtbot, monkeypatch):
    """Formulas that arrived while an answer streams are shown by rendering their sections
    again a slice at a time: the next streamed piece renders about a frame's worth of them
    (each document here costs 5 ms of a clock of the test's own), the rest between
    events, so a piece never holds the window for all of them at once."""
    clock = [0.0]
    monkeypatch.setattr(answer_module, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    images = FormulaImages()
    style = MathStyle(images, QColor("black"), 1.0)
    made: list[QTextDocument] = []

    def new_doc(width: int) -> QTextDocument:
        clock[0] += 0.005
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setTextWidth(width)
        made.append(doc)
        return doc

    filler = "word " * 450 + "\n\n"  # longer than a section: each formula's its own
    text = "".join(f"Formula $x_{{{n}}}^2$ here.\n\n{filler}" for n in range(5))
    answer = AnswerDocument(new_doc, 600, lambda: style)
    answer.update(text)
    assert len(answer.documents) >= 5 and answer.awaiting
    assert answer.refresh()  # every formula arrived (none is typeset in this test)
    made.clear()
    answer.append("More words", RENDER_BUDGET)
    assert 1 <= len(made) <= 2, len(made)
    assert not answer.done  # the rest is rendered between events
    while not answer.advance(RENDER_BUDGET):
        pass
    assert answer.text == text + "More words"
