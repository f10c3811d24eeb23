"""ask and profile: chat from the terminal through the same path as the window."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..config.model_counts import ModelCounts
from ..config.model_facts import FactStore
from ..config.paths import data_dir, log_dir
from ..config.profiles import (
    NetworkSettings,
    Profile,
    ProfileStore,
    ProfilesUnreadable,
    builtin_profile,
    new_profile,
)
from ..config.secrets import KeyringUnavailable, check_key, open_key_store
from ..config.tool_servers import ToolConfigInvalid, ToolServerStore, ToolSettingsUnreadable
from ..core.assistant_vars import VariableRefused, check_value
from ..core.attachments import AttachmentRefused
from ..core.budget import WINDOW_LEARNED
from ..core.failures import FailureKind, ProviderFailure
from ..core.memory import Memory, conversation_memory
from ..core.model import Conversation, Turn
from ..core.numbers import TurnNumbers
from ..core.partial import incomplete_mark
from ..core.projection import CostIndex
from ..core.provider import CancelToken
from ..core.send import Committed, Failed, LogStore, Outcome, Stage, keep_partial
from ..localmodel import available, describe
from ..providers import PRESETS, preset_by_id
from ..providers.security import CaFileUnusable, insecure_key_detail, key_in_clear, tls_context
from ..service.assistant_start import Started, start_from, system_language
from ..service.chat import (
    Connection,
    LocalModels,
    NewConversation,
    NotConnected,
    ProviderConfig,
    connect_profile,
    sender_for,
)
from ..service.new_version import (
    CONTINUE,
    EDIT,
    REGENERATE,
    NothingToVersion,
    new_version,
)
from ..service.request_body import Ask, new_sample_seed, send_request
from ..service.tool_use import SendTools
from ..store import NotFound, TurnlogStore
from ..toolhost.host import ToolHost
from .attached import add_attach, read_attached
from .numbers import whole_number
from .profile_edit import (
    add_price_options,
    find_profile,
    prices_from,
    read_key,
    run_profile_edit,
)
from .terminal import safe_for
from .tools_commands import chosen_servers, open_terminal, terminal_approval

EXIT_REFUSED = 3
EXIT_FAILED = 4


def _add_ask(sub: Any) -> None:
    p = sub.add_parser("ask", help="ask a question, stream the answer, save the turn")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--conversation", type=whole_number, metavar="ID")
    where.add_argument("--new", action="store_true", help="start a new conversation")
    p.add_argument("--title", metavar="T", help="title of the new conversation")
    p.add_argument("--assistant", metavar="NAME",
                   help="with --new: start from this assistant's setup (see assistant list)")
    p.add_argument("--var", action="append", default=[], metavar="NAME=VALUE",
                   help="with --assistant: a value for {{NAME}} in its system prompt "
                   "(repeatable)")
    p.add_argument("--profile", metavar="P", help="provider profile name or id")
    p.add_argument("text", metavar="TEXT", nargs="?",
                   help="the question, or - to read it from standard input")
    again = p.add_mutually_exclusive_group()
    again.add_argument("--regenerate", action="store_true",
                       help="ask the last question again; the new answer supersedes the last "
                       "turn (no TEXT)")
    again.add_argument("--edit-last", action="store_true",
                       help="send TEXT as a new version of the last turn, superseding it")
    again.add_argument("--continue-last", action="store_true",
                       help="ask for the rest of the last turn, kept incomplete; the whole "
                       "answer supersedes it (no TEXT)")
    add_attach(p, "; a new version reuses the last turn's files unless given others")
    p.add_argument("--keep-incomplete", action="store_true",
                   help="if the answer stops early (Ctrl+C, a cut stream, the output limit, "
                   "no finish reason), keep what came as a turn marked incomplete")
    p.add_argument("--raw", action="store_true",
                   help="write the answer as it is, control characters included")
    p.add_argument("--no-retry", action="store_true",
                   help="do not try again by itself after 429, 502-504 or a refused connection")
    p.add_argument("--tools", metavar="NAME[,NAME]",
                   help="offer the tools of these MCP servers (see tools list); each call is "
                        "asked about on the terminal before it runs")
    p.add_argument("--approve-all", action="store_true",
                   help="with --tools: run every tool call the model asks for, without asking")
    p.set_defaults(run=run_ask)


def _add_profile(sub: Any) -> None:
    p = sub.add_parser("profile", help="manage provider profiles (keys go to the OS keyring)")
    psub = p.add_subparsers(dest="profile_command", required=True, metavar="ACTION")
    add = psub.add_parser("add", help="add a provider profile")
    add.add_argument("name")
    profile_options(add, editing=False)
    add.set_defaults(run=run_profile_add)
    edit = psub.add_parser("edit", help="change a provider profile (any option of add but "
                           "its name; the others stay as they are)")
    edit.add_argument("name", help="the profile's name or id")
    profile_options(edit, editing=True)
    edit.set_defaults(run=run_profile_edit)
    lst = psub.add_parser("list", help="list provider profiles")
    lst.set_defaults(run=run_profile_list)
    rm = psub.add_parser("remove", help="remove a profile and its key")
    rm.add_argument("name")
    rm.set_defaults(run=run_profile_remove)
    forget = psub.add_parser("forget-window", help="forget the context window an overflow "
                             "taught for a profile's model (the server is asked again)")
    forget.add_argument("name")
    forget.add_argument("--model", metavar="M",
                        help="the model it was learned for (default: the profile's)")
    forget.set_defaults(run=run_profile_forget_window)


# This module's commands in `--help`'s order, each with what adds its parser.
PARSERS = (("ask", _add_ask), ("profile", _add_profile))


def profile_options(p: argparse.ArgumentParser, *, editing: bool) -> None:
    """The options of `profile add`, and of `profile edit` (where none is required and
    each one given replaces the profile's setting)."""
    p.add_argument("--preset", required=not editing, choices=[x.id for x in PRESETS])
    p.add_argument("--base-url", metavar="URL")
    p.add_argument("--model", default=None if editing else "", metavar="M")
    p.add_argument("--context-window", type=whole_number, metavar="T")
    p.add_argument("--model-file", metavar="GGUF",
                   help="for --preset builtin: a GGUF model file instead of the built-in one")
    p.add_argument("--key-stdin", action="store_true",
                   help="read the API key from standard input instead of asking")
    p.add_argument("--first-token-timeout", type=float, metavar="S",
                   help="seconds the first token of an answer may take (default 90; 600 "
                        "for local servers and the built-in model)")
    p.add_argument("--no-retry", action="store_true",
                   help="never try an answer again by itself (429, 502-504, refused)")
    p.add_argument("--allow-insecure-key", action="store_true",
                   help="let the key go over plain http:// to another machine, unencrypted")
    p.add_argument("--accepts-images", choices=("yes", "no"),
                   help="whether the model takes images in a question (default: the "
                        "preset's; DeepSeek, llama.cpp and the built-in model take none)")
    p.add_argument("--ca-file", metavar="PEM",
                   help="trust the CA certificate(s) in this PEM file for this server")
    add_price_options(p, editing=editing)


def fail(kind: str, message: str, draft: str | None = None, code: int = EXIT_FAILED) -> int:
    safe = safe_for(sys.stderr)  # a server's words, a profile's name: shown, not obeyed
    print(f"failure: {kind}", file=sys.stderr)
    print(safe(message), file=sys.stderr)
    if draft is not None:
        print("Your question was not saved; here it is:", file=sys.stderr)
        print(safe(draft), file=sys.stderr)
    return code


def run_ask(args: argparse.Namespace) -> int:
    if (args.regenerate or args.edit_last or args.continue_last) \
            and args.conversation is None:
        print("error: --regenerate, --edit-last and --continue-last need --conversation ID",
              file=sys.stderr)
        return 2
    asks_again = args.regenerate or args.continue_last
    if (args.text is None) != bool(asks_again):
        print("error: " + ("--regenerate and --continue-last take no TEXT" if asks_again
                           else "give the question as TEXT (or - for standard input)"),
              file=sys.stderr)
        return 2
    draft = sys.stdin.read().removesuffix("\n") if args.text == "-" else (args.text or "")
    args.draft = draft  # given back by any failure, also one caught above this function
    refused = assistant_args(args)
    if refused:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    if asks_again and args.attach:
        print("error: --regenerate and --continue-last reuse the last turn's files; "
              "--attach is for a new question", file=sys.stderr)
        return 2
    try:  # read before connecting: a refused file costs no request
        args.files = read_attached(args.attach)
    except AttachmentRefused as err:
        return fail("attachment_refused", str(err), draft, EXIT_REFUSED)
    args.tool_servers, args.terminal = [], None
    if args.approve_all and not args.tools:
        print("error: --approve-all goes with --tools", file=sys.stderr)
        return 2
    if args.tools:
        try:
            args.tool_servers = chosen_servers(args.tools)
        except ToolConfigInvalid as err:  # tools_unreadable names a file it cannot read
            name = err.code if isinstance(err, ToolSettingsUnreadable) else "tools"
            return fail(name, str(err), draft, 2)
        if not args.approve_all:
            args.terminal = open_terminal()
            if args.terminal is None:
                return fail("tools", "--tools asks before each tool call runs, and there is no "
                            "terminal to ask on; add --approve-all to run every call the "
                            "model asks for without asking", draft, 2)
    try:
        return checked_assistant(args, draft) or with_connection(args, draft, ask_through)
    finally:
        if args.terminal is not None:
            args.terminal.close()


def with_connection(args: argparse.Namespace, draft: str,
                    then: Callable[[argparse.Namespace, Profile, str, Connection], int]) -> int:
    """Connect through the chosen profile (`--profile`, else the first), then run `then`;
    a failure to connect gives the draft back."""
    try:
        profiles = ProfileStore(data_dir()).list()
    except ProfilesUnreadable as err:
        return fail(err.code, str(err), draft, EXIT_FAILED)
    profile = find_profile(profiles, args.profile)
    if profile is None:
        what = f"There is no profile “{args.profile}”." if args.profile else "No provider set up."
        return fail(FailureKind.NO_KEY.value,
                    f"{what} Add one: turnlog-cli profile add NAME --preset PRESET --model M",
                    draft)
    # The built-in model's server runs for this one question.
    models = LocalModels(log_dir=log_dir()) if profile.builtin else None
    try:
        with interruptible() as cancel:
            try:
                connection = connect_profile(
                    ProviderConfig.of(profile), open_key_store, local=models, cancel=cancel,
                    counts=ModelCounts(FactStore.in_dir(data_dir())),
                    add_key=f"add it with turnlog-cli profile add {profile.name} "
                            f"--preset {profile.preset} --key-stdin",
                    on_stage=StagePrinter(),
                )
            except NotConnected as err:
                return fail(err.kind.value, err.message, draft)
            except ProviderFailure as err:
                return fail(err.failure.kind.value, err.failure.message(), draft)
        if cancel.cancelled:  # Ctrl+C while connecting: nothing is sent
            return fail(FailureKind.CANCELLED.value, "Stopped before the question was sent.",
                        draft)
        if getattr(args, "no_retry", False):
            connection = replace(connection, retry=None)
        return then(args, profile, draft, connection)
    finally:
        if models is not None:
            models.stop()


class AnswerStream:
    """Answer text to stdout as it arrives, made safe for a terminal unless `raw`."""

    def __init__(self, raw: bool) -> None:
        self.safe = safe_for(sys.stdout, raw=raw)
        self.streamed = False

    def __call__(self, text: str) -> None:
        self.streamed = True
        sys.stdout.write(self.safe(text))
        sys.stdout.flush()

    def end(self) -> None:
        if self.streamed:
            sys.stdout.write("\n")


@contextlib.contextmanager
def interruptible() -> Iterator[CancelToken]:
    """A cancel token that Ctrl+C sets while the block runs."""
    cancel = CancelToken()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: cancel.cancel())
    try:
        yield cancel
    finally:
        signal.signal(signal.SIGINT, previous)


class StagePrinter:
    """The slow stages on stderr, each line once (a local model's start repeats its
    progress)."""

    def __init__(self) -> None:
        self._last = ""

    def __call__(self, stage: Stage, detail: str) -> None:
        if stage not in (Stage.COMPACTING, Stage.STARTING_LOCAL_MODEL, Stage.RETRYING) and \
                detail != "running tools":
            return
        line = f"[{stage.value}{' ' + detail if detail else ''}]"
        if line != self._last:
            self._last = line
            print(line, file=sys.stderr)


def ask_through(args: argparse.Namespace, profile: Profile, draft: str,
                connection: Connection) -> int:
    """Ask `draft` in the chosen conversation through `connection`; print and save. A
    storage fault is named by `cli.main` (`failure: storage_full`, the draft given back)."""
    route = connection.route
    with TurnlogStore.open(data_dir()) as store:
        store.database.check_sound()  # a damaged or read-only log fails before anything is sent
        store.conversations.sweep_unanswered()  # what a window's first send left unanswered
        new: NewConversation | None = None
        if args.assistant:  # made now with its setup; a failed first question removes it
            started = start_from_assistant(store, args, profile)
            conversation, args.files = started.conversation, [*started.files, *args.files]
        elif args.new:  # created only with its first answer: a failure leaves nothing behind
            # No --title: titled after the first question, as the window does.
            # No model of its own: later asks through another profile send that one's.
            new = NewConversation(store, args.title or None)
            conversation = new.draft
        else:
            conversation = store.conversations.get(args.conversation)
        replaces, replaces_ordinal, partial = None, 0, None
        act = REGENERATE if args.regenerate else EDIT if args.edit_last else \
            CONTINUE if args.continue_last else None
        if act is not None:
            try:
                version = new_version(store, conversation.id, act, draft, args.files)
            except NothingToVersion as err:
                return fail(FailureKind.BLANK_QUESTION.value, str(err), draft or None)
            replaces, replaces_ordinal = version.turn.id, version.turn.ordinal
            partial, args.files = version.partial, list(version.attachments)
            draft = args.draft = version.question
        ask = Ask(conversation, draft, route, replaces=replaces, partial=partial,
                  memory=_new_memory(store, conversation) if new
                  else store.memory(conversation.id), attachments=tuple(args.files),
                  seed=new_sample_seed(route) if act == REGENERATE else None)
        request = send_request(ask)
        if not request.model:
            return fail(FailureKind.MODEL_NOT_FOUND.value,
                        f"No model set: give profile “{profile.name}” a --model.", draft)
        out = AnswerStream(args.raw)
        if partial is not None:  # the answer so far, then the rest as it streams
            out(partial.text)
        costs = connection.costs or CostIndex()
        sender = new.sender(connection.provider, costs, connection.retry) if new else \
            sender_for(store, connection.provider, costs, connection.retry)
        with interruptible() as cancel, _tools_for(args, conversation) as tools:
            if tools is not None:  # the same request, offering the tools
                request = send_request(replace(ask, turn_id=request.turn_id, tools=tools))
            outcome = sender.send(request, cancel=cancel, on_delta=out, on_stage=StagePrinter())
            _remember_always(store, new.created if new else conversation, tools)
        kept = _keep_if_asked(args, new or store, outcome)
        if args.assistant and kept is None and not isinstance(outcome, Committed):
            store.conversations.discard_if_empty(conversation.id)  # nothing left behind
        number = 1  # a new conversation's first turn
        stored = outcome.turn if isinstance(outcome, Committed) else kept
        if new is not None and new.created is not None:
            print(f"conversation {new.created.id}", file=sys.stderr)
        elif stored is not None:  # a new version keeps its turn's number
            number = TurnNumbers.of(store.turns.versions(conversation.id)).number(
                stored.ordinal)
    out.end()
    if isinstance(outcome, Committed):
        if not out.streamed:
            print(out.safe(outcome.turn.answer))
        replaced = f", a new version of turn {number}" if replaces_ordinal else ""
        print(f"saved as turn {number} ({outcome.turn.id}){replaced}",
              file=sys.stderr)
        return 0
    failure = outcome.failure
    code = EXIT_REFUSED if failure.kind is FailureKind.REFUSED else EXIT_FAILED
    if kept is not None:
        fail(failure.name, failure.message())
        print(f"kept as turn {number} ({kept.id}), marked "
              f"{incomplete_mark(kept.incomplete or '')}; ask --continue-last for the rest",
              file=sys.stderr)
        return code
    if out.streamed:
        print("(the text above was not saved"
              + ("; --keep-incomplete keeps such an answer)" if outcome.answer else ")"),
              file=sys.stderr)
    return fail(failure.name, failure.message(), outcome.draft, code)


@contextlib.contextmanager
def _tools_for(args: argparse.Namespace, conversation: Conversation) -> Iterator[SendTools | None]:
    """The tools of `ask --tools`: its servers started for this question, stopped after."""
    if not args.tool_servers:
        yield None
        return
    host = ToolHost()
    try:
        keys = None
        with contextlib.suppress(KeyringUnavailable):  # a server needing one says so
            keys = open_key_store()
        ask = terminal_approval(args.terminal) if args.terminal is not None else \
            (lambda call, server, timeout_s, cancel: None)
        tools = SendTools(host, args.tool_servers, keys, ask,
                          always=set(conversation.settings.always_allowed),
                          approve_all=args.approve_all)
        for problem in tools.problems:
            print(safe_for(sys.stderr)(f"note: tool server {problem.server.name} "
                                       f"{problem.status.describe()}"), file=sys.stderr)
            for line in problem.status.stderr_tail:
                print(safe_for(sys.stderr)(f"    stderr: {line}"), file=sys.stderr)
        yield tools
    finally:
        host.close()


def _remember_always(store: TurnlogStore, conversation: Conversation | None,
                     tools: SendTools | None) -> None:
    """Tools the person always allowed during the send, kept with the conversation."""
    if tools is None or conversation is None:
        return
    always = tuple(sorted(tools.always))
    settings = store.conversations.get(conversation.id).settings
    if always != tuple(sorted(settings.always_allowed)):
        store.conversations.update(conversation.id,
                                   settings=replace(settings, always_allowed=always))


def _keep_if_asked(args: argparse.Namespace, log: LogStore, outcome: Outcome) -> Turn | None:
    """With --keep-incomplete, an answer that stopped early kept as an incomplete turn (in
    `log`: a new conversation is created with it). A storage fault is named by `cli.main`."""
    if not args.keep_incomplete or not isinstance(outcome, Failed) or outcome.answer is None:
        return None
    return keep_partial(log, outcome.answer)


def assistant_args(args: argparse.Namespace) -> str | None:
    """What is wrong with --assistant and --var (None: nothing); the values, parsed,
    in `args.values`."""
    args.values = {}
    if args.assistant and not args.new:
        return "--assistant starts a conversation: it goes with --new"
    if args.var and not args.assistant:
        return "--var fills an assistant's system prompt: it goes with --assistant"
    for given in args.var:
        name, sep, value = given.partition("=")
        if not sep or not name.strip():
            return f"--var takes NAME=VALUE, not “{given}”"
        args.values[name.strip()] = value
    return None


def checked_assistant(args: argparse.Namespace, draft: str) -> int:
    """Before connecting: the assistant exists and the values fit (0), else the failure's
    exit code. With no `--profile`, the assistant's own, if it names one."""
    if not args.assistant:
        return 0
    try:
        for name, value in args.values.items():
            check_value(name, value)
        with TurnlogStore.open(data_dir()) as store:
            found = store.assistants.find(args.assistant)
    except NotFound as err:
        return fail("not_found", str(err), draft, 2)
    except VariableRefused as err:
        return fail("invalid_variable", str(err), draft, 2)
    args.profile = args.profile or found.setup.profile or None
    return 0


def start_from_assistant(store: TurnlogStore, args: argparse.Namespace,
                         profile: Profile) -> Started:
    """The conversation `ask --new --assistant` asks in, with the setup's copy."""
    assistant = store.assistants.find(args.assistant)
    started = start_from(store, assistant, profile_model=profile.model,
                         language=system_language(), values=args.values,
                         servers=ToolServerStore(data_dir()).list())
    if args.title:  # the person's own title, as --new --title gives one
        started = replace(started, conversation=store.conversations.update(
            started.conversation.id, title=args.title))
    for warning in started.warnings:
        print(safe_for(sys.stderr)(f"note: {warning}"), file=sys.stderr)
    if started.conversation.settings.tool_servers and not args.tool_servers:
        print("note: its tool servers are switched on in the conversation; add --tools to "
              "offer them here", file=sys.stderr)
    return started


def _new_memory(store: TurnlogStore, conversation: Conversation) -> Memory:
    """A conversation not yet stored has no pins or notes; the preferences still apply."""
    settings = conversation.settings
    return conversation_memory((), (), store.memory.preferences() if settings.preferences else [],
                               share_percent=settings.memory_share)


def run_profile_add(args: argparse.Namespace) -> int:
    preset = preset_by_id(args.preset)
    if args.model_file and not preset.builtin:
        print("error: --model-file is only for --preset builtin", file=sys.stderr)
        return 2
    if preset.builtin:
        profile = builtin_local_profile(args)
        if profile is None:
            return 2
    elif not preset.base_url and not args.base_url:
        print("error: the Custom preset needs --base-url", file=sys.stderr)
        return 2
    else:
        try:
            profile = new_profile(preset, model=args.model, name=args.name,
                                  base_url=args.base_url, context_window=args.context_window)
        except ValueError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    try:
        profile = profile.with_network(network_settings(args))
        if args.accepts_images is not None:
            profile = replace(profile, accepts_images=args.accepts_images == "yes")
        profile = replace(profile, prices=prices_from(args, None))
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    store = ProfileStore(data_dir())
    existing = find_profile(store.list(), args.name)
    if existing is not None:
        profile = replace(profile, id=existing.id)  # same name: update it, keep its key
    key = read_key(args)
    if key and key_in_clear(profile.base_url) and not args.allow_insecure_key:
        print(f"error: the key was not stored: {insecure_key_detail(profile.base_url)}. "
              f"Use an https:// address, or add --allow-insecure-key if the network in "
              f"between is your own.", file=sys.stderr)
        return 2
    if key:
        try:
            key = check_key(key)
            open_key_store().set(profile.id, key)
        except (KeyringUnavailable, ValueError) as err:
            print(f"error: the key was not stored: {err}", file=sys.stderr)
            return 1
    elif preset.needs_key:
        print(f"note: {preset.name} needs an API key; add it with --key-stdin", file=sys.stderr)
    store.put(profile)
    print(safe_for(sys.stdout)(
        f"{'updated' if existing else 'added'} profile {profile.name} ({profile.id})"))
    return 0


def network_settings(args: argparse.Namespace) -> NetworkSettings:
    """The profile's network settings from `profile add`'s options (ValueError: why not)."""
    timeout = args.first_token_timeout
    if timeout is not None and not 0 < timeout <= 86400:
        raise ValueError("--first-token-timeout must be between 0 and 86400 seconds")
    ca_file = str(Path(args.ca_file).expanduser().resolve()) if args.ca_file else None
    if ca_file:
        try:
            tls_context(ca_file)
        except CaFileUnusable as err:
            raise ValueError(str(err)) from err
    return NetworkSettings(timeout, not args.no_retry, args.allow_insecure_key, ca_file)


def builtin_local_profile(args: argparse.Namespace) -> Profile | None:
    """A built-in model profile for `profile add --preset builtin` (None: said why)."""
    model_path = Path(args.model_file).expanduser().resolve() if args.model_file else None
    check = available(model_path)
    if not check.ok or check.model_path is None:
        print(f"error: {check.reason}", file=sys.stderr)
        return None
    info = describe(check.model_path)
    return builtin_profile(str(model_path) if model_path else None, name=args.name,
                           model=info.alias)


def run_profile_list(args: argparse.Namespace) -> int:
    profiles = ProfileStore(data_dir()).list()
    if not profiles:
        print("no profiles yet")
    safe = safe_for(sys.stdout)
    for profile in profiles:
        where = profile.base_url or (profile.model_path or "started by Turnlog")
        print(safe(f"{profile.name}\t{profile.server.name}\t{where}\t"
                   f"{profile.model or '(no model)'}"))
    return 0


def run_profile_forget_window(args: argparse.Namespace) -> int:
    """Forget the window an overflow taught for the profile's model, as the window's
    *Forget learned window* does: the next send asks the server again."""
    profile = find_profile(ProfileStore(data_dir()).list(), args.name)
    if profile is None:
        print(f"error: there is no profile “{args.name}”", file=sys.stderr)
        return 1
    model = args.model or profile.model
    counts = ModelCounts(FactStore.in_dir(data_dir()))
    window, source = counts.window(profile.id, model)
    learned_on = counts.learned_on(profile.id, model)
    safe = safe_for(sys.stdout)
    if window is None or source != WINDOW_LEARNED:
        print(safe(f"no window learned for {model or '(no model)'} through {profile.name}"))
        return 0
    counts.forget_learned_window(profile.id, model)
    print(safe(f"forgot the window learned for {model} through {profile.name} "
               f"({window:,} tokens, learned on {learned_on})"))
    return 0


def run_profile_remove(args: argparse.Namespace) -> int:
    store = ProfileStore(data_dir())
    profile = find_profile(store.list(), args.name)
    if profile is None:
        print(f"error: there is no profile “{args.name}”", file=sys.stderr)
        return 1
    store.remove(profile.id)
    with contextlib.suppress(KeyringUnavailable):  # no keyring, so no key was stored there
        open_key_store().delete(profile.id)
    print(safe_for(sys.stdout)(f"removed profile {profile.name}"))
    return 0
