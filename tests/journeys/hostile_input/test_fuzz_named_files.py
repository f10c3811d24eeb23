"""Fuzzing the files a person names, through the one reader: attachments (PDF, PNG, JPEG,
GIF and text of any bytes, written to a real file and read by `read_file`), profiles.json,
tools.json and an `mcpServers` file to import. Every input is read or refused by name
(`AttachmentRefused`, `ProfilesUnreadable`, `ToolConfigInvalid`): never another exception,
and each example within a time and a memory bound.

The examples per test are fixed for CI (`TURNLOG_FUZZ_EXAMPLES`, default below);
`tests/bench/fuzz.py` runs the same tests for a given time.
"""

from __future__ import annotations

import io
import json
import os
import time
import tracemalloc
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from attachfiles import jpeg_bytes, pdf_bytes, png_bytes
from turnlog.config.profiles import ProfileStore, ProfilesUnreadable
from turnlog.config.tool_servers import ToolConfigInvalid, ToolServerStore, read_mcp_servers
from turnlog.core.attachments import AttachmentRefused
from turnlog.formats.file_reading import read_file

EXAMPLES = int(os.environ.get("TURNLOG_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
TIME_BOUND_S = 25  # one example, on a busy machine; a bomb decoded would take far longer
MEMORY_BOUND = 128 << 20  # Python's allocations in one example


def _gif() -> bytes:
    out = io.BytesIO()
    frames = [Image.new("P", (16, 8), i) for i in (1, 2)]
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=50)
    return out.getvalue()


SEEDS = {"pdf": pdf_bytes(["Revenue grew 12 percent", None]), "png": png_bytes(24, 12),
         "jpeg": jpeg_bytes(24, 12), "gif": _gif()}


@st.composite
def mutated(draw, kind: str) -> bytes:
    """A valid file of `kind` with bytes flipped, cut, repeated or inserted (a compressed
    bomb among them), keeping its first bytes so that it is read as that kind."""
    data = bytearray(SEEDS[kind])
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(8, len(data)))
        edit = draw(st.sampled_from(["flip", "cut", "insert", "repeat", "bomb"]))
        if edit == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif edit == "cut":
            del data[at:at + draw(st.integers(1, 4096))]
        elif edit == "insert":
            data[at:at] = draw(st.binary(max_size=64))
        elif edit == "repeat":
            data[at:at] = data[max(8, at - 64):at] * draw(st.integers(1, 50))
        else:
            data[at:at] = zlib.compress(b"\0" * draw(st.sampled_from([1 << 10, 8 << 20])))
    return bytes(data)


TEXT_OF_ANY_BYTES = (st.binary(max_size=4096)
                     | st.text(max_size=400).map(lambda t: t.encode("utf-8", "surrogatepass")))


def bounded(read, *named: type[Exception]) -> None:
    """Run `read()`: it returns, or raises one of `named`; within the time and memory."""
    tracemalloc.start()
    started = time.monotonic()
    try:
        read()
    except named:
        pass
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert time.monotonic() - started < TIME_BOUND_S
    assert peak < MEMORY_BOUND, f"{peak / (1 << 20):.0f} MiB"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-inputs")


def attach(folder: Path, data: bytes) -> None:
    path = folder / "attached"
    path.write_bytes(data)
    bounded(lambda: read_file(path), AttachmentRefused)


@FUZZ
@given(data=TEXT_OF_ANY_BYTES)
def test_text_of_any_bytes_is_attached_or_refused_by_name(folder, data):
    attach(folder, data)


@FUZZ
@given(data=st.sampled_from(["png", "jpeg", "gif"]).flatmap(mutated))
def test_a_damaged_image_is_attached_or_refused_by_name(folder, data):
    attach(folder, data)


@FUZZ
@given(data=mutated("pdf"))
def test_a_damaged_pdf_is_attached_or_refused_by_name(folder, data):
    attach(folder, data)


HOSTILE_TEXT = st.text(max_size=30) | st.sampled_from(
    ["", "\x1b[2J", "\u202e", "http://user:pw@127.0.0.1:1/v1", "http://[::1", "http://h/v1\r\n",
     "a" * 5000])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
                    HOSTILE_TEXT)
ANY_JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(HOSTILE_TEXT, inner, max_size=4), max_leaves=20)
PROFILE_FIELDS = ("id", "name", "preset", "base_url", "model", "context_window", "stream",
                  "model_path", "first_token_timeout_s", "retry", "allow_insecure_key",
                  "ca_file", "model_titles", "accepts_images")
SERVER_FIELDS = ("id", "name", "command", "args", "env", "url", "token", "enabled",
                 "tools_off", "imported_from")


NAMES = st.sampled_from(["a", "peer", "b.c", "x" * 64, "x" * 65, ""])
URLS = st.sampled_from(["http://127.0.0.1:1/v1", "https://h/v1", "http://u:p@h/v1", "x",
                        "http://[::1", "http://h/v1\nX: 1", ""])
PLAUSIBLE = {
    "id": NAMES, "name": NAMES, "preset": st.sampled_from(["custom", "openai", "builtin", "?"]),
    "base_url": URLS, "url": URLS, "model": NAMES, "command": NAMES,
    "args": st.lists(HOSTILE_TEXT, max_size=3), "tools_off": st.lists(NAMES, max_size=3),
    "env": st.lists(st.fixed_dictionaries({"name": NAMES, "value": HOSTILE_TEXT,
                                           "secret": st.booleans()}), max_size=2),
}


def shaped(fields: tuple[str, ...]) -> st.SearchStrategy:
    """Objects with the fields they should have, each of a plausible type or any JSON."""
    values = {f: st.one_of(PLAUSIBLE[f], PLAUSIBLE[f], SCALARS, ANY_JSON)
              if f in PLAUSIBLE else SCALARS | ANY_JSON for f in fields}
    return st.fixed_dictionaries({f: values[f] for f in fields[:2]},
                                 optional={f: values[f] for f in fields[2:]})


def settings_file(list_key: str, fields: tuple[str, ...]) -> st.SearchStrategy[bytes]:
    good = st.fixed_dictionaries({
        "version": st.just(1) | ANY_JSON,
        list_key: st.lists(shaped(fields), max_size=4) | ANY_JSON})
    as_json = good.map(lambda v: json.dumps(v).encode())
    # Mostly the right shape with wrong values in it; then any JSON, any bytes, deep JSON.
    return st.one_of(as_json, as_json, as_json, as_json,
                     ANY_JSON.map(lambda v: json.dumps(v).encode()), st.binary(max_size=512),
                     st.integers(1, 5000).map(lambda n: b"[" * n + b"]" * n))


@FUZZ
@given(data=settings_file("profiles", PROFILE_FIELDS))
def test_a_profiles_json_of_any_shape_loads_or_is_named(tmp_path_factory, data):
    home = tmp_path_factory.mktemp("home")
    (home / "profiles.json").write_bytes(data)
    bounded(lambda: ProfileStore(home).load(), ProfilesUnreadable)


@FUZZ
@given(data=settings_file("servers", SERVER_FIELDS))
def test_a_tools_json_of_any_shape_loads_or_is_named(tmp_path_factory, data):
    home = tmp_path_factory.mktemp("home")
    (home / "tools.json").write_bytes(data)
    bounded(lambda: ToolServerStore(home).list(), ToolConfigInvalid)


MCP_ENTRY = st.fixed_dictionaries({}, optional={
    "command": ANY_JSON, "args": ANY_JSON, "env": ANY_JSON, "url": ANY_JSON,
    "serverUrl": ANY_JSON, "headers": ANY_JSON})


@FUZZ
@given(data=st.dictionaries(HOSTILE_TEXT, MCP_ENTRY | ANY_JSON, max_size=4).map(
    lambda servers: json.dumps({"mcpServers": servers}).encode()) | st.binary(max_size=256))
def test_an_mcp_servers_file_of_any_shape_is_read_or_named(folder, data):
    path = folder / "mcp.json"
    path.write_bytes(data)
    bounded(lambda: read_mcp_servers(path), ToolConfigInvalid)
