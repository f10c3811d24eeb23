"""What a start loads, and what it leaves for later: the window's first screen (the last
conversation's newest turns, the composer taking keys) and `turnlog-cli`'s reading
commands load neither the HTTP stack nor the keyring, the dialogs, the importers or the
formula typesetter; the window loads the HTTP stack in the background once that screen is
up, so the first send does not pay for it.

Each start runs in a child process of its own, as a person's would (a test process has
loaded half of everything already)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from turnlog.config.profiles import Profile, ProfileStore
from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore

# Loaded later, or never, by a start: the window's first screen needs none of them.
LATER = ("httpx", "httpcore", "keyring", "secretstorage", "ziamath",
         "turnlog.ui.dialogs.settings", "turnlog.ui.dialogs.providers_page",
         "turnlog.ui.dialogs.about", "turnlog.ui.dialogs.shortcuts",
         "turnlog.service.transfer", "turnlog.formats.importers",
         # the installed package's metadata (the version), and the proxies' lookup with its
         # http.client and email: read once the screen is up, or by the first client made
         "importlib.metadata", "urllib.request", "http.client",
         # sync (its wire side, the cryptography stack, the window's runner): the window's
         # first sync starts seconds after the first screen
         "turnlog.sync", "turnlog.service.sync_runner", "cryptography",
         # the schema upgrade and its frozen steps: a file at today's version needs neither
         "turnlog.store.upgrade", "turnlog.store.migrations",
         # what an edit of a pin or note took out: compared when one is edited
         "difflib",
         # the HTTP client, the servers' askers and the built-in model's server: a send's
         "turnlog.providers.client", "turnlog.providers.discovery",
         "turnlog.localmodel.server",
         # the MCP tool host (its event loop, the child processes): the first tool server's
         "turnlog.toolhost.host", "turnlog.system.children",
         # where the configuration folder is: asked only of a file outside the data
         # directory (profiles.json and tools.json are inside it)
         "platformdirs",
         # what an import reads and reports: the first import's (a source is named by
         # `core.import_sources`)
         "turnlog.core.imports",
         # the privacy deletes: the first delete's (listing folders and reading pins
         # load none of them)
         "turnlog.store.deletion", "turnlog.store.privacy",
         # the summary maker: the first send's that makes a summary (the preview, the
         # marks and the memory panel's key facts check plan and read without it)
         "turnlog.core.compaction",
         # the sender with its tool loop, and what offers and runs tools: the first
         # screen shows outcomes and stages (`core.outcome`) and connects through
         # `service.connect`; the warm-up loads these for the first send
         "turnlog.service.chat", "turnlog.core.send", "turnlog.core.tool_loop",
         "turnlog.service.tool_use",
         # the side questions' panel and session, and the search panel with its hits:
         # built when their tab first shows (Ctrl+Shift+F, asked aside)
         "turnlog.ui.panels.side", "turnlog.ui.panels.search",
         "turnlog.ui.panels.search_hits",
         # the dialog that pins words chosen from a turn (Ctrl+Shift+P)
         "turnlog.ui.panels.memory.pin_dialog",
         # the Memory tab's panel, with its check of the summary for pinned facts: built
         # when the tab first shows (the memory itself is read from the start, for the
         # turns' pin marks and the preview)
         "turnlog.ui.panels.memory.panel", "turnlog.core.key_facts")
# Never loaded by a command that only reads the log.
NOT_FOR_READING = ("PySide6", "shiboken6", "httpx", "keyring", "ziamath", "turnlog.ui",
                   "turnlog.toolhost.host", "asyncio", "turnlog.service.transfer",
                   "turnlog.formats.importers",
                   # the request builder and what it plans with: a send's, not a reader's
                   "turnlog.core.send", "turnlog.core.compaction", "turnlog.core.projection",
                   "turnlog.core.side", "turnlog.core.tool_loop", "turnlog.store.records",
                   # the profiles, the memory and the summaries a request carries, and
                   # the tables (peewee's models): the log is read with plain SQL
                   "turnlog.config.profiles", "turnlog.core.memory", "turnlog.core.summaries",
                   "turnlog.store.models",
                   # the signal module's enums (Ctrl+C's handler is set without them), and
                   # the export formats' package (export's option)
                   "signal", "turnlog.formats",
                   # typing: its names are for type checkers (`TYPE_CHECKING`)
                   "typing")
# Never loaded by `list` or `show`: the exporters, the search language, the request proofs,
# the privacy deletes, the importers' writer, the schema upgrade with its frozen steps
# (a file at today's version needs only the number), the search index's SQL, the temporary
# files.
NOT_FOR_LISTING = ("turnlog.formats.export", "turnlog.core.search", "turnlog.core.proof",
                   "turnlog.core.memory", "turnlog.store.privacy", "turnlog.store.importing",
                   "turnlog.store.upgrade", "turnlog.store.migrations", "turnlog.store.search",
                   "turnlog.store.proofs", "turnlog.config.tool_servers", "tempfile",
                   # with the compression modules: argparse's help finds the terminal's
                   # width with it unless told (`cli._Formatter` tells it)
                   "shutil",
                   # the tables (peewee's models) with the turns' and forks' parts: `show`
                   # reads a conversation's turns, versions and whether it is a fork through
                   # the lenient reader, a fork's origin only for a fork
                   "turnlog.store.models", "turnlog.store.turns", "turnlog.store.forks")

# The real start (`turnlog.app.main`), with the moment the first screen is ready (the
# `$TURNLOG_READY_FILE` mark) noted: what is loaded then, and once the HTTP stack is in.
WINDOW = """
import gc, json, linecache, sys
from pathlib import Path
from PySide6.QtCore import QTimer
from turnlog.app import main
import turnlog.ui.shell.ready as ready

at_ready, after = Path(sys.argv[1]), Path(sys.argv[2])
written = ready._write_time

timers = []

def watch():
    if "httpx._client" in sys.modules and not after.exists():
        after.write_text(json.dumps({"modules": sorted(sys.modules), "collecting":
                                     gc.isenabled(), "frozen": gc.get_freeze_count()}))

def noted(path, at):
    at_ready.write_text(json.dumps({"modules": sorted(sys.modules),
                                    "texts": sorted(linecache.cache)}))
    written(path, at)
    timers.append(QTimer())  # the application exists now
    timers[0].timeout.connect(watch)
    timers[0].start(20)

ready._write_time = noted
sys.exit(main(["turnlog"]))
"""


def loaded_in(names: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == p or n.startswith(p + ".") for p in prefixes))


def a_home(tmp_path: Path, base_url: str = "http://127.0.0.1:9/v1") -> tuple[Path, int]:
    """A data directory with a conversation of a few turns and a profile on a loopback
    URL (nothing listens there: nothing is sent)."""
    home = tmp_path / "home"
    home.mkdir()
    ProfileStore(home).save([Profile("loopback", "Loopback", "custom", base_url, "m")],
                            builtin_offered=True)
    with TurnlogStore.open(home) as store:
        conversation = store.conversations.create("ready", model="m")
        for i in range(1, 6):
            store.turns.commit(conversation.id, PendingTurn(
                uuid.uuid4().hex, f"Question {i}?", f"Answer {i} with $x^2$.", "m", "stop",
                Usage(), datetime.now(UTC)))
    return home, conversation.id


def wait_for(path: Path, child: subprocess.Popen[bytes], timeout_s: float = 60) -> Any:
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        assert child.poll() is None, child.stderr.read().decode() if child.stderr else ""
        assert time.monotonic() < deadline, f"{path.name} was never written"
        time.sleep(0.05)
    time.sleep(0.05)  # written whole: the child writes it in one call
    return json.loads(path.read_text())


def test_the_first_screen_loads_no_network_keyring_dialogs_or_importers(tmp_path: Path):
    home, _ = a_home(tmp_path)
    at_ready, after = tmp_path / "at_ready.json", tmp_path / "after.json"
    env = dict(os.environ, TURNLOG_HOME=str(home), QT_QPA_PLATFORM="offscreen",
               TURNLOG_READY_FILE=str(tmp_path / "ready"))
    child = subprocess.Popen([sys.executable, "-c", WINDOW, str(at_ready), str(after)],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        first, texts = wait_for(at_ready, child).values()
        assert "turnlog.ui.shell.window" in first and "PySide6.QtWidgets" in first
        assert loaded_in(first, LATER) == []
        # PySide's look at each module the start imports read the file, not the module's
        # text kept line by line for the life of the window (`ui.infra.module_scan`)
        package = Path(sys.modules["turnlog"].__file__).parent
        kept = [t for t in texts if Path(t).is_relative_to(package)]
        # (and the packages above it and above `system.compiled_methods`, imported with
        # `ui.infra.enum_classes` and the kept code before it where PySide was loaded
        # first, as here: a docstring each)
        loaded_before_it = {str(package / "__init__.py"), str(package / "ui" / "__init__.py"),
                            str(package / "ui" / "infra" / "__init__.py"),
                            str(package / "system" / "__init__.py"),
                            str(package / "ui" / "infra" / "module_scan.py")}
        assert set(kept) <= loaded_before_it, kept
        # Once the screen is up, the HTTP stack, the sender and the summary maker a send
        # makes are loaded in the background (so the first send does not wait for them),
        # and the garbage collector (paused while the start loaded the window) runs
        # again, what the start made frozen out of its passes.
        later = wait_for(after, child, 30)
        assert "httpx._client" in later["modules"]
        assert "turnlog.core.compaction" in later["modules"]
        assert {"turnlog.service.chat", "turnlog.core.send",
                "turnlog.service.tool_use"} <= set(later["modules"])
        assert later["collecting"] and later["frozen"] > 10_000
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
    assert (tmp_path / "ready").exists()  # the mark the start-up bench times


def test_importing_the_app_loads_no_network_keyring_dialogs_or_importers():
    script = "import json, sys, turnlog.app\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=60)
    names = json.loads(done.stdout)
    assert "turnlog.app" in names
    assert loaded_in(names, LATER) == []


def test_reading_commands_load_neither_qt_nor_the_network(tmp_path: Path):
    home, conversation = a_home(tmp_path)
    env = dict(os.environ, TURNLOG_HOME=str(home))
    script = ("import json, sys\nfrom turnlog.cli import main\ncode = main(sys.argv[1:])\n"
              "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\nsys.exit(code)\n")
    for command in (["list"], ["show", str(conversation)], ["search", "Question"]):
        done = subprocess.run([sys.executable, "-c", script, *command], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip(), command  # it printed what it read
        names = json.loads(done.stderr.strip().splitlines()[-1])
        assert "turnlog.store" in names
        assert loaded_in(names, NOT_FOR_READING) == [], command


def test_importing_the_store_loads_none_of_its_parts():
    """`turnlog.store` opens a data directory; each part's module loads with the part."""
    script = "import json, sys, turnlog.store\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=60)
    names = json.loads(done.stdout)
    parts = ("turnlog.store.conversations", "turnlog.store.turns", "turnlog.store.memory",
             "turnlog.store.side", "turnlog.store.searching", "turnlog.store.attached",
             "turnlog.store.forks", "turnlog.store.importing", "turnlog.store.privacy",
             "turnlog.store.records", "turnlog.core.search")
    assert "turnlog.store.log" in names
    assert loaded_in(names, parts) == []


def test_listing_and_showing_load_only_what_they_print(tmp_path: Path):
    home, conversation = a_home(tmp_path)
    env = dict(os.environ, TURNLOG_HOME=str(home))
    script = ("import json, sys\nfrom turnlog.cli import main\ncode = main(sys.argv[1:])\n"
              "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\nsys.exit(code)\n")
    for command in (["list"], ["show", str(conversation)]):
        done = subprocess.run([sys.executable, "-c", script, *command], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "Question 5?" in done.stdout or "ready" in done.stdout, done.stdout
        names = json.loads(done.stderr.strip().splitlines()[-1])
        assert loaded_in(names, NOT_FOR_LISTING) == [], command


def test_each_command_is_registered_by_the_module_named_for_it():
    """`--help` (or no known command) builds every command's parser; a command builds its
    own parser only, not those of the other commands of its module."""
    import argparse

    from turnlog.cli import COMMANDS, build_parser, command_module, register

    def commands_of(parser: argparse.ArgumentParser) -> list[str]:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return list(sub.choices)

    assert commands_of(build_parser(["--help"])) == [c for _, cs in COMMANDS for c in cs]
    assert commands_of(build_parser(["nonsense"])) == [c for _, cs in COMMANDS for c in cs]
    for name, commands in COMMANDS:
        parser = argparse.ArgumentParser()
        register(command_module(name), parser.add_subparsers())
        assert commands_of(parser) == list(commands)
        for command in commands:
            assert commands_of(build_parser([command, "--help"])) == [command]


# Never loaded by the CLI's entry with the module of `list`, `show`, `import`, `export` and
# `project` imported (its parser built): what a command needs, it loads when it runs.
NOT_FOR_THE_ENTRY = ("httpx", "httpcore", "mcp", "PIL", "pypdf", "charset_normalizer",
                     "platformdirs", "keyring", "ssl", "PySide6", "shiboken6", "turnlog.ui",
                     "turnlog.service", "turnlog.providers", "turnlog.toolhost",
                     "turnlog.localmodel",
                     # a question's check, a turn's files and tool exchange, prices, titles
                     "turnlog.core.pending", "turnlog.core.attachments", "turnlog.core.tools",
                     "turnlog.core.cost", "turnlog.core.titles", "turnlog.core.send")
# Never loaded by `list`, nor by `show` of complete turns without files or tools: the
# title maker (with its prices and provider), a question's check, the file and tool
# records, the marks of a kept incomplete answer (with the request body's parts).
NOT_FOR_READING_PLAIN_TURNS = ("turnlog.core.titles", "turnlog.core.cost",
                               "turnlog.core.provider", "turnlog.core.pending",
                               "turnlog.core.attachments", "turnlog.core.tools",
                               "turnlog.core.partial", "turnlog.core.body")
# Never loaded by importing the window's start-up modules: the exporters, the readers of
# a user's files, the search language, the formula typesetter's child process, an
# assistant's file format, the keyring and the network.
NOT_FOR_THE_WINDOW_MODULES = ("turnlog.formats.export", "turnlog.formats.file_reading",
                              "turnlog.core.search",
                              "turnlog.ui.transcript.typesetter",
                              "turnlog.formats.assistant_file", "keyring", "httpx",
                              "platformdirs",
                              # the summary maker: the transcript's marks name a stored
                              # summary, the memory panel checks key facts, neither
                              # makes one
                              "turnlog.core.compaction")


def _loaded_by(script: str, env: dict[str, str] | None = None) -> list[str]:
    done = subprocess.run([sys.executable, "-c", script + "\nprint(json.dumps(sorted("
                           "sys.modules)), file=sys.stderr)\n"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_the_cli_entry_and_the_log_commands_module_load_nothing_a_command_runs():
    names = _loaded_by("import json, sys\nfrom turnlog.cli import build_parser\n"
                       "build_parser(['list'])")
    assert "turnlog.cli.log_commands" in names and "argparse" in names
    assert loaded_in(names, NOT_FOR_THE_ENTRY) == []


def test_list_and_show_of_plain_turns_load_no_title_maker_files_or_tools(tmp_path: Path):
    home, conversation = a_home(tmp_path)
    env = dict(os.environ, TURNLOG_HOME=str(home))
    for command in (["list"], ["show", str(conversation)]):
        names = _loaded_by("import json, sys\nfrom turnlog.cli import main\n"
                           f"assert main({command!r}) == 0", env)
        assert "turnlog.store.salvage" in names  # it read the log
        assert loaded_in(names, NOT_FOR_READING_PLAIN_TURNS) == [], command


def test_the_window_start_up_modules_load_no_exporters_readers_or_typesetter():
    names = _loaded_by("import json, sys\nimport turnlog.app, turnlog.ui.shell.window, "
                       "turnlog.ui.shell.ready, turnlog.ui.transcript.model, "
                       "turnlog.ui.infra.operations")
    assert "turnlog.ui.transcript.maths" in names  # the transcript draws formulas
    assert loaded_in(names, NOT_FOR_THE_WINDOW_MODULES) == []


# Never loaded by `project` to a profile on another server: it reads what is known of the
# server (its window, its counts) and builds the body, it asks the server nothing and reads
# no key. The HTTP client, the servers' askers, the keyring, the built-in model's server
# with the child processes, the side questions' maker, the privacy deletes.
NOT_FOR_PROJECTING = ("httpx", "keyring", "turnlog.providers.client",
                      "turnlog.providers.discovery", "turnlog.config.secrets",
                      "turnlog.localmodel.server", "turnlog.localmodel.tokens",
                      "turnlog.system.children", "turnlog.core.side",
                      "turnlog.store.deletion", "turnlog.store.privacy", "platformdirs",
                      # what makes a summary (the plan says whether one is to be made),
                      # the key facts it keeps, the sender with its tool loop and
                      # retries, and the wiring of a send: the route and the candidate
                      # are all `project` builds the body from
                      "turnlog.core.compaction", "turnlog.core.key_facts",
                      "turnlog.core.send", "turnlog.core.tool_loop", "turnlog.core.retry",
                      "turnlog.service.chat",
                      # what adding a request record or editing a pin writes (the proofs,
                      # the usage counts), and the provider interface a send talks through
                      "turnlog.store.proofs", "turnlog.store.usage", "turnlog.core.provider",
                      # a committed request's proof and record (`sent` rebuilds from them),
                      # and the random seeds of a new sample
                      "turnlog.core.proof", "turnlog.core.request_record", "secrets",
                      # what a turn's tool exchange, a kept incomplete answer and a stored
                      # summary are read into: loaded with the first one, and this
                      # conversation has none
                      "turnlog.core.tools", "turnlog.core.partial", "turnlog.core.summaries",
                      # the reader of attached files (no --attach here) and the built-in
                      # model's files (a profile on another server)
                      "turnlog.formats.file_reading", "turnlog.localmodel.model_file",
                      # a reply about to be committed (the question is checked with the
                      # failures it names), an image's data URL, the signal module's enums
                      "turnlog.core.pending", "base64", "signal",
                      # the tables (peewee's models) and the parts that read and write the
                      # summaries, the memory and the versions with them: the summary in
                      # effect, the pins, notes, preferences and versions are read with
                      # plain SQL on the connection the turns are read on
                      "turnlog.store.models", "turnlog.store.records",
                      "turnlog.store.summaries", "turnlog.store.memory",
                      "turnlog.store.turns", "turnlog.store.versions",
                      # typing: its names are for type checkers (`TYPE_CHECKING`)
                      "typing")


def test_project_asks_no_server_and_reads_no_key(tmp_path: Path):
    home, conversation = a_home(tmp_path)
    env = dict(os.environ, TURNLOG_HOME=str(home))
    for json_out in ([], ["--json"]):
        command = ["project", "--conversation", str(conversation), "--question", "and then?",
                   "--profile", "loopback", *json_out]
        names = _loaded_by("import json, sys\nfrom turnlog.cli import main\n"
                           f"assert main({command!r}) == 0", env)
        assert "turnlog.service.request_body" in names  # it built the body
        assert loaded_in(names, NOT_FOR_PROJECTING) == [], command


def test_the_collector_pauses_only_for_the_command_line_of_turnlog_cli(tmp_path: Path):
    """`turnlog-cli` (`main()`, the process's own command line) pauses the garbage
    collector while the command loads and ends with it running; `main([...])` called by a
    program leaves it as it was."""
    home, _ = a_home(tmp_path)
    env = dict(os.environ, TURNLOG_HOME=str(home))
    script = ("import gc, sys\nfrom turnlog.cli import main\n"
              "before = gc.get_freeze_count()\nassert main(['list']) == 0\n"
              "assert gc.isenabled() and gc.get_freeze_count() == before\n"
              "gc.disable()\nassert main(['list']) == 0\nassert not gc.isenabled()\n"
              "gc.enable()\nsys.argv = ['turnlog-cli', 'list']\nassert main() == 0\n"
              "assert gc.isenabled() and gc.get_freeze_count() > 10_000\n")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("ready") == 3  # each run listed the conversation


def test_searching_for_words_in_ascii_compiles_no_cjk_pattern(tmp_path: Path):
    """Compiling a pattern over the CJK ranges walks each of their characters (milliseconds
    at every start of `turnlog-cli search`): a search for English words needs none, a
    search for Chinese compiles what it uses."""
    home, _ = a_home(tmp_path)
    env = dict(os.environ, TURNLOG_HOME=str(home))
    script = ("import json, sys\nfrom turnlog.cli import main\nassert main(sys.argv[1:]) == 0\n"
              "from turnlog.core import search\nprint(json.dumps([f.cache_info().currsize for f "
              "in (search.cjk_char, search._cjk_split, search._cjk_pieces, "
              "search._diacritic)]), file=sys.stderr)\n")
    compiled = {}
    for query in ("Question", "问题"):
        done = subprocess.run([sys.executable, "-c", script, "search", query], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        compiled[query] = json.loads(done.stderr.strip().splitlines()[-1])
    assert compiled["Question"] == [0, 0, 0, 0]
    assert compiled["问题"][0] == 1 and compiled["问题"][2] == 1


def test_printing_to_a_pipe_compiles_no_control_pattern(tmp_path: Path):
    """The control and surrogate patterns (`core.visible`) take a fraction of a millisecond
    to compile: a command whose arguments are ASCII and whose output goes to a pipe needs
    neither; on a terminal (`TURNLOG_TERMINAL=1`) the text is shown through them."""
    home, conversation = a_home(tmp_path)
    script = ("import json, sys\nfrom turnlog.cli import main\nassert main(sys.argv[1:]) == 0\n"
              "from turnlog.core import visible\n"
              "print(visible._compiled.cache_info().currsize, file=sys.stderr)\n")
    compiled = {}
    for terminal in ("0", "1"):
        env = dict(os.environ, TURNLOG_HOME=str(home), TURNLOG_TERMINAL=terminal)
        done = subprocess.run([sys.executable, "-c", script, "show", str(conversation)],
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "Question 5?" in done.stdout
        compiled[terminal] = int(done.stderr.strip().splitlines()[-1])
    assert compiled == {"0": 0, "1": 1}
