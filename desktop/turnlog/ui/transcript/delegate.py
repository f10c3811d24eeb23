"""The transcript's delegate: paints each row from cached documents and answers where its
parts are (header controls, code blocks, the reasoning fold)."""

from __future__ import annotations

import contextlib
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QGuiApplication,
    QMouseEvent,
    QPainter,
    QPalette,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from ..infra.fonts import cjk_family
from .answer import RENDER_BUDGET, AnswerDocument
from .files import question_shown
from .found import FoundMatches
from .markdown import MathStyle
from .marks import RowMark
from .maths import FormulaImages
from .model import PENDING_KEY, ModelIndex, Role, TranscriptModel
from .pin_marks import underline_pins
from .reasoning_fold import ReasoningFold, fold_of
from .row_header import UNCLICKABLE, HeaderTips, draw_header, header_controls, header_height
from .row_layout import RowGeometry, RowLayout, RowParts, estimated_lines
from .row_sketch import draw_document, draw_sketch, tinted
from .selection import TextSelection, TextSelector, selection_format

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


FRAME_BUDGET = 0.006  # seconds a frame spends building rows it shows for the first time


class TranscriptDelegate(QStyledItemDelegate):
    """Paints a turn from cached documents: question as plain text, answer as Markdown
    (HTML disabled, in sections: `AnswerDocument`). Documents are keyed by the row's turn
    id and part, kept in a bounded cache, never rebuilt during a paint, and only laid out
    again when the width changes. The streaming answer renders only its open tail again
    as it grows, and the committed turn takes over its documents (`adopt_pending`)."""

    CACHE_SIZE = 800
    BAND, PAD, GAP = RowLayout.BAND, RowLayout.PAD, RowLayout.GAP

    # A word in a row's header was clicked: (control name, row). Names: "older", "newer"
    # (step between versions), "use" (use this version), "fork-version" (fork from here
    # with this version), "regenerate", "continue" (the rest of a turn kept incomplete).
    control_clicked = Signal(str, int)
    code_copied = Signal(str)  # a code block's Copy put this text on the clipboard

    def __init__(self, view: QListView, relayout: Callable[[], None] | None = None) -> None:
        super().__init__(view)
        self._view = view
        # Lays the rows out again after heights changed (the view keeps its top row put).
        self._relayout = relayout or view.scheduleDelayedItemsLayout
        # Where a row's parts are; the view tells it the width (`TranscriptView.resizeEvent`).
        self.layout = RowLayout()
        self.layout.set_width(view.viewport().width())
        HeaderTips(view, self.header_controls)  # what a header's icons stand for
        self._docs: OrderedDict[tuple[str, str], QTextDocument] = OrderedDict()
        self._answers: OrderedDict[str, AnswerDocument] = OrderedDict()
        self._pending: AnswerDocument | None = None
        self._pending_row: object = None  # the model's pending row `_pending` shows
        self._pending_measured: tuple[tuple[object, ...], int] | None = None
        # Row key → (viewport width, height) as last laid out: what `sizeHint` answers
        # without building documents, so laying out many rows again costs a lookup each.
        self._heights: dict[str, tuple[int, int]] = {}
        self.formulas = FormulaImages(cjk_family(view.font()), self)
        self.formulas.landed.connect(self._formulas_ready)
        self.reasoning = ReasoningFold(self._new_doc)
        self.selector = TextSelector(self)  # the text selected in a row, painted here
        self.found = FoundMatches(self)  # a search's matches in the turn it opened
        self.found.changed.connect(view.viewport().update)
        self._hovered_code: tuple[str, int] | None = None  # (row key, code block number)
        self._unfinished: dict[str, AnswerDocument] = {}  # long answers rendered in slices
        self._more = QTimer(self)
        self._more.setSingleShot(True)
        self._more.setInterval(0)  # as soon as the events waiting are handled
        self._more.timeout.connect(self._render_more)
        # A frame builds new rows' documents until its deadline; the rows left are
        # sketched and built in the frames that follow (`frame`, `_later`).
        self._frame_deadline, self._frame_built = math.inf, False
        self._next_frame = QTimer(self)
        self._next_frame.setSingleShot(True)
        self._next_frame.timeout.connect(view.viewport().update)

    # ---------------------------------------------------------------- documents
    @contextlib.contextmanager
    def frame(self) -> Iterator[None]:
        """The view paints a frame: new rows' documents are built in it for at most
        FRAME_BUDGET seconds (the rest are sketched, and built in the next frames), so
        dragging through a long conversation never waits for a screenful of layouts."""
        self._frame_deadline, self._frame_built = time.perf_counter() + FRAME_BUDGET, False
        try:
            yield
        finally:
            self._frame_deadline = math.inf

    def _later(self, key: str) -> bool:
        """Whether row `key` is only sketched in this frame: its documents are not built
        and the frame has used its time building others' (each frame builds one at least)."""
        if key == PENDING_KEY or self._laid_out(key):
            return False
        if not self._frame_built or time.perf_counter() < self._frame_deadline:
            self._frame_built = True
            return False
        if not self._next_frame.isActive():
            self._next_frame.start()
        return True

    def clear_cache(self) -> None:
        self._heights.clear()
        self._docs.clear()
        self._answers.clear()
        self.reset_pending()

    def forget(self, key: str) -> None:
        """Drop the documents of one row (a deleted turn, or the finished pending row)."""
        for cache_key in [k for k in self._docs if k[0] == key]:
            del self._docs[cache_key]
        self._answers.pop(key, None)
        self._heights.pop(key, None)
        if key == PENDING_KEY:
            self.reset_pending()
        else:
            self.reasoning.forget(key)

    def reset_pending(self) -> None:
        self._pending = None
        self._pending_row = None
        self._pending_measured = None

    def adopt_pending(self, turn_id: str, answer: str) -> bool:
        """The pending question was saved as turn `turn_id`: its row keeps the documents
        already laid out while it streamed, when they show exactly the saved answer."""
        pending = self._pending
        question = self._docs.pop((PENDING_KEY, "question"), None)
        if question is not None:
            self._docs[(turn_id, "question")] = question
        self.reasoning.rename(PENDING_KEY, turn_id)
        self.selector.rename(PENDING_KEY, turn_id)
        if pending is None:
            return False
        pending.update(answer, RENDER_BUDGET)  # the last streamed characters, if not shown yet
        self._answers[turn_id] = pending
        if not pending.done:
            self._render_later(turn_id, pending)
        self._pending = None
        return True

    def _new_doc(self, width: int) -> QTextDocument:
        doc = QTextDocument(self)
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self._view.font())
        option = QTextOption()
        # Long code lines and URLs wrap rather than run past the row.
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        doc.setDefaultTextOption(option)
        doc.setTextWidth(width)
        return doc

    def _doc(self, key: str, part: str, text: str, width: int) -> QTextDocument:
        """A question's document (plain text)."""
        cache_key = (key, part)
        doc = self._docs.get(cache_key)
        if doc is not None:
            self._docs.move_to_end(cache_key)
            if doc.textWidth() != width:  # made once; a new width only lays it out again
                doc.setTextWidth(width)
            return doc
        doc = self._new_doc(width)
        doc.setPlainText(text)
        self._docs[cache_key] = doc
        while len(self._docs) > self.CACHE_SIZE:
            self._docs.popitem(last=False)
        return doc

    def _answer(self, key: str, text: str, width: int) -> AnswerDocument:
        """A saved answer's Markdown; the pending one's grows with the stream."""
        if key == PENDING_KEY:
            answer = self._pending
            if answer is None:
                answer = self._pending = AnswerDocument(self._new_doc, width, self.math_style)
        else:
            answer = self._answers.get(key)
            if answer is None:
                answer = AnswerDocument(self._new_doc, width, self.math_style)
                self._answers[key] = answer
                while len(self._answers) > self.CACHE_SIZE:
                    self._answers.popitem(last=False)
            else:
                self._answers.move_to_end(key)
        answer.set_width(width)
        answer.update(text, RENDER_BUDGET)
        if not answer.done:
            self._render_later(key, answer)
        return answer

    def _render_later(self, key: str, answer: AnswerDocument) -> None:
        """The rest of a long answer is rendered a slice at a time, between events."""
        self._unfinished[key] = answer
        if not self._more.isActive():
            self._more.start()

    def _render_more(self) -> None:
        """Render a slice of each answer left unfinished (together about one budget's
        time), then measure their rows again."""
        deadline = time.perf_counter() + RENDER_BUDGET
        for key, answer in list(self._unfinished.items()):
            shown = self._pending if key == PENDING_KEY else self._answers.get(key)
            if shown is not answer or answer.advance(
                    max(0.0, deadline - time.perf_counter())):
                del self._unfinished[key]
            self._heights.pop(key, None)
            if time.perf_counter() >= deadline:
                break
        if self._unfinished:
            self._more.start()
        self._relayout()
        self._view.viewport().update()

    def _formulas_ready(self, landed: frozenset[object]) -> None:
        """Typeset formulas arrived (`landed`): the sections that showed one of them as
        typed show it now — only those are rendered again — and their rows are measured
        again (a formula is not as tall as its source)."""
        answers = [*self._answers.items(), *([(PENDING_KEY, self._pending)]
                                             if self._pending else [])]
        changed = [(key, answer) for key, answer in answers if answer.refresh(landed)]
        for key, answer in changed:
            self._render_later(key, answer)
            self._heights.pop(key, None)  # measured again as it is painted
        if changed:
            self._relayout()
            self._view.viewport().update()

    def math_style(self) -> MathStyle:
        """How formulas are typeset now: in the list's text colour, for its screen."""
        return MathStyle(self.formulas, self._view.palette().color(QPalette.ColorRole.Text),
                         self._view.devicePixelRatioF())

    def _content_width(self) -> int:
        return self.layout.content_width

    def _documents(self, index: ModelIndex) -> tuple[QTextDocument, AnswerDocument | None]:
        width = self._content_width()
        key = str(index.data(Role.KEY))
        question = self._doc(key, "question", question_shown(index),
                             self.layout.question_width)
        model = self._view.model()
        if key == PENDING_KEY and isinstance(model, TranscriptModel):
            return question, self._streaming(model, width)
        answer_text = str(index.data(Role.ANSWER) or "")
        if index.data(Role.PENDING) and not answer_text:
            return question, None
        answer = self._answer(key, answer_text, width)
        if isinstance(model, TranscriptModel):  # pins are Python data, not a Qt role value
            underline_pins([question, *answer.documents], model.pins_of(key))
        return question, answer

    def _streaming(self, model: TranscriptModel, width: int) -> AnswerDocument | None:
        """The pending row's answer, given only the text streamed since it was last shown
        (the answer is never copied whole out of the model while it grows)."""
        pending = model.pending
        if pending is None or not pending.answer_length:
            return None
        answer = self._pending
        if answer is None or self._pending_row is not pending \
                or answer.length > pending.answer_length:
            answer = self._pending = AnswerDocument(self._new_doc, width, self.math_style)
            self._pending_row = pending
        answer.set_width(width)
        if answer.length < pending.answer_length:
            answer.append(pending.answer_from(answer.length), RENDER_BUDGET)
            if not answer.done:
                self._render_later(PENDING_KEY, answer)
        return answer

    def geometry(self, option: QStyleOptionViewItem, index: ModelIndex
                 ) -> tuple[RowGeometry, QTextDocument, AnswerDocument | None]:
        """Where the parts of the row at `option.rect` are, with its documents."""
        question, answer = self._documents(index)
        parts = RowParts(header_height(option), int(question.size().height()),
                         self._fold_height(option, index),
                         int(answer.height()) if answer is not None
                         else option.fontMetrics.height())
        return self.layout.place(option.rect, parts), question, answer

    def _placed(self, index: ModelIndex
                ) -> tuple[RowGeometry, QTextDocument, AnswerDocument | None]:
        """The row's geometry where the view shows it (viewport coordinates)."""
        option = QStyleOptionViewItem()
        self._view.initViewItemOption(option)
        option.rect = self._view.visualRect(index)
        return self.geometry(option, index)

    def _answer_origin(self, index: ModelIndex) -> tuple[AnswerDocument | None, QPoint]:
        """A row's answer and where its top left corner is painted (viewport coordinates)."""
        geometry, _question, answer = self._placed(index)
        return answer, geometry.answer_at

    def text_layout(self, index: ModelIndex) -> list[tuple[QTextDocument, QPoint]]:
        """The row's selectable documents — question, then the answer's sections — each
        with the viewport point its top left corner is painted at."""
        geometry, question, answer = self._placed(index)
        origin = geometry.answer_at
        placed = [(question, geometry.question_at)]
        if answer is not None:
            placed += [(doc, QPoint(origin.x(), origin.y() + int(doc_top)))
                       for doc, doc_top in answer.placed()]
        return placed

    def code_index_at(self, index: ModelIndex, point: QPoint) -> int | None:
        """Which code block (by number) of a row's answer is under `point`."""
        answer, origin = self._answer_origin(index)
        if answer is None or not 0 <= point.x() - origin.x() <= answer.width:
            return None
        return answer.code_index_at(point.y() - origin.y())

    def code_at(self, index: ModelIndex, point: QPoint) -> str | None:
        """The text of the code block under `point` (viewport coordinates) in a row's
        answer, if there is one."""
        answer, origin = self._answer_origin(index)
        return answer.code_at(point.y() - origin.y()) if answer is not None else None

    def copy_button_at(self, index: ModelIndex, point: QPoint) -> str | None:
        """The code a code block's *Copy* under `point` copies, if one is there."""
        answer, origin = self._answer_origin(index)
        if answer is None:
            return None
        for rect, text in answer.copy_buttons():
            if rect.translated(origin.x(), origin.y()).contains(point.toPointF()):
                return text
        return None

    def code_blocks(self, index: ModelIndex) -> list[str]:
        """The text of every code block in a row's answer, first to last."""
        _question, answer = self._documents(index)
        return [text for _lang, text, _top, _bottom in answer.code_blocks()] if answer else []

    def header_controls(self, option: QStyleOptionViewItem, index: ModelIndex
                        ) -> list[tuple[str, str, QRect]]:
        """The words after "Turn N" in a row's header, with where they are
        (`row_header.header_controls`)."""
        parts = RowParts(header_height(option), 0, 0, 0)
        return header_controls(option, index, self.layout.place(option.rect, parts).header)

    def editorEvent(self, event: QEvent, model: object, option: QStyleOptionViewItem,  # noqa: N802
                    index: ModelIndex) -> bool:
        """A click on a header word is that control's, not the row's; a click on the
        reasoning line opens or folds it."""
        if event.type() == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent) \
                and event.button() == Qt.MouseButton.LeftButton:
            point = event.position().toPoint()
            line = self._fold_line(option, index)
            if line is not None and line.contains(point):
                self.toggle_reasoning(index)
                return True
            for name, _text, rect in self.header_controls(option, index):
                if name not in UNCLICKABLE and rect.contains(point):
                    self.control_clicked.emit(name, index.row())
                    return True
            code = self.copy_button_at(index, point) if not index.data(Role.PENDING) else None
            if code is not None:
                QGuiApplication.clipboard().setText(code)
                self.code_copied.emit(code)
                return True
        return super().editorEvent(event, model, option, index)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ layout
    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:  # noqa: N802
        """The height the row was last laid out at; a row never laid out at this width
        gets an estimate (its height at another width, else one from its text's length)
        and its true height when it is first painted (`_measured`). So laying out every
        row again (a new width, a streaming row that grew) builds no documents."""
        width = self.layout.viewport_width
        key = str(index.data(Role.KEY))
        known = self._heights.get(key)
        if key == PENDING_KEY:
            return QSize(width, self._pending_height(option, index))
        if known is not None and (known[0] == width or not self._laid_out(key)):
            return QSize(width, known[1])
        elif known is None and not self._laid_out(key):
            estimate = self._estimate(option, index)
            self._heights[key] = (width, estimate)  # until it is painted
            return QSize(width, estimate)
        geometry, _question, _answer = self.geometry(option, index)
        self._heights[key] = (width, geometry.height)
        return QSize(width, geometry.height)

    def _pending_height(self, option: QStyleOptionViewItem, index: ModelIndex) -> int:
        """The pending row's height, measured again only when what it shows changed (the
        view asks for it many times an update)."""
        model = self._view.model()
        pending = model.pending if isinstance(model, TranscriptModel) else None

        def state() -> tuple[object, ...]:
            answer = self._pending
            return (self.layout.viewport_width, option.fontMetrics.height(), pending,
                    pending.answer_length if pending else 0,
                    len(pending.reasoning) if pending else 0,
                    self.reasoning.is_open(PENDING_KEY), answer,
                    answer.revision if answer is not None else 0)

        known = self._pending_measured
        if pending is None or known is None or known[0] != state():
            height = self.geometry(option, index)[0].height
            known = self._pending_measured = (state(), height)
        return known[1]

    def _laid_out(self, key: str) -> bool:
        """Whether the row's documents are built (measuring it again is cheap then)."""
        return (key, "question") in self._docs and key in self._answers

    def _estimate(self, option: QStyleOptionViewItem, index: ModelIndex) -> int:
        """A row's height from its text's length, before its documents are built: lines of
        average characters at the content width (a CJK character counts as two)."""
        metrics = option.fontMetrics
        average = max(1, metrics.averageCharWidth())
        line = metrics.lineSpacing()
        question = estimated_lines(question_shown(index), self.layout.question_width, average)
        answer = estimated_lines(str(index.data(Role.ANSWER) or ""), self._content_width(),
                                 average)
        parts = RowParts(header_height(option), question * line, 0,
                         int(answer * line * 1.2))
        return self.layout.place(option.rect, parts).height

    def _measured(self, key: str, height: int) -> None:
        """A painted row's true height; when its hint said otherwise, the rows are laid
        out again (from the heights known, so that is cheap)."""
        if key == PENDING_KEY:
            return
        width = self.layout.viewport_width
        if self._heights.get(key) != (width, height):
            self._heights[key] = (width, height)
            self._relayout()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        palette = option.palette
        rect = QRect(option.rect)
        painter.save()
        try:
            # Tints are mixed with what is under them and filled opaque (`tinted`).
            under = palette.color(QPalette.ColorRole.Base)
            if option.state & QStyle.StateFlag.State_Selected:
                under = tinted(palette.color(QPalette.ColorRole.Highlight), 40, under)
                painter.fillRect(rect, under)
            mark = index.data(Role.MARK)
            band = QRect(rect.left(), rect.top() + 2, self.BAND, rect.height() - 4)
            if isinstance(mark, RowMark):
                color = mark.color(palette)
                painter.fillRect(band, tinted(color, 110, under)
                                 if mark is RowMark.NOT_SENT else color)
            if self._later(str(index.data(Role.KEY))):
                draw_sketch(painter, option, index, self.layout)
                return
            geometry, question, answer = self.geometry(option, index)
            if geometry.height != rect.height():
                self._measured(str(index.data(Role.KEY)), geometry.height)
            left, width = geometry.header.left(), geometry.content_width

            pending = bool(index.data(Role.PENDING))
            draw_header(painter, option, index, geometry.header,
                        [] if pending else self.header_controls(option, index))
            dim = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText)
            # The question sits in a tinted box so question and answer read apart.
            box = geometry.question_box
            tint = QColor(palette.color(QPalette.ColorRole.AlternateBase))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(tint)
            painter.drawRoundedRect(box, 6, 6)
            visible = rect.intersected(self._view.viewport().rect())
            key = str(index.data(Role.KEY))
            selection = self.selector.selection
            if selection is not None and selection.key != key:
                selection = None
            marks = self._marks(key, question, answer, selection, palette)
            draw_document(painter, question, geometry.question_at.x(),
                           geometry.question_at.y(), palette, visible, marks.get(0))
            self._draw_fold(painter, option, index, geometry.fold, visible)
            top = geometry.answer_at.y()
            if answer is not None:
                answer.draw(painter, left, top, palette, visible, hovered=self._hovered(key),
                            selected={n - 1: m for n, m in marks.items() if n})
            else:
                painter.setFont(option.font)
                painter.setPen(dim)
                painter.drawText(QRect(left, top, width, option.fontMetrics.height()),
                                 Qt.AlignmentFlag.AlignLeft,
                                 translate("Transcript", "Waiting for the answer…"))
            if option.state & QStyle.StateFlag.State_HasFocus:
                pen_color = QColor(palette.color(QPalette.ColorRole.Highlight))
                painter.setPen(pen_color)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect.adjusted(0, 0, -1, -1))
        finally:
            painter.restore()

    # -------------------------------------------------------------- reasoning
    def _fold_height(self, option: QStyleOptionViewItem, index: ModelIndex) -> int:
        return self.reasoning.height(str(index.data(Role.KEY)), fold_of(index)[0],
                                     self._content_width(), option.fontMetrics.height(),
                                     self.GAP)

    def _draw_fold(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex,
                   area: QRect, visible: QRect) -> None:
        """Draw the fold (if the row has reasoning or tool calls) at `area`."""
        text, tools = fold_of(index)
        if not text:
            return
        painter.setFont(option.font)
        streaming = bool(index.data(Role.PENDING)) and not index.data(Role.ANSWER)
        self.reasoning.draw(painter, str(index.data(Role.KEY)), text, area,
                            option.fontMetrics.height(), self.GAP, option.palette, streaming,
                            visible, tools)

    def _fold_line(self, option: QStyleOptionViewItem, index: ModelIndex) -> QRect | None:
        """Where the fold's line is in the row (None without reasoning or tool calls)."""
        if not fold_of(index)[0]:
            return None
        fold = self.geometry(option, index)[0].fold
        return QRect(fold.left(), fold.top(), fold.width(), option.fontMetrics.height())

    def toggle_reasoning(self, index: ModelIndex) -> bool:
        """Open or fold the row's reasoning; returns whether it is open now."""
        key = str(index.data(Role.KEY))
        opened = self.reasoning.toggle(key)
        self._heights.pop(key, None)
        self.sizeHintChanged.emit(QModelIndex(index))
        return opened

    def _marks(self, key: str, question: QTextDocument, answer: AnswerDocument | None,
               selection: TextSelection | None, palette: QPalette
               ) -> dict[int, list[QAbstractTextDocumentLayout.Selection]]:
        """What is painted over the row's documents (0 the question, 1… the answer's
        sections): a search's matches, then the text selected on top of them."""
        docs = [question, *(answer.documents if answer is not None else [])]
        marks = self.found.selections(key, docs)
        for number, chosen in self._selected(docs, selection, palette).items():
            marks[number] = [*marks.get(number, []), *chosen]
        return marks

    @staticmethod
    def _selected(docs: Sequence[QTextDocument], selection: TextSelection | None,
                  palette: QPalette, first: int = 0
                  ) -> dict[int, list[QAbstractTextDocumentLayout.Selection]]:
        """How the selected part of each of `docs` (the row's documents from number
        `first` on: 0 the question, 1… the answer's sections) is drawn, by place in
        `docs`."""
        if not selection:
            return {}
        found = {}
        for number, doc in enumerate(docs):
            span = selection.range_in(number + first, doc)
            if span is not None:
                found[number] = selection_format(doc, span, palette)
        return found

    @property
    def hovered_code(self) -> tuple[str, int] | None:
        """The code block under the pointer: (row key, its number), if any."""
        return self._hovered_code

    def hover_code(self, hovered: tuple[str, int] | None) -> bool:
        """The pointer is over code block `hovered` (None: over none); True when that
        changed what is shown."""
        changed = hovered != self._hovered_code
        self._hovered_code = hovered
        return changed

    def _hovered(self, key: str) -> int | None:
        """The code block under the pointer in row `key` (by number), if any."""
        hovered = self._hovered_code
        return hovered[1] if hovered is not None and hovered[0] == key else None
