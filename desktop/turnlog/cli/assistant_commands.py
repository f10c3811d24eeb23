"""assistant: saved setups a new conversation starts from (`ask --new --assistant`)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..config.paths import data_dir
from ..config.profiles import ProfileStore
from ..config.tool_servers import ToolConfigInvalid, ToolServerStore
from ..core.assistant_vars import VariableRefused
from ..core.assistants import AssistantNote, AssistantRefused, AssistantSetup
from ..core.attachments import AttachmentRefused
from ..formats import assistant_file
from ..service.assistant_start import system_language, update_from
from ..store import NotFound, TurnlogStore
from ..system.user_files import FileRefused, read_limited
from .attached import read_attached
from .numbers import whole_number
from .terminal import print_json, safe_for

EXIT_REFUSED = 3
MAX_PROMPT_FILE = 1024 * 1024


def register(sub: Any) -> None:
    p = sub.add_parser("assistant", help="saved setups a new conversation starts from")
    asub = p.add_subparsers(dest="assistant_command", required=True, metavar="ACTION")
    add = asub.add_parser("add", help="save an assistant")
    add.add_argument("name")
    add.add_argument("--system-file", required=True, metavar="F",
                     help="its system prompt, read from this UTF-8 file ({{date}}, {{time}}, "
                     "{{language}}, {{model}} and your own {{names}} are filled at the start)")
    _setup_options(add)
    add.set_defaults(run=run_add)
    edit = asub.add_parser("edit", help="change an assistant (what is given; conversations it "
                           "started keep what they copied)")
    edit.add_argument("name")
    edit.add_argument("--rename", metavar="NEW")
    edit.add_argument("--system-file", metavar="F")
    edit.add_argument("--no-files", action="store_true", help="attach no files any more")
    _setup_options(edit)
    edit.set_defaults(run=run_edit)
    lst = asub.add_parser("list", help="list the assistants in order")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(run=run_list)
    rm = asub.add_parser("remove", help="remove an assistant and its files")
    rm.add_argument("name")
    rm.set_defaults(run=run_remove)
    exp = asub.add_parser("export", help="write assistants to a JSON file")
    exp.add_argument("file")
    exp.add_argument("names", nargs="*", metavar="NAME", help="these only (default: all)")
    exp.set_defaults(run=run_export)
    upd = asub.add_parser("update-conversation", help="give a conversation the current "
                          "setup of the assistant it started from (its turns stay)")
    upd.add_argument("conversation", type=whole_number, metavar="ID")
    upd.add_argument("--var", action="append", default=[], metavar="NAME=VALUE",
                     help="a value for {{NAME}} in the system prompt (repeatable)")
    upd.add_argument("--profile", metavar="P", help="the profile whose model {{model}} names")
    upd.set_defaults(run=run_update_conversation)
    imp = asub.add_parser("import", help="add the assistants of a JSON file (lists them, and "
                          "the tool servers they may switch on, first)")
    imp.add_argument("file")
    imp.add_argument("--dry-run", action="store_true", help="only list what it holds")
    imp.set_defaults(run=run_import)


def _setup_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--icon", metavar="EMOJI")
    p.add_argument("--profile", metavar="P", help="the profile it asks through (default: the "
                   "first)")
    p.add_argument("--model", metavar="M", help="its model (default: the profile's)")
    p.add_argument("--temperature", type=float, metavar="T")
    p.add_argument("--top-p", type=float, metavar="P")
    p.add_argument("--tools", metavar="NAME[,NAME]", help="tool servers it switches on (set "
                   "up on this machine: see tools list)")
    p.add_argument("--pin", action="append", default=None, metavar="TEXT",
                   help="a pinned fact to start with (repeatable)")
    p.add_argument("--note", action="append", default=None, metavar="TEXT",
                   help="a note to start with (repeatable)")
    p.add_argument("--attach", action="append", default=[], metavar="FILE",
                   help="a file attached to every first question (repeatable)")
    p.add_argument("--folder", metavar="NAME", help="the folder its conversations start in "
                   "(one that exists: see folder list; \"\" for none)")


def _fail(code: str, message: str, exit_code: int = 2) -> int:
    print(f"failure: {code}", file=sys.stderr)
    print(safe_for(sys.stderr)(message), file=sys.stderr)
    return exit_code


def _prompt(path: str) -> str:
    try:
        data = read_limited(Path(path), MAX_PROMPT_FILE, what="system prompt file")
        return data.decode("utf-8")
    except FileRefused as err:
        raise AssistantRefused("system_file", f"{Path(path).name}: {err.reason}") from None
    except FileNotFoundError:
        raise AssistantRefused("system_file", f"{path}: there is no such file") from None
    except UnicodeDecodeError:
        raise AssistantRefused("system_file", f"{path}: it is not UTF-8 text") from None


def _tools(names: str) -> tuple[str, ...]:
    here = {s.name for s in ToolServerStore(data_dir()).list()}
    chosen = tuple(n.strip() for n in names.split(",") if n.strip())
    for name in chosen:
        if name not in here:
            raise AssistantRefused("tools", f"there is no tool server “{name}” here (see "
                                   "turnlog-cli tools list)")
    return chosen


def _changed(setup: AssistantSetup, args: argparse.Namespace) -> AssistantSetup:
    given: dict[str, Any] = {}
    if args.system_file is not None:
        given["system_prompt"] = _prompt(args.system_file)
    for name in ("icon", "profile", "model", "temperature", "top_p", "folder"):
        if getattr(args, name) is not None:
            given[name] = getattr(args, name)
    if args.tools is not None:
        given["tools"] = _tools(args.tools)
    if args.pin is not None:
        given["pins"] = tuple(args.pin)
    if args.note is not None:
        given["notes"] = tuple(AssistantNote(n) for n in args.note)
    if getattr(args, "rename", None):
        given["name"] = args.rename
    return replace(setup, **given)


def run_add(args: argparse.Namespace) -> int:
    try:
        setup = _changed(AssistantSetup(args.name), args).checked()
        files = read_attached(args.attach)
        with TurnlogStore.open(data_dir()) as store:
            made = store.assistants.add(setup, files)
    except AssistantRefused as err:
        return _fail(err.code, str(err))
    except (AttachmentRefused, ToolConfigInvalid) as err:
        return _fail("attachment_refused" if isinstance(err, AttachmentRefused) else "tools",
                     str(err))
    print(safe_for(sys.stdout)(f"assistant {made.id} {made.label}"))
    return 0


def run_edit(args: argparse.Namespace) -> int:
    try:
        files = read_attached(args.attach) if args.attach else None
        if args.no_files:
            files = []
        with TurnlogStore.open(data_dir()) as store:
            found = store.assistants.find(args.name)
            made = store.assistants.update(found.id, _changed(found.setup, args), files)
    except NotFound as err:
        return _fail("not_found", str(err), 1)
    except AssistantRefused as err:
        return _fail(err.code, str(err))
    except (AttachmentRefused, ToolConfigInvalid) as err:
        return _fail("attachment_refused" if isinstance(err, AttachmentRefused) else "tools",
                     str(err))
    print(safe_for(sys.stdout)(f"assistant {made.id} {made.label}"))
    return 0


def run_list(args: argparse.Namespace) -> int:
    with TurnlogStore.open(data_dir()) as store:
        found = store.assistants.list()
    if args.json:
        print_json([{"id": a.id, "position": a.position, "name": a.name, "icon": a.setup.icon,
                     "system_prompt": a.setup.system_prompt, "profile": a.setup.profile,
                     "model": a.setup.model, "temperature": a.setup.temperature,
                     "top_p": a.setup.top_p, "pins": list(a.setup.pins),
                     "notes": [{"text": n.text, "priority": n.priority} for n in a.setup.notes],
                     "tools": list(a.setup.tools), "files": list(a.file_names),
                     "folder": a.setup.folder}
                    for a in found])
        return 0
    if not found:
        print("no assistants yet")
    safe = safe_for(sys.stdout)
    for a in found:
        print(safe(f"{a.id}\t{a.label}\t{a.setup.model or '(profile model)'}\t"
                   f"{len(a.file_names)} file(s)\t{','.join(a.setup.tools)}\t"
                   f"{a.setup.folder}"))
    return 0


def run_remove(args: argparse.Namespace) -> int:
    try:
        with TurnlogStore.open(data_dir()) as store:
            found = store.assistants.find(args.name)
            store.assistants.delete(found.id)
    except NotFound as err:
        return _fail("not_found", str(err), 1)
    print(safe_for(sys.stdout)(f"removed assistant {found.label}"))
    return 0


def run_export(args: argparse.Namespace) -> int:
    try:
        with TurnlogStore.open(data_dir()) as store:
            chosen = [store.assistants.find(n) for n in args.names] if args.names \
                else store.assistants.list()
            shared = [assistant_file.Shared(a.setup, store.assistants.files(a.id))
                      for a in chosen]
    except NotFound as err:
        return _fail("not_found", str(err), 1)
    try:
        assistant_file.write(Path(args.file), shared)
    except FileExistsError:
        return _fail("exists", f"{args.file} exists already; name a new file.")
    print(f"wrote {len(shared)} assistant(s) to {args.file}")
    return 0


def run_update_conversation(args: argparse.Namespace) -> int:
    values = {}
    for given in args.var:
        name, sep, value = given.partition("=")
        if not sep or not name.strip():
            return _fail("invalid_variable", f"--var takes NAME=VALUE, not “{given}”")
        values[name.strip()] = value
    profiles = ProfileStore(data_dir()).list()
    profile = next((p for p in profiles if args.profile in (None, p.id, p.name)), None)
    try:
        with TurnlogStore.open(data_dir()) as store:
            done = update_from(store, args.conversation,
                               profile_model=profile.model if profile else "",
                               language=system_language(), values=values,
                               servers=ToolServerStore(data_dir()).list())
    except NotFound as err:
        return _fail("not_found", str(err), 1)
    except VariableRefused as err:
        return _fail("invalid_variable", str(err))
    for warning in done.warnings:
        print(safe_for(sys.stderr)(f"note: {warning}"), file=sys.stderr)
    print(f"conversation {done.conversation.id} updated from its assistant")
    return 0


def run_import(args: argparse.Namespace) -> int:
    servers = {s.name for s in ToolServerStore(data_dir()).list()}
    try:
        shared = assistant_file.read(Path(args.file), servers)
    except assistant_file.AssistantFileInvalid as err:
        return _fail("invalid_file", str(err))
    safe = safe_for(sys.stdout)
    for one in shared:  # the person sees each prompt as written before it is ever used
        setup = one.setup
        print(safe(f"{setup.icon} {setup.name}".strip()))
        print(safe("  system prompt: " + setup.system_prompt.replace("\n", "\n    ")))
        print(safe(f"  switches on: {', '.join(setup.tools) or '(no tool server)'}"))
        if one.left_out:
            print(safe(f"  not set up here, left off: {', '.join(one.left_out)}"))
        print(safe(f"  files: {', '.join(f.name for f in one.files) or '(none)'}"))
        if setup.folder:
            print(safe(f"  folder: {setup.folder} (made if there is none)"))
    if args.dry_run:
        return 0
    with TurnlogStore.open(data_dir()) as store:
        taken = {a.name for a in store.assistants.list()}
        for one in shared:
            name, n = one.setup.name, 2
            while name in taken:
                name, n = f"{one.setup.name} ({n})", n + 1
            taken.add(name)
            store.assistants.add(replace(one.setup, name=name), one.files, make_folder=True)
    print(f"imported {len(shared)} assistant(s)")
    return 0

