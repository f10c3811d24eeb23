"""Sliders and spin boxes take the mouse wheel only when they have the focus: a wheel
turned to scroll a panel passes over them and scrolls the panel, instead of changing a
value the person never meant to touch."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QWidget


class WheelWhenFocused(QObject):
    """An event filter: a wheel over an unfocused watched widget scrolls the panel that
    holds it (the nearest scroll area), else goes on to its parents."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, QWidget) \
                or watched.hasFocus():
            return False
        area = watched.parentWidget()
        while area is not None and not isinstance(area, QAbstractScrollArea):
            area = area.parentWidget()
        if area is not None:
            QCoreApplication.sendEvent(area.viewport(), event)
        else:
            event.ignore()  # not accepted: Qt offers the wheel to the parents
        return True


def wheel_only_when_focused(*widgets: QWidget) -> None:
    """Let each of `widgets` (sliders, spin boxes) take the wheel only when focused; a click
    or Tab still focuses it."""
    for widget in widgets:
        guard = WheelWhenFocused(widget)
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        widget.installEventFilter(guard)
