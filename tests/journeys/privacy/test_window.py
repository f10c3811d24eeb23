"""Deleting and exporting from the window: the confirmation names what goes, marks and
inspector follow the log, a request in flight for deleted history leaves nothing behind,
delete-all leaves no copy on disk (and can take the API keys with it), and File → Export
writes both formats off the GUI thread."""

from __future__ import annotations

import json
import threading

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from loopback import Behaviour
from privacy_answers import Answers, scan
from turnlog.config.profiles import ProfileStore, new_profile
from turnlog.config.secrets import SessionKeys
from turnlog.core.model import ConversationSettings
from turnlog.formats.export import export_text
from turnlog.providers import CUSTOM
from turnlog.ui.dialogs.privacy import Confirmation, Decision, export_target
from turnlog.ui.infra import operations as operations_module
from turnlog.ui.infra.export_file import ExportTarget
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings
from turnlog.ui.transcript.marks import RowMark
from turnlog.ui.transcript.model import Role
from uihelpers import seed

pytest_plugins = ["uiwindow"]

KEY = "sk-privacy-test-0123456789"
FACTS = [
    ("Never delete the backups. Keep that in mind for every plan we make together.",
     "Understood: the backups stay, whatever happens."),
    ("We are on build 4.2.17 of the installer for this whole project.", "Noted, build 4.2.17."),
    ("Our tracking ticket is ORCHID-17 in the team tracker.", "Got it: ORCHID-17."),
]
SUMMARY = "- Never delete the backups\n- build 4.2.17\n- ticket ORCHID-17\n- tulips"


def garden() -> list[tuple[str, str]]:
    return FACTS + [(f"Question {i}: " + "tell me more about the garden plans " * 5,
                     f"Answer {i}: " + "plant the tulips along the fence " * 5)
                    for i in range(4, 41)]


def secrets_for(tag: str, n: int) -> tuple[str, str]:
    # Closed at both ends, so no secret is a prefix of another.
    return (f"ORCHID-17-SECRET-{tag}{n:03d}Q 机密兰花{tag}{n:03d}问 🦄{tag}{n:03d}🦄",
            f"ORCHID-17-SECRET-{tag}{n:03d}A 秘密答复{tag}{n:03d}答 🔐{tag}{n:03d}🔐")


def marks(window: MainWindow) -> dict[int, RowMark]:
    model = window.transcript
    model.load_all()
    return {model.index(r).data(Role.ORDINAL): model.index(r).data(Role.MARK)
            for r in range(model.rowCount()) if not model.index(r).data(Role.PENDING)}


def send(qtbot, window: MainWindow, text: str) -> None:
    window.composer.set_draft(text)
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=15_000)


def summarized_window(qtbot, make_window, store, loopback) -> tuple[MainWindow, int]:
    """The garden log, sent once so a summary of turns 1–27 and a request record exist."""
    conversation = seed(store, "garden", garden(),
                        settings=ConversationSettings(max_bytes=6_000))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 40, timeout=5000)
    loopback.script(*[Behaviour.answer(SUMMARY)] * 3, Behaviour.answer("Garlic, in October."))
    send(qtbot, window, "What should we plant next?")
    qtbot.waitUntil(lambda: window.inspector.state.summary is not None)
    assert window.shown.kind == "last"
    return window, conversation.id


def test_context_menu_delete_turn_names_counts_and_updates_marks_and_inspector(
        qtbot, make_window, store, loopback):
    window, cid = summarized_window(qtbot, make_window, store, loopback)
    assert "4.2.17" in window.inspector.body.toPlainText()  # the summary in the last body
    assert marks(window)[2] is RowMark.SUMMARY

    model = window.transcript
    window.view.setCurrentIndex(model.index(model.row_of_ordinal(2)))
    assert window.view.delete_action in window.view.actions()  # offered in its context menu
    asked: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, answer)
            return
        asked.append(box.text())
        [delete] = [b for b in box.buttons() if b.text() == "Delete"]
        delete.click()

    QTimer.singleShot(0, answer)
    window.view.delete_action.trigger()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 40, timeout=5000)

    # The send made one summary (covering turn 2) and one request record (naming it).
    assert asked == ["Delete turn 2? This removes 1 turn, 1 summary, 1 request record."]
    assert [t.ordinal for t in store.turns(cid)][:3] == [1, 3, 4]  # a gap, no renumbering
    assert store.records.latest_summary(cid) is None
    qtbot.waitUntil(lambda: window.statusBar().currentMessage()
                    == "Deleted 1 turn, 1 summary, 1 request record.")
    # The last request's body carried the deleted turn (through the summary): it is gone
    # from the inspector, which now previews the log as it is.
    assert window.shown.kind == "preview"
    assert "4.2.17" not in window.inspector.body.toPlainText()
    assert "build 4.2.17" not in window.inspector.body.toPlainText()
    assert window.inspector.state.summary is None
    after = marks(window)
    assert 2 not in after
    assert RowMark.SUMMARY not in after.values()  # the summary covering it is gone
    assert after[1] is RowMark.TO_SUMMARIZE
    assert window.transcript.summary is None
    shown = [model.index(r).data(Qt.ItemDataRole.DisplayRole) for r in range(model.rowCount())]
    assert not any("4.2.17" in text for text in shown)


def test_delete_turn_waits_for_the_running_request(qtbot, make_window, store, loopback):
    seed(store, "chat", [("first", "one"), ("second", "two")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2)
    window.confirm = answers = Answers(Decision(True))
    loopback.script(Behaviour.slow("A slow answer in many parts.", delay_s=0.1, chunks=10))
    window.composer.set_draft("third")
    window.send()
    window.view.setCurrentIndex(window.transcript.index(0))
    window.view.delete_action.trigger()
    assert window.statusBar().currentMessage() == \
        "Stop the running request before deleting a turn."
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    assert answers.asked == []
    assert len(store.turns(window.conversation.id)) == 3


def test_sidebar_delete_names_the_counts(qtbot, make_window, store, loopback):
    window, cid = summarized_window(qtbot, make_window, store, loopback)
    other = seed(store, "kept", [("Keep me", "Kept")])
    window.confirm = answers = Answers(Decision(False))
    window.refresh_conversations(select_id=cid)
    qtbot.mouseClick(window.sidebar.delete_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(answers.asked) == 1)
    assert answers.asked[0].text == ("Delete “garden”? This removes 1 conversation, 41 turns, "
                                     "1 summary, 1 request record.")
    assert len(store.conversations()) == 2

    answers.decision = Decision(True)
    qtbot.mouseClick(window.sidebar.delete_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: [c.id for c in store.conversations()] == [other.id])
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id == other.id)
    assert "garden" not in window.title.text()
    assert "4.2.17" not in window.inspector.body.toPlainText()


def test_delete_all_leaves_no_copy_on_disk_and_can_remove_the_keys(qtbot, store, loopback,
                                                                   turnlog_home):
    keys = SessionKeys()
    profiles = ProfileStore()
    profile = new_profile(CUSTOM, model="loopback-model", name="Loopback",
                          base_url=loopback.base_url)
    profiles.save([profile])
    keys.set(profile.id, KEY)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=keys)
    setup.set_active(profile.id)
    needles: list[str] = []
    conversations = []
    for tag in ("A", "B"):
        pairs = [secrets_for(tag, n) for n in range(1, 31)]
        pairs = [(q + " " + "x" * 200, a) for q, a in pairs]
        needles += [text for pair in pairs for text in pair]
        conversations.append(seed(store, f"secret {tag} 机密", pairs, model="loopback-model",
                                  settings=ConversationSettings(max_bytes=8_000)))
    # Memory taken from the text: a pin from a turn and a note go with their conversation.
    first_turn = store.turns(conversations[0].id)[0]
    store.memory.add_pin(conversations[0].id, "ORCHID-17-SECRET-P555-pinned",
                         sources=[first_turn.id])
    store.memory.add_note(conversations[1].id, "ORCHID-17-SECRET-N666-note")
    needles += ["ORCHID-17-SECRET-P555-pinned", "ORCHID-17-SECRET-N666-note"]
    # Summaries and answers echo the secrets, so derived data holds them too.
    echo = " ".join(secrets_for("A", 1) + secrets_for("B", 1))
    # A reasoning model's thought is kept with each answered turn: it must go too.
    thought = "ORCHID-17-SECRET-R555 思考过程 💭R555💭"
    needles.append(thought)
    loopback.default = Behaviour.answer(f"- {echo}", reasoning=thought)
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    try:
        for conversation in conversations:
            window.refresh_conversations(select_id=conversation.id)
            qtbot.waitUntil(lambda: len(window.transcript.turns) == 30, timeout=5000)
            question = f"ORCHID-17-SECRET-{conversation.title[7]}999Q-current"
            needles.append(question)
            send(qtbot, window, question)
            assert window.shown.projection.summarized, "the send must make a summary"
            assert store.records.of(conversation.id)
            assert store.turns(conversation.id)[-1].reasoning == thought
            side = f"ORCHID-17-SECRET-{conversation.title[7]}998Q-side 旁问"
            needles.append(side)
            window.side.panel.edit.setPlainText(side)
            window.side.ask()
            qtbot.waitUntil(lambda: window.side.panel.list.count() == 1, timeout=10_000)
        assert len(store.records.latest_summary(conversations[0].id).content) > 0
        # Each piece distinctive: the word "draft" alone is in the schema (draft_attachments).
        draft = "ORCHID-17-SECRET-D777Q-unsent D777-kept"  # kept on disk until deleted
        needles.append(draft)
        qtbot.keyClicks(window.composer.edit, draft)
        qtbot.waitUntil(lambda: any(turnlog_home.glob("drafts/*.txt")), timeout=5000)

        window.confirm = answers = Answers(Decision(True, option=True))
        window.delete_all_action.trigger()
        qtbot.waitUntil(lambda: store.conversations() == [], timeout=10_000)
        confirmation, totals = answers.asked  # then: the usage totals too? (yes: cleared)
        assert totals.title == "Clear the usage totals too?"
        assert store.usage.days() == []
        assert confirmation.text == ("Delete all history? This removes 2 conversations, "
                                     "62 turns, 2 summaries, 2 request records, "
                                     "1 pinned fact, 2 side questions.")
        assert confirmation.option == ("Also forget the API keys of 1 provider profile "
                                       "(Loopback), which Turnlog keeps in memory until it "
                                       "quits")
        qtbot.waitUntil(lambda: window.statusBar().currentMessage().endswith(
            "Removed 1 API key."))
        assert keys.get(profile.id) is None
        assert window.conversation is None
        assert window.transcript.rowCount() == 0
        assert window.sidebar.model.rowCount() == 0
        assert window.inspector.body.toPlainText() == ""
        assert window.side.panel.list.count() == 0
        assert window.side.panel.answer.toPlainText() == ""
    finally:
        window.shutdown()
        window.close()
    store.close()
    names = {p.name for p in turnlog_home.rglob("*") if p.is_file()}
    assert "turnlog.sqlite3" in names
    assert scan(turnlog_home, needles + [KEY]) == []
    assert [p.id for p in ProfileStore().load()] == [profile.id]  # the profile, keyless


def test_delete_all_while_a_request_runs_leaves_nothing_behind(qtbot, make_window, store,
                                                                loopback, turnlog_home):
    seed(store, "secret", [("ORCHID-17-SECRET-Z001Q", "ORCHID-17-SECRET-Z001A")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1)
    loopback.script(Behaviour.slow("ORCHID-17-SECRET-Z002A streaming in many small parts",
                                   delay_s=0.15, chunks=30))
    window.composer.set_draft("ORCHID-17-SECRET-Z002Q")
    window.send()
    qtbot.waitUntil(lambda: window.transcript.pending is not None
                    and bool(window.transcript.pending.answer), timeout=5000)

    window.confirm = Answers(Decision(True))
    window.delete_all_history()
    # Both ends of the window's own work: the stopped request, and the delete, whose
    # rows go before the file is rebuilt (VACUUM), so an empty table is not the end.
    qtbot.waitUntil(lambda: not window.running, timeout=5000)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Deleted "),
                    timeout=10_000)
    loopback.wait_idle()
    assert store.conversations() == []
    assert window.transcript.rowCount() == 0
    assert window.transcript.pending is None
    assert not window.banner.isVisible()  # no "Stopped" with a partial answer to copy
    assert window.composer.text() == ""  # the question of deleted history is not restored
    assert window.conversation is None
    assert "ORCHID" not in window.inspector.body.toPlainText()
    assert not window.stage_widget.isVisible()
    window.shutdown()
    store.close()
    assert scan(turnlog_home, ["ORCHID-17-SECRET-Z001Q", "ORCHID-17-SECRET-Z002Q",
                               "ORCHID-17-SECRET-Z002A"]) == []


def test_export_writes_markdown_and_json_lines_off_the_gui_thread(qtbot, make_window, store,
                                                                  tmp_path, monkeypatch):
    conversation = seed(store, "Trip 旅行", [("你好 👋", "Hello **there**"),
                                             ("Second?", "Yes.")], system_prompt="Be brief.")
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2)
    threads: list[str] = []
    real_write = operations_module.write_export

    def watched(path, text):
        threads.append(threading.current_thread().name)
        return real_write(path, text)

    monkeypatch.setattr(operations_module, "write_export", watched)
    turns = store.turns(conversation.id)
    for name, fmt in (("trip.md", "markdown"), ("trip.jsonl", "jsonl")):
        target = tmp_path / name
        window.choose_export = lambda title, t=target, f=fmt: ExportTarget(t, f)
        window.export_action.trigger()
        qtbot.waitUntil(target.exists, timeout=5000)
        assert target.read_text(encoding="utf-8") == export_text(conversation, turns, fmt)
        qtbot.waitUntil(lambda t=target: window.statusBar().currentMessage().endswith(
            f"to {t}."))
    lines = (tmp_path / "trip.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["title"] == "Trip 旅行"
    assert [json.loads(line)["question"] for line in lines[1:]] == ["你好 👋", "Second?"]
    assert "## Turn 1" in (tmp_path / "trip.md").read_text(encoding="utf-8")
    assert threads == ["turnlog-storage_0", "turnlog-storage_0"]
    assert not list(tmp_path.glob(".*.part"))

    # A failed write says so inline, and the window keeps working.
    window.choose_export = lambda title: ExportTarget(tmp_path / "missing" / "x.md",
                                                      "markdown")
    window.export_action.trigger()
    qtbot.waitUntil(window.banner.isVisible, timeout=5000)
    assert window.banner.title.text() == "Could not export the conversation"


def test_export_format_follows_the_suffix_or_the_chosen_filter(tmp_path):
    assert export_target(tmp_path / "a.md", "JSON lines (*.jsonl)") == \
        ExportTarget(tmp_path / "a.md", "markdown")
    assert export_target(tmp_path / "a.JSONL", "Markdown (*.md)") == \
        ExportTarget(tmp_path / "a.JSONL", "jsonl")
    assert export_target(tmp_path / "notes", "JSON lines (*.jsonl)") == \
        ExportTarget(tmp_path / "notes.jsonl", "jsonl")
    assert export_target(tmp_path / "notes", "Markdown (*.md)") == \
        ExportTarget(tmp_path / "notes.md", "markdown")


def test_a_stopped_request_finishing_before_delete_all_shows_nothing_of_it_again(
        qtbot, make_window, store, loopback):
    seed(store, "secret", [("ORCHID-17-SECRET-Z003Q", "ORCHID-17-SECRET-Z003A")])
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1)
    loopback.script(Behaviour.slow("ORCHID-17-SECRET-Z004A in many small parts",
                                   delay_s=0.15, chunks=30))
    window.composer.set_draft("ORCHID-17-SECRET-Z004Q")
    window.send()
    qtbot.waitUntil(lambda: window.transcript.pending is not None
                    and bool(window.transcript.pending.answer), timeout=5000)

    # The storage worker is held up until the stopped request has finished, so the delete
    # lands after it (the order a slow disk or a busy machine gives).
    gate = threading.Event()
    answers = Answers(Decision(True))

    def confirm(confirmation: Confirmation) -> Decision:
        window.runner.run(TaskRunner.STORAGE, "hold the storage worker",
                          lambda context: gate.wait(10), on_success=lambda _: None,
                          on_failure=lambda err: None)
        return answers(confirmation)

    window.confirm = confirm
    window.delete_all_history()
    qtbot.waitUntil(lambda: not window.running, timeout=5000)
    try:
        assert store.turns(store.conversations()[0].id)  # not deleted yet
        assert window.conversation is None
        assert window.transcript.rowCount() == 0
        assert window.title.text() == ""
        assert "ORCHID" not in window.inspector.body.toPlainText()
        assert window.composer.text() == ""
        assert not window.banner.isVisible()
    finally:
        gate.set()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Deleted "),
                    timeout=10_000)
    assert store.conversations() == []
    assert window.conversation is None and window.transcript.rowCount() == 0
