"""The conversation header at 1280×720 and 1024×600, in English and Chinese: a long
profile name and a long model name are cut at the end with an ellipsis, never cut off
mid-character at the box's edge; the whole name stays what is chosen and sent. The
sampling button says the whole of what is sent, on a line of its own where the pickers
leave it no room."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QLineEdit,
    QStyle,
    QStyleOptionComboBox,
    QStyleOptionFrame,
)

from turnlog.core.model import ConversationSettings
from turnlog.ui.infra import languages
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]

PROFILE = "内置（SmolLM2-135M-Instruct）· a profile with a long name"
MODEL = "smollm2-135m-instruct-q4_1-with-a-long-suffix"


@pytest.fixture
def in_language(qapp):
    yield languages.install
    languages.install(languages.ENGLISH)
    QLocale.setDefault(QLocale.c())


def field_width(combo: QComboBox) -> int:
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    return combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                        QStyle.SubControl.SC_ComboBoxEditField, combo).width()


def cut_well(shown: str, full: str, room: int, combo: QComboBox) -> bool:
    fits = combo.fontMetrics().horizontalAdvance(shown) <= room
    return fits and (shown == full or (shown.endswith("…") and full.startswith(shown[:-1])))


@pytest.mark.parametrize("size", [(1280, 720), (1024, 600)])
@pytest.mark.parametrize("language", ["en", "zh_CN", "zh_TW"])
def test_long_profile_and_model_names_end_in_an_ellipsis(qtbot, make_window, store,
                                                          in_language, language, size):
    in_language(language)
    seed(store, "chat", numbered(1))
    window = make_window(size=size)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    header = window.centre.header
    header.profile.addItem(PROFILE)
    header.profile.setCurrentIndex(header.profile.count() - 1)
    header.model.setEditText(MODEL)
    window.composer.edit.setFocus()
    qtbot.wait(50)
    assert header.geometry().right() <= window.centre.width()
    assert header.model.geometry().right() <= header.width()

    option = QStyleOptionComboBox()
    header.profile.initStyleOption(option)
    assert cut_well(option.currentText, PROFILE, field_width(header.profile), header.profile)
    assert header.profile.currentText() == PROFILE

    edit = header.model.lineEdit()
    assert not edit.hasFocus()
    room = edit.contentsRect().width() - 4
    assert cut_well(edit.shown_text(), MODEL, room, header.model)
    assert header.model.currentText() == MODEL  # what is sent is the whole name
    if size == (1024, 600):
        assert edit.shown_text() != MODEL  # it does not fit there: the ellipsis says so
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus, timeout=2000)
    assert edit.shown_text() == MODEL  # typing in it: the whole name, to edit


@pytest.mark.parametrize("size", [(1280, 720), (1024, 600)])
@pytest.mark.parametrize("language", ["en", "zh_CN", "zh_TW"])
def test_long_conversation_titles_end_in_an_ellipsis_without_a_sideways_scrollbar(
        qtbot, make_window, store, in_language, language, size):
    in_language(language)
    long_title = "关于西班牙语动词变位与日常会话练习的一段很长的对话 and its English half"
    seed(store, long_title, numbered(1))
    seed(store, "short", numbered(1))
    window = make_window(size=size)
    listing = window.sidebar.list
    qtbot.waitUntil(lambda: window.sidebar.model.rowCount() == 2, timeout=5000)
    qtbot.waitUntil(window.sidebar_dock.isVisible, timeout=2000)
    qtbot.wait(50)
    assert not listing.horizontalScrollBar().isVisible()
    [row] = [r for r in range(2) if window.sidebar.model.conversation(r).title == long_title]
    rect = listing.visualRect(window.sidebar.model.index(row))
    assert rect.right() <= listing.viewport().width()  # the row ends at the list's edge
    shown = listing.fontMetrics().elidedText(long_title, Qt.TextElideMode.ElideRight,
                                             rect.width() - 8)
    assert shown.endswith("…") and len(shown) > 10  # cut at the end, not to 8 characters


def placeholder_fits(edit: QLineEdit) -> bool:
    """The placeholder is drawn whole: QLineEdit cuts a longer one with "..."."""
    option = QStyleOptionFrame()
    edit.initStyleOption(option)
    room = edit.style().subElementRect(QStyle.SubElement.SE_LineEditContents, option, edit)
    margins = edit.textMargins()
    width = room.width() - margins.left() - margins.right() - 4
    return edit.fontMetrics().horizontalAdvance(edit.placeholderText()) <= width


@pytest.mark.parametrize("size", [(1280, 720), (1024, 600)])
@pytest.mark.parametrize("language", ["en", "zh_CN", "zh_TW"])
def test_search_and_memory_placeholders_are_whole(qtbot, make_window, store, in_language,
                                                  language, size):
    in_language(language)
    seed(store, "chat", numbered(1))
    window = make_window(size=size)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    window.memory_dock.show()
    window.memory_dock.raise_()
    qtbot.waitUntil(window.memory_dock.isVisible, timeout=2000)
    qtbot.wait(50)
    assert placeholder_fits(window.sidebar.search), window.sidebar.search.placeholderText()
    panel = window.memory.panel
    for editor in (panel.pin_editor, panel.note_editor, panel.preference_editor):
        assert placeholder_fits(editor.text), editor.text.placeholderText()
        assert editor.remove.geometry().right() <= editor.width()


SAMPLING = ConversationSettings(temperature=0.7, top_p=0.9, send_max_tokens=True)


@pytest.mark.parametrize("settings", [ConversationSettings(), SAMPLING])
@pytest.mark.parametrize("language", ["en", "zh_CN", "zh_TW"])
def test_the_sampling_button_shows_its_whole_words_at_1024_px(qtbot, make_window, store,
                                                              in_language, language, settings):
    """Not "Sampling…" or "采样：最多…" with the values only in its tooltip."""
    in_language(language)
    seed(store, "chat", numbered(1), settings=settings)
    window = make_window(size=(1024, 600))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    header, button = window.centre.header, window.centre.header.sampling
    qtbot.waitUntil(lambda: button.text() == button.full_text(), timeout=2000)
    assert any(figure in button.text() for figure in ("8,192", "8192"))
    assert button.fontMetrics().horizontalAdvance(button.text()) <= button.width()
    assert button.mapTo(header, button.rect().bottomRight()).x() <= header.width()
    assert button.isVisible() and not button.visibleRegion().isEmpty()


def test_the_sampling_button_stays_beside_the_pickers_where_they_leave_it_room(
        qtbot, make_window, store):
    """A wide window spends no line on it: the transcript keeps its height."""
    seed(store, "chat", numbered(1))
    window = make_window(size=(1600, 900))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    header = window.centre.header
    qtbot.waitUntil(lambda: header.sampling.text() == header.sampling.full_text(),
                    timeout=2000)
    beside = lambda: (header.sampling.geometry().top() == header.refresh.geometry().top()  # noqa: E731
                      and header.sampling.geometry().left() > header.refresh.geometry().right())
    assert beside()
    window.resize(1024, 600)  # under the pickers, whole
    qtbot.waitUntil(lambda: header.sampling.geometry().top() > header.refresh.geometry().bottom(),
                    timeout=2000)
    assert header.sampling.text() == header.sampling.full_text()
    window.resize(1600, 900)
    qtbot.waitUntil(beside, timeout=2000)
