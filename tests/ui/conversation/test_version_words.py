"""The version controls' words name a turn as its row header does, in grouped digits
("turn 1,317"), wherever the number comes from."""

from __future__ import annotations

from turnlog.core.versions import ForkOrigin
from turnlog.ui.conversation.versions import fork_question, origin_text
from turnlog.ui.transcript.row_header import turn_title


def test_a_fork_names_its_turn_as_the_header_does(qtbot):
    assert turn_title(1317) == "Turn 1,317"
    assert fork_question(1317, 1316).text == \
        "Fork from turn 1,317? The new conversation starts with copies of 1,316 turns."
    assert origin_text(ForkOrigin(1400, 7, "chat", 1317)) == "forked from “chat”, turn 1,317"
    assert origin_text(ForkOrigin(1400, None, None, 1317)) == \
        "forked from a deleted conversation, turn 1,317"
    assert origin_text(ForkOrigin(1400, 7, "chat", 1317, "office-pc")) == \
        "continued on office-pc, from “chat”, turn 1,317"
