"""The example assistants Turnlog ships (in English and Chinese): off the list until the
person adds one (Settings → Assistants → Examples)."""

from __future__ import annotations

from ..core.assistants import AssistantNote, AssistantSetup
from .assistant_file import Shared

_EXAMPLES = (
    AssistantSetup(
        name="Editor", icon="📝",
        system_prompt="You are a careful editor. Today is {{date}}. Improve the text the user "
        "gives for {{audience}}: keep its meaning, make it clear and short, and list the "
        "changes you made.",
        temperature=0.3, pins=("Keep the author's voice.",)),
    AssistantSetup(
        name="Translator", icon="🌐",
        system_prompt="Translate what the user writes into {{target_language}}. Keep "
        "formatting, names and numbers as they are. Answer with the translation only.",
        temperature=0.2),
    AssistantSetup(
        name="Code reviewer", icon="🔍",
        system_prompt="You review code. Point out bugs first, then risks, then style. Quote "
        "the lines you mean. Answer in {{language}}.",
        temperature=0.2, notes=(AssistantNote("Prefer small, concrete suggestions.", 3),)),
    AssistantSetup(
        name="写作助手", icon="✍️",
        system_prompt="你是一位细心的中文编辑。今天是 {{date}}。"
        "请为{{audience}}改写用户给出的文字：保留原意，表达清楚简洁，并列出所做的修改。",
        temperature=0.3, pins=("保持作者的语气。",)),
    AssistantSetup(
        name="翻译", icon="🈯",
        system_prompt="把用户写的内容翻译成{{target_language}}。保留格式、人名和数字，只回答译文。",
        temperature=0.2),
)


def examples() -> tuple[Shared, ...]:
    """The examples, as an import would give them (no files, no tool servers)."""
    return tuple(Shared(setup) for setup in _EXAMPLES)
