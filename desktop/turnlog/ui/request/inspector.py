"""The request inspector: what the last request (or the preview) carried, measured on the
exact body, plus a what-if slider for the byte limit that sends and saves nothing."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.attachments import Attachment, Question, describe
from ...core.cost import Prices
from ...core.failures import Failure
from ...core.model import Usage
from ...core.numbers import TurnNumbers
from ...core.projection import PartKind, Projection, ProjectionRefused
from ...core.request_record import RequestRecord
from ...core.summaries import StoredSummary
from ..infra import failure_text
from ..infra.languages import arg, capitalized, number, plural
from ..transcript.marks import (
    incomplete_label,
    summary_caption,
    usage_text,
)
from .attachment_rows import Thumbnails, file_rows
from .inspector_text import (
    IN_FLIGHT,
    NO_VERSIONS,
    NOTHING_YET,
    PART_NAMES,
    cost_words,
    count_kind,
    pretty_body,
    reasoning_text,
    refusal_text,
    sampling_text,
    turn_number,
    turns_text,
    usage_words,
    window_text,
)
from .memory_rows import memory_rows
from .what_if import WhatIf


@dataclass(frozen=True, slots=True)
class InspectorState:
    """Everything the inspector shows, gathered by the window."""

    heading: str
    projection: Projection | None
    refusal: ProjectionRefused | None
    record: RequestRecord | None
    failure: Failure | None
    usage: Usage | None
    duration_s: float | None
    endpoint: str
    max_bytes: int | None  # the conversation's real byte limit
    what_if: int | None
    asked: int | None
    compaction: bool
    # The stored rolling summary the projection carries (its provenance), and the turns a
    # send would first fold into a summary (previews only).
    summary: StoredSummary | None = None
    to_summarize: tuple[tuple[int, int], ...] = ()  # inclusive runs of ordinals
    # How the endpoint's counts are made when not plainly estimated: "exact",
    # "estimated, calibrated from 3 replies".
    count_label: str = ""
    # What a reasoning model thought before the last answer (kept with the turn).
    reasoning: str = ""
    outcome: str = ""  # how the request ended, in words, where the fields above cannot say
    # A preview's reason it is not what Send would put on the wire now ("" if it is).
    not_final: str = ""
    # Whether a last request (the body actually sent) can be shown, and is on show.
    last_available: bool = False
    showing_last: bool = False
    in_flight: bool = False  # a request is under way (its answer streams in)
    # The prices of the profile in use (None: none set): a preview's input is costed.
    prices: Prices | None = None
    # The turns' numbers as their headers show them: every turn here is named by them.
    numbers: TurnNumbers = NO_VERSIONS


class Inspector(QScrollArea):
    """Byte and token bars, the ordered parts, the exact body, the outcome, what-if."""

    what_if_changed = Signal(object)  # int | None
    last_chosen = Signal(bool)  # True: show the last request; False: the preview
    pin_requested = Signal(str)  # a fact the key-fact check found missing, to be pinned

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self.setAccessibleName(QCoreApplication.translate("Inspector", "Request inspector"))
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer = QWidget(self)
        column = QVBoxLayout(outer)
        column.setContentsMargins(8, 8, 8, 8)
        column.setSpacing(6)
        self.heading = QLabel(outer)
        self.heading.setObjectName("inspectorHeading")
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.heading.setWordWrap(True)
        self.heading.setText(QCoreApplication.translate("Inspector", NOTHING_YET))
        column.addWidget(self.heading)
        self._build_choice(outer, column)
        # Everything measured about a request; hidden until there is a request to measure.
        self.details = inner = QWidget(outer)
        self.details.setObjectName("inspectorDetails")
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self._build_measures(inner, layout)
        self.what_if = WhatIf(inner)
        self.what_if.changed.connect(self.what_if_changed)
        # Its parts, as other views and the window's tests reach them.
        self.slider, self.reset_button = self.what_if.slider, self.what_if.reset_button
        self.what_if_label = self.what_if.label
        layout.addWidget(self.what_if)
        self._build_parts(inner, layout)
        layout.addWidget(self._summary_box(inner))
        self._build_outcome(inner, layout)
        self._build_body(inner, layout)
        column.addWidget(inner, 1)
        column.addStretch()
        self.details.hide()
        self.setWidget(outer)

        self._shown_body: bytes | None = None
        self._shown_parts: list[tuple[str, int, int, Attachment | None]] | None = None
        self.thumbnails = Thumbnails()
        self._parsed_body: tuple[bytes, Any] | None = None
        self.state: InspectorState | None = None

    def _build_measures(self, inner: QWidget, layout: QVBoxLayout) -> None:
        """The endpoint, and the byte and token bars."""
        self.endpoint = QLabel(inner)
        self.endpoint.setWordWrap(True)
        self.endpoint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.endpoint)
        self.sampling = QLabel(inner)
        self.sampling.setObjectName("samplingOptions")
        self.sampling.setAccessibleName(QCoreApplication.translate(
            "Inspector", "Sampling options in the body"))
        self.sampling.setWordWrap(True)
        self.sampling.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.sampling)

        self.bytes_label = QLabel(inner)
        self.bytes_label.setWordWrap(True)
        layout.addWidget(self.bytes_label)
        self.bytes_bar = self._bar(QCoreApplication.translate(
            "Inspector", "Body bytes against the byte limit"))
        layout.addWidget(self.bytes_bar)
        self.tokens_label = QLabel(inner)
        self.tokens_label.setWordWrap(True)
        layout.addWidget(self.tokens_label)
        self.tokens_bar = self._bar(QCoreApplication.translate(
            "Inspector", "Input tokens against the input budget"))
        layout.addWidget(self.tokens_bar)

    def _build_choice(self, outer: QWidget, column: QVBoxLayout) -> None:
        """*Preview* and *Last request* side by side: the body actually sent stays one
        click away, whatever the draft or the what-if slider did."""
        row = QHBoxLayout()
        self.preview_button = QPushButton(QCoreApplication.translate("Inspector", "Preview"),
                                          outer)
        self.preview_button.setToolTip(QCoreApplication.translate(
            "Inspector", "What the next request would carry (nothing is sent)"))
        self.last_button = QPushButton(QCoreApplication.translate("Inspector", "Last request"),
                                       outer)
        self.last_button.setToolTip(QCoreApplication.translate(
            "Inspector", "The body the last request actually sent, and how it ended"))
        self.choice = QButtonGroup(self)  # one pressed at a time; a click never unpresses
        for button, last in ((self.preview_button, False), (self.last_button, True)):
            button.setCheckable(True)
            button.clicked.connect(lambda _checked, last=last: self.last_chosen.emit(last))
            self.choice.addButton(button)
            row.addWidget(button)
        self.preview_button.setChecked(True)  # until a request went, only the preview
        self.last_button.setEnabled(False)
        row.addStretch()
        column.addLayout(row)

    def _update_choice(self, state: InspectorState) -> None:
        self.preview_button.setChecked(not state.showing_last)
        self.last_button.setChecked(state.showing_last)
        self.last_button.setEnabled(state.last_available)

    def _build_parts(self, inner: QWidget, layout: QVBoxLayout) -> None:
        layout.addWidget(QLabel(QCoreApplication.translate(
            "Inspector", "Parts, in the order they are sent"), inner))
        self.parts = QTableWidget(0, 3, inner)
        self.parts.setObjectName("requestParts")
        self.parts.setAccessibleName(QCoreApplication.translate(
            "Inspector", "Request parts with their sizes"))
        self.parts.setHorizontalHeaderLabels([
            QCoreApplication.translate("Inspector", "Part"),
            QCoreApplication.translate("Inspector", "Bytes"),
            QCoreApplication.translate("Inspector", "Tokens")])
        self.parts.verticalHeader().hide()
        self.parts.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.parts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.parts.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.parts.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.parts.setMinimumHeight(140)
        layout.addWidget(self.parts)

    def _summary_box(self, inner: QWidget) -> QWidget:
        """The rolling summary: what it covers, who made it, when, its size and calls."""
        self.summary_box = QWidget(inner)
        self.summary_box.setObjectName("summaryProvenance")
        self.summary_box.setAccessibleName(QCoreApplication.translate(
            "Inspector", "Rolling summary and where it came from"))
        summary_layout = QVBoxLayout(self.summary_box)
        summary_layout.setContentsMargins(0, 4, 0, 4)
        summary_layout.setSpacing(2)
        self.summary_title = QLabel(QCoreApplication.translate(
            "Inspector", "Rolling summary"), self.summary_box)
        title_font = self.summary_title.font()
        title_font.setBold(True)
        self.summary_title.setFont(title_font)
        summary_layout.addWidget(self.summary_title)
        self.summary_value = self._value(self.summary_box)
        summary_layout.addWidget(self.summary_value)
        self.summary_warning = self._value(self.summary_box)
        self.summary_warning.setObjectName("summaryWarning")
        self.summary_warning.setTextFormat(Qt.TextFormat.RichText)  # facts escaped
        self.summary_warning.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextBrowserInteraction)
        self.summary_warning.linkActivated.connect(
            lambda n: self.pin_requested.emit(self._warned[int(n)]))
        self._warned: tuple[str, ...] = ()
        self.summary_warning.setAccessibleName(QCoreApplication.translate(
            "Inspector", "Facts the summary may have dropped"))
        self.summary_warning.setStyleSheet(
            "QLabel { color: palette(bright-text); background: #b35900; "
            "border-radius: 4px; padding: 4px; }")
        summary_layout.addWidget(self.summary_warning)
        self.summary_box.hide()  # shown once a projection carries or plans a summary
        return self.summary_box

    def _build_outcome(self, inner: QWidget, layout: QVBoxLayout) -> None:
        self.outcome = QFormLayout()
        self.outcome.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.outcome.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.outcome_value = self._value(inner)
        self.timing_value = self._value(inner)
        self.usage_value = self._value(inner)
        self.outcome.addRow(QCoreApplication.translate("Inspector", "Outcome:"), self.outcome_value)
        self.outcome.addRow(QCoreApplication.translate("Inspector", "Timing:"), self.timing_value)
        self.outcome.addRow(QCoreApplication.translate("Inspector", "Usage:"), self.usage_value)
        self.cost_value = self._value(inner)
        self.cost_value.setObjectName("requestCost")
        self.outcome.addRow(QCoreApplication.translate("Inspector", "Cost:"), self.cost_value)
        self.reasoning_value = self._value(inner)
        self.reasoning_value.setObjectName("reasoningSize")
        self.reasoning_value.setAccessibleName(QCoreApplication.translate(
            "Inspector", "Reasoning size"))
        self.outcome.addRow(QCoreApplication.translate(
            "Inspector", "Reasoning:"), self.reasoning_value)
        self.outcome.setRowVisible(self.reasoning_value, False)
        layout.addLayout(self.outcome)

    def _build_body(self, inner: QWidget, layout: QVBoxLayout) -> None:
        row = QHBoxLayout()
        self.body_label = QLabel(inner)
        self.body_label.setWordWrap(True)
        row.addWidget(self.body_label, 1)
        self.copy_body = QPushButton(QCoreApplication.translate("Inspector", "Copy exact body"),
                                     inner)
        self.copy_body.setObjectName("copyBody")
        self.copy_body.setToolTip(QCoreApplication.translate(
            "Inspector", "Copy the body byte for byte as it is sent, images' data included "
            "(the view below shortens it)"))
        self.copy_body.clicked.connect(self._copy_body)
        row.addWidget(self.copy_body)
        layout.addLayout(row)
        self.body = QPlainTextEdit(inner)
        self.body.setObjectName("requestBody")
        self.body.setAccessibleName(QCoreApplication.translate(
            "Inspector", "Exact request body, pretty-printed"))
        self.body.setReadOnly(True)
        self.body.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.body.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.body.setMinimumHeight(180)
        self.body.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        layout.addWidget(self.body, 1)

    def _bar(self, name: str) -> QProgressBar:
        bar = QProgressBar(self)
        bar.setAccessibleName(name)
        bar.setTextVisible(False)
        bar.setMaximumHeight(12)
        return bar

    def _value(self, parent: QWidget) -> QLabel:
        label = QLabel(parent)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    # ------------------------------------------------------------------ showing
    def show_state(self, state: InspectorState) -> None:
        self.state = state
        self._update_choice(state)
        empty = (state.projection is None and state.refusal is None and state.record is None
                 and state.failure is None)
        self.details.setVisible(not empty)
        if empty:  # only the sentence saying what will appear here
            self.heading.setText(QCoreApplication.translate("Inspector", NOTHING_YET))
            self._shown_body = None
            self.body.setPlainText("")
            return
        self.heading.setText(state.heading)
        self.endpoint.setText(state.endpoint)
        self.endpoint.setVisible(bool(state.endpoint))
        projection, refusal = state.projection, state.refusal
        if projection is not None:
            budget = projection.budget
            body, tokens, exact = projection.body_bytes, projection.input_tokens, \
                projection.tokens_exact
            limit, token_budget = budget.max_bytes, budget.input_tokens
        elif refusal is not None:
            body, tokens, exact = refusal.mandatory_bytes, refusal.mandatory_tokens, \
                refusal.tokens_exact
            limit, token_budget = refusal.max_bytes, refusal.token_budget
        else:
            body = tokens = limit = token_budget = 0
            exact = False
        self.sampling.setText(QCoreApplication.translate(
            "Inspector", "Sampling: ") + sampling_text(self._parsed(projection.body))
                              if projection is not None else "")
        self.sampling.setVisible(projection is not None)
        kind = count_kind(exact, state.count_label)
        window = arg(QCoreApplication.translate(
            "Inspector", " · window %1"), window_text(projection.budget)) \
            if projection else ""
        if limit:
            self.bytes_label.setText(
                arg(QCoreApplication.translate("Inspector", "Body: %1 of %2 bytes"), body, limit)
                + (QCoreApplication.translate(
                    "Inspector", " — over the limit") if body > limit else ""))
            self.tokens_label.setText(
                arg(QCoreApplication.translate(
                    "Inspector", "Input: %1 of %2 tokens (%3)"), tokens, token_budget, kind)
                + (QCoreApplication.translate(
                    "Inspector", " — over the budget") if tokens > token_budget else "")
                + window)
        else:
            self.bytes_label.setText(QCoreApplication.translate(
                "Inspector", "Body: nothing to measure yet"))
            self.tokens_label.setText(QCoreApplication.translate(
                "Inspector", "Input: nothing to measure yet"))
        self._fill(self.bytes_bar, body, limit, later=state.in_flight)
        self._fill(self.tokens_bar, tokens, token_budget, later=state.in_flight)
        self._fill_parts(projection, refusal, state.numbers)
        self._fill_summary(state)
        self._fill_body(projection)
        self._fill_outcome(state)
        self.what_if.show_limit(state.max_bytes, state.what_if, state.projection)

    @staticmethod
    def _fill(bar: QProgressBar, value: int, limit: int, *, later: bool = False) -> None:
        # Progress bars hold ints; scale big limits down to keep within range.
        scale = max(1, limit // 1_000_000)
        # A bar whose value changes repaints at once, and with it every widget of the
        # window waiting for a paint. `later` (while an answer streams in): only marked
        # for the next paint, so the growing answer is not painted from inside this.
        bar.setUpdatesEnabled(not later)
        bar.setRange(0, max(1, limit // scale))
        bar.setValue(min(value, limit) // scale)
        bar.setUpdatesEnabled(True)

    def _fill_parts(self, projection: Projection | None, refusal: ProjectionRefused | None,
                    numbers: TurnNumbers) -> None:
        rows: list[tuple[str, int, int, Attachment | None]] = []
        if projection is not None:
            for part in projection.parts:
                files: tuple[Attachment, ...] = ()
                question = ""
                if part.kind is PartKind.TURN:
                    shown = turn_number(part.ordinal or 0, numbers)
                    name = arg(QCoreApplication.translate(
                        "Inspector", "turn %1 (question + answer)"), shown)
                    turn = projection.turn_of_ordinal(part.ordinal or 0)
                    calls = sum(len(r.calls) for r in turn.tools) if turn is not None else 0
                    if calls:  # its tool exchange travels with it, whole
                        name = arg(QCoreApplication.translate(
                            "Inspector", "turn %1 (question, %2 tool calls and results, "
                            "answer)"), shown, calls)
                    if turn is not None and turn.incomplete:  # kept although incomplete
                        name = arg(QCoreApplication.translate("Inspector", "%1, %2"), name,
                                   incomplete_label(turn.incomplete))
                    if turn is not None:
                        files, question = turn.attachments, turn.question
                else:
                    name = QCoreApplication.translate("Inspector", PART_NAMES[part.kind])
                    if part.kind is PartKind.QUESTION:
                        files = projection.question_files
                rows.append((name, part.bytes, part.tokens, None))
                rows += file_rows(Question(question, files), projection.images)
            rows.append((QCoreApplication.translate(
                "Inspector", "total = the body"), projection.body_bytes, projection.input_tokens,
                None))
            rows += [(*row, None) for row in memory_rows(projection.memory)]
        elif refusal is not None:
            rows.append((QCoreApplication.translate(
                "Inspector", "mandatory part (system, pinned, question)"), refusal.mandatory_bytes,
                         refusal.mandatory_tokens, None))
        if rows == self._shown_parts:
            return
        before, self._shown_parts = self._shown_parts or [], rows
        self._show_rows(rows, before)

    def _show_rows(self, rows: list[tuple[str, int, int, Attachment | None]],
                   before: list[tuple[str, int, int, Attachment | None]]) -> None:
        """Show `rows` where the table shows `before`: only the rows that differ are
        written (the body in flight mostly carries the turns its preview showed)."""
        # Sized to contents once after filling, not after every cell (quadratic in rows).
        header = self.parts.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        self.parts.setRowCount(len(rows))
        for row, shown in enumerate(rows):
            if row < len(before) and before[row] == shown:
                continue
            name, size, tokens, attachment = shown
            item = QTableWidgetItem(name)
            item.setToolTip(name)  # a long name (a kept incomplete turn's) is elided
            if attachment is not None:
                item.setIcon(self.thumbnails.icon(attachment))
                item.setToolTip(describe(attachment))
            self.parts.setItem(row, 0, item)
            for column, count in ((1, size), (2, tokens)):
                item = QTableWidgetItem(number(count))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.parts.setItem(row, column, item)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)

    def _fill_summary(self, state: InspectorState) -> None:
        projection = state.projection
        part = projection.summary if projection is not None else None
        stored = state.summary
        summarized = turns_text(projection.runs("summarized") if projection else [], state.numbers)
        lines: list[str] = []
        if part is not None:
            if stored is not None and stored.id == part.summary_id:
                lines.append(arg(QCoreApplication.translate(
                    "Inspector", "Carries %1."), summary_caption(stored, state.numbers)))
                lines.append(arg(QCoreApplication.translate(
                    "Inspector", "Stands in for %1 of the log as it is now."),
                                 summarized))
                if projection is not None and part.first:
                    older = projection.runs("before summary")
                    lines.append(arg(QCoreApplication.translate(
                        "Inspector", "%1 before it: not sent."),
                                     capitalized(turns_text(older, state.numbers))))
                if stored.usages:
                    calls = len(stored.usages)
                    lines += [plural(QCoreApplication.translate(
                        "Inspector", "Made in %n call(s):", None, calls), calls)]
                    lines += [arg(QCoreApplication.translate(
                        "Inspector", "  call %1: %2"), str(n), usage_text(u))
                              for n, u in enumerate(stored.usages, start=1)]
            else:
                lines.append(arg(QCoreApplication.translate(
                    "Inspector", "Carries a summary of the oldest %1 turns (%2)."),
                    part.covered_count,
                    summarized))
        if state.to_summarize:
            lines.append(arg(QCoreApplication.translate(
                "Inspector", "Sending first folds %1 into the summary (marked to be summarized); "
                "the body "
                "then carries the new summary, so its size is known only after that."),
                turns_text(state.to_summarize, state.numbers)))
        record = state.record
        if record is not None and record.extra_usage:
            lines.append(arg(QCoreApplication.translate(
                "Inspector", "Summary calls in this request: %1"),
                             len(record.extra_usage)))
            lines += [arg(QCoreApplication.translate(
                "Inspector", "  call %1: %2"), str(n), usage_text(u))
                      for n, u in enumerate(record.extra_usage, start=1)]
        self.summary_box.setVisible(bool(lines))
        self.summary_value.setText("\n".join(lines))
        warnings = stored.warnings if stored is not None and part is not None and \
            stored.id == part.summary_id else ()
        self.summary_warning.setVisible(bool(warnings))
        self._warned = tuple(warnings)  # each fact has a Pin link (`pin_requested`)
        self.summary_warning.setText(
            QCoreApplication.translate(
                "Inspector", "⚠ The key-fact check found facts from the covered turns missing in "
                "this summary; the model will not see them: ") + "; ".join(
                arg(QCoreApplication.translate(
                    "Inspector", "“%1” (<a href='%2'>Pin</a>)"), html.escape(fact), str(n))
                for n, fact in enumerate(warnings)) if warnings else "")

    def _fill_body(self, projection: Projection | None) -> None:
        self.copy_body.setEnabled(projection is not None)
        if projection is None:
            self._shown_body = None
            self.body_label.setText(QCoreApplication.translate("Inspector", "Exact body: none"))
            self.body.setPlainText("")
            return
        self.body_label.setText(arg(QCoreApplication.translate(
            "Inspector", "Exact body, pretty-printed here; sent compact as %1 bytes of UTF-8:"),
            projection.body_bytes))
        if projection.body != self._shown_body:
            self._shown_body = projection.body
            self.body.setPlainText(pretty_body(projection.body, self._parsed(projection.body)))

    def _copy_body(self) -> None:
        if self._shown_body is not None:
            QGuiApplication.clipboard().setText(self._shown_body.decode("utf-8"))

    def _parsed(self, body: bytes) -> Any:
        """The body as JSON, parsed once however often it is shown."""
        if self._parsed_body is None or self._parsed_body[0] is not body:
            self._parsed_body = (body, json.loads(body))
        return self._parsed_body[1]

    def _fill_outcome(self, state: InspectorState) -> None:
        if state.outcome:
            outcome = state.outcome
        elif state.failure is not None:
            outcome = failure_text.message(state.failure)
        elif state.record is not None and state.record.outcome == "committed":
            outcome = (arg(QCoreApplication.translate("Inspector", "answered and saved as "
                "turn %1"), turn_number(state.asked, state.numbers))
                       if state.asked else QCoreApplication.translate("Inspector", "saved"))
        elif state.projection is None and state.refusal is not None:
            outcome = QCoreApplication.translate(
                "Inspector", "would be refused: ") + refusal_text(state.refusal)
        elif state.heading.startswith(QCoreApplication.translate("LivePreview", IN_FLIGHT)):
            outcome = QCoreApplication.translate("Inspector", "waiting for the answer")
        else:
            outcome = QCoreApplication.translate("Inspector", "not sent (preview)")
            if state.to_summarize:
                outcome += arg(QCoreApplication.translate(
                    "Inspector", "; will compact: sending first summarizes %1, then the body "
                    "changes"),
                    turns_text(state.to_summarize, state.numbers))
            elif state.projection is not None and state.what_if is None:
                outcome += arg(QCoreApplication.translate(
                    "Inspector", "; not final: %1"), state.not_final) if state.not_final \
                    else QCoreApplication.translate(
                        "Inspector", "; final: this body is exactly what Send puts on the wire")
        self.outcome_value.setText(outcome)
        record = state.record
        if record is not None:
            timing = arg(QCoreApplication.translate(
                "Inspector", "%1 s"), number(record.duration_s, 2))
            if record.first_token_s is not None:
                timing += arg(QCoreApplication.translate("Inspector", ", first text after %1 s"),
                              number(record.first_token_s, 2))
            if record.attempt > 1:
                timing += arg(QCoreApplication.translate(
                    "Inspector", " (attempt %1)"), str(record.attempt))
        elif state.duration_s is not None:
            timing = arg(QCoreApplication.translate(
                "Inspector", "%1 s"), number(state.duration_s, 2))
        else:
            timing = "—"
        self.timing_value.setText(timing)
        usage = state.usage
        self.usage_value.setText(usage_words(usage))
        self.cost_value.setText(cost_words(state.record, state.projection, state.prices,
                                           in_flight=state.in_flight))
        self.reasoning_value.setText(reasoning_text(state.reasoning, usage)
                                     if state.reasoning else "")
        self.outcome.setRowVisible(self.reasoning_value, bool(state.reasoning))
