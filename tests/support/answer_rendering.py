"""The documents the history paints an answer with."""

from __future__ import annotations

from PySide6.QtGui import (
    QTextDocument,
)


def answer_documents(window, row: int = 0) -> list[QTextDocument]:
    index = window.transcript.index(row)
    return [doc for doc, _at in window.view.delegate.text_layout(index)][1:]


def _option(view, index):
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    return option
