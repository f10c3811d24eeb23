"""Log commands: project, import, export, list, show."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..config.paths import data_dir
from ..core.failures import FailureKind, StoreError, check_question
from ..store import NotFound, TurnlogStore
from .attached import add_attach
from .numbers import whole_number
from .terminal import print_json, print_refusal, runs_text, safe_for

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:  # `project` loads what connects and builds requests; list and show need none
    from typing import Any

    from ..core.memory import Memory
    from ..core.model import Conversation, Turn
    from ..core.send_request import SendRequest
    from ..core.side_records import SideQuestion
    from ..core.summaries import StoredSummary
    from ..core.tools import ToolSpec
    from ..core.versions import ForkOrigin, Versions
    from ..service.request_body import Ask, Built
    from ..service.route import Route
    from ..store.salvage import Readable

EXIT_DAMAGED = 5
"""export/show wrote what could be read, but some rows of the conversation could not."""


def _add_project(sub: Any) -> None:
    p = sub.add_parser("project", help="show what a send would carry, without sending or writing")
    p.add_argument("--conversation", type=whole_number, required=True, metavar="ID")
    p.add_argument("--question", required=True, metavar="TEXT")
    p.add_argument("--max-bytes", type=whole_number, metavar="N",
                   help="byte limit of the request body")
    p.add_argument("--window", type=whole_number, metavar="T", help="context window in tokens")
    p.add_argument("--output-reserve", type=whole_number, metavar="T",
                   help="tokens kept for the answer")
    p.add_argument("--profile", metavar="P",
                   help="provider profile whose model and options a send would use")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--side", action="store_true",
                   help="preview a side question instead (its own budget; nothing is saved)")
    p.add_argument("--tools", metavar="NAME[,NAME]",
                   help="offer the tools of these MCP servers, as ask --tools does (their "
                        "servers start to list them; nothing is called)")
    add_attach(p)
    p.set_defaults(run=run_project)


def _add_import(sub: Any) -> None:
    p = sub.add_parser("import", help="import Turnlog JSON lines, an Export all folder or "
                       "zip, or a ChatGPT, Claude or DeepSeek export (conversations.json or "
                       "its .zip); what was imported before is not added again")
    p.add_argument("file", type=Path, metavar="FILE")
    p.add_argument("--model", help="model for a Turnlog file's conversation (overrides its "
                   "header)")
    p.add_argument("--as-copies", action="store_true",
                   help="add a Turnlog file's conversations as new copies even where they "
                   "are stored already")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(run=run_import)


def _add_export(sub: Any) -> None:
    from ..formats import EXPORT_FORMATS  # the formats package: export's

    p = sub.add_parser("export", help="write a conversation as JSON lines to stdout, or "
                       "every conversation into a folder or zip (--all)")
    p.add_argument("conversation", type=whole_number, metavar="ID", nargs="?")
    p.add_argument("--all", type=Path, metavar="FOLDER|FILE.zip", dest="all_to",
                   help="write every conversation, as the window's Export all does, into "
                   "this new folder or zip (a JSON-lines and a Markdown file each, and the "
                   "attached files); `turnlog-cli import` reads it back")
    p.add_argument("--format", choices=EXPORT_FORMATS, default="jsonl",
                   help="jsonl (re-importable, the default) or markdown")
    add_raw(p)
    p.set_defaults(run=run_export)


def _add_list(sub: Any) -> None:
    p = sub.add_parser("list", help="list conversations, most recent first")
    p.add_argument("--folder", metavar="NAME", help="only the conversations in this folder")
    add_raw(p)
    p.set_defaults(run=run_list)


def _add_show(sub: Any) -> None:
    p = sub.add_parser("show", help="print a conversation's whole history")
    p.add_argument("conversation", type=whole_number, metavar="ID")
    add_raw(p)
    p.set_defaults(run=run_show)


# This module's commands in `--help`'s order, each with what adds its parser.
PARSERS = (("project", _add_project), ("import", _add_import), ("export", _add_export),
            ("list", _add_list), ("show", _add_show))


def add_raw(p: argparse.ArgumentParser) -> None:
    p.add_argument("--raw", action="store_true",
                   help="write conversation text as it is, control characters included "
                   "(on a terminal they are shown as escapes such as \\x1b)")


def default_route(wanted: str | None) -> Route:
    """The route `ask` would take: the named (or first) profile's model and options."""
    from ..config.model_counts import ModelCounts
    from ..config.model_facts import FactStore
    from ..config.profiles import ProfileStore, ProfilesUnreadable
    from ..service.route import ProviderConfig, Route, profile_route

    try:
        profiles = ProfileStore(data_dir()).list()
    except ProfilesUnreadable:
        profiles = []
    chosen = next((p for p in profiles if wanted in (None, p.id, p.name)), None)
    if chosen is None:
        return Route(model="")
    if chosen.builtin:  # `ask` starts its server, whose window the body then follows
        from ..localmodel import BUILTIN, DEFAULT_N_CTX
        from ..service.route import pending_local_route

        return pending_local_route(chosen.model or BUILTIN.alias, DEFAULT_N_CTX)
    # With the window the server stated, or an overflow taught, as a send would use it.
    return profile_route(ProviderConfig.of(chosen), chosen.model,
                         ModelCounts(FactStore.in_dir(data_dir())))


def window_json(conversation: Conversation, route: Route) -> dict[str, Any]:
    """When an overflow taught the window in effect, and the smaller window the server
    stated (or an overflow taught) beside a larger one set by you, as a send sees them."""
    from ..core.budget import WINDOW_LEARNED
    from ..service.route import window_for, window_warning

    source = window_for(conversation, route)[1]
    warned = window_warning(conversation, route)
    return {"window_learned_on": route.server_window_learned_on or None
            if source == WINDOW_LEARNED else None,
            "server_window": {"tokens": warned[0], "source": warned[1]} if warned else None}


def window_note(conversation: Conversation, route: Route) -> str:
    """" (learned from an overflow on 2026-12-02)", or the warning of a smaller server
    window, for the text output."""
    facts = window_json(conversation, route)
    note = f" (learned from an overflow on {facts['window_learned_on']})" \
        if facts["window_learned_on"] else ""
    if facts["server_window"]:
        stated = facts["server_window"]
        note += (f" (warning: the server's window is {stated['tokens']:,} tokens, "
                 f"{stated['source']}; larger requests may overflow)")
    return note


def _with_limits(conversation: Conversation, args: argparse.Namespace) -> Conversation:
    """The conversation with the limits given on the command line (a side question's
    output reserve with --side)."""
    overrides: dict[str, Any] = {}
    if args.max_bytes is not None:
        overrides["max_bytes"] = args.max_bytes
    if args.window is not None:
        overrides["context_window"] = args.window
    if args.output_reserve is not None:  # typed: kept as typed, 8,192 included
        overrides["side_output_reserve" if args.side else "output_reserve"] = \
            args.output_reserve
        if not args.side:
            overrides["reserve_set"] = True
    return replace(conversation, settings=replace(conversation.settings, **overrides))


def run_project(args: argparse.Namespace) -> int:
    from ..core.numbers import TurnNumbers
    from ..core.versions import active_line
    from ..service.request_body import build  # what connects and builds: `project` only

    problem = check_question(args.question)
    if problem is not None:
        print(f"failure: {problem.kind.value}\n{problem.message()}", file=sys.stderr)
        return 4
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        read = store.conversations.projectable(args.conversation)  # all it reads, at once
    found = read.found
    if found.skipped:
        _report_skipped(found)
        print("error: storage_damaged: a projection needs every turn; export what can "
              "be read instead", file=sys.stderr)
        return 1
    assert read.memory is not None and read.versions is not None
    conversation, cached = found.conversation, read.summary  # the summary a send would reuse
    memory, versions = read.memory, read.versions
    turns = active_line(found.turns, versions)  # superseded versions are never sent
    conversation = _with_limits(conversation, args)
    route = default_route(args.profile)
    if args.side:
        from .side_commands import project_side_question

        return project_side_question(args, conversation, route, memory,
                                     TurnNumbers.of(versions))
    specs: tuple[ToolSpec, ...] = ()
    if args.tools:  # the tool servers' settings: read only when tools are offered
        from ..config.tool_servers import ToolConfigInvalid

        try:
            specs = _tool_specs(args.tools)
        except ToolConfigInvalid as err:
            print(f"failure: tools\n{err}", file=sys.stderr)
            return 2
    ask = _project_ask(args, conversation, route, memory, turns, cached, specs)
    if isinstance(ask, int):
        return ask
    # What a send would carry: with the cached summary where a send would reuse it.
    built = build(ask)
    if built.planned is None:
        assert built.refusal is not None
        return print_refusal(built.refusal, args.json)
    request, planned = built.request, built.planned
    budget = request.budget
    projection = planned.projection
    # While a summary is to be made, the turns it will cover are not "left out".
    summarized = planned.summarized
    folded = set(summarized)
    left_out = [o for o in projection.left_out if o not in folded]
    if args.json:
        print_json(_projection_json(built, found, versions, conversation, route, memory))
        return 0
    kind = "exact" if projection.tokens_exact else "estimated"
    print(f"conversation {conversation.id}: {safe_for(sys.stdout)(conversation.title)}")
    print(f"body: {projection.body_bytes:,} of {budget.max_bytes:,} bytes")
    print(f"input: {projection.input_tokens:,} of {budget.input_tokens:,} tokens ({kind}); "
          f"window {budget.window_label}{window_note(conversation, route)}; "
          f"output reserve {budget.output_reserve:,}")
    numbers = TurnNumbers.of(versions)  # turns named as `show` heads them
    print(f"sent verbatim: {runs_text(projection.sent, numbers)}")
    print(f"summarized:    {runs_text(summarized, numbers)} ({planned.state})")
    print(f"not sent:      {runs_text(left_out, numbers)}")
    print("final:         " + ("yes, this is the body a send carries" if built.final else
                               f"no, {built.not_final}"))
    return 0


def _projection_json(built: Built, found: Readable, versions: Versions,
                     conversation: Conversation, route: Route, memory: Memory
                     ) -> dict[str, Any]:
    """`project --json`: what a send would carry, as one object."""
    from .memory_commands import memory_json

    request, planned = built.request, built.planned
    assert planned is not None
    budget = request.budget
    projection = planned.projection
    summarized = planned.summarized
    folded = set(summarized)
    left_out = [o for o in projection.left_out if o not in folded]
    return {
        "sent": list(projection.sent),
        "summarized": list(summarized),
        "left_out": left_out,
        "superseded": sorted(t.ordinal for t in found.turns
                             if versions.is_superseded(t.id)),
        "summary": planned.summary_json(),
        "final": built.final,
        "not_final": built.not_final,
        "body": projection.body.decode("utf-8"),
        "body_bytes": projection.body_bytes,
        "max_bytes": budget.max_bytes,
        "input_tokens": projection.input_tokens,
        "token_budget": budget.input_tokens,
        "tokens_exact": projection.tokens_exact,
        "context_window": budget.context_window,
        "window_source": budget.window_source,
        **window_json(conversation, route),
        "output_reserve": budget.output_reserve,
        "memory": memory_json(projection.memory),
    }


def _project_ask(args: argparse.Namespace, conversation: Conversation, route: Route,
                 memory: Memory, turns: Sequence[Turn], cached: StoredSummary | None,
                 specs: tuple[ToolSpec, ...]) -> Ask | int:
    """What `project` previews, or the exit status of why nothing can be (a budget setting
    out of range, a file that cannot be attached, images for a model without)."""
    from ..core.attachments import AttachmentRefused
    from ..core.budget import InvalidBudget
    from ..service.request_body import Ask, send_request
    from .attached import read_attached

    try:
        ask = Ask(conversation, args.question, route, turns, memory=memory, summary=cached,
                  attachments=tuple(read_attached(args.attach)), tool_specs=specs)
        request = send_request(ask)
    except (InvalidBudget, AttachmentRefused) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 4 if refused_images(request) else ask


def _tool_specs(names: str) -> tuple[ToolSpec, ...]:
    """The definitions of the tools `--tools A,B` offers: their servers started for the
    projection and stopped after (a server that cannot start offers none, as in a send)."""
    from ..config.secrets import KeyringUnavailable, open_key_store
    from ..service.tool_use import SendTools
    from ..toolhost.host import ToolHost
    from .tools_commands import chosen_servers

    servers = chosen_servers(names)
    host = ToolHost()
    try:
        keys = None
        with contextlib.suppress(KeyringUnavailable):  # a server needing one says so
            keys = open_key_store()
        tools = SendTools(host, servers, keys, lambda call, server, timeout_s, cancel: None)
        for problem in tools.problems:
            print(safe_for(sys.stderr)(f"note: tool server {problem.server.name} "
                                       f"{problem.status.describe()}"), file=sys.stderr)
        return tuple(tools.specs())
    finally:
        host.close()


def refused_images(request: SendRequest) -> bool:
    """Say so when the question has images and the model takes none (a send refuses it
    before anything goes out)."""
    from ..core.attachments import has_images

    if not has_images(request.attachments) or request.options.images:
        return False
    print(f"failure: {FailureKind.NO_IMAGES.value}\nThe profile's model is set not to accept "
          "images: remove them, or turn on “Accepts images” for the profile.", file=sys.stderr)
    return True


def run_import(args: argparse.Namespace) -> int:
    """Check the whole file first (a bad one opens nothing for writing), then write it in
    one transaction. Standard output gets each conversation's id, one a line (or with
    `--json` the whole report); standard error the report in words."""
    from ..core.imports import ImportProblem
    from ..service.transfer import check_file, import_checked  # the importers

    try:
        checked = check_file(args.file, model=args.model)
    except (OSError, ImportProblem) as err:
        print(f"error: cannot import {args.file}: {err}", file=sys.stderr)
        return 1
    with TurnlogStore.open(data_dir()) as store:
        try:
            outcomes = import_checked(store, checked, as_copies=args.as_copies)
        except ImportProblem as err:  # the file changed between the two readings
            print(f"error: cannot import {args.file}: {err}; nothing was imported",
                  file=sys.stderr)
            return 1
    if args.json:
        print_json({"source": outcomes.source, "totals": outcomes.totals(),
                    "skipped": [{"reason": r, "count": n} for r, n in outcomes.skipped],
                    "projects": [p.to_json() for p in outcomes.projects],
                    "conversations": [o.to_json() for o in outcomes]})
        return 0
    safe = safe_for(sys.stderr, raw=False)
    for outcome in outcomes:
        if outcome.id is not None:
            print(outcome.id)
        print(safe(outcome.describe()), file=sys.stderr)
    print(safe(outcomes.summary()), file=sys.stderr)
    return 0


def _read_conversation(conversation_id: int) -> Readable:
    """What can be read of a conversation; rows that cannot are counted, not fatal."""
    with TurnlogStore.open(data_dir(), readonly=True) as store:
        return store.conversations.readable_turns(conversation_id)


def _versions(found: Readable) -> Versions:
    """The conversation's versions; none when its records cannot be read (a damaged file:
    every turn that can be read is shown, unmarked)."""
    from ..core.versions import Versions

    return Versions((), {}) if found.versions is None else found.versions


def _report_skipped(found: Readable) -> int:
    """Tell about rows that could not be read (stderr, one line each); the exit status."""
    if not found.skipped:
        return 0
    print(f"warning: {len(found.skipped)} of {len(found.turns) + len(found.skipped)} turns "
          "could not be read and were skipped (the database is damaged):", file=sys.stderr)
    for row in found.skipped:
        print(f"  {row.describe()}", file=sys.stderr)
    return EXIT_DAMAGED


def _side_questions(conversation_id: int) -> list[SideQuestion]:
    """The conversation's side questions for an export; none when they cannot be read
    (a damaged database still exports its turns)."""
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            return store.side.of(conversation_id)
    except StoreError:
        return []


def run_export(args: argparse.Namespace) -> int:
    from ..formats.export import attachment_entries, export_text, inline
    from .memory_commands import memory_of

    if (args.all_to is None) == (args.conversation is None):
        print("error: give a conversation ID, or --all FOLDER|FILE.zip (not both)",
              file=sys.stderr)
        return 2
    if args.all_to is not None:
        return _export_all(args.all_to)
    found = _read_conversation(args.conversation)
    safe = safe_for(sys.stdout, raw=args.raw)
    versions = _versions(found)
    memory, sides = memory_of(found.conversation.id), _side_questions(args.conversation)
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:  # the files' originals
            text = export_text(found.conversation, found.turns, args.format, versions,
                               memory, sides, attachment_entries(store.attachments.original,
                                                                 inline))
    except StoreError as err:  # a damaged file: the text that can be read, without files
        print(f"warning: the attached files could not be read: {err}", file=sys.stderr)
        text = export_text(found.conversation, found.turns, args.format, versions, memory,
                           sides)
    sys.stdout.write(safe(text))
    sys.stdout.flush()
    return _report_skipped(found)


def _export_all(target: Path) -> int:
    """Every conversation into `target`, as the window's Export all: nothing is left at
    `target` by an error or an interrupt."""
    from ..service.transfer import export_all  # the exporters

    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            done = export_all(store, target)
    except FileExistsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"error: cannot write {target}: {err.strerror or err}", file=sys.stderr)
        return 1
    safe = safe_for(sys.stderr, raw=False)
    print(safe(f"exported {done.conversations:,} conversations ({done.turns:,} turns) to "
               f"{done.path}"), file=sys.stderr)
    return 0


def run_list(args: argparse.Namespace) -> int:
    home = data_dir()
    try:
        with TurnlogStore.open(home, readonly=True) as store:
            rows = store.conversations.readable()
            if args.folder is not None:
                inside = set(store.folders.conversation_ids(store.folders.named(args.folder).id))
                rows = [(c, n) for c, n in rows if c.id in inside]
    except NotFound:
        if args.folder is not None:
            raise
        rows = []  # no database yet, or an empty file
    if not rows:
        print("no conversations yet" if args.folder is None else "no conversations in it")
    safe = safe_for(sys.stdout, raw=args.raw)
    for conversation, count in rows:
        stamp = conversation.updated_at.astimezone().strftime("%Y-%m-%d %H:%M") \
            if conversation.updated_at else ""
        # A new conversation is titled after its first question once that is answered.
        title = safe(conversation.title) if conversation.title else "(no title yet)"
        turns = "turn " if count == 1 else "turns"
        print(f"{conversation.id:>5}  {stamp}  {count:>6,} {turns}  {title}")
    return 0


def _origin(conversation_id: int) -> ForkOrigin | None:
    try:
        with TurnlogStore.open(data_dir(), readonly=True) as store:
            return store.forks.origin(conversation_id)
    except StoreError:
        return None


SHOWN_RESULT_CHARS = 2_000


def tool_lines(turn: Turn) -> list[str]:
    """A turn's tool exchange as `show` prints it, between question and answer: each call
    (tool, arguments, who let it run, how long it took) and its result as sent."""
    if not turn.tools:
        return []
    from ..core.tools import Approval  # loaded with the first turn that has a tool exchange

    lines = []
    for number, tool_round in enumerate(turn.tools, 1):
        if tool_round.content:
            lines.append(f"(round {number}) {tool_round.content}")
        for call, result in tool_round.pairs():
            how = result.approval.value if result.ran or result.approval is Approval.DENY \
                else "not run"
            on = f", on {result.server}" if result.server else ""
            lines.append(f"tool call {call.name} ({how}, {result.duration_s:.2f} s{on})"
                         f"{' — error' if result.is_error else ''}")
            lines.extend(f"    {line}" for line in call.pretty_arguments().splitlines())
            text = result.content
            if len(text) > SHOWN_RESULT_CHARS:
                text = text[:SHOWN_RESULT_CHARS] + f"… ({len(result.content):,} characters)"
            lines.append("  result:")
            lines.extend(f"    {line}" for line in text.splitlines() or [""])
        lines.append("")
    return lines


def _attached_lines(turn: Turn) -> str:
    """The turn's files, a line each (their module loads with the first turn that has one)."""
    if not turn.attachments:
        return ""
    from ..core.attachments import describe

    return "".join(f"\n> attached: {describe(a)}" for a in turn.attachments)


def run_show(args: argparse.Namespace) -> int:
    from ..core.numbers import TurnNumbers

    found = _read_conversation(args.conversation)
    conversation = found.conversation
    safe = safe_for(sys.stdout, raw=args.raw)
    print(safe(f"# {conversation.title}  (conversation {conversation.id}, model "
               f"{conversation.model or 'not set'})"))
    if conversation.source:  # where it was held before, as the window's header says
        from ..core.import_sources import source_name  # an imported one's

        held = f" · {conversation.source_model}" if conversation.source_model else ""
        print(safe(f"\n(imported from {source_name(conversation.source)}{held})"))
    if conversation.system_prompt:
        print(safe(f"\nsystem: {conversation.system_prompt}"))
    versions = _versions(found)
    origin = _origin(conversation.id) if found.forked else None
    if origin is not None:
        print(safe(f"\n({origin.describe()})"))
    numbers = TurnNumbers.of(versions)
    for turn in found.turns:
        mark = ""
        group = versions.group(turn.id)
        if len(group) > 1:
            mark = f"  (version {group.index(turn.id) + 1} of {len(group)}"
            if versions.is_superseded(turn.id):
                in_use = group.index(versions.active_of(turn.id)) + 1
                mark += f", *replaced*: version {in_use} is in use"
            mark += ")"
        if turn.incomplete:  # kept by the person although the answer stopped early
            from ..core.partial import incomplete_mark  # with the body's roles: kept ones'

            mark += f"  (*{incomplete_mark(turn.incomplete)}*)"
        files = _attached_lines(turn)
        print(safe(f"\n## turn {numbers.number(turn.ordinal)}  [{turn.id}]{mark}\n\n"
                   f"> {turn.question}{files}\n"))
        for line in tool_lines(turn):
            print(safe(line))
        print(safe(turn.answer))
    sys.stdout.flush()
    return _report_skipped(found)
