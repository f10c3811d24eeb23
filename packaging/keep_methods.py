"""Keep, inside a built bundle, the code of the dataclass methods its starts compile (and of
PySide's support modules, which the window compiles from shiboken's binary).

    python packaging/keep_methods.py BUNDLE_DIR

An installed bundle lives where its user cannot write (/opt/turnlog), and a frozen program
writes no byte code: without this step every start of the window and of each `turnlog-cli`
command would compile its dataclasses' methods again (`turnlog.system.compiled_methods`),
and every start of the window PySide's support modules (`turnlog.ui.infra.support_code`).
So the build starts the bundle itself, with `$TURNLOG_KEEP_COMPILED_METHODS=1`: the window
once offscreen on a data directory holding a conversation (until its first screen is up
and what starts after it has loaded, then ended as a logout ends it) and once on an empty
one (a person's first start), then each `turnlog-cli` command once. Each writes what it
compiled where the bundle reads it, by the same rules as any start (the interpreter's cache
tag in the name; the code looked up by its source text, so a class changed since is
compiled at run time, never taken from the file). Prints each kept file with its count;
fails when the window's file was not written.

Run by packaging/build-bundle.sh with the build's own Python (the bundle's interpreter),
which also seeds the data directory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from turnlog.config.profiles import Profile, ProfileStore
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore
from turnlog.system.compiled_methods import KEEP_ENV, CompiledMethods

READY_TIMEOUT_S = 180.0
AFTER_READY_S = 4.0  # what the window loads once its first screen is up
COMMAND_TIMEOUT_S = 120.0
PROFILE = "closed"  # a profile on a loopback port nothing listens on: nothing is sent
ANSWER = ("A paragraph with **bold**, `code`, 中文 and a formula $e^{i\\pi} = -1$.\n\n"
          "| a | b |\n|---|---|\n| 1 | 2 |\n\n```python\nprint('hi')\n```\n- one\n- two\n")


def seed(home: Path) -> int:
    """A data directory with a profile and a conversation of a few turns (its id)."""
    ProfileStore(home).save([Profile(PROFILE, "Closed", "custom", "http://127.0.0.1:9/v1",
                                     "model")], builtin_offered=True)
    store = TurnlogStore.open(home)
    try:
        conversation = store.conversations.create("keep methods", model="model")
        for i in range(1, 6):
            store.turns.commit(conversation.id, PendingTurn(
                uuid.uuid4().hex, f"Question {i} about item {i}?", ANSWER, "model", "stop",
                Usage(), datetime.now(UTC)))
    finally:
        store.close()
    return conversation.id


def environment(home: Path) -> dict[str, str]:
    """A person's session (none of this Python's or Qt's settings), offscreen, keeping."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTHON", "QT_", "VIRTUAL_ENV"))}
    return {**env, "TURNLOG_HOME": str(home), "QT_QPA_PLATFORM": "offscreen", KEEP_ENV: "1"}


def start_window(bundle: Path, home: Path) -> None:
    """The window up to its first screen and a while after, then ended by SIGTERM."""
    ready = home.parent / f"{home.name}.ready"
    child = subprocess.Popen([str(bundle / "turnlog")],
                             env={**environment(home), "TURNLOG_READY_FILE": str(ready)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not ready.exists():
            if child.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"keep_methods: the window never got ready on {home}")
            time.sleep(0.05)
        time.sleep(AFTER_READY_S)
    finally:
        child.send_signal(signal.SIGTERM)  # its methods are kept as it ends
        try:
            _, errors = child.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            _, errors = child.communicate()
    if child.returncode != 0:
        raise SystemExit(f"keep_methods: the window ended with {child.returncode}:\n"
                         f"{errors.decode(errors='replace')[-3000:]}")


def command_lines(conversation: int, home: Path) -> list[list[str]]:
    """One run of each command (those that would send or write find a closed port, or an
    argument that names nothing, after loading what they run)."""
    c = str(conversation)
    exported = str(home.parent / "exported.jsonl")
    return [
        ["list"], ["show", c], ["search", "item"], ["export", c],
        ["export", "--all", str(home.parent / "all.zip")], ["import", exported],
        ["project", "--conversation", c, "--question", "and next?", "--profile", PROFILE],
        ["ask", "--conversation", c, "--profile", PROFILE, "next?"], ["profile", "list"],
        ["versions", "--conversation", c, "--turn", "1"], ["use-version", "0"],
        ["fork", "--conversation", c, "--at", "2"],
        ["btw", "--conversation", c, "--list"], ["delete", "--turn", "0", "--yes"],
        ["pin", "list", c], ["pref", "list"], ["note", "list"], ["tools", "list"],
        ["sent", "--conversation", c, "--turn", "1", "--json"], ["assistant", "list"],
        ["folder", "list"], ["summaries", "--conversation", c], ["usage"],
        ["sync", "status"],
    ]


def run_commands(bundle: Path, home: Path, conversation: int) -> None:
    env = environment(home)
    exported = home.parent / "exported.jsonl"
    with exported.open("wb") as out:  # what `import` reads back
        subprocess.run([str(bundle / "turnlog-cli"), "export", str(conversation)], env=env,
                       stdout=out, stderr=subprocess.DEVNULL, timeout=COMMAND_TIMEOUT_S,
                       check=True)
    for line in command_lines(conversation, home):
        try:  # a refusal is fine: the command's modules are loaded and their methods kept
            subprocess.run([str(bundle / "turnlog-cli"), *line], env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=COMMAND_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            print(f"keep_methods: turnlog-cli {line[0]} took over {COMMAND_TIMEOUT_S:g} s")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    bundle = Path(argv[0]).resolve()
    with tempfile.TemporaryDirectory(prefix="turnlog-keep-methods-") as temp:
        scratch = Path(temp)
        first, seeded = scratch / "first-start", scratch / "home"
        first.mkdir()
        seeded.mkdir()
        conversation = seed(seeded)
        start_window(bundle, seeded)
        start_window(bundle, first)
        run_commands(bundle, seeded, conversation)
    tag = sys.implementation.cache_tag
    kept = sorted(bundle.rglob(f"*dataclass_methods.{tag}.marshal"))
    for path in kept:
        print(f"keep_methods: {path.relative_to(bundle)}: {len(CompiledMethods(path))} kept")
    if not any(path.name == f"dataclass_methods.{tag}.marshal" for path in kept):
        print("keep_methods: the window kept no methods", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
