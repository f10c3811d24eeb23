"""A reasoning model's thought (or a turn's tool calls) above its answer: folded to one
line unless the person opens it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QRect, QRectF, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextDocument

from ..infra.languages import arg
from .model import ModelIndex, Role

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


class ReasoningFold:
    """A reasoning model's thought, above its answer: one line ("▸ Reasoning · 1,234
    characters") while folded, the line and the text (plain, dimmed) when open. Folded
    by default, while it streams and after; a click on the line opens or folds it, per
    turn. The text's document is made only while it is open."""

    def __init__(self, new_doc: Callable[[int], QTextDocument]) -> None:
        self._new_doc = new_doc
        self._open: set[str] = set()
        self._docs: dict[str, tuple[str, QTextDocument]] = {}

    # ------------------------------------------------------------------ state
    def is_open(self, key: str) -> bool:
        return key in self._open

    def toggle(self, key: str) -> bool:
        """Open a folded one, fold an open one; returns whether it is open now."""
        if key in self._open:
            self._open.discard(key)
            self._docs.pop(key, None)
            return False
        self._open.add(key)
        return True

    def rename(self, old: str, new: str) -> None:
        """The pending row became turn `new`: it stays as open as it was."""
        if old in self._open:
            self._open.discard(old)
            self._open.add(new)
        if (doc := self._docs.pop(old, None)) is not None:
            self._docs[new] = doc

    def forget(self, key: str) -> None:
        self._open.discard(key)
        self._docs.pop(key, None)

    @staticmethod
    def title(text: str, *, streaming: bool, opened: bool, tools: str = "") -> str:
        """The fold's line; with `tools` (the tool calls' words), about them."""
        arrow = "▾" if opened else "▸"
        if tools:
            return (arg(translate("AnswerView", "%1 %2"), arrow, tools)
                    + ("" if opened else translate("AnswerView", " (click to show)")))
        words = translate("AnswerView", "Reasoning…") if streaming \
            else translate("AnswerView", "Reasoning")
        return (arg(translate("AnswerView", "%1 %2 · %3 characters"), arrow, words, len(text))
                + ("" if opened else translate("AnswerView", " (click to show)")))

    # ----------------------------------------------------------------- layout
    def _doc(self, key: str, text: str, width: int) -> QTextDocument:
        known = self._docs.get(key)
        if known is not None and known[0] == text:
            doc = known[1]
            if doc.textWidth() != width:
                doc.setTextWidth(width)
            return doc
        doc = self._new_doc(width)
        doc.setPlainText(text)
        self._docs[key] = (text, doc)
        return doc

    def height(self, key: str, text: str, width: int, line: int, gap: int) -> int:
        """The fold's height: none without reasoning, one line folded, the text open."""
        if not text:
            return 0
        if key not in self._open:
            return line
        return line + gap + int(self._doc(key, text, width - 2 * gap).size().height())

    def draw(self, painter: QPainter, key: str, text: str, area: QRect, line: int, gap: int,
             palette: QPalette, streaming: bool, visible: QRect, tools: str = "") -> None:
        """Draw the fold with its top-left at `area`'s (its width is `area`'s), laying out
        and painting only what lies inside `visible`."""
        opened = key in self._open
        dim = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText)
        painter.save()
        painter.setPen(dim)
        header = QRect(area.left(), area.top(), area.width(), line)
        painter.drawText(header, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         self.title(text, streaming=streaming, opened=opened, tools=tools))
        if opened:
            doc = self._doc(key, text, area.width() - 2 * gap)
            top = area.top() + line + gap
            painter.fillRect(QRect(area.left(), top, 3, int(doc.size().height())), dim)
            x = area.left() + 2 * gap
            painter.translate(x, top)
            context = QAbstractTextDocumentLayout.PaintContext()
            context.clip = QRectF(visible.translated(-x, -top))
            context.palette = QPalette(palette)
            context.palette.setColor(QPalette.ColorRole.Text, dim)
            doc.documentLayout().draw(painter, context)
        painter.restore()


def fold_of(index: ModelIndex) -> tuple[str, str]:
    """What the fold between question and answer holds — the reasoning, the tool calls
    with their results — and, for tool calls, the words of its line."""
    reasoning = str(index.data(Role.REASONING) or "")
    tools = index.data(Role.TOOL_CALLS)
    if tools is None:
        return reasoning, ""
    words = arg(QCoreApplication.translate("AnswerView", "1 tool call: %1"), tools.names) \
        if tools.count == 1 else arg(QCoreApplication.translate(
            "AnswerView", "%1 tool calls: %2"), tools.count, tools.names)
    text = tools.text if not reasoning else f"{reasoning}\n\n{tools.text}"
    return text, words
