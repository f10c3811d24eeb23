"""View → Usage…: tokens in, cached and out and their cost per day or month, per profile
and model, with a chart. The numbers are the daily totals, which keep counting the spend
of deleted conversations until the person forgets them."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.cost import UsageLine
from ...service.usage import UsageReport
from ...store import TurnlogStore
from ..infra.cost_text import line_cost
from ..infra.languages import arg, number
from ..infra.tasks import TaskRunner
from ..infra.usage_operations import forget_usage_totals, read_usage
from .privacy import Confirmation, Decision
from .usage_chart import UsageChart

translate = QCoreApplication.translate  # translate("UsageView", …): lupdate reads it


def forget_question() -> Confirmation:
    return Confirmation(
        translate("UsageView", "Forget the usage totals"),
        translate("UsageView", "Forget every daily usage total?"),
        translate("UsageView", "The tokens and costs counted so far, deleted conversations' "
                  "included, are forgotten. Conversations and their requests stay."),
        translate("UsageView", "Forget totals"))


class UsageDialog(QDialog):
    """The usage of every profile and model, per day or month."""

    def __init__(self, store: TurnlogStore, runner: TaskRunner,
                 confirm: Callable[[Confirmation], Decision],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageDialog")
        self.setWindowTitle(translate("UsageView", "Usage"))
        self.store, self.runner, self.confirm = store, runner, confirm
        self.report: UsageReport | None = None
        column = QVBoxLayout(self)
        self.note = QLabel(translate(
            "UsageView", "Tokens and cost per profile and model, at the prices each request "
            "was costed at; “estimated” where the server reported no usage. These daily "
            "totals keep counting conversations you deleted (numbers only, no text); Delete "
            "all history asks whether to clear them too."), self)
        self.note.setWordWrap(True)
        column.addWidget(self.note)
        row = QHBoxLayout()
        self.period = QComboBox(self)
        self.period.setObjectName("usagePeriod")
        self.period.addItem(translate("UsageView", "Per day"), "day")
        self.period.addItem(translate("UsageView", "Per month"), "month")
        self.period.currentIndexChanged.connect(lambda _i: self._show())
        row.addWidget(self.period)
        row.addStretch(1)
        self.totals = QLabel(self)
        self.totals.setObjectName("usageTotals")
        self.totals.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.totals)
        column.addLayout(row)
        self.chart = UsageChart(self)
        column.addWidget(self.chart, 2)
        self.table = self._table()
        column.addWidget(self.table, 3)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.forget = QPushButton(translate("UsageView", "&Forget totals…"), self)
        self.forget.setObjectName("forgetUsage")
        buttons.addButton(self.forget, QDialogButtonBox.ButtonRole.ResetRole)
        self.forget.clicked.connect(self._forget)
        buttons.rejected.connect(self.reject)
        column.addWidget(buttons)
        self.resize(760, 520)
        self.reload()

    def _table(self) -> QTableWidget:
        table = QTableWidget(0, 7, self)
        table.setObjectName("usageTable")
        table.setHorizontalHeaderLabels([
            translate("UsageView", "Period"), translate("UsageView", "Profile"),
            translate("UsageView", "Model"), translate("UsageView", "In"),
            translate("UsageView", "Cached"), translate("UsageView", "Out"),
            translate("UsageView", "Cost")])
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.verticalHeader().hide()
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        return table

    def reload(self) -> None:
        read_usage(self.store).run(self.runner, on_success=self._loaded,
                                   on_failure=self._failed)

    def _loaded(self, report: UsageReport) -> None:
        self.report = report
        self._show()

    def _failed(self, error: BaseException) -> None:
        self.totals.setText(arg(translate("UsageView", "Usage could not be read: %1"), error))

    def _show(self) -> None:
        report = self.report
        if report is None:
            return
        by_month = self.period.currentData() == "month"
        lines = list(report.months if by_month else report.days)
        self.chart.set_periods(lines)
        lines.sort(key=lambda line: line.day, reverse=True)  # newest first; stable
        self.table.setRowCount(len(lines))
        for row, line in enumerate(lines):
            self._fill(row, line)
        self.forget.setEnabled(not report.empty)
        self.totals.setText(" · ".join(arg(translate("UsageView", "Total: %1 in · %2 out · %3"),
                                           number(t.input), number(t.output), line_cost(t))
                                       for t in report.totals)
                            or translate("UsageView", "No usage yet"))

    def _fill(self, row: int, line: UsageLine) -> None:
        cells = [line.day, line.profile or "—", line.model, number(line.input),
                 number(line.cached), number(line.output), line_cost(line)]
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if 3 <= column <= 5:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, column, item)

    def _forget(self) -> None:
        if not self.confirm(forget_question()).accepted:
            return
        forget_usage_totals(self.store).run(self.runner, on_success=lambda _n: self.reload(),
                                            on_failure=self._failed)

