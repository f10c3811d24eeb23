"""An assistant: a saved setup that a new conversation starts from as a copy.

Its name and icon, the system prompt (with variables, `core.assistant_vars`), a profile
and model ("" for the default), sampling, pinned facts and notes to start with, the tool
servers it switches on (by name, among those set up on this machine) and the files
attached to every first question (stored as attachments it refers to), and the folder
the conversations it starts are put in (by name; "" for none).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .folders import name_problem

MAX_NAME = 80
MAX_PROMPT = 100_000
MAX_ITEMS = 50  # pins, notes, tools or files of one assistant


class AssistantRefused(ValueError):
    """A setup that cannot be kept, and why (for the person)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class AssistantNote:
    text: str
    priority: int = 3


@dataclass(frozen=True, slots=True)
class AssistantSetup:
    """What a conversation copies from an assistant (no files: they are stored apart)."""

    name: str
    icon: str = ""
    system_prompt: str = ""
    profile: str = ""  # a profile's name; "" for the default one
    model: str = ""  # "" for the profile's
    temperature: float | None = None
    top_p: float | None = None
    pins: tuple[str, ...] = ()
    notes: tuple[AssistantNote, ...] = ()
    tools: tuple[str, ...] = ()  # tool server names
    folder: str = ""  # the name of the folder its conversations start in; "" for none

    def checked(self) -> AssistantSetup:
        """This setup, or `AssistantRefused` naming the first thing wrong with it."""
        name = self.name.strip()
        if not name:
            raise AssistantRefused("blank_name", "An assistant needs a name.")
        if len(name) > MAX_NAME or "\n" in name:
            raise AssistantRefused("bad_name", f"An assistant's name is one line of at most "
                                   f"{MAX_NAME} characters.")
        if len(self.icon) > 16:
            raise AssistantRefused("bad_icon", "An icon is an emoji or a few characters.")
        if len(self.system_prompt) > MAX_PROMPT:
            raise AssistantRefused("prompt_too_long", f"The system prompt is "
                                   f"{len(self.system_prompt):,} characters; at most "
                                   f"{MAX_PROMPT:,}.")
        for label, value, low, high in (("temperature", self.temperature, 0.0, 2.0),
                                        ("top_p", self.top_p, 0.0, 1.0)):
            if value is not None and not low <= value <= high:
                raise AssistantRefused("bad_sampling", f"{label} must be between {low} "
                                       f"and {high}.")
        if max(len(self.pins), len(self.notes), len(self.tools)) > MAX_ITEMS:
            raise AssistantRefused("too_many", f"At most {MAX_ITEMS} pins, notes or tools.")
        if any(not p.strip() for p in self.pins) or any(not n.text.strip() for n in self.notes):
            raise AssistantRefused("blank_item", "A pinned fact or note cannot be blank.")
        folder = self.folder.strip()
        problem = name_problem(folder) if folder else None
        if problem is not None:
            raise AssistantRefused("bad_folder", problem)
        if name == self.name and folder == self.folder:
            return self
        return replace(self, name=name, folder=folder)


@dataclass(frozen=True, slots=True)
class Assistant:
    """A stored assistant: its setup, its place in the list and its files' names."""

    id: int
    position: int
    setup: AssistantSetup
    file_names: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.setup.name

    @property
    def label(self) -> str:
        return f"{self.setup.icon} {self.setup.name}".strip()
