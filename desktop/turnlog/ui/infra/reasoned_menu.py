"""A menu whose entries say why they are as they are, to the keyboard as to the mouse: an
entry whose tooltip says more than its name (why Regenerate is off on an older turn, say)
shows it beside the menu while it is the active entry, and the arrow keys stop on disabled
entries too (Qt's own styles pass over them). Someone who opens a turn's menu with
Shift+F10 reads the reason a mouse user reads on hover. The reason stands beside the menu,
never over it: a window over the menu under the pointer would take the active entry away."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QMenu, QProxyStyle, QStyle, QWidget

REASON_WIDTH = 360  # px at most: a reason wraps (Chinese anywhere, English at spaces)
GAP = 4


class _DisabledReachable(QProxyStyle):
    """The application's style, but a menu's disabled entries can be made active (a menu
    never triggers a disabled action)."""

    def styleHint(self, hint: QStyle.StyleHint, option: Any = None,  # noqa: N802 - Qt override
                  widget: Any = None, returned: Any = None) -> int:
        if hint == QStyle.StyleHint.SH_Menu_AllowActiveAndDisabled:
            return 1
        return super().styleHint(hint, option, widget, returned)


def _name(text: str) -> str:
    """What an entry's name says, as a tooltip that only repeats it says it."""
    return text.replace("&", "").replace("…", "").replace("...", "").strip()


class ReasonedMenu(QMenu):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        style = _DisabledReachable(QApplication.style().name())
        style.setParent(self)
        self.setStyle(style)
        self.reason = QLabel(self, Qt.WindowType.ToolTip)
        self.reason.setWordWrap(True)
        self.reason.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self.reason.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.reason.setAutoFillBackground(True)
        self.reason.setFrameStyle(QFrame.Shape.Box | QFrame.Shadow.Plain)
        self.reason.setMargin(4)
        self.hovered.connect(self._say_why)
        self.aboutToHide.connect(self.reason.hide)

    def _say_why(self, action: QAction) -> None:
        """The active entry's reason beside the menu (on the side with room), or none."""
        reason = action.toolTip()
        if not reason or _name(reason) == _name(action.text()):
            self.reason.hide()
            return
        screen = self.screen().availableGeometry()
        menu = self.geometry()  # a popup's geometry is on the screen's coordinates
        self.reason.setText(reason)
        width = min(REASON_WIDTH, max(menu.left() - screen.left(), screen.right() - menu.right())
                    - GAP)
        self.reason.setFixedWidth(max(width, 120))
        self.reason.setFixedHeight(self.reason.heightForWidth(self.reason.width()))
        right = menu.right() + GAP
        x = right if right + self.reason.width() <= screen.right() \
            else menu.left() - GAP - self.reason.width()
        y = self.mapToGlobal(self.actionGeometry(action).topLeft()).y()
        self.reason.move(x, min(y, screen.bottom() - self.reason.height()))
        self.reason.show()
