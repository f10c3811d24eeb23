"""What PySide's signature support (the modules shiboken compiles from the source in its
binary) tells a person who calls a Qt method wrongly: one line, the same in every process
that loaded that support whole."""

from __future__ import annotations


def wrong_call() -> str:
    """The error of `QObject.setObjectName` given a number, its lines joined by " | "
    (the supported signatures are parsed from PySide's text by that support)."""
    from PySide6.QtCore import QObject

    try:
        QObject().setObjectName(5)  # type: ignore[arg-type]
    except TypeError as err:
        return " | ".join(str(err).splitlines())
    raise AssertionError("PySide took a number for a name")
