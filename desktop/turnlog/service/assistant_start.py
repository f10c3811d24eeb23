"""New from an assistant: a conversation that starts with a copy of its setup.

The system prompt's variables are filled once, here (`core.assistant_vars`): the
conversation keeps the filled text, which is what every request sends and what the
inspector shows. The window and the command line both start through `start_from`.
"""

from __future__ import annotations

import locale
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ..config.tool_servers import ToolServer
from ..core.assistant_vars import built_in_values, check_value, fill
from ..core.assistants import Assistant
from ..core.attachments import Attachment
from ..core.model import Conversation, ConversationSettings
from ..store import NotFound, TurnlogStore

LANGUAGE_NAMES = {"en": "English", "zh_CN": "Simplified Chinese (简体中文)",
                  "zh_TW": "Traditional Chinese (繁體中文)"}


@dataclass(frozen=True, slots=True)
class Started:
    """The conversation made, the files its first question carries, and what the person
    should hear: variables left as typed, tool servers this machine does not have."""

    conversation: Conversation
    files: tuple[Attachment, ...]
    warnings: tuple[str, ...] = ()


def language_name(code: str) -> str:
    """How `{{language}}` names an interface language code (en, zh_CN, zh_TW)."""
    return LANGUAGE_NAMES.get(code, LANGUAGE_NAMES["en"])


def settings_for(assistant: Assistant, servers: Sequence[ToolServer]
                 ) -> tuple[ConversationSettings, tuple[str, ...]]:
    """A new conversation's settings with the assistant's sampling and its tool servers
    switched on (those set up here, by name); the names it could not find."""
    setup = assistant.setup
    by_name = {s.name: s for s in servers}
    ids = tuple(by_name[n].id for n in setup.tools if n in by_name)
    missing = tuple(n for n in setup.tools if n not in by_name)
    return ConversationSettings(temperature=setup.temperature, top_p=setup.top_p,
                                tool_servers=ids), missing


def start_from(store: TurnlogStore, assistant: Assistant, *, profile_model: str,
               language: str, values: Mapping[str, str], servers: Sequence[ToolServer],
               now: datetime | None = None) -> Started:
    """Make the conversation (pins, notes and where it came from with it); `values` are
    the person's own variables, `profile_model` the model a request names when the
    assistant names none. Raises `VariableRefused` for a value that cannot be used."""
    own = {name: check_value(name, value) for name, value in values.items()}
    setup = assistant.setup
    model = setup.model or profile_model
    filled = fill(setup.system_prompt,
                  built_in_values(now or datetime.now().astimezone(), language_name(language),
                                  model), own)
    settings, missing = settings_for(assistant, servers)
    conversation = store.assistants.start(assistant, system_prompt=filled.text,
                                          model=setup.model, settings=settings)
    warnings = filled.warnings + tuple(
        f"tool server “{name}” is not set up here; it stays off" for name in missing)
    return Started(conversation, store.assistants.files(assistant.id), warnings)


def system_language() -> str:
    """The interface language a face without a language setting (the command line) goes
    by: the locale's Chinese, else English."""
    code = (locale.getlocale(locale.LC_MESSAGES)[0] or "").replace("-", "_")
    if code.startswith("zh"):
        return "zh_TW" if code.endswith(("TW", "HK", "MO")) or "Hant" in code else "zh_CN"
    return "en"


def update_from(store: TurnlogStore, conversation_id: int, *, profile_model: str,
                language: str, values: Mapping[str, str], servers: Sequence[ToolServer],
                now: datetime | None = None) -> Started:
    """*Update from assistant*, asked for explicitly: the conversation takes the current
    setup of the assistant it came from (system prompt filled again, model, sampling, tool
    servers; its pins and notes that it does not have yet are added). Its turns stay as
    they are. `NotFound` when it came from none, or that assistant was removed."""
    origin = store.assistants.origin(conversation_id)
    if origin is None or origin.assistant_id is None:
        raise NotFound("This conversation did not start from an assistant that still exists.")
    assistant = store.assistants.get(origin.assistant_id)
    own = {name: check_value(name, value) for name, value in values.items()}
    setup = assistant.setup
    filled = fill(setup.system_prompt,
                  built_in_values(now or datetime.now().astimezone(), language_name(language),
                                  setup.model or profile_model), own)
    fresh, missing = settings_for(assistant, servers)
    current = store.conversations.get(conversation_id)
    settings = replace(current.settings, temperature=fresh.temperature, top_p=fresh.top_p,
                       tool_servers=fresh.tool_servers)
    conversation = store.conversations.update(conversation_id, system_prompt=filled.text,
                                              model=setup.model, settings=settings)
    pinned = set(store.memory.pinned_facts(conversation_id))
    for pin in setup.pins:
        if pin not in pinned:
            store.memory.add_pin(conversation_id, pin)
    noted = {n.text for n in store.memory.notes(conversation_id)}
    for note in setup.notes:
        if note.text not in noted:
            store.memory.add_note(conversation_id, note.text, priority=note.priority)
    warnings = filled.warnings + tuple(
        f"tool server “{name}” is not set up here; it stays off" for name in missing)
    return Started(conversation, (), warnings)
