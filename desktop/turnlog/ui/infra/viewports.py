"""Item views' viewports made in Python, so the first screen does not make every widget
class Qt has.

An item view makes its own viewport, a plain `QWidget`. The first time Python is handed
such a widget (`view.viewport()`), PySide looks for its most derived class among every
class derived from `QWidget`, and so makes each of those classes (the wizard's, the
colour and font dialogs', the MDI area's, the graphics view's...) with their enum
classes: about 5 ms before the first screen, for classes the window never uses. A
viewport made here is known to PySide from the start. It is made as the view makes its
own (the same object name, background role and filling); `setViewport` gives it the rest
(parent, focus proxy, event filter, pan gesture), as it did the view's own.
"""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractItemView, QWidget


def own_viewport(view: QAbstractItemView) -> QWidget:
    """Give `view` a viewport made here (call it before anything asks for its viewport)."""
    port = QWidget()
    port.setObjectName("qt_scrollarea_viewport")
    port.setBackgroundRole(QPalette.ColorRole.Base)
    port.setAutoFillBackground(True)
    view.setViewport(port)
    return port
