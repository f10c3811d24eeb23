"""When the built-in model's server dies, the person is told so: *The built-in model stopped
unexpectedly*, with the signal or exit code and the last lines of its log — never "check
the base URL", since they set none. The draft comes back, the log is unchanged, and the
next send starts the server again. It also stops when nothing uses it any more.

The real llama-cpp-python server with the real SmolLM2, killed for real (SIGSEGV is what a
CPU-specific build dies of on another CPU; SIGKILL is the out-of-memory killer's).
"""

from __future__ import annotations

import os
import signal
import struct
import threading
import time
from pathlib import Path

import pytest

from turnlog.core.body import RequestOptions
from turnlog.core.budget import ESTIMATE, Budget
from turnlog.core.failures import FailureKind
from turnlog.core.model import ConversationSettings
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed, Failed, Sender, SendRequest
from turnlog.localmodel import LocalModelFailure, LocalServer, available
from turnlog.service.chat import LocalModels, connect_local
from turnlog.store import TurnlogStore

AVAILABILITY = available()
pytestmark = [
    pytest.mark.realmodel,
    pytest.mark.skipif(not AVAILABILITY.ok, reason=AVAILABILITY.reason or "no local model"),
]

N_CTX = 2048
OUTPUT_RESERVE = 256
STORY = "Write a long story about a lighthouse keeper and a storm, in many paragraphs."


@pytest.fixture
def models(tmp_path):
    local = LocalModels(n_ctx=N_CTX, log_dir=tmp_path / "logs")
    yield local
    local.stop()


@pytest.fixture
def store(tmp_path):
    opened = TurnlogStore.open(tmp_path / "store")
    yield opened
    opened.close()


def settings() -> ConversationSettings:
    return ConversationSettings(context_window=N_CTX, output_reserve=OUTPUT_RESERVE,
                                compaction=False)


def send(models: LocalModels, store: TurnlogStore, conversation, question: str, *,
         exact: bool = True, **kwargs):
    """One send through the built-in model as the window and the CLI make it."""
    connection = connect_local(models, None)
    endpoint = models.running(None)
    assert endpoint is not None
    costs = connection.costs if exact and connection.costs else CostIndex(ESTIMATE)
    budget = Budget.from_settings(conversation.settings, context_window=endpoint.context_window)
    options = RequestOptions(stream=True, max_tokens=OUTPUT_RESERVE, temperature=0)
    request = SendRequest(conversation, question, endpoint.model, budget, options)
    return Sender(store, connection.provider, costs=costs).send(request, **kwargs)


def database_bytes(store: TurnlogStore) -> list[bytes]:
    """Every row of the log as stored, byte for byte."""
    rows = store.db.execute_sql("SELECT * FROM turns ORDER BY id").fetchall()
    return [repr(row).encode() for row in rows]


def alive(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def assert_named_crash(failure, sig: signal.Signals) -> None:
    assert failure.kind is FailureKind.LOCAL_MODEL_CRASHED
    assert failure.title == "The built-in model stopped unexpectedly"
    assert f"signal {sig.value} ({sig.name})" in failure.detail
    message = failure.message()
    assert "base URL" not in message and "Could not reach" not in message
    assert "local model log" in failure.hint
    # The log's last lines, ending with how the process ended.
    assert failure.log_tail
    assert failure.log_tail[-1].startswith(
        f"[turnlog] the server process ended unexpectedly: signal {sig.value} ({sig.name})")


@pytest.mark.parametrize("sig", [signal.SIGSEGV, signal.SIGKILL])
def test_a_server_killed_mid_answer_is_a_named_crash_and_the_next_send_answers(
        models, store, tmp_path, sig):
    conversation = store.conversations.create("Crash", settings=settings())
    first = send(models, store, conversation, "Say hello.")
    assert isinstance(first, Committed), first
    before, turns_before = database_bytes(store), store.turns(conversation.id)
    [pid] = models.pids
    deltas: list[str] = []

    def kill_after_two(text: str) -> None:
        deltas.append(text)
        if len(deltas) == 2:
            os.kill(pid, sig)

    outcome = send(models, store, conversation, STORY, on_delta=kill_after_two)
    assert isinstance(outcome, Failed), outcome
    assert_named_crash(outcome.failure, sig)
    assert outcome.failure.stage == "answering"
    assert outcome.draft == STORY
    assert len(deltas) >= 2
    assert store.turns(conversation.id) == turns_before
    assert database_bytes(store) == before
    log = (tmp_path / "logs" / "local-model.log").read_text(errors="replace")
    assert f"ended unexpectedly: signal {sig.value} ({sig.name})" in log

    again = send(models, store, conversation, "Say goodbye.")
    assert isinstance(again, Committed), again
    [restarted] = models.pids
    assert restarted != pid and alive(restarted)
    assert [t.question for t in store.turns(conversation.id)] == ["Say hello.", "Say goodbye."]


@pytest.mark.parametrize("sig", [signal.SIGSEGV, signal.SIGKILL])
def test_a_server_killed_before_the_first_token_is_a_named_crash(models, store, sig):
    conversation = store.conversations.create("Crash early", settings=settings())
    send(models, store, conversation, "Say hello.")  # up and answering
    turns_before = store.turns(conversation.id)
    [pid] = models.pids
    # Frozen, the server accepts the request (the kernel does) but cannot answer it: the
    # kill lands with the request in flight and no token sent. (Estimated counts: nothing
    # else asks the frozen server anything first.)
    os.kill(pid, signal.SIGSTOP)
    result: list[object] = []
    sending = threading.Thread(target=lambda: result.append(
        send(models, store, conversation, STORY, exact=False)))
    sending.start()
    time.sleep(1.0)
    assert not result, "the send ended while the server was frozen"
    os.kill(pid, sig)
    os.kill(pid, signal.SIGCONT)  # a stopped process takes a pending SIGSEGV on waking
    sending.join(60)
    [outcome] = result
    assert isinstance(outcome, Failed), outcome
    assert_named_crash(outcome.failure, sig)
    assert outcome.draft == STORY and not outcome.partial
    assert store.turns(conversation.id) == turns_before
    again = send(models, store, conversation, "Say goodbye.")
    assert isinstance(again, Committed), again


def test_a_file_that_is_no_model_is_a_named_start_failure_with_the_log(tmp_path):
    # A GGUF header that names an architecture and holds no weights: it passes Turnlog's
    # own header check, and the server exits while loading it.
    raw, arch = b"general.architecture", b"llama"
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", len(raw))
                     + raw + struct.pack("<I", 8) + struct.pack("<Q", len(arch)) + arch)
    server = LocalServer(model_path=fake, n_ctx=512, log_dir=tmp_path, startup_timeout=90)
    started = time.monotonic()
    with pytest.raises(LocalModelFailure) as caught:
        server.start()
    assert time.monotonic() - started < 90
    failure = caught.value.failure
    assert failure.kind is FailureKind.LOCAL_MODEL
    assert failure.title == "The built-in model could not start"
    assert "could not be loaded" in failure.detail
    assert "base URL" not in failure.message()
    assert "The log ends:" in failure.message()
    assert failure.log_tail[-1].startswith(
        "[turnlog] the server process ended unexpectedly: exit code")
    assert not server.running

    # Bytes that are no model at all are named before anything starts.
    (tmp_path / "noise.gguf").write_bytes(b"GGUF" + os.urandom(64))
    with pytest.raises(LocalModelFailure, match="header is damaged"):
        LocalServer(model_path=tmp_path / "noise.gguf", log_dir=tmp_path).start()


def test_the_server_stops_when_unused_or_idle_and_starts_again(tmp_path, store):
    models = LocalModels(n_ctx=N_CTX, log_dir=tmp_path / "logs", idle_timeout=2.0)
    try:
        conversation = store.conversations.create("Idle", settings=settings())
        assert isinstance(send(models, store, conversation, "Say hi."), Committed)
        [pid] = models.pids
        # Another provider chosen: nothing uses the built-in model any more.
        models.release()
        assert not alive(pid) and models.running(None) is None
        assert isinstance(send(models, store, conversation, "Say hi again."), Committed)
        [second] = models.pids
        assert alive(second)
        # Still in use (the built-in profile is the one in use): kept.
        models.release(keep=None)
        assert alive(second)
        # Idle: stopped after the timeout, not during an answer; the log says so once the
        # process is reaped.
        log_file = tmp_path / "logs" / "local-model.log"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
                alive(second) or "stopped by Turnlog" not in log_file.read_text(errors="replace")):
            time.sleep(0.1)
        assert not alive(second), "the idle server was not stopped"
        assert "the server process stopped by Turnlog" in log_file.read_text(errors="replace")
        assert isinstance(send(models, store, conversation, "And once more."), Committed)
    finally:
        models.stop()


# ------------------------------------------------------------------------- in the window
@pytest.fixture
def window(qtbot, turnlog_home):
    from turnlog.app import open_window  # the window as `turnlog.app.main` builds it

    store = TurnlogStore.open(turnlog_home)
    made = open_window(store, turnlog_home, n_ctx=N_CTX)
    qtbot.addWidget(made)
    made.resize(1280, 720)
    made.show()
    yield made
    made.shutdown()
    store.close()


def test_the_window_names_the_crash_gives_the_question_back_and_answers_next_time(
        qtbot, window):
    store = window.store
    [profile] = window.setup.load()
    assert profile.builtin
    conversation = store.conversations.create("Local", model=profile.model)
    window.refresh_conversations(select_id=conversation.id)
    killed: list[int] = []

    def kill_on_first_words(*_args: object) -> None:
        if not killed:
            [pid] = window.connector.local.pids
            killed.append(pid)
            os.kill(pid, signal.SIGKILL)

    window.session.streamed.connect(kill_on_first_words)
    window.composer.set_draft(STORY)
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=180_000)
    window.session.streamed.disconnect(kill_on_first_words)
    assert killed
    assert window.banner.isVisible()
    assert window.banner.title.text() == "The built-in model stopped unexpectedly"
    assert "signal 9 (SIGKILL)" in window.banner.message.text()
    # The log's last lines in a box of their own, the last one in view; and in the report.
    assert window.banner.log_box.isVisible() and window.banner.open_log_button.isVisible()
    log_lines = window.banner.log_box.toPlainText().splitlines()
    assert "ended unexpectedly: signal 9 (SIGKILL)" in log_lines[-1]
    assert "The log ends:" in window.banner.report()
    assert "base URL" not in window.banner.report()
    assert window.banner.retry_button.isVisible()
    assert window.composer.text() == STORY
    assert store.turns(conversation.id) == ()

    window.composer.set_draft("Say hello.")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=180_000)
    assert not window.banner.isVisible(), window.banner.report()
    assert [t.question for t in store.turns(conversation.id)] == ["Say hello."]


def test_choosing_another_provider_stops_the_builtin_server(qtbot, window, loopback):
    from turnlog.config.profiles import new_profile
    from turnlog.providers.presets import preset_by_id

    store = window.store
    [builtin] = window.setup.load()
    other = new_profile(preset_by_id("custom"), model="m", name="Other",
                        base_url=loopback.base_url)
    window.setup.profiles.save([builtin, other])
    conversation = store.conversations.create("Local", model=builtin.model)
    window.refresh_conversations(select_id=conversation.id)
    window.composer.set_draft("Say hello.")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=180_000)
    [pid] = window.connector.local.pids
    assert alive(pid)

    combo = window.centre.header.profile
    index = combo.findData(other.id)
    assert index >= 0
    combo.setCurrentIndex(index)
    combo.activated.emit(index)  # as a click on the entry does
    qtbot.waitUntil(lambda: not alive(pid), timeout=30_000)
    assert window.connector.local.running(None) is None


# ------------------------------------------------------------------------------ the CLI
def server_children(pid: int) -> list[int]:
    """The llama_cpp.server processes `pid` started."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            if b"llama_cpp.server" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(int(child))
    return found


def test_cli_ask_names_the_crash_and_prints_the_question_back(turnlog_home):
    import subprocess
    import sys

    from turnlog.config.profiles import ProfileStore

    assert ProfileStore(turnlog_home).offer_builtin() is not None
    cli = subprocess.Popen(
        [sys.executable, "-m", "turnlog.cli", "ask", "--new", STORY],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy())
    try:
        first = cli.stdout.read(1)  # the answer has begun streaming
        assert first, cli.stderr.read().decode()
        [server] = server_children(cli.pid)
        os.kill(server, signal.SIGSEGV)
        out, err = cli.communicate(timeout=120)
    finally:
        if cli.poll() is None:
            cli.kill()
    err_text = err.decode()
    assert cli.returncode == 4, err_text
    assert "failure: local_model_crashed" in err_text
    assert "The built-in model stopped unexpectedly" in err_text
    assert "signal 11 (SIGSEGV)" in err_text and "The log ends:" in err_text
    assert "base URL" not in err_text
    assert err_text.rstrip().endswith(STORY)  # the question, given back
    assert "(the text above was not saved)" in err_text
    with TurnlogStore.open(turnlog_home) as store:
        assert all(not store.turns(c.id) for c in store.conversations())
