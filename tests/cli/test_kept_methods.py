"""`turnlog-cli` keeps the dataclass methods a command compiled beside the package's byte
code, in a file of that command's own, and the next run of the command compiles none of
them; where nothing can be written, the command runs and prints just the same."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore
from turnlog.system.compiled_methods import CompiledMethods


def a_home(tmp_path: Path) -> tuple[Path, int]:
    home = tmp_path / "home"
    with TurnlogStore.open(home) as store:
        conversation = store.conversations.create("kept methods", model="m")
        for i in range(1, 4):
            store.turns.commit(conversation.id, PendingTurn(
                uuid.uuid4().hex, f"Question {i}?", f"Answer {i}.", "m", "stop", Usage(),
                datetime.now(UTC)))
    return home, conversation.id


def run(home: Path, prefix: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """`turnlog-cli COMMAND` as a person runs it (the process's own command line), with
    Python keeping its byte code under `prefix`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(TURNLOG_HOME=str(home), PYTHONPYCACHEPREFIX=str(prefix))
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *command], env=env,
                          capture_output=True, text=True, timeout=60)


def kept_for(prefix: Path, command: str) -> list[Path]:
    return sorted(prefix.rglob(f"cli-{command}.dataclass_methods.*.marshal"))


def test_a_second_run_of_a_command_compiles_none_of_what_the_first_kept(tmp_path: Path):
    home, conversation = a_home(tmp_path)
    prefix = tmp_path / "pycache"
    command = ("project", "--conversation", str(conversation), "--question", "and then?",
               "--json")
    first = run(home, prefix, *command)
    assert first.returncode == 0, first.stderr
    [kept] = kept_for(prefix, "project")
    assert len(CompiledMethods(kept)) > 100  # the request builder's classes among them
    written = kept.stat().st_mtime_ns
    second = run(home, prefix, *command)
    assert (second.returncode, second.stdout, second.stderr) == (0, first.stdout, first.stderr)
    assert kept.stat().st_mtime_ns == written  # nothing compiled anew: nothing written
    # Another command keeps its own (a list reads back no request builder's code).
    listed = run(home, prefix, "list")
    assert listed.returncode == 0 and "kept methods" in listed.stdout
    [kept_list] = kept_for(prefix, "list")
    assert 0 < len(CompiledMethods(kept_list)) < len(CompiledMethods(kept))


def test_where_nothing_can_be_written_the_command_prints_the_same(tmp_path: Path):
    home, conversation = a_home(tmp_path)
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    writable = run(home, tmp_path / "pycache", "show", str(conversation))
    unwritable = run(home, blocked / "pycache", "show", str(conversation))
    assert writable.returncode == unwritable.returncode == 0, unwritable.stderr
    assert unwritable.stdout == writable.stdout and "Answer 3." in unwritable.stdout
    assert unwritable.stderr == ""
    assert blocked.read_text() == "not a folder"


def test_a_program_calling_main_keeps_its_own_dataclasses_compiler(tmp_path: Path):
    home, _ = a_home(tmp_path)
    script = ("import builtins, dataclasses, sys\nfrom turnlog.cli import main\n"
              "assert main(['list']) == 0\n"
              "assert getattr(dataclasses, 'exec', builtins.exec) is builtins.exec\n")
    env = dict(os.environ, TURNLOG_HOME=str(home))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
