"""The words of failures, hints and stages in the interface language.

Core, providers, store and the local model speak English (the CLI prints them as they are)
and stay free of Qt: they return fixed English sentences and a few templates with numbers in
them. Every one of them is listed here with `QT_TRANSLATE_NOOP`, so `pyside6-lupdate` puts
it in the translations; a template's numbers are found again by a pattern and put back into
the translated sentence (`%1`, `%2`). What a server or the system said (a failure's detail)
is shown as it came. A test checks that every title, hint and stage of the code below the
window is listed.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from ...core.failures import Failure
from .languages import arg

TITLES = (
    QT_TRANSLATE_NOOP("Failure", "Nothing to send"),
    QT_TRANSLATE_NOOP("Failure", "The question contains text that cannot be sent"),
    QT_TRANSLATE_NOOP("Failure", "Too large to send"),
    QT_TRANSLATE_NOOP("Failure", "The server took too long"),
    QT_TRANSLATE_NOOP("Failure", "Rate limited"),
    QT_TRANSLATE_NOOP("Failure", "The key was refused"),
    QT_TRANSLATE_NOOP("Failure", "Model not found"),
    QT_TRANSLATE_NOOP("Failure", "The server says the request is too large"),
    QT_TRANSLATE_NOOP("Failure", "The server returned an error"),
    QT_TRANSLATE_NOOP("Failure", "Could not reach the server"),
    QT_TRANSLATE_NOOP("Failure", "The server sent something that is not a chat reply"),
    QT_TRANSLATE_NOOP("Failure", "The reply was empty"),
    QT_TRANSLATE_NOOP("Failure", "The reply stopped before it was complete"),
    QT_TRANSLATE_NOOP("Failure", "The reply was cut off at the output limit"),
    QT_TRANSLATE_NOOP("Failure", "The reply did not say it was finished"),
    QT_TRANSLATE_NOOP("Failure", "The reply ended for an unexpected reason"),
    QT_TRANSLATE_NOOP("Failure", "Stopped"),
    QT_TRANSLATE_NOOP("Failure", "The conversation is larger than the model's context window"),
    QT_TRANSLATE_NOOP("Failure", "The reply was larger than the response limit"),
    QT_TRANSLATE_NOOP("Failure", "The request ran past its time limit"),
    QT_TRANSLATE_NOOP("Failure", "No API key"),
    QT_TRANSLATE_NOOP("Failure", "The answer could not be saved"),
    QT_TRANSLATE_NOOP("Failure", "The summary of older turns failed"),
    QT_TRANSLATE_NOOP("Failure", "Compaction hit its limit"),
    QT_TRANSLATE_NOOP("Failure", "The built-in model could not start"),
    QT_TRANSLATE_NOOP("Failure", "The built-in model stopped unexpectedly"),
    QT_TRANSLATE_NOOP("Failure", "The conversation was deleted"),
    QT_TRANSLATE_NOOP("Failure", "The key would travel unencrypted"),
    QT_TRANSLATE_NOOP("Failure", "This model does not take images"),
    QT_TRANSLATE_NOOP("Failure", "The tool calls could not finish"),
)

HINTS = (
    QT_TRANSLATE_NOOP("FailureHint", "Raise the byte limit or the context window, or turn "
                                     "compaction off"),
    QT_TRANSLATE_NOOP("FailureHint", "Raise the byte limit or context window, or turn "
                                     "compaction off"),
    QT_TRANSLATE_NOOP("FailureHint", "Try again, or turn compaction off for this conversation"),
    QT_TRANSLATE_NOOP("FailureHint", "Send again, or turn compaction off for this conversation"),
    QT_TRANSLATE_NOOP("FailureHint", "Type a question first"),
    QT_TRANSLATE_NOOP("FailureHint", "Remove the images, or turn on “Accepts images” for "
                                     "this connection"),
    QT_TRANSLATE_NOOP("FailureHint", "Send again"),
    QT_TRANSLATE_NOOP("FailureHint", "Send again, or try another model"),
    QT_TRANSLATE_NOOP("FailureHint", "Send again and answer the approval card"),
    QT_TRANSLATE_NOOP("FailureHint", "Send again, or switch that tool off"),
    QT_TRANSLATE_NOOP("FailureHint", "Send again, or ask more narrowly"),
    QT_TRANSLATE_NOOP("FailureHint", "Raise the limits, or ask for less at once"),
    QT_TRANSLATE_NOOP("FailureHint", "Raise the output limit (output reserve) and send again"),
    QT_TRANSLATE_NOOP("FailureHint", "Send again or try another model"),
    QT_TRANSLATE_NOOP("FailureHint", "Delete or retype that character and send again"),
    QT_TRANSLATE_NOOP("FailureHint", 'Install the local extra: pip install "turnlog[local]"'),
    QT_TRANSLATE_NOOP("FailureHint", "Set the context window in the profile, or start a new "
                                     "conversation"),
    QT_TRANSLATE_NOOP("FailureHint", "Check the base URL: it should point at an "
                                     "OpenAI-compatible API (usually ending in /v1)"),
    QT_TRANSLATE_NOOP("FailureHint", "Ask for a shorter answer or lower the output limit"),
    QT_TRANSLATE_NOOP("FailureHint", "Check the base URL in the profile"),
    QT_TRANSLATE_NOOP("FailureHint", "Some servers do this when the conversation is larger "
                                     "than the model's context window; try a smaller context "
                                     "window in the profile"),
    QT_TRANSLATE_NOOP("FailureHint", "Use that address as the base URL"),
    QT_TRANSLATE_NOOP("FailureHint", "Check that the server is running and reachable"),
    QT_TRANSLATE_NOOP("FailureHint", "Check the base URL and that the server is running"),
    QT_TRANSLATE_NOOP("FailureHint", "Add the key in the profile settings"),
    QT_TRANSLATE_NOOP("FailureHint", "Paste the key again in the profile settings"),
    QT_TRANSLATE_NOOP("FailureHint", "Check the API key in the profile"),
    QT_TRANSLATE_NOOP("FailureHint", "Lower the context window in the profile or start a new "
                                     "conversation"),
    QT_TRANSLATE_NOOP("FailureHint", "Check the model name and the base URL in the profile"),
    QT_TRANSLATE_NOOP("FailureHint", "Lower the request size limit in the conversation "
                                     "settings"),
    QT_TRANSLATE_NOOP("FailureHint", "Use an https:// address, or allow sending the key "
                                     "unencrypted for this profile (Settings, or turnlog-cli "
                                     "profile add --allow-insecure-key) if the network between "
                                     "you is your own"),
    QT_TRANSLATE_NOOP("FailureHint", "Close other programs using it and try again."),
    QT_TRANSLATE_NOOP("FailureHint", "Restore it from a backup or move it aside to start "
                                     "fresh."),
    QT_TRANSLATE_NOOP("FailureHint", "Free some space and try again; nothing was lost."),
    QT_TRANSLATE_NOOP("FailureHint", "Check the permissions of the file and its folder, and "
                                     "that the disk is not read-only."),
    QT_TRANSLATE_NOOP("FailureHint", "Check that the data folder exists and that Turnlog may "
                                     "open files in it."),
    QT_TRANSLATE_NOOP("FailureHint", "The disk may be failing or was removed; check it, then "
                                     "try again."),
    QT_TRANSLATE_NOOP("FailureHint", "Put the database file itself in the data folder, or set "
                                     "TURNLOG_HOME to the folder that holds it."),
    # Returned in tuples rather than by keyword (time bounds, the local model's exit).
    QT_TRANSLATE_NOOP("FailureHint", "Send again, or raise the time limit if the server is "
                                     "slow"),
    QT_TRANSLATE_NOOP("FailureHint", "Send again, or raise “Time to first token” in the "
                                     "profile"),
    QT_TRANSLATE_NOOP("FailureHint", "Try again"),
    QT_TRANSLATE_NOOP("FailureHint", "Choose another GGUF file in Settings"),
    QT_TRANSLATE_NOOP("FailureHint", "See the local model log for details"),
    QT_TRANSLATE_NOOP("FailureHint", "See the local model log; if it happens again, try "
                                     "another model file in Settings"),
    QT_TRANSLATE_NOOP("FailureHint", "Close other programs, or choose a smaller model file "
                                     "in Settings"),
    QT_TRANSLATE_NOOP("FailureHint", "Choose another provider in Settings"),
    QT_TRANSLATE_NOOP("FailureHint", "Wait a moment and send again"),
)

STAGES = (
    QT_TRANSLATE_NOOP("Stage", "starting local model"),
    QT_TRANSLATE_NOOP("Stage", "preparing"),
    QT_TRANSLATE_NOOP("Stage", "organizing turns"),
    QT_TRANSLATE_NOOP("Stage", "compacting"),
    QT_TRANSLATE_NOOP("Stage", "answering"),
    QT_TRANSLATE_NOOP("Stage", "running tools"),
    QT_TRANSLATE_NOOP("Stage", "retrying"),
)

# Turnlog's own words for what happened, where the failure's detail is not a server's.
DETAILS = (
    QT_TRANSLATE_NOOP("FailureDetail", "nothing was sent"),
    QT_TRANSLATE_NOOP("FailureDetail", "the connection is set not to accept images"),
    QT_TRANSLATE_NOOP("FailureDetail", "the base URL must start with http:// or https://"),
    QT_TRANSLATE_NOOP("FailureDetail", "the connection closed before the reply was complete"),
    QT_TRANSLATE_NOOP("FailureDetail", "the connection closed before the reply was finished"),
    QT_TRANSLATE_NOOP("FailureDetail", "the connection closed before any reply arrived"),
    QT_TRANSLATE_NOOP("FailureDetail", "the server sent nothing, as llama-cpp-python does when "
                                       "the request is larger than its context window"),
    QT_TRANSLATE_NOOP("FailureDetail", "the server sent nothing: the reply body was empty"),
    QT_TRANSLATE_NOOP("FailureDetail", "the server sent nothing: the reply stream was empty"),
    QT_TRANSLATE_NOOP("FailureDetail", "the stream ended before the reply said it was finished"),
    QT_TRANSLATE_NOOP("FailureDetail", "the stored key contains spaces or characters that are "
                                       "not plain ASCII"),
    QT_TRANSLATE_NOOP("FailureDetail", "the model asked to call a tool, which Turnlog does not "
                                       "offer"),
    QT_TRANSLATE_NOOP("FailureDetail", "the turn to replace is no longer the last one"),
    QT_TRANSLATE_NOOP("FailureDetail", "there was not enough memory for the model"),
)

# (context, English with %1…, the pattern that finds the numbers in the English sentence)
TEMPLATES = (
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "no complete reply within %1 s"),
     r"no complete reply within ([\d.]+) s"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "no answer began within %1 s"),
     r"no answer began within ([\d.]+) s"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail",
                                        "the answer stalled: nothing new for %1 s"),
     r"the answer stalled: nothing new for ([\d.]+) s"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "the server sent nothing for %1 s"),
     r"the server sent nothing for ([\d.]+) s"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "no connection to %1 within %2 s"),
     r"no connection to (\S+) within ([\d.]+) s"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "finish reason “%1”"),
     r"finish reason “(.*)”"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "it needed more than %1 summary calls"),
     r"it needed more than (\d+) summary calls"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "summarizing took longer than %1 s"),
     r"summarizing took longer than ([\d.]+) s"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "%1 needs an API key"),
     r"(.+) needs an API key"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "the server process ended with %1"),
     r"the server process ended with (.+)"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "the server stopped while starting "
                                                         "(%1)"),
     r"the server stopped while starting \((.+)\)"),
    ("FailureDetail", QT_TRANSLATE_NOOP("FailureDetail", "this computer's processor lacks %1"),
     r"this computer's processor lacks (.+)"),
    ("FailureHint", QT_TRANSLATE_NOOP("FailureHint", "Retry after %1 s"),
     r"Retry after (\d+) s"),
    ("FailureHint", QT_TRANSLATE_NOOP("FailureHint", "This computer's processor lacks %1, "
                                                     "which the built-in model's build needs"),
     r"This computer's processor lacks (.+), which the built-in model's build needs"),
    ("Stage", QT_TRANSLATE_NOOP("Stage", "chunk %1 of %2"), r"chunk (\d+) of (\d+)"),
    ("Stage", QT_TRANSLATE_NOOP("Stage", "in %1 s (attempt %2 of %3)"),
     r"in (\d+) s \(attempt (\d+) of (\d+)\)"),
)


def translate(context: str, text: str) -> str:
    """`text` in the interface language: a listed sentence, a listed template with its
    numbers, else `text` as it is (a server's own words)."""
    if not text:
        return text
    for template_context, template, pattern in TEMPLATES:
        if template_context == context:
            found = re.fullmatch(pattern, text)
            if found:
                shown = QCoreApplication.translate(context, template)
                return arg(shown, *found.groups())
    return QCoreApplication.translate(context, text)


def title(failure: Failure) -> str:
    return translate("Failure", failure.title)


def hint(text: str) -> str:
    return translate("FailureHint", text)


def stage(text: str) -> str:
    return translate("Stage", text)


def detail(text: str) -> str:
    """A failure's detail: Turnlog's own listed words translated, a server's as they came."""
    return translate("FailureDetail", text)


def message(failure: Failure) -> str:
    """`Failure.message` in the interface language (the copyable report)."""
    text = title(failure)
    if failure.stage:
        text = f"{stage(failure.stage)}: {text}"
    if failure.detail:
        text += f" — {detail(failure.detail)}"
    if failure.hint:  # "。" in Chinese: the sentences join in the interface's language
        text = arg(QCoreApplication.translate("Failure", "%1. %2", "what happened, then the "
                                              "next step"), text, hint(failure.hint))
    if failure.log_tail:
        text += "\n" + log_tail(failure)
    if failure.ran:
        text += "\n" + ran(failure)
    return text


def ran(failure: Failure) -> str:
    """The tool calls that ran before the send failed, said plainly (their effects stay)."""
    return "\n".join([QCoreApplication.translate(
        "Failure", "These tool calls ran; anything they changed stays changed:"),
        *(f"  - {line}" for line in failure.ran)])


def log_tail(failure: Failure) -> str:
    """"The log ends:" and the last lines of the log a failure quotes (the banner shows
    them in a box of their own; the copied report carries them after the message)."""
    return "\n".join([QCoreApplication.translate("Failure", "The log ends:"),
                      *(f"  {line}" for line in failure.log_tail)])


def explanation(failure: Failure) -> str:
    """The line under the banner's bold title: what the server or system said, and the
    next step."""
    text = detail(failure.detail).rstrip(". ")
    if failure.hint:
        shown_hint = hint(failure.hint)
        text = arg(QCoreApplication.translate("Failure", "%1. %2", "what happened, then the "
                                              "next step"), text, shown_hint) \
            if text else shown_hint
    if failure.stage:
        where = stage(failure.stage)
        text = (arg(QCoreApplication.translate("Failure", "While %1: %2"), where, text) if text
                else arg(QCoreApplication.translate("Failure", "While %1"), where))
    if not text:
        text = QCoreApplication.translate("Failure", "Your question is back in the box below.")
    else:
        text = text[:1].upper() + text[1:]
        if not text.endswith((".", "!", "?", "。", "！", "？")):
            text += _full_stop()
    if failure.ran:  # what ran has run: its effects stay although nothing was saved
        text += "\n" + ran(failure)
    return text


def _full_stop() -> str:
    return QCoreApplication.translate("Failure", ".", "the full stop that ends a sentence")
