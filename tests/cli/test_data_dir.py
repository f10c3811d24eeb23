"""`turnlog-cli` in odd data directories: a symlink in place of the database, a data
directory that is a file, a profiles.json that cannot be read, a database path that is a
folder. Each is a named error, the same for every command, never a traceback."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from turnlog.config.paths import ERASE_PENDING_NAME


def cli(*args: str, input: str | None = None, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=60, env={**os.environ, **(env or {})})


def jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"turnlog": 1, "title": "t"}) + "\n"
                    + json.dumps({"question": "q", "answer": "a"}) + "\n", encoding="utf-8")
    return path


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


def assert_named(result: subprocess.CompletedProcess[str], name: str, *, code: int = 1
                 ) -> None:
    assert "Traceback" not in result.stderr, result.stderr[-1500:]
    assert result.returncode == code, result.stderr
    assert (f"error: {name}: " if code == 1 else f"failure: {name}") in result.stderr, \
        result.stderr


# --- a symlink in place of the database -------------------------------------------------

def commands(tmp_path: Path) -> list[list[str]]:
    return [["list"], ["import", str(jsonl(tmp_path))],
            ["pref", "add", "be brief"]]


def test_a_link_to_a_file_outside_is_not_written_through(tmp_path, turnlog_home, loopback):
    assert cli("profile", "add", "loop", "--preset", "custom", "--base-url",
               loopback.base_url, "--model", "m", input="").returncode == 0
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "innocent.txt").write_bytes(b"")
    (turnlog_home / "turnlog.sqlite3").symlink_to(outside / "innocent.txt")
    for command in commands(tmp_path):
        assert_named(cli(*command), "storage_symlink")
    asked = cli("ask", "--new", "Where does this go?")
    assert_named(asked, "storage_symlink", code=4)
    assert "Where does this go?" in asked.stderr and loopback.requests == []
    assert digest(outside) == {"innocent.txt": hashlib.sha256(b"").hexdigest()}


def test_a_link_to_another_data_directory_leaves_that_one_alone(tmp_path, turnlog_home):
    other = tmp_path / "other-home"
    assert cli("import", str(jsonl(tmp_path)), env={"TURNLOG_HOME": str(other)}).returncode == 0
    before = digest(other)
    (turnlog_home / "turnlog.sqlite3").symlink_to(other / "turnlog.sqlite3")
    for command in commands(tmp_path):
        assert_named(cli(*command), "storage_symlink")
    assert digest(other) == before


def test_a_dangling_link_is_named(tmp_path, turnlog_home):
    (turnlog_home / "turnlog.sqlite3").symlink_to(tmp_path / "gone.sqlite3")
    for command in commands(tmp_path):
        assert_named(cli(*command), "storage_symlink")
    assert not (tmp_path / "gone.sqlite3").exists()


@pytest.mark.parametrize("companion", ["turnlog.sqlite3-wal", "turnlog.sqlite3-shm",
                                       "turnlog.lock", ERASE_PENDING_NAME])
def test_a_link_beside_the_database_is_not_followed(tmp_path, turnlog_home, companion):
    assert cli("import", str(jsonl(tmp_path))).returncode == 0
    target = tmp_path / "target"
    target.write_bytes(b"")
    (turnlog_home / companion).unlink(missing_ok=True)
    (turnlog_home / companion).symlink_to(target)
    assert_named(cli("import", str(jsonl(tmp_path))), "storage_symlink")
    assert target.read_bytes() == b""


# --- odd data directories ----------------------------------------------------------------

def test_a_data_directory_that_is_a_file_is_named(tmp_path):
    home = tmp_path / "a-file"
    home.write_text("not a folder")
    env = {"TURNLOG_HOME": str(home)}
    for command in (["list"], ["import", str(jsonl(tmp_path))], ["profile", "list"]):
        result = cli(*command, env=env)
        assert_named(result, "storage_cannot_open")
        assert f"{home}: it is a file, not a folder" in result.stderr
    assert_named(cli("ask", "--new", "Anyone home?", env=env), "storage_cannot_open", code=4)
    assert home.read_text() == "not a folder"


@pytest.mark.parametrize("damage", ["garbage", "folder"])
def test_profiles_that_cannot_be_read_are_named_alike_by_every_command(turnlog_home, damage):
    profiles = turnlog_home / "profiles.json"
    if damage == "folder":
        profiles.mkdir()
    else:
        profiles.write_bytes(b"\x00{not json")
    for command in (["profile", "list"], ["profile", "remove", "x"],
                    ["profile", "add", "x", "--preset", "custom", "--base-url",
                     "http://127.0.0.1:9/v1", "--model", "m"]):
        assert_named(cli(*command, input=""), "profiles_unreadable")
    asked = cli("ask", "--new", "Which profile?")
    assert_named(asked, "profiles_unreadable", code=4)
    assert "Which profile?" in asked.stderr
    assert damage == "folder" or profiles.read_bytes() == b"\x00{not json"


def test_a_database_that_is_a_folder_is_named_alike_by_every_command(tmp_path, turnlog_home,
                                                                    loopback):
    assert cli("profile", "add", "loop", "--preset", "custom", "--base-url",
               loopback.base_url, "--model", "m", input="").returncode == 0
    (turnlog_home / "turnlog.sqlite3").mkdir()
    for command in (["list"], ["import", str(jsonl(tmp_path))]):
        result = cli(*command)
        assert_named(result, "storage_cannot_open")
        assert "is a folder, not a database file" in result.stderr
    assert_named(cli("ask", "--new", "Is it open?"), "storage_cannot_open", code=4)
