"""Where a conversation's title came from, as the store keeps it beside the title: typed by
the user, taken from the first question, or made by the model. Apart from `core.titles`
(which makes titles) so that reading a title loads nothing of the making."""

from __future__ import annotations

USER = "user"
QUESTION = "question"
MODEL = "model"
SOURCES = (USER, QUESTION, MODEL)
TITLE_OUTCOME = "title"  # a request record's outcome for a title made
