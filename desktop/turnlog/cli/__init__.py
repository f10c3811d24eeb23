"""turnlog-cli: the headless companion. Shares core and store with the window."""

from __future__ import annotations

# First of all: Ctrl+C during the slow imports below is a clean "interrupted", exit 130.
from . import interrupt

# isort: split
import argparse
import contextlib
import gc
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from .terminal import safe_for

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any

    from ..system.compiled_methods import CompiledMethods

# Exit statuses shared by all commands.
EXIT_OK = 0
EXIT_ERROR = 1
EXIT_REFUSED = 3
EXIT_FAILED = 4

# The modules that register the commands, in the order `--help` lists them, with the
# commands each registers: running a command loads its own module only. A module of one
# command adds its parser with `register(sub)`; a module of several lists them, each with
# what adds its parser, in `PARSERS`.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("log_commands", ("project", "import", "export", "list", "show")),
    ("chat_commands", ("ask", "profile")),
    ("version_commands", ("versions", "use-version", "fork")),
    ("side_commands", ("btw",)),
    ("privacy_commands", ("delete",)),
    ("search_commands", ("search",)),
    ("memory_commands", ("pin", "pref", "note")),
    ("tools_commands", ("tools",)),
    ("sent_commands", ("sent",)),
    ("assistant_commands", ("assistant",)),
    ("folder_commands", ("folder",)),
    ("summary_commands", ("summaries",)),
    ("usage_commands", ("usage",)),
    ("sync_commands", ("sync",)),
)


def command_module(name: str) -> ModuleType:
    """The module `name` of COMMANDS, loaded now if it was not yet."""
    return importlib.import_module(f"{__name__}.{name}")


def _command_in(argv: Sequence[str]) -> str | None:
    """The command `argv` names, when it comes first (no option before it)."""
    first = next(iter(argv), None)
    return first if first is not None and not first.startswith("-") else None


class _Version(argparse.Action):
    """`--version`, as argparse's own prints it; the number is read from the metadata
    (tens of milliseconds) only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: object) -> None:
        super().__init__(option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                         nargs=0, help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from .. import __version__

        print(f"turnlog {__version__}")
        parser.exit()


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` reads it: `$COLUMNS`, else the
    width of standard output's terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's own help layout, told the terminal's width: left to find it itself, it
    imports `shutil` (with the compression modules) for the first argument any command
    adds, help asked for or not."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _columns() - 2 if width is None else width)


class _Parser(argparse.ArgumentParser):
    """The parser of `turnlog-cli` and of each of its commands (`_Formatter` lays out
    their help)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


def register(module: ModuleType, sub: Any, only: str | None = None) -> None:
    """The parsers of `module`'s commands (a module of COMMANDS), in `--help`'s order; of
    `only` alone (the command being run) when given."""
    parsers = getattr(module, "PARSERS", None)
    if parsers is None:  # a module of one command
        module.register(sub)
        return
    for name, add in parsers:
        if only in (None, name):
            add(sub)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; for `argv` naming a known command, of that command
    only (it parses `argv` just the same, and its help and errors are the same: the
    others are neither loaded nor built)."""
    parser = _Parser(
        prog="turnlog-cli",
        description="Inspect, project, import and export Turnlog conversations without the window.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    wanted = _command_in(sys.argv[1:] if argv is None else argv)
    known = any(wanted in commands for _, commands in COMMANDS)
    for name, commands in COMMANDS:
        if not known or wanted in commands:
            register(command_module(name), sub, only=wanted if known else None)
    return parser


def _note_pending_erase() -> None:
    """A reading command never writes, so it cannot finish an erase a crash left pending
    (a writing command or the window does, first thing): it says so."""
    from ..config.paths import data_dir_path
    from ..store import erase_pending

    home = data_dir_path()
    if home.is_dir() and erase_pending(home):
        print("note: history deleted before Turnlog was stopped is not yet erased from the "
              "disk; the next start of the window or any writing command (such as `ask`) "
              "erases it first", file=sys.stderr)


_FILE_ARGS = frozenset({"file", "model_file", "ca_file"})


def _not_text(args: argparse.Namespace) -> str:
    """The first argument that a shell passed as bytes which are not UTF-8 (Python holds
    them as lone surrogates, which no file or database can store), or "". File names are
    left alone: any bytes name a file, and Python opens them as they are."""
    from ..core.visible import has_surrogate

    for name, value in vars(args).items():
        if name in _FILE_ARGS:
            continue
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and has_surrogate(v) for v in values):
            return name.upper() if name == "text" else "--" + name.replace("_", "-")
    return ""


def _show_what_cannot_be_encoded() -> None:
    """Anything that still cannot be written as UTF-8 is shown as an escape (as on
    standard error) rather than ending the command with a UnicodeEncodeError."""
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]


class _SafeFormatter(logging.Formatter):
    """A warning names profiles and servers: on a terminal, shown through the same filter
    as everything else the CLI prints."""

    def format(self, record: logging.LogRecord) -> str:
        return safe_for(sys.stderr)(super().format(record))


def _warnings_to_stderr() -> None:
    """Warnings on standard error, as Python's last-resort handler would print them, but
    through `safe_for` (where nothing else handles logging yet)."""
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setLevel(logging.WARNING)
        handler.setFormatter(_SafeFormatter("%(message)s"))
        root.addHandler(handler)


def _compiled_methods(argv: Sequence[str]) -> CompiledMethods | None:
    """Before the command's modules load: their dataclasses' methods as compiled at an
    earlier run of the same command, kept in a file of the command's own beside the
    package's byte code (so a command reads back only the code it runs, not the window's
    or another command's). None for no known command: nothing is kept."""
    from ..system import compiled_methods

    wanted = _command_in(argv)
    kept = compiled_methods.kept_path()
    if kept is None or not any(wanted in commands for _, commands in COMMANDS):
        return None
    return compiled_methods.install(kept.with_name(f"cli-{wanted}.{kept.name}"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; Ctrl+C at any moment is "interrupted", exit 130, no traceback.

    With no `argv`, the command line of this process (`turnlog-cli`), which ends with the
    command: the cyclic garbage collector waits while the command's modules load (they
    make thousands of long-lived objects and next to no garbage), and what is loaded then
    is frozen out of its later passes, the last one at exit included; their dataclasses'
    methods are those compiled at an earlier start (`system.compiled_methods`), and what
    this start compiled is kept for the next one."""
    own = argv is None
    methods = None
    if own:
        gc.disable()
        methods = _compiled_methods(sys.argv[1:])
    try:
        with interrupt.Raising():
            return _run(argv)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return interrupt.EXIT_INTERRUPTED
    finally:
        interrupt.handled()
        if own:
            gc.freeze()
            gc.enable()
        if methods is not None:  # written only if this run compiled any, where it may be
            methods.keep()  # a folder that cannot be written: nothing kept, no error


def _run(argv: Sequence[str] | None) -> int:
    from ..config.paths import PRIVATE_UMASK
    from ..core.failures import StoreError
    from ..store.errors import file_fault

    os.umask(PRIVATE_UMASK)  # every file made from here on is the user's alone
    _show_what_cannot_be_encoded()
    _warnings_to_stderr()
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if argv is None:  # loaded (see `main`): the command's own work may make garbage
        gc.freeze()
        gc.enable()
    unreadable = _not_text(args)
    if unreadable:
        message = (f"the text is not valid UTF-8: {unreadable} holds bytes that are not text, "
                   "or half of a character pair")
        if args.command in ("ask", "btw"):  # named, exit 4, the question given back
            return command_module("chat_commands").fail("invalid_text", message,
                                                        getattr(args, "text", None))
        print(f"error: invalid_text: {message}", file=sys.stderr)
        return EXIT_ERROR
    try:
        code = int(args.run(args))
        _note_pending_erase()
        return code
    except BrokenPipeError:
        return EXIT_OK
    except (StoreError, OSError) as err:
        fault = err if isinstance(err, StoreError) else file_fault(err)
        if fault is None:
            raise  # not the environment: a bug, with its traceback
        name = fault.code or fault.kind.value
        if args.command in ("ask", "btw"):  # named, exit 4, the question given back
            return command_module("chat_commands").fail(name, str(fault),
                                                        getattr(args, "draft", None))
        # One line, the fault named: `error: storage_full: The disk holding … is full. …`
        print(f"error: {name}: {safe_for(sys.stderr)(str(fault))}", file=sys.stderr)
        return EXIT_ERROR
