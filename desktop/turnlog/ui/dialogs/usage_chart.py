"""The Usage view's chart: tokens in and out per day or month as stacked bars, painted with
QPainter (PySide6-Essentials has no QtCharts). The newest periods that fit are shown."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...core.cost import UsageLine
from ..infra.languages import number

BAR_MIN_PX = 14  # narrower bars would be unreadable: older periods give way instead
GAP_PX = 4
AXIS_PX = 18  # room for the period labels under the bars


class UsageChart(QWidget):
    """Stacked bars (input below, output above) per period, the largest labelled."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usageChart")
        self.setAccessibleName(QCoreApplication.translate(
            "UsageView", "Tokens per period, input and output"))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(120)
        self._bars: list[tuple[str, int, int]] = []  # (period, input, output)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(480, 180)

    def set_periods(self, lines: Sequence[UsageLine]) -> None:
        """One bar per period of `lines` (already summed per period), oldest first."""
        sums: dict[str, list[int]] = {}
        for line in lines:
            got = sums.setdefault(line.day, [0, 0])
            got[0] += line.input
            got[1] += line.output
        self._bars = [(day, got[0], got[1]) for day, got in sorted(sums.items())]
        self.update()

    def shown_periods(self) -> list[str]:
        """The periods that fit the width now (the newest ones)."""
        fit = max(1, (self.width() + GAP_PX) // (BAR_MIN_PX + GAP_PX))
        return [day for day, _i, _o in self._bars[-fit:]]

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        if not self._bars:
            painter.setPen(text)
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter,
                             QCoreApplication.translate("UsageView", "No usage yet"))
            return
        shown = self._bars[-len(self.shown_periods()):]
        top = max(i + o for _d, i, o in shown) or 1
        height = self.height() - AXIS_PX - painter.fontMetrics().height()
        width = min(64.0, (self.width() - GAP_PX * (len(shown) - 1)) / len(shown))
        into = palette.color(QPalette.ColorRole.Highlight)
        out = QColor(into)
        out.setAlpha(110)
        for n, (day, input_, output) in enumerate(shown):
            x = n * (width + GAP_PX)
            base = self.height() - AXIS_PX
            low = height * input_ / top
            high = height * output / top
            painter.fillRect(QRectF(x, base - low, width, low), into)
            painter.fillRect(QRectF(x, base - low - high, width, high), out)
            painter.setPen(text)
            if n == 0 or n == len(shown) - 1 or input_ + output == top:
                label = day[5:] if len(day) == 10 else day
                painter.drawText(QRectF(x - 20, base, width + 40, AXIS_PX),
                                 Qt.AlignmentFlag.AlignCenter, label)
            if input_ + output == top:
                painter.drawText(QRectF(x - 40, base - low - high - painter.fontMetrics()
                                        .height(), width + 80, painter.fontMetrics().height()),
                                 Qt.AlignmentFlag.AlignCenter, number(top))
        painter.end()
