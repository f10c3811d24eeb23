"""Variables in an assistant's system prompt, filled once when a conversation starts.

The names come from a closed set — `{{date}}`, `{{time}}`, `{{language}}` (the
interface's), `{{model}}` — and the person's own (`{{audience}}`), whose values they give
when the conversation starts. Nothing else is ever read: not the environment, files, the
clipboard or secrets. `{{{{` writes a literal `{{`. A name with no value stays as typed,
with a warning; so does anything between braces that is not a name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

BUILT_IN = ("date", "time", "language", "model")
ESCAPE = "{{{{"
_TOKEN = re.compile(r"\{\{\{\{|\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_VALUE = 2_000  # characters of one value the person gives


class VariableRefused(ValueError):
    """A value or name that cannot be used, named."""


@dataclass(frozen=True, slots=True)
class Filled:
    """A system prompt with its variables filled, and what stayed as typed."""

    text: str
    unknown: tuple[str, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(f"{{{{{name}}}}} has no value and stays as typed" for name in self.unknown)


def built_in_values(now: datetime, language: str, model: str) -> dict[str, str]:
    """The closed set's values at `now` (local time, as the person reads a clock)."""
    return {"date": now.strftime("%Y-%m-%d"), "time": now.strftime("%H:%M"),
            "language": language, "model": model}


def names_in(template: str) -> tuple[str, ...]:
    """Every variable the template names, in order of first use, each once."""
    seen: dict[str, None] = {}
    for match in _TOKEN.finditer(template):
        if match.group(1):
            seen.setdefault(match.group(1), None)
    return tuple(seen)


def own_names(template: str) -> tuple[str, ...]:
    """The variables the person is asked for: those not in the closed set."""
    return tuple(n for n in names_in(template) if n not in BUILT_IN)


def has_variables(template: str) -> bool:
    """Whether filling would change the text at all (a name or a `{{{{`)."""
    return _TOKEN.search(template) is not None


def check_value(name: str, value: str) -> str:
    """A value the person gave for `name`, or `VariableRefused` saying why not."""
    if not _NAME.fullmatch(name):
        raise VariableRefused(f"“{name}” is not a variable name (letters, digits, _).")
    if name in BUILT_IN:
        raise VariableRefused(f"{{{{{name}}}}} is filled by Turnlog; it takes no value.")
    if len(value) > MAX_VALUE:
        raise VariableRefused(f"The value of {{{{{name}}}}} is {len(value):,} characters; "
                              f"at most {MAX_VALUE:,}.")
    return value


def fill(template: str, built_in: Mapping[str, str], own: Mapping[str, str]) -> Filled:
    """The template with every named variable replaced by its value (the closed set's
    from `built_in`, the others from `own`); a value is never filled again."""
    unknown: dict[str, None] = {}

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return "{{"
        if name in BUILT_IN and name in built_in:
            return built_in[name]
        if name not in BUILT_IN and name in own:
            return own[name]
        unknown.setdefault(name, None)
        return match.group(0)

    return Filled(_TOKEN.sub(replace, template), tuple(unknown))
