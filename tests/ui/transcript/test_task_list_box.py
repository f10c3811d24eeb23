"""A task list reads as written: `- [x] done task` is drawn with a ticked box, `- [ ] open
task` with an empty one, in the transcript (real window, offscreen)."""

from __future__ import annotations

from PySide6.QtGui import QImage

from answer_rendering import _option, answer_documents
from turnlog.ui.transcript.model import Role
from window_sending import open_window

pytest_plugins = ["uiwindow"]

TASKS = "Progress:\n\n- [x] done task\n- [ ] open task\n"


def _box(view, index, doc, text: str, grabbed: QImage) -> list[int]:
    """The pixels (as lightness) of the box drawn left of the list item `text`."""
    geometry = view.delegate.geometry(_option(view, index), index)[0]
    at = next(top for d, top in view.delegate._answer(
        str(index.data(Role.KEY)), TASKS, geometry.content_width).placed() if d is doc)
    block = doc.find(text).block()
    rect = doc.documentLayout().blockBoundingRect(block)
    line = block.layout().lineAt(0)
    # The box sits in the list's indent, left of where the item's text starts.
    text_left = int(geometry.answer_at.x() + rect.left() + line.x())
    top = int(geometry.answer_at.y() + at + rect.top())
    height = int(rect.height())
    return [grabbed.pixelColor(x, y).lightness()
            for y in range(top, top + height) for x in range(text_left - 2 * height, text_left)]


def test_a_done_task_has_a_ticked_box_and_an_open_one_an_empty_box(qtbot, make_window,
                                                                    store):
    window, _cid = open_window(qtbot, make_window, store, [("Where are we?", TASKS)])
    view = window.view
    index = window.transcript.index(0)
    [doc] = [d for d in answer_documents(window) if not d.find("done task").isNull()]
    grabbed = view.viewport().grab().toImage()
    done = _box(view, index, doc, "done task", grabbed)
    open_ = _box(view, index, doc, "open task", grabbed)
    base = view.palette().color(view.palette().ColorRole.Base).lightness()
    inked_done = sum(abs(v - base) > 60 for v in done)
    inked_open = sum(abs(v - base) > 60 for v in open_)
    assert inked_open > 0  # the empty box is drawn
    assert inked_done > inked_open + 4  # and the done one carries a tick besides
