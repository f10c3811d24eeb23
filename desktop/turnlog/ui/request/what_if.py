"""The inspector's what-if: another byte limit, previewed only — a slider, what it would
send, and a way back to the real limit. Nothing is sent or saved."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSlider, QVBoxLayout, QWidget

from ...core.projection import Projection
from ..infra.languages import arg
from ..infra.wheel import wheel_only_when_focused


class WhatIf(QWidget):
    """A byte limit to try (`changed`: the limit, or None for the real one) and what the
    preview at that limit would send."""

    changed = Signal(object)  # int | None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        slider_row = QHBoxLayout()
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("whatIfSlider")
        self.slider.setAccessibleName(QCoreApplication.translate("Inspector", "What-if byte limit"))
        self.slider.setToolTip(QCoreApplication.translate(
            "Inspector", "Try another byte limit: the marks show which turns would be sent. "
            "Nothing is sent or saved."))
        self.slider.valueChanged.connect(self._slid)
        wheel_only_when_focused(self.slider)  # a wheel over it scrolls the inspector
        slider_row.addWidget(self.slider, 1)
        self.reset_button = QPushButton(QCoreApplication.translate("Inspector", "Reset"), self)
        self.reset_button.setAccessibleName(QCoreApplication.translate(
            "Inspector", "Back to the real byte limit"))
        self.reset_button.clicked.connect(self.reset)
        slider_row.addWidget(self.reset_button)
        layout.addLayout(slider_row)
        self._max_bytes: int | None = None
        self._quiet = False

    def show_limit(self, max_bytes: int | None, what_if: int | None,
                   projection: Projection | None) -> None:
        """The real limit `max_bytes`, the one tried (`what_if`, None: the real one) and the
        projection made at it."""
        self._max_bytes = max_bytes
        self.slider.setEnabled(max_bytes is not None)
        self.reset_button.setEnabled(what_if is not None)
        if max_bytes is None:
            self.label.setText(QCoreApplication.translate(
                "Inspector", "What if: no byte limit to vary"))
            return
        limit = max_bytes
        top = max(limit * 4, 4096)
        self._quiet = True
        try:
            self.slider.setRange(256, top)
            self.slider.setSingleStep(max(1, limit // 100))
            self.slider.setPageStep(max(1, limit // 10))
            self.slider.setValue(what_if if what_if is not None else limit)
        finally:
            self._quiet = False
        if what_if is None:
            self.label.setText(arg(QCoreApplication.translate(
                "Inspector", "What if the byte limit were different? Drag to preview "
                "(now %1 bytes)."),
                limit))
        elif projection is not None:
            self.label.setText(arg(QCoreApplication.translate(
                "Inspector", "What if the limit were %1 bytes: %2 of %3 turns would be sent. "
                "Nothing is sent or saved."), what_if, len(projection.sent),
                projection.turn_count))
        else:
            self.label.setText(arg(QCoreApplication.translate(
                "Inspector", "What if the limit were %1 bytes: the question would be refused. "
                "Nothing is sent or saved."), what_if))

    def _slid(self, value: int) -> None:
        if self._quiet or self._max_bytes is None:
            return
        self.changed.emit(None if value == self._max_bytes else value)

    def reset(self) -> None:
        self.changed.emit(None)
