"""Storage faults through the CLI, for real: a read-only database file, a read-only data
directory, a full disk. Each is named (`failure: storage_…` and exit 4 for `ask`, one
`error: storage_…:` line and a non-zero exit for the others), the question is given
back, and there is never a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from loopback import Behaviour
from unprivileged import cli, give_away

QUESTION = "Is the disk all right? ORCHID-17"


def setup(loopback, home: Path) -> None:
    """A profile and one saved turn, made by the unprivileged user."""
    give_away(home)
    r = cli(home, "profile", "add", "loop", "--preset", "custom", "--base-url",
            loopback.base_url, "--model", "loopback-model", input="")
    assert r.returncode == 0, r.stderr
    loopback.script(Behaviour.answer("First answer."))
    r = cli(home, "ask", "--new", "--title", "Faults", "first question")
    assert r.returncode == 0, r.stderr


def import_file(tmp: Path, title: str = "Imported", turns: int = 2, size: int = 10) -> Path:
    path = tmp / f"{title}.jsonl"
    lines = [json.dumps({"turnlog": 1, "title": title})]
    lines += [json.dumps({"question": f"q{i}", "answer": "a" * size}) for i in range(turns)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.chmod(path, 0o644)
    os.chmod(tmp, 0o755)
    return path


def assert_named_failure(result, code: str) -> None:
    assert result.returncode == 4, result.stderr
    lines = result.stderr.splitlines()
    assert f"failure: {code}" in lines, result.stderr
    assert "Your question was not saved; here it is:" in lines
    assert QUESTION in lines
    assert "Traceback" not in result.stderr


def assert_one_line(result, code: str) -> None:
    assert result.returncode not in (0, 4), result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"error: {code}: "), result.stderr


def turn_count(home: Path) -> tuple[int, int]:
    con = sqlite3.connect(f"file:{home / 'turnlog.sqlite3'}?mode=ro", uri=True)
    try:
        return (con.execute("SELECT count(*) FROM conversations").fetchone()[0],
                con.execute("SELECT count(*) FROM turns").fetchone()[0])
    finally:
        con.close()


def test_read_only_database_file_is_named_everywhere(loopback, shared_home, tmp_path):
    setup(loopback, shared_home)
    source = import_file(shared_home.parent)
    os.chmod(shared_home / "turnlog.sqlite3", 0o444)
    loopback.script(Behaviour.answer("never saved"))
    assert_named_failure(cli(shared_home, "ask", "--conversation", "1", QUESTION),
                         "storage_read_only")
    assert_named_failure(cli(shared_home, "ask", "--new", QUESTION), "storage_read_only")
    assert loopback.requests[-1].json()["messages"][-1]["content"] == "first question"
    assert_one_line(cli(shared_home, "import", str(source)), "storage_read_only")
    assert_one_line(cli(shared_home, "delete", "--all", "--yes"), "storage_read_only")
    shown = cli(shared_home, "show", "1")  # reading still works
    assert shown.returncode == 0 and "First answer." in shown.stdout
    assert turn_count(shared_home) == (1, 1)


def test_read_only_data_directory_is_named_and_reads_work(loopback, shared_home):
    setup(loopback, shared_home)
    source = import_file(shared_home.parent)
    os.remove(shared_home / "turnlog.lock")
    os.chmod(shared_home, 0o555)
    loopback.script(Behaviour.answer("never saved"))
    assert_named_failure(cli(shared_home, "ask", "--conversation", "1", QUESTION),
                         "storage_read_only")
    assert_one_line(cli(shared_home, "import", str(source)), "storage_read_only")
    assert_one_line(cli(shared_home, "delete", "--conversation", "1", "--yes"),
                    "storage_read_only")
    for command in (["list"], ["show", "1"], ["export", "1"]):
        result = cli(shared_home, *command)
        assert result.returncode == 0, (command, result.stderr)
        assert result.stderr == ""
    assert "Faults" in cli(shared_home, "list").stdout
    assert sorted(p.name for p in shared_home.iterdir()) == ["profiles.json",
                                                              "turnlog.sqlite3"]


@pytest.fixture
def full_disk(tmp_path_factory, monkeypatch):
    """A 3 MiB tmpfs as the data directory (needs root to mount): room for an empty log
    (about 0.9 MiB: every table and index takes its pages) and one answer, not more."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mount = tmp_path_factory.mktemp("full") / "home"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m,mode=0700", "tmpfs",
                           str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    monkeypatch.setenv("TURNLOG_HOME", str(mount))
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=60, env=os.environ.copy())


def fill(home: Path) -> None:
    with open(home / "filler", "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass


def test_disk_full_is_named_and_nothing_is_half_imported(loopback, full_disk, tmp_path):
    r = run("profile", "add", "loop", "--preset", "custom", "--base-url", loopback.base_url,
            "--model", "loopback-model", input="")
    assert r.returncode == 0, r.stderr
    loopback.script(Behaviour.answer("First answer."))
    assert run("ask", "--new", "first question").returncode == 0
    big = import_file(tmp_path, "Big", turns=30, size=150_000)  # 4.5 MB > 3 MiB
    result = run("import", str(big))
    assert_one_line(result, "storage_full")
    assert "cannot rollback" not in result.stderr
    assert turn_count(full_disk) == (1, 1)
    fill(full_disk)
    loopback.script(Behaviour.answer("An answer that cannot be saved " * 200))
    asked_before = len(loopback.requests)
    result = run("ask", "--conversation", "1", QUESTION)
    assert_named_failure(result, "storage_full")
    assert "The disk holding" in result.stderr
    # Found out before sending: neither the request nor its cost is wasted.
    assert "Nothing was sent" in result.stderr
    assert len(loopback.requests) == asked_before
    (full_disk / "filler").unlink()
    assert turn_count(full_disk) == (1, 1)
    con = sqlite3.connect(full_disk / "turnlog.sqlite3")
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()


def test_a_data_directory_that_cannot_be_made_or_written_is_named(shared_home):
    give_away(shared_home)
    os.chmod(shared_home, 0o555)
    added = cli(shared_home, "profile", "add", "x", "--preset", "custom", "--base-url",
                "http://127.0.0.1:9/v1", "--model", "m", input="")
    assert_one_line(added, "storage_read_only")
    missing = shared_home / "not-yet"
    assert_one_line(cli(missing, "list"), "storage_read_only")
    assert_named_failure(cli(missing, "ask", "--new", QUESTION), "storage_read_only")
    assert not missing.exists()
