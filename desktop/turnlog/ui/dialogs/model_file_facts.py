"""What Settings says about a GGUF model file chosen for the built-in preset: whether it
can run here, and its name, license, context window and caveat."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication

from ...localmodel import ModelInfo as LocalModelInfo
from ...localmodel import NotAModelFile, available, describe, read_metadata, training_context
from ..infra.languages import arg
from .about import caveat_text

ModelFileCheck = tuple[str, LocalModelInfo | None, int | None]


def check_model_file(path: Path | None, n_ctx: int) -> ModelFileCheck:
    """(problem, model, context window) for `path` (None: the shipped model), the window
    being what the server is launched with: `n_ctx`, or less if the model was trained on
    less."""
    check = available(path)
    if not check.ok or check.model_path is None:
        return (check.reason, None, None)
    try:
        info = describe(check.model_path)
        trained = training_context(read_metadata(check.model_path))
    except (NotAModelFile, OSError) as err:
        return (str(err), None, None)
    return ("", info, n_ctx if trained is None else min(n_ctx, trained))


def model_file_text(info: LocalModelInfo, window: int | None, running: int | None) -> str:
    """The lines under the model file: name, license, context window (as the running
    server reports it, else as it will be launched), how it runs, and its caveat."""
    if running is not None:
        size = arg(QCoreApplication.translate(
            "SettingsDialog", "%1 tokens (as the running server reports)"), running)
    else:
        size = arg(QCoreApplication.translate(
            "SettingsDialog", "%1 tokens (the server confirms it when it starts)"), window)
    lines = [arg(QCoreApplication.translate("SettingsDialog", "Model: %1"), info.name),
             arg(QCoreApplication.translate("SettingsDialog", "License: %1"), info.license),
             arg(QCoreApplication.translate("SettingsDialog", "Context window: %1"), size),
             QCoreApplication.translate(
                 "SettingsDialog", "Turnlog starts it on 127.0.0.1 with the first question "
                 "and stops it on exit, when another provider is chosen and after 10 minutes "
                 "unused; no key, no network.")]
    if info.caveat:
        lines.append(arg(QCoreApplication.translate("SettingsDialog", "Note: %1"),
                         caveat_text(info.caveat)))
    return "\n".join(lines)
