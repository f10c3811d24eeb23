"""Fuzzing the doors hostile bytes come through: both importers (a ChatGPT export and
Turnlog JSON lines, as files of any shape), the reply readers of the provider (JSON and
SSE bodies from a real HTTP server on 127.0.0.1) and the CLI's argument paths. Every
input either works or ends in a named failure: never a traceback, never unbounded memory.

The examples per test are fixed for CI (`TURNLOG_FUZZ_EXAMPLES`, default below);
`tests/bench/fuzz.py` runs the same tests for a given time.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile_inputs import ANY_JSON, HOSTILE_TEXT, chatgpt_export
from loopback import Behaviour, LoopbackServer
from turnlog.core.failures import ProviderFailure, StoreError
from turnlog.core.imports import ImportProblem
from turnlog.core.provider import CancelToken
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.transfer import check_file, import_checked
from turnlog.store import TurnlogStore

EXAMPLES = int(os.environ.get("TURNLOG_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# The memory one example may take at most (a reply is bounded at a few MiB).
MEMORY_BOUND = 64 << 20


@st.composite
def turnlog_lines(draw) -> str:
    lines = []
    for ordinal in range(draw(st.integers(0, 6))):
        line = {"type": draw(st.sampled_from(["conversation", "turn", "side", "x"])),
                "ordinal": draw(st.integers(-1, 8) | st.just(ordinal + 1)),
                "question": draw(HOSTILE_TEXT), "answer": draw(HOSTILE_TEXT),
                "model": draw(HOSTILE_TEXT), "finish_reason": "stop",
                "title": draw(HOSTILE_TEXT), "id": draw(HOSTILE_TEXT)}
        if draw(st.booleans()):
            line.update(draw(st.dictionaries(HOSTILE_TEXT, ANY_JSON, max_size=3)))
        text = json.dumps(line, ensure_ascii=draw(st.booleans()))
        if draw(st.integers(0, 9)) == 0:
            text = text[: draw(st.integers(0, len(text)))]  # a line cut short
        lines.append(text)
    return "\n".join(lines)


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    store = TurnlogStore.open(tmp_path_factory.mktemp("fuzz-home"))
    yield store
    store.close()


def import_through_both_stages(store: TurnlogStore, path: Path) -> None:
    """What `turnlog-cli import` does: check the whole file, then write it."""
    try:
        checked = check_file(path)
    except ImportProblem:
        return
    try:
        import_checked(store, checked)
    except (ImportProblem, StoreError):
        return


@FUZZ
@given(data=st.one_of(chatgpt_export().map(json.dumps), ANY_JSON.map(json.dumps),
                      st.binary(max_size=300).map(lambda b: b.decode("latin-1"))))
def test_a_chatgpt_export_of_any_shape_imports_or_is_named(fuzz_store, tmp_path_factory,
                                                          data):
    path = tmp_path_factory.mktemp("chatgpt") / "conversations.json"
    path.write_text(data if data.lstrip().startswith("[") else "[" + data, encoding="utf-8",
                    errors="surrogatepass")
    import_through_both_stages(fuzz_store, path)


@FUZZ
@given(text=turnlog_lines() | st.binary(max_size=300).map(lambda b: "{" + b.decode("latin-1")))
def test_turnlog_json_lines_of_any_shape_import_or_are_named(fuzz_store, tmp_path_factory,
                                                             text):
    path = tmp_path_factory.mktemp("jsonl") / "conversation.jsonl"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    import_through_both_stages(fuzz_store, path)


# --------------------------------------------------------------------------- replies
@pytest.fixture(scope="module")
def fuzz_server():
    server = LoopbackServer()
    yield server
    server.close()


def sse(events: list[str]) -> bytes:
    return "".join(f"data: {event}\n\n" for event in events).encode()


CHUNKS = st.lists(st.one_of(
    ANY_JSON.map(json.dumps),
    st.builds(lambda text, reason: json.dumps({"choices": [{"delta": {"content": text},
                                                            "finish_reason": reason}]}),
              HOSTILE_TEXT, st.sampled_from([None, "stop", "length", "x"])),
    st.sampled_from(["[DONE]", "", "{", "[" * 3000, "null"])), max_size=8)


@FUZZ
@given(body=st.one_of(CHUNKS.map(sse), ANY_JSON.map(lambda v: json.dumps(v).encode()),
                      st.binary(max_size=400)),
       streamed=st.booleans(), status=st.sampled_from([200, 200, 200, 400, 429, 500]))
def test_any_reply_body_is_a_reply_or_a_named_failure(fuzz_server, body, streamed, status):
    content_type = "text/event-stream" if streamed else "application/json"
    fuzz_server.script(Behaviour.raw(status, body, content_type=content_type))
    provider = ChatCompletionsProvider(fuzz_server.base_url, read_timeout_s=5)
    request = json.dumps({"model": "m", "stream": streamed,
                          "messages": [{"role": "user", "content": "hi"}]}).encode()
    tracemalloc.start()
    try:
        provider.complete(request, on_delta=lambda text: None, cancel=CancelToken())
    except ProviderFailure as failure:
        assert failure.failure.kind.value  # named
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < MEMORY_BOUND


# --------------------------------------------------------------------------- the CLI
COMMANDS = ["list", "show", "export", "project", "search", "delete", "ask", "profile",
            "versions", "use-version", "fork", "btw", "pin", "pref", "note", "import"]
WORDS = ["add", "list", "remove", "--conversation", "--turn", "--all", "--json", "--new",
         "--profile", "--preset", "custom", "openai", "--model", "--base-url",
         "http://127.0.0.1:9/v1", "--with-forks", "--yes", "-", "1", "0", "-1",
         "99999999999999999999", "--limit", "--regenerate", "--edit-last", "--max-bytes",
         "--with-version", "--text", "--help"]
# No NUL: an operating system cannot pass one inside a command-line argument.
ARG = st.one_of(st.sampled_from(WORDS),
                HOSTILE_TEXT.filter(lambda t: "://" not in t and "\x00" not in t),
                st.integers(-5, 10**12).map(str))


def run_cli(argv: list[str]) -> tuple[int, str]:
    from turnlog.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    saved = sys.stdin
    sys.stdin = stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exit_:  # argparse: usage errors (2) and --help (0)
                code = exit_.code if isinstance(exit_.code, int) else 2
    finally:
        sys.stdin = saved
    err.seek(0)
    return code, err.buffer.getvalue().decode("utf-8", "replace")


@FUZZ
@given(command=st.sampled_from(COMMANDS), rest=st.lists(ARG, max_size=6))
def test_any_command_line_ends_with_an_exit_code_never_a_traceback(
        tmp_path_factory, monkeypatch_module, command, rest):
    code, errors = run_cli([command, *rest])
    assert code in (0, 1, 2, 3, 4, 5), (code, errors)
    assert "Traceback" not in errors, errors


@pytest.fixture(scope="module")
def monkeypatch_module(tmp_path_factory):
    """One data directory for all the CLI's examples, with a profile that points at a
    port nothing listens on (so `ask` and `btw` fail fast, never leaving the machine)."""
    patch = pytest.MonkeyPatch()
    home = tmp_path_factory.mktemp("cli-home")
    patch.setenv("TURNLOG_HOME", str(home))
    patch.setenv("NO_PROXY", "*")
    code, errors = run_cli(["profile", "add", "loop", "--preset", "custom", "--base-url",
                            "http://127.0.0.1:9/v1", "--model", "m"])
    assert code == 0, errors
    yield patch
    patch.undo()


@pytest.mark.parametrize("command", [["show"], ["export"], ["versions", "--turn", "1",
                                                            "--conversation"],
                                     ["pin", "list", "--conversation"]])
def test_an_id_past_what_sqlite_holds_is_a_usage_error(monkeypatch_module, command):
    code, errors = run_cli([*command, "99999999999999999999"])
    assert code == 2, errors
    assert "out of range" in errors and "Traceback" not in errors
