"""The failure banner offers "Send again" exactly when the failure's kind says it can help."""

from __future__ import annotations

import pytest

from turnlog.core.failures import Failure, FailureKind
from turnlog.ui.conversation.banner import FailureBanner


@pytest.mark.parametrize("kind", list(FailureKind), ids=lambda kind: kind.value)
def test_send_again_is_shown_as_the_failure_kind_says(qtbot, kind: FailureKind):
    banner = FailureBanner()
    qtbot.addWidget(banner)
    banner.show()
    banner.show_failure(Failure(kind, detail="what the server said"))
    assert banner.isVisible()
    assert banner.retry_button.isVisible() is kind.offers_retry
    banner.show_text("Nothing is set up", "Add a provider in Settings")
    assert not banner.retry_button.isVisible()
