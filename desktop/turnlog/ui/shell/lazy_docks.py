"""Docks whose panel is built the first time it is needed: a tab beside the inspector
that a person has not opened yet costs the start only its empty dock (its name on the tab,
its place in the saved layout), not its panel's modules and widgets.

The panel is built when its dock first comes into view (its tab chosen, View's entry, a
saved layout that left it in front) or when something asks for it (`LazyDock.get`: a
shortcut, a signal meant for it, a caller reading `window.side`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from PySide6.QtWidgets import QDockWidget, QWidget

if TYPE_CHECKING:  # built on first use
    from ..panels.search import SearchDock
    from ..panels.side.questions import SideQuestions

T = TypeVar("T")


class LazyDock(Generic[T]):
    """`dock` (made now, empty) and what `build(dock)` makes of it on first need: `build`
    puts its panel in the dock and wires it."""

    def __init__(self, dock: QDockWidget, build: Callable[[QDockWidget], T]) -> None:
        self.dock, self._build = dock, build
        self._made: T | None = None
        dock.visibilityChanged.connect(self._visible)

    @property
    def built(self) -> bool:
        return self._made is not None

    def get(self) -> T:
        """What the dock holds, built now if it was not yet."""
        if self._made is None:
            placeholder = self.dock.widget()
            self._made = self._build(self.dock)
            if placeholder is not None and placeholder is not self.dock.widget():
                placeholder.deleteLater()
        return self._made

    def _visible(self, visible: bool) -> None:
        if visible:
            self.get()


def empty_panel() -> QWidget:
    """What a lazy dock holds until its panel is built."""
    return QWidget()


class LazyPanels:
    """The main window's docks that are built on first need, under the names callers
    know them by."""

    _side: LazyDock[SideQuestions]
    _search: LazyDock[SearchDock]

    @property
    def side(self) -> SideQuestions:
        return self._side.get()

    @property
    def side_dock(self) -> QDockWidget:
        return self._side.dock

    @property
    def finder(self) -> SearchDock:
        return self._search.get()
