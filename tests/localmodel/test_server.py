"""The built-in local model against a real llama-cpp-python server and the real SmolLM2.

Everything here talks to 127.0.0.1 only. Tests that need the server are marked
`realmodel` and skipped, with the reason, where `turnlog[local]` is missing.
Run them with `pytest -m realmodel tests/localmodel/test_server.py -s` to see the
ORCHID-17 answers the model gave.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from places import DESKTOP
from turnlog.core.body import RequestOptions
from turnlog.core.budget import ESTIMATE, Budget
from turnlog.core.failures import FailureKind, ProviderFailure
from turnlog.core.model import ConversationSettings, Turn, Usage
from turnlog.core.projection import CostIndex, project
from turnlog.core.provider import CancelToken
from turnlog.core.send import Committed, Failed, PendingTurn, Sender, SendRequest
from turnlog.localmodel import (
    BUILTIN,
    LocalModelFailure,
    LocalServer,
    NotAModelFile,
    ServerTokenCounter,
    available,
    builtin_model_path,
    check_gguf,
    output_reserve_for,
    read_metadata,
    training_context,
)
from turnlog.localmodel import server as server_module
from turnlog.providers import ChatCompletionsProvider
from turnlog.store import TurnlogStore

AVAILABILITY = available()
needs_model = [
    pytest.mark.realmodel,
    pytest.mark.skipif(not AVAILABILITY.ok, reason=AVAILABILITY.reason or "no local model"),
]

N_CTX = 2048  # small, so a long history overflows quickly on two cores
OUTPUT_RESERVE = 256  # short answers keep the tests quick; the app uses output_reserve_for


# ------------------------------------------------------------------ recording proxy
class RecordingProxy:
    """A reverse proxy on 127.0.0.1 that keeps every request body it forwards and
    streams each response back as it arrives (so SSE and cancel behave as direct)."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.bodies: list[tuple[str, bytes]] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                proxy.bodies.append((self.path, body))
                upstream = http.client.HTTPConnection("127.0.0.1", proxy.upstream_port,
                                                      timeout=120)
                try:
                    headers = {k: v for k, v in self.headers.items()
                               if k.lower() in ("content-type", "accept", "authorization")}
                    upstream.request(self.command, self.path, body=body or None,
                                     headers=headers)
                    response = upstream.getresponse()
                    self.send_response(response.status)
                    for key, value in response.getheaders():
                        if key.lower() not in ("content-length", "transfer-encoding",
                                               "connection"):
                            self.send_header(key, value)
                    self.send_header("Connection", "close")
                    self.end_headers()
                    while True:
                        piece = response.read1(65536)
                        if not piece:
                            break
                        self.wfile.write(piece)
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client went away (a cancel): drop the upstream too
                finally:
                    upstream.close()
                    self.close_connection = True

            do_GET = _forward
            do_POST = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def chat_bodies(self) -> list[bytes]:
        return [body for path, body in self.bodies if path.endswith("/chat/completions")]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


# ------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def endpoint(tmp_path_factory):
    if not AVAILABILITY.ok:
        pytest.skip(AVAILABILITY.reason)
    server = LocalServer(n_ctx=N_CTX, log_dir=tmp_path_factory.mktemp("logs"))
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture
def proxy(endpoint):
    port = int(endpoint.base_url.split(":")[2].split("/")[0])
    recording = RecordingProxy(port)
    yield recording
    recording.close()


@pytest.fixture
def store(tmp_path):
    opened = TurnlogStore.open(tmp_path / "store")
    yield opened
    opened.close()


@pytest.fixture
def direct():
    with httpx.Client(timeout=120, trust_env=False) as client:
        yield client


def settings() -> ConversationSettings:
    return ConversationSettings(context_window=N_CTX, output_reserve=OUTPUT_RESERVE,
                                compaction=False)


def send_request(endpoint, conversation, question: str, **kwargs) -> SendRequest:
    budget = Budget.from_settings(conversation.settings, context_window=endpoint.context_window)
    options = RequestOptions(stream=True, max_tokens=OUTPUT_RESERVE, temperature=0)
    return SendRequest(conversation, question, endpoint.model, budget, options, **kwargs)


def sender_for(endpoint, store, base_url: str) -> Sender:
    return Sender(store, ChatCompletionsProvider(base_url), costs=CostIndex(endpoint.counter))


def server_prompt_tokens(direct: httpx.Client, endpoint, body: bytes) -> int:
    """What the server itself counts for the prompt of `body` (a one-token completion)."""
    data = json.loads(body)
    data.update(stream=False, max_tokens=1)
    response = direct.post(endpoint.base_url + "/chat/completions", json=data)
    assert response.status_code == 200, response.text
    return int(response.json()["usage"]["prompt_tokens"])


def pending(question: str, answer: str) -> PendingTurn:
    return PendingTurn(uuid.uuid4().hex, question, answer, BUILTIN.alias, "stop", Usage(),
                       datetime.now(UTC))


FILLER = ("Tell me about the history of tea in detail.",
          "Tea was first cultivated in China thousands of years ago, then traded along the "
          "Silk Road, reaching Japan, India and eventually Europe, where it became a daily "
          "habit. " * 6)


def process_alive(pid: int) -> bool:
    """True while `pid` is a live (not zombie) llama_cpp.server process."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return b"llama_cpp.server" in cmdline and state != "Z"


# ------------------------------------------------------------ model file (no server)
def write_gguf(path: Path, kvs: list[tuple[str, int, bytes]]) -> Path:
    """A GGUF v3 header with the given (key, type, packed value) entries and no tensors."""
    out = bytearray(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)))
    for key, kind, packed in kvs:
        raw = key.encode()
        out += struct.pack("<Q", len(raw)) + raw + struct.pack("<I", kind) + packed
    path.write_bytes(bytes(out))
    return path


def gguf_string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def test_gguf_header_is_read_and_non_models_are_named(tmp_path):
    good = write_gguf(tmp_path / "tiny.gguf", [
        ("general.architecture", 8, gguf_string("llama")),
        ("general.name", 8, gguf_string("Tiny")),
        ("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, 2) + gguf_string("a")
         + gguf_string("b")),
        ("tokenizer.ggml.scores", 9, struct.pack("<IQ", 6, 2) + struct.pack("<ff", 0, 1)),
        ("llama.context_length", 4, struct.pack("<I", 4096)),
    ])
    metadata = read_metadata(good)
    assert metadata["general.name"] == "Tiny"
    assert "tokenizer.ggml.tokens" not in metadata  # arrays are skipped, not misread
    assert training_context(metadata) == 4096

    text = tmp_path / "notes.gguf"
    text.write_text("these are my notes, not a model")
    with pytest.raises(NotAModelFile, match="not a GGUF model file"):
        check_gguf(text)
    with pytest.raises(NotAModelFile, match="does not exist"):
        check_gguf(tmp_path / "missing.gguf")
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(good.read_bytes()[:40])
    with pytest.raises(NotAModelFile, match="ends in the middle"):
        read_metadata(cut)


@pytest.mark.parametrize("window", [1024, 2048, 4096, 8192, 131_072])
def test_local_windows_leave_most_room_for_the_conversation(window):
    reserve = output_reserve_for(window)
    budget = Budget.from_settings(ConversationSettings(output_reserve=reserve),
                                  context_window=window)
    assert budget.input_tokens >= window // 2
    assert reserve >= min(256, window // 4)


@pytest.mark.skipif(not AVAILABILITY.ok, reason=AVAILABILITY.reason or "no local model")
def test_availability_names_the_builtin_file_and_refuses_other_files(tmp_path):
    assert AVAILABILITY.model_path == builtin_model_path()
    assert AVAILABILITY.model_path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert training_context(read_metadata(AVAILABILITY.model_path)) == 8192
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"not a model at all")
    check = available(bogus)
    assert not check.ok and "not a GGUF model file" in check.reason


# ---------------------------------------------------------------- server life cycle
@pytest.mark.realmodel
@pytest.mark.skipif(not AVAILABILITY.ok, reason=AVAILABILITY.reason or "no local model")
class TestServer:
    def test_endpoint_reports_the_servers_window_and_counts_exactly(self, endpoint, direct):
        assert endpoint.base_url.startswith("http://127.0.0.1:")
        assert endpoint.model == BUILTIN.alias
        assert endpoint.context_window == N_CTX
        assert endpoint.context_window_source == "server"
        assert endpoint.counter.exact
        # The window is the server's real one: one token past it is refused, citing it.
        text = "word " * (N_CTX + 50)
        response = direct.post(endpoint.base_url + "/chat/completions", json={
            "model": endpoint.model, "messages": [{"role": "user", "content": text}],
            "stream": False, "max_tokens": 1})
        assert response.status_code == 400
        assert f"maximum context length is {N_CTX} tokens" in response.text

    def test_stop_ends_the_process_and_a_new_start_works(self, tmp_path):
        server = LocalServer(n_ctx=512, log_dir=tmp_path)
        progress: list[str] = []
        first = server.start(on_progress=progress.append)
        pid = server.pid
        assert progress and progress[0].startswith("Starting SmolLM2")
        assert process_alive(pid)
        assert server.start() is first  # idempotent while running
        server.stop()
        assert not process_alive(pid)
        assert server.endpoint is None
        with pytest.raises(httpx.ConnectError):
            httpx.get(first.base_url + "/models", timeout=2, trust_env=False)
        second = server.start()
        try:
            assert second is not first
            assert process_alive(server.pid)
        finally:
            server.stop()
        assert (tmp_path / "local-model.log").exists()
        assert (tmp_path / "local-model.log.1").exists()  # the previous run's log is kept

    def test_no_orphan_after_the_parent_is_killed(self, tmp_path):
        # The parent starts the server from a short-lived thread (as a worker pool
        # would), proves it still answers after that thread ended, then is SIGKILLed.
        script = textwrap.dedent(f"""
            import sys, threading, time, httpx
            sys.path.insert(0, {str(DESKTOP)!r})
            from pathlib import Path
            from turnlog.localmodel import LocalServer
            server = LocalServer(n_ctx=512, log_dir=Path({str(tmp_path)!r}))
            out = {{}}
            worker = threading.Thread(target=lambda: out.update(ep=server.start()))
            worker.start(); worker.join()
            time.sleep(0.5)
            ok = httpx.get(out["ep"].base_url + "/models", trust_env=False).status_code
            print(server.pid, ok, flush=True)
            time.sleep(600)
        """)
        parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                                  text=True)
        try:
            line = parent.stdout.readline().split()
            assert len(line) == 2, "the parent did not start the server"
            child, status = int(line[0]), int(line[1])
            assert status == 200 and process_alive(child)
            os.kill(parent.pid, signal.SIGKILL)
            parent.wait(10)
            deadline = time.monotonic() + 15
            while process_alive(child) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not process_alive(child), "the model server outlived its killed parent"
        finally:
            if parent.poll() is None:
                parent.kill()
                parent.wait()
            parent.stdout.close()

    def test_a_damaged_model_file_is_a_named_failure(self, tmp_path):
        # A GGUF header llama.cpp cannot build a model from: the child exits while loading.
        broken = write_gguf(tmp_path / "broken.gguf",
                            [("general.architecture", 8, gguf_string("llama"))])
        server = LocalServer(model_path=broken, n_ctx=512, log_dir=tmp_path)
        with pytest.raises(LocalModelFailure) as caught:
            server.start()
        failure = caught.value.failure
        assert failure.kind is FailureKind.LOCAL_MODEL
        assert "could not be loaded" in failure.detail
        assert "The built-in model could not start" in failure.message()
        assert not server.running

        notes = tmp_path / "notes.gguf"
        notes.write_text("not a model")
        with pytest.raises(LocalModelFailure, match="not a GGUF model file"):
            LocalServer(model_path=notes, log_dir=tmp_path).start()

    def test_a_taken_port_is_retried_then_named(self, tmp_path, monkeypatch):
        holder = socket.socket()
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        real = server_module.free_port
        ports = iter([taken])
        monkeypatch.setattr(server_module, "free_port", lambda: next(ports, None) or real())
        server = LocalServer(n_ctx=512, log_dir=tmp_path)
        try:
            ready = server.start()
            assert f":{taken}/" not in ready.base_url
        finally:
            server.stop()
        monkeypatch.setattr(server_module, "free_port", lambda: taken)
        monkeypatch.setattr(server_module, "PORT_ATTEMPTS", 2)
        try:
            with pytest.raises(LocalModelFailure, match="port") as caught:
                server.start()
            assert caught.value.failure.kind is FailureKind.LOCAL_MODEL
        finally:
            server.stop()
            holder.close()

    def test_cancel_while_starting_stops_the_child(self, tmp_path):
        server = LocalServer(n_ctx=512, log_dir=tmp_path)
        cancel = CancelToken()
        launched: list[int] = []

        def cancel_once_launched() -> None:
            deadline = time.monotonic() + 30
            while server.pid is None and time.monotonic() < deadline:
                time.sleep(0.005)
            if server.pid is not None:
                launched.append(server.pid)
            cancel.cancel()

        watcher = threading.Thread(target=cancel_once_launched)
        watcher.start()
        started = time.monotonic()
        try:
            with pytest.raises(LocalModelFailure) as caught:
                server.start(cancel=cancel)
        finally:
            watcher.join()
        assert time.monotonic() - started < 10
        assert caught.value.failure.kind is FailureKind.CANCELLED
        assert caught.value.failure.stage == "starting local model"
        assert launched, "the child was never launched"
        assert not server.running and not process_alive(launched[0])


# ----------------------------------------------------------------------- token counts
CHATML = "<|im_start|>{role}\n{content}<|im_end|>\n"
PLAIN_TEXTS = ["Hello there, how are you?", "你好，世界！这是一个测试。", "Emoji 🙂🚀 and ünïcödé",
               "Code: `x = [1, 2, 3]` -> {'a': 1}", "Line one\nLine two\n\nLine four", "42"]


@pytest.mark.realmodel
@pytest.mark.skipif(not AVAILABILITY.ok, reason=AVAILABILITY.reason or "no local model")
class TestTokenCounts:
    def test_each_message_counts_as_its_templated_form(self, endpoint, direct):
        # Independent of the calibration: tokenize SmolLM2's ChatML segment itself.
        counter = endpoint.counter
        for role in ("system", "user", "assistant"):
            for text in PLAIN_TEXTS:
                segment = CHATML.format(role=role, content=text)
                tokens = direct.post(endpoint.tokenize_url, json={"input": segment}).json()
                assert counter.message_tokens(role, text) == len(tokens["tokens"]), (role, text)

    @pytest.mark.parametrize("system", ["", "You are terse."])
    def test_projection_input_tokens_equal_the_servers_count(self, endpoint, direct, system):
        turns = tuple(
            Turn(f"t{i}", i + 1, PLAIN_TEXTS[i % 6], PLAIN_TEXTS[(i + 2) % 6], "m", "stop",
                 datetime.now(UTC))
            for i in range(5)
        )
        budget = Budget(max_bytes=100_000, context_window=N_CTX, output_reserve=OUTPUT_RESERVE)
        projection = project(turns, "What did I say first?", model=endpoint.model,
                             budget=budget, system_prompt=system,
                             costs=CostIndex(endpoint.counter))
        assert projection.tokens_exact
        assert projection.sent == (1, 2, 3, 4, 5)
        server = server_prompt_tokens(direct, endpoint, projection.body)
        # Exact with or without a system message: SmolLM2's template adds its 21-token
        # default system prompt only when the request brings none, and the priming
        # follows the first message's role.
        assert endpoint.counter.leading_system_overcount == 21
        assert projection.input_tokens == server

    def test_leading_whitespace_never_undercounts(self, endpoint, direct):
        texts = ["\n\nIndented start", "  two spaces", "\ttab", "trailing  \n", "\n"]
        budget = Budget(max_bytes=100_000, context_window=N_CTX, output_reserve=OUTPUT_RESERVE)
        turns = tuple(Turn(f"w{i}", i + 1, t, t, "m", "stop", datetime.now(UTC))
                      for i, t in enumerate(texts))
        projection = project(turns, texts[0], model=endpoint.model, budget=budget,
                             costs=CostIndex(endpoint.counter))
        server = server_prompt_tokens(direct, endpoint, projection.body)
        messages = 2 * len(texts) + 1
        assert 0 <= projection.input_tokens - server <= messages

    def test_each_text_is_tokenized_once(self, endpoint):
        counter = endpoint.counter
        text = f"A text seen for the first time at {time.time()}"
        before = counter.tokenize_calls
        first = counter.message_tokens("user", text)
        assert counter.message_tokens("assistant", text) == first + 1  # assistant role costs 6
        assert counter.message_tokens("user", text) == first
        assert counter.tokenize_calls == before + 1

    def test_a_server_that_cannot_tokenize_falls_back_to_labelled_estimates(self, endpoint):
        counter = ServerTokenCounter.calibrate(
            endpoint.base_url.removesuffix("/v1") + "/no-such-tokenizer", endpoint.base_url,
            endpoint.model)
        try:
            assert not counter.exact
            assert "HTTP 404" in counter.fallback_reason
            assert counter.message_tokens("user", "Hello") == ESTIMATE.message_tokens(
                "user", "Hello")
        finally:
            counter.close()


# ----------------------------------------------------------------- real sends
@pytest.mark.realmodel
@pytest.mark.skipif(not AVAILABILITY.ok, reason=AVAILABILITY.reason or "no local model")
class TestSend:
    def test_a_turn_streams_commits_and_the_wire_body_is_the_projection(
        self, endpoint, proxy, store, direct
    ):
        conversation = store.conversations.create("Local", settings=settings())
        sender = sender_for(endpoint, store, proxy.base_url)
        deltas: list[str] = []
        outcome = sender.send(send_request(endpoint, conversation, "What is the capital of "
                                           "France? Answer in one word."),
                              on_delta=deltas.append)
        assert isinstance(outcome, Committed), outcome
        assert len(deltas) > 1 and "".join(deltas) == outcome.turn.answer
        assert [t.answer for t in store.turns(conversation.id)] == [outcome.turn.answer]
        assert proxy.chat_bodies() == [outcome.projection.body]
        assert outcome.projection.tokens_exact
        assert outcome.projection.input_tokens == server_prompt_tokens(
            direct, endpoint, outcome.projection.body)
        print(f"\nlocal model answered: {outcome.turn.answer!r}")

    def test_history_beyond_the_window_is_left_out_not_a_server_error(
        self, endpoint, proxy, store, direct
    ):
        conversation = store.conversations.create("Long", settings=settings())
        store.turns.commit_many(conversation.id, [pending(*FILLER) for _ in range(12)])
        history = store.turns(conversation.id)
        counter = endpoint.counter
        history_tokens = sum(counter.message_tokens("user", t.question)
                             + counter.message_tokens("assistant", t.answer) for t in history)
        assert history_tokens > N_CTX
        outcome = sender_for(endpoint, store, proxy.base_url).send(
            send_request(endpoint, conversation, "Say hello."))
        assert isinstance(outcome, Committed), outcome
        projection = outcome.projection
        assert projection.left_out and projection.left_out[0] == 1
        assert projection.sent and projection.sent[-1] == 12
        assert projection.input_tokens <= projection.budget.input_tokens
        assert server_prompt_tokens(direct, endpoint, projection.body) <= (
            N_CTX - OUTPUT_RESERVE)

    def test_an_over_window_question_is_refused_before_sending(self, endpoint, proxy, store):
        conversation = store.conversations.create("Big", settings=settings())
        question = "Please summarise: " + "the quick brown fox jumps. " * 400
        outcome = sender_for(endpoint, store, proxy.base_url).send(
            send_request(endpoint, conversation, question))
        assert isinstance(outcome, Failed)
        assert outcome.failure.kind is FailureKind.REFUSED
        assert outcome.refusal is not None and outcome.refusal.tokens_exact
        assert "exactly" in outcome.refusal.describe()
        assert outcome.draft == question
        assert proxy.chat_bodies() == []
        assert store.turns(conversation.id) == ()

    def test_the_empty_200_stream_of_an_over_window_prompt_is_a_named_failure(
        self, endpoint, proxy, store, direct
    ):
        body = json.dumps({"model": endpoint.model, "stream": True, "messages": [
            {"role": "user", "content": "word " * (N_CTX + 50)}]}).encode()
        raw = direct.post(endpoint.base_url + "/chat/completions", content=body,
                        headers={"Content-Type": "application/json"})
        assert raw.status_code == 200 and raw.content.strip() == b""  # the quirk itself

        with pytest.raises(ProviderFailure) as caught:
            ChatCompletionsProvider(endpoint.base_url).complete(
                body, on_delta=lambda text: None, cancel=CancelToken())
        assert caught.value.failure.kind in (FailureKind.TRUNCATED, FailureKind.EMPTY,
                                             FailureKind.CONTEXT_OVERFLOW)

        # Through the send path with a window that is too large (a wrong guess): the
        # request goes out, fails by name, and the log is untouched.
        conversation = store.conversations.create(
            "Guess", settings=ConversationSettings(context_window=32_768,
                                                   output_reserve=OUTPUT_RESERVE,
                                                   compaction=False))
        before = store.turns(conversation.id)
        question = "word " * (N_CTX + 50)
        budget = Budget.from_settings(conversation.settings)
        request = SendRequest(conversation, question, endpoint.model, budget,
                              RequestOptions(stream=True, max_tokens=OUTPUT_RESERVE))
        outcome = sender_for(endpoint, store, proxy.base_url).send(request)
        assert isinstance(outcome, Failed)
        assert outcome.failure.kind is caught.value.failure.kind
        assert outcome.draft == question
        assert store.turns(conversation.id) == before

    def test_cancel_mid_stream_leaves_the_log_unchanged(self, endpoint, proxy, store):
        conversation = store.conversations.create("Cancel", settings=settings())
        sender = sender_for(endpoint, store, proxy.base_url)
        first = sender.send(send_request(endpoint, conversation, "Say hi."))
        assert isinstance(first, Committed), first
        before = store.turns(conversation.id)
        cancel = CancelToken()
        deltas: list[str] = []

        def on_delta(text: str) -> None:
            deltas.append(text)
            if len(deltas) == 3:
                cancel.cancel()

        question = "Write a long story about a dragon who learns to bake bread."
        outcome = sender.send(send_request(endpoint, conversation, question), cancel=cancel,
                              on_delta=on_delta)
        assert isinstance(outcome, Failed)
        assert outcome.failure.kind is FailureKind.CANCELLED
        assert outcome.draft == question
        assert len(deltas) >= 3
        assert store.turns(conversation.id) == before
        # The server let go of the cancelled reply: the next send is answered.
        again = sender.send(send_request(endpoint, conversation, "Say bye."))
        assert isinstance(again, Committed), again


# ------------------------------------------------------------------------- ORCHID-17
@pytest.mark.realmodel
@pytest.mark.skipif(not AVAILABILITY.ok, reason=AVAILABILITY.reason or "no local model")
def test_orchid_17_in_the_window_is_sent_and_out_of_it_is_not(endpoint, proxy, store):
    conversation = store.conversations.create("ORCHID", settings=settings())
    sender = sender_for(endpoint, store, proxy.base_url)
    fact = sender.send(send_request(endpoint, conversation,
                                    "My project code is ORCHID-17. Please remember it."))
    assert isinstance(fact, Committed), fact

    question = "What is my project code?"
    inside = sender.send(send_request(endpoint, conversation, question))
    assert isinstance(inside, Committed), inside
    assert 1 in inside.projection.sent
    assert b"ORCHID-17" in proxy.chat_bodies()[-1]
    print(f"\nORCHID-17 in the window; the model answered: {inside.turn.answer!r}")

    store.turns.commit_many(conversation.id, [pending(*FILLER) for _ in range(12)])
    outside = sender.send(send_request(endpoint, conversation, question))
    assert isinstance(outside, Committed), outside
    assert 1 in outside.projection.left_out and 2 in outside.projection.left_out
    assert proxy.chat_bodies()[-1] == outside.projection.body
    assert b"ORCHID-17" not in outside.projection.body
    print(f"ORCHID-17 projected out; the model answered: {outside.turn.answer!r}")
