"""The main window's size and panels: remembered per data directory, and the side
panels folded away when the window is narrow."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QByteArray, QEvent, QMargins, QObject, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar, QWidget
from shiboken6 import isValid

NARROW_WIDTH = 760
SIDE_WIDTHS = (250, 380)  # the conversation list and the inspector, side by side
LEAST_SIDE_WIDTHS = (200, 0)  # a smaller window takes no more from them than this


def restore_geometry(window: QMainWindow, settings: QSettings) -> None:
    geometry = settings.value("window/geometry")
    if geometry is not None:
        window.restoreGeometry(geometry)  # type: ignore[arg-type]
    else:
        window.resize(1280, 720)
    state = settings.value("window/state")
    if state is not None:
        window.restoreState(state)  # type: ignore[arg-type]


# What a window manager adds around a window (a title bar, borders) before it says: the
# frame is only known once the window is on screen.
DECORATION_RESERVE = QMargins(4, 36, 4, 4)


def frame_margins(window: QWidget) -> QMargins:
    """What the window manager adds around `window`, as far as it has said; before the
    window is shown, `DECORATION_RESERVE`."""
    frame, inner = window.frameGeometry(), window.geometry()
    if frame == inner and not window.isVisible():
        return DECORATION_RESERVE
    return QMargins(inner.left() - frame.left(), inner.top() - frame.top(),
                    frame.right() - inner.right(), frame.bottom() - inner.bottom())


def fit_to_screen(window: QWidget, wanted: QSize | None = None,
                  margins: QMargins | None = None) -> None:
    """Keep the whole window on its screen, its frame included (title bar, borders): a size
    remembered from a larger screen (or the 1280×720 default on a small one) is cut to the
    screen's free area less the frame, and the frame moved inside it. `wanted`: the size
    to come as close to as fits (the window's own by default); `margins`: the frame's, if
    known better than `frame_margins` knows them."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    area = screen.availableGeometry()
    frame = margins if margins is not None else frame_margins(window)
    wanted = wanted or window.size()
    room = QSize(area.width() - frame.left() - frame.right(),
                 area.height() - frame.top() - frame.bottom())
    size = wanted.boundedTo(room).expandedTo(window.minimumSize().boundedTo(room))
    if size != window.size():
        window.resize(size)
    outer = QSize(size.width() + frame.left() + frame.right(),
                  size.height() + frame.top() + frame.bottom())
    # `pos` of a window is its frame's top left.
    x = min(max(window.x(), area.left()), area.right() + 1 - outer.width())
    y = min(max(window.y(), area.top()), area.bottom() + 1 - outer.height())
    if (x, y) != (window.x(), window.y()):
        window.move(x, y)


class ScreenFit(QObject):
    """Fits `window` again once it is on screen and the window manager has put its frame
    around it (the reserve made before was a guess): the frame stays within the screen's
    free area, and a size cut more than it needed to be grows back toward `wanted`."""

    CHECKS_MS = (0, 150, 500, 1500)  # a window manager frames a new window in its own time

    def __init__(self, window: QWidget, wanted: QSize) -> None:
        super().__init__(window)
        self._window = window
        self._wanted = wanted
        self._checks = list(self.CHECKS_MS)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self._window and event.type() == QEvent.Type.Show:
            self._window.removeEventFilter(self)
            self._next()
        return False

    def _next(self) -> None:
        if self._checks:
            QTimer.singleShot(self._checks.pop(0), self, self._check)

    def _check(self) -> None:
        fit_to_screen(self._window, self._wanted)
        self._next()


def fit_first_window(window: QWidget) -> ScreenFit:
    """Fit `window` before it is shown (its frame reserved), and again once it is framed."""
    wanted = window.size()
    fit_to_screen(window)
    return ScreenFit(window, wanted)


def save_geometry(window: QMainWindow, settings: QSettings,
                  state: QByteArray | None = None) -> None:
    """Remember the window's size and panels; `state`: the panels as they are to come back
    (the wide arrangement while a narrow window has folded them away)."""
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", state if state is not None else window.saveState())


class WholeTabs(QObject):
    """The tabs of panels stacked in one dock area show their whole names: where they do
    not all fit, the bar scrolls (its arrows) rather than cutting names to "Ins…". Qt
    makes these bars as panels are stacked, and names them cut; each is set as it is
    first shown."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.ChildPolished:
            bar = event.child()  # type: ignore[attr-defined]
            if isinstance(bar, QTabBar):
                bar.setElideMode(Qt.TextElideMode.ElideNone)
                bar.setUsesScrollButtons(True)
        return False


class DockFolding:
    """Below `NARROW_WIDTH` the side panels fold away; wider again, those that were open
    come back. In a narrow window a panel opened (Ctrl+I, the View menu) is a page of the
    whole width in place of the conversation, one at a time: closing it (its ×, the same
    key, Go to question) brings the conversation back."""

    def __init__(self, window: QMainWindow, docks: Sequence[QDockWidget]) -> None:
        self._window = window
        self._docks = list(docks)
        self._narrow = False
        self._before: dict[str, bool] = {}
        self._wide_state: QByteArray | None = None  # the panels as they were before folding
        self._tabbed: list[QDockWidget] = []  # fold too, but keep their own widths
        self._whole_tabs = WholeTabs(window)
        for dock in self._docks:
            self._follow(dock)
        self.spread()

    def also_fold(self, dock: QDockWidget) -> None:
        """Fold `dock` (a tab beside a side panel) with the side panels."""
        self._tabbed.append(dock)
        self._follow(dock)

    def _follow(self, dock: QDockWidget) -> None:
        dock.toggleViewAction().toggled.connect(
            lambda shown, dock=dock: self._toggled(dock, shown))

    def _toggled(self, dock: QDockWidget, shown: bool) -> None:
        if not isValid(self._window):
            return  # the window is going: its docks are hidden as it is torn down
        if shown:
            self._opened(dock)
        else:
            self._arrange()

    @property
    def narrow(self) -> bool:
        return self._narrow

    def _open_docks(self) -> list[QDockWidget]:
        return [d for d in self._docks + self._tabbed if d.toggleViewAction().isChecked()]

    def _opened(self, dock: QDockWidget) -> None:
        """In a narrow window, the panel just opened is the only page on show (with the
        tabs beside it)."""
        if self._narrow:
            beside = set(self._window.tabifiedDockWidgets(dock))
            for other in self._open_docks():
                if other is not dock and other not in beside:
                    other.hide()
        self._arrange()

    def _arrange(self) -> None:
        centre = self._window.centralWidget()
        if centre is not None:
            centre.setVisible(not (self._narrow and self._open_docks()))

    def back_to_conversation(self) -> None:
        """In a narrow window, close the panel on show so the conversation is back."""
        if self._narrow:
            for dock in self._open_docks():
                dock.hide()

    def saved_state(self) -> QByteArray:
        """The panels to remember: in a narrow window, as they were before it folded them
        away, so a restart in a wider one shows them again at their widths."""
        if self._narrow and self._wide_state is not None:
            return self._wide_state
        return self._window.saveState()

    def spread(self) -> None:
        self._window.resizeDocks(self._docks, list(SIDE_WIDTHS), Qt.Orientation.Horizontal)

    def _keep_least_widths(self) -> None:
        """A window made smaller squeezes the conversation list first: give it back the
        width a title needs, from the conversation."""
        if not isValid(self._window) or self._narrow:
            return
        squeezed = [(dock, least) for dock, least in zip(self._docks, LEAST_SIDE_WIDTHS,
                                                            strict=True)
                    if dock.isVisible() and not dock.isFloating() and dock.width() < least]
        if squeezed:
            self._window.resizeDocks([d for d, _ in squeezed], [w for _, w in squeezed],
                                     Qt.Orientation.Horizontal)

    def apply(self, width: int) -> None:
        narrow = width < NARROW_WIDTH
        if narrow == self._narrow:
            if not narrow:  # once the docks have their new widths
                QTimer.singleShot(0, self._window, self._keep_least_widths)
            return
        self._narrow = narrow
        if narrow:
            self._wide_state = self._window.saveState()
        for dock in self._docks + self._tabbed:
            if narrow:
                # A tab behind another is not visible but still open: its menu entry says.
                self._before[dock.objectName()] = dock.isVisible() if dock in self._docks \
                    else dock.toggleViewAction().isChecked()
                dock.hide()
            elif self._before.get(dock.objectName(), True):
                dock.show()
        self._arrange()
        if not narrow:
            self.spread()
