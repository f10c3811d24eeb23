"""Help → About begins at its top: the name and version are the first thing in the
dialog, with no band of blank space above them, in English and in Chinese."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLocale

from turnlog.ui.dialogs.about import AboutDialog
from turnlog.ui.infra import languages


@pytest.fixture
def language(qapp):
    yield languages.install
    languages.install(languages.ENGLISH)
    QLocale.setDefault(QLocale.c())


def first_inked_row(dialog: AboutDialog) -> int:
    image = dialog.grab().toImage()
    base = dialog.palette().color(dialog.backgroundRole()).lightness()
    for y in range(image.height()):
        if any(abs(image.pixelColor(x, y).lightness() - base) > 80
               for x in range(0, image.width(), 2)):
            return y
    return image.height()


@pytest.mark.parametrize("code", ["en", "zh_CN", "zh_TW"])
def test_the_about_text_starts_at_the_top(qtbot, turnlog_home, language, code):
    if code != "en":
        language(code)
    dialog = AboutDialog(home=turnlog_home)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    margin = dialog.layout().contentsMargins().top()
    assert first_inked_row(dialog) <= margin + 24  # the heading's own leading, no more
    # Nothing is cut either: the whole text fits the dialog as opened.
    assert dialog.text.height() >= dialog.text.heightForWidth(dialog.text.width())
