"""Files a person names (an attachment, profiles.json, tools.json, a server list to import)
read through the one reader: a device, a FIFO, a folder or a link in Turnlog's own folder
is refused by name; a file is never read past its limit; a file that is not UTF-8, JSON
nested absurdly deep or an image that is a decompression bomb is a named failure.

The command line runs as a real child process with its memory measured (its own
high-water mark), under an address-space cap so that a regression fails the test instead
of the machine, and with a deadline, so that a hang fails it too."""

from __future__ import annotations

import io
import os
import re
import resource
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from attachfiles import png_bytes
from turnlog.core.attachments import AttachmentRefused
from turnlog.formats.file_reading import read_bytes, read_file
from turnlog.system.user_files import FileRefused, read_json, read_limited

DEADLINE_S = 30
PEAK_MIB = 500
CAP = 1536 << 20  # the child's address space: far above Turnlog's needs, far below a bomb's

# The CLI's own main, telling at its end how much memory it held at most (VmHWM).
MEASURED = """import re, sys
from pathlib import Path
from turnlog.cli import main
code = main(sys.argv[1:])
hwm = re.search(r"VmHWM:\\s*(\\d+)", Path("/proc/self/status").read_text()).group(1)
print(f"peak_kib={hwm}", file=sys.stderr)
sys.exit(code)
"""


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def measured_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`turnlog-cli ARGS` in a child of its own, which must end within the deadline and
    peak under the memory bound."""
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", MEASURED, *args], capture_output=True,
                            text=True, timeout=DEADLINE_S, stdin=subprocess.DEVNULL,
                            env=os.environ.copy(), preexec_fn=_capped)
    assert time.monotonic() - started < DEADLINE_S
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    peak_mib = int(result.stderr.rsplit("peak_kib=", 1)[1]) // 1024
    assert peak_mib < PEAK_MIB, f"the CLI peaked at {peak_mib} MiB"
    return result


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    return path


def special(kind: str, tmp_path: Path, home: Path) -> Path:
    """A path of `kind`: the zero device, a FIFO, a folder, or a link in the data
    directory to a readable text file."""
    if kind == "zero":
        return Path("/dev/zero")
    if kind == "fifo":
        path = tmp_path / "pipe.txt"
        os.mkfifo(path)
        return path
    if kind == "folder":
        (tmp_path / "folder.txt").mkdir()
        return tmp_path / "folder.txt"
    target = tmp_path / "secret.txt"
    target.write_text("not to be read through a planted link\n", encoding="utf-8")
    (home / "planted.txt").symlink_to(target)
    return home / "planted.txt"


REASONS = {"zero": "it is a device, not a file", "fifo": "it is a pipe (FIFO), not a file",
           "folder": "it is a folder", "link": "it is a link in Turnlog's own folder"}
KINDS = list(REASONS)


# --- attachments ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_attaching_a_special_file_is_refused_by_name(turnlog_home, tmp_path, loopback, kind):
    add = measured_cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                       loopback.base_url, "--model", "loopback-model")
    assert add.returncode == 0, add.stderr
    path = special(kind, tmp_path, turnlog_home)
    result = measured_cli("ask", "--new", "--attach", str(path), "What is in it?")
    assert result.returncode == 3
    assert "failure: attachment_refused" in result.stderr
    assert f"{path.name} cannot be attached: {REASONS[kind]}" in result.stderr
    assert "What is in it?" in result.stderr  # the question given back
    assert loopback.requests == []


def test_a_link_the_person_points_at_outside_turnlog_s_folders_is_followed(tmp_path,
                                                                           turnlog_home):
    target = tmp_path / "documents" / "notes.md"
    target.parent.mkdir()
    target.write_text("# Notes\n", encoding="utf-8")
    (tmp_path / "docs").symlink_to(target.parent)
    attachment = read_file(tmp_path / "docs" / "notes.md")
    assert attachment.sent == b"# Notes\n"


def test_a_file_that_grows_past_its_limit_while_read_is_cut_at_limit_plus_one(tmp_path,
                                                                              turnlog_home):
    path = tmp_path / "log.txt"
    path.write_bytes(b"x" * 1000)
    with pytest.raises(FileRefused, match="larger than 999 bytes"):
        read_limited(path, 999)
    assert read_limited(path, 1000) == b"x" * 1000


# --- images --------------------------------------------------------------------------

def _chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def png_bomb(chunk: bytes) -> bytes:
    """A small valid PNG with an `iCCP` or `zTXt` chunk that inflates to 64 MB."""
    plain = png_bytes(4, 4)
    bomb = zlib.compress(b"\0" * (64 << 20), 9)
    body = (b"icc\0\0" if chunk == b"iCCP" else b"Comment\0\0") + bomb
    at = plain.index(b"IDAT") - 4  # before the image data, where Pillow reads it at open
    return plain[:at] + _chunk(chunk, body) + plain[at:]


@pytest.mark.parametrize("chunk", [b"iCCP", b"zTXt"])
def test_a_png_whose_metadata_is_a_decompression_bomb_is_refused_by_name(chunk):
    bomb = png_bomb(chunk)
    assert len(bomb) < 200_000
    with pytest.raises(AttachmentRefused) as refused:
        read_bytes("bomb.png", bomb)
    assert refused.value.name == "bomb.png"
    assert "the image cannot be read" in refused.value.reason
    assert "Decompressed data too large" in refused.value.reason


@pytest.mark.parametrize(("start", "kind"), [(b"GIF89a", "GIF"), (b"\xff\xd8\xff", "JPEG")])
def test_a_damaged_image_is_refused_in_plain_words(start, kind):
    """Its first bytes say image, the rest is not one: refused by name and kind, with no
    memory address or other run-to-run noise in the words."""
    with pytest.raises(AttachmentRefused) as refused:
        read_bytes("holiday.png", start + b"this is not the rest of an image " * 20)
    assert refused.value.name == "holiday.png"
    assert refused.value.reason == (f"the image cannot be read: it begins as a {kind} image, "
                                    "but the rest is damaged or cut short")


def test_a_png_bomb_attached_on_the_command_line_is_named(turnlog_home, tmp_path, loopback):
    assert measured_cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                        loopback.base_url, "--model", "loopback-model").returncode == 0
    path = tmp_path / "bomb.png"
    path.write_bytes(png_bomb(b"zTXt"))
    result = measured_cli("ask", "--new", "--attach", str(path), "Look")
    assert result.returncode == 3 and "failure: attachment_refused" in result.stderr
    assert "bomb.png cannot be attached: the image cannot be read" in result.stderr


def test_the_pixel_limit_is_checked_before_decoding():
    from PIL import Image

    header = io.BytesIO()
    Image.new("L", (8, 8)).save(header, "PNG")
    data = bytearray(header.getvalue())
    data[16:24] = struct.pack(">II", 9_000, 9_000)  # 81 million pixels, never decoded
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])) & 0xFFFFFFFF)
    started = time.monotonic()
    with pytest.raises(AttachmentRefused, match="9,000×9,000 pixels"):
        read_bytes("huge.png", bytes(data))
    assert time.monotonic() - started < 2


# --- profiles.json and tools.json ----------------------------------------------------

NOT_UTF8 = b'{"version": 1, "profiles": [], "name": "\xff\xfe"}'
DEEP = b"[" * 100_000 + b"]" * 100_000


def _plant(home: Path, name: str, kind: str, tmp_path: Path) -> None:
    path = home / name
    if kind == "not-utf8":
        path.write_bytes(NOT_UTF8)
    elif kind == "deep":
        path.write_bytes(DEEP)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        target = tmp_path / name
        target.write_text('{"version": 1, "profiles": [], "servers": []}', encoding="utf-8")
        path.symlink_to(target)


SETTINGS_REASONS = {"not-utf8": "it is not UTF-8 text", "deep": "nested too deeply",
                    "fifo": "it is a pipe (FIFO), not a file",
                    "zero": "it is a link in Turnlog's own folder",
                    "link": "it is a link in Turnlog's own folder"}


@pytest.mark.parametrize("kind", list(SETTINGS_REASONS))
@pytest.mark.parametrize("command", [["profile", "list"], ["ask", "--new", "Hello?"]])
def test_an_unreadable_profiles_json_is_named(turnlog_home, tmp_path, kind, command):
    _plant(turnlog_home, "profiles.json", kind, tmp_path)
    result = measured_cli(*command)
    assert result.returncode != 0
    assert "profiles_unreadable" in result.stderr and "could not be read" in result.stderr
    assert SETTINGS_REASONS[kind] in result.stderr


@pytest.mark.parametrize("kind", list(SETTINGS_REASONS))
def test_an_unreadable_tools_json_is_named(turnlog_home, tmp_path, kind):
    _plant(turnlog_home, "tools.json", kind, tmp_path)
    result = measured_cli("tools", "list")
    assert result.returncode == 1
    assert "error: tools_unreadable:" in result.stderr
    assert SETTINGS_REASONS[kind] in result.stderr


@pytest.mark.parametrize("kind", ["deep", "zero", "fifo", "folder", "not-utf8"])
def test_tools_import_of_a_file_that_is_no_server_list_is_named(turnlog_home, tmp_path,
                                                                kind):
    path = {"zero": Path("/dev/zero"), "folder": tmp_path}.get(kind, tmp_path / "servers.json")
    if kind == "deep":
        path.write_bytes(b'{"mcpServers": ' + b"[" * 200_000 + b"]" * 200_000 + b"}")
    elif kind == "not-utf8":
        path.write_bytes(b'{"mcpServers": {"\xff": {"command": "x"}}}')
    elif kind == "fifo":
        os.mkfifo(path)
    result = measured_cli("tools", "import", str(path))
    assert result.returncode == 1
    assert "error: tools_unreadable: nothing was imported:" in result.stderr
    assert not (turnlog_home / "tools.json").exists()


def test_read_json_bounds_size_depth_and_encoding(tmp_path, turnlog_home):
    path = tmp_path / "x.json"
    path.write_bytes(b'{"a": [[["deep enough"]]]}')
    assert read_json(path, 100, max_depth=4) == {"a": [[["deep enough"]]]}
    with pytest.raises(FileRefused, match="nested too deeply"):
        read_json(path, 100, max_depth=3)
    with pytest.raises(FileRefused, match="larger than 10 bytes"):
        read_json(path, 10)
    path.write_bytes(b"\xef\xbb\xbf{}")  # a byte-order mark is not JSON
    with pytest.raises(FileRefused, match="not JSON"):
        read_json(path, 100)
    with pytest.raises(FileNotFoundError):
        read_json(tmp_path / "absent.json", 100)


# --- imports, a profile's CA file, a model file ----------------------------------------

@pytest.mark.parametrize("kind", ["zero", "fifo", "link"])
def test_importing_a_special_file_is_refused_by_name(turnlog_home, tmp_path, kind):
    path = special(kind, tmp_path, turnlog_home)
    result = measured_cli("import", str(path))
    assert result.returncode == 1
    assert f"error: cannot import {path}: {REASONS[kind]}" in result.stderr
    assert not (turnlog_home / "turnlog.sqlite3").exists() or "imported" not in result.stdout


def test_an_export_folder_s_fifo_member_is_named_and_its_attachment_fifo_skipped(
        turnlog_home, tmp_path):
    folder = tmp_path / "export"
    folder.mkdir()
    os.mkfifo(folder / "a.jsonl")
    result = measured_cli("import", str(folder))
    assert result.returncode == 1  # a FIFO is not listed as a member: nothing to import
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_ca_file_that_is_no_file_is_refused_by_name(turnlog_home, tmp_path, kind):
    path = special(kind, tmp_path, turnlog_home)
    result = measured_cli("profile", "add", "lan", "--preset", "custom", "--base-url",
                          "https://127.0.0.1:9/v1", "--model", "m", "--ca-file", str(path))
    assert result.returncode == 2
    assert f"the CA certificate file {path} cannot be read ({REASONS[kind]})" in result.stderr


@pytest.mark.parametrize("kind", ["fifo", "zero", "folder"])
def test_a_model_file_that_is_no_file_is_refused_by_name(turnlog_home, tmp_path, kind):
    from turnlog.localmodel.model_file import NotAModelFile, check_gguf, read_metadata

    path = special(kind, tmp_path, turnlog_home)
    started = time.monotonic()
    for read in (check_gguf, read_metadata):
        with pytest.raises(NotAModelFile, match=re.escape(REASONS[kind])):
            read(path)
    assert time.monotonic() - started < 2


def test_ask_with_tools_names_an_unreadable_tools_json(turnlog_home, tmp_path, loopback):
    assert measured_cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                        loopback.base_url, "--model", "loopback-model").returncode == 0
    os.mkfifo(turnlog_home / "tools.json")
    result = measured_cli("ask", "--new", "--tools", "peer", "--approve-all", "Hello?")
    assert result.returncode == 2
    assert "failure: tools_unreadable" in result.stderr
    assert "it is a pipe (FIFO), not a file" in result.stderr and "Hello?" in result.stderr
    assert loopback.requests == []
