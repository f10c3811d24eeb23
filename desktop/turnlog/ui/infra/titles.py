"""A conversation's title as the window shows it, wherever it is shown."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from ...core.model import Conversation
from ...core.titles import QUESTION, USER
from ...core.visible import visible

NEW_CONVERSATION = QT_TRANSLATE_NOOP("Sidebar", "New conversation")


def shown_title(title: str, source: str = USER) -> str:
    """A conversation title as shown: control characters and bidi overrides (an imported
    title may hold them) as visible escapes (`\\u202e`), so they never reorder the text.
    A conversation to be titled after its first question is a neutral "New conversation"
    until that question is answered."""
    if not title and source == QUESTION:
        return QCoreApplication.translate("Sidebar", NEW_CONVERSATION)
    return visible(title) or QCoreApplication.translate("Sidebar", "Untitled")


def conversation_title(conversation: Conversation) -> str:
    """`conversation`'s title as the list, the header and the window show it."""
    return shown_title(conversation.title, conversation.title_source)
