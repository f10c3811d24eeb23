"""Sync in plain words, the same in the status bar and on Settings → Sync: how the last
sync went, what stops one (`service.sync_runner`'s kinds) and what to do about it, when the
next try is, and a pending delete as counts and dates (never a title or a text)."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QCoreApplication, QLocale

from .languages import arg, plural, short_date

translate = QCoreApplication.translate  # translate("Sync", …): lupdate reads it

# Failures that trying again cannot mend: the person acts on Settings → Sync (a password,
# the passphrase, a CA file). The window still tries again, less and less often.
NEEDS_SETTINGS = frozenset({"authentication_failed", "wrong_passphrase", "passphrase_changed",
                            "tls_failed", "plain_http_refused", "not_set_up"})


def failure_words(kind: str, detail: str) -> str:
    """A failed sync in plain words (see `service.sync_runner` for the kinds)."""
    fixed = {
        "wrong_passphrase": translate("Sync", "Sync: wrong passphrase — open Settings → Sync"),
        "passphrase_changed": translate("Sync", "Sync: another machine changed the passphrase "
                                        "— open Settings → Sync"),
        "authentication_failed": translate("Sync", "Sync: authentication failed — open "
                                           "Settings → Sync"),
        "tls_failed": translate("Sync", "Sync: the server's certificate could not be verified "
                                "— open Settings → Sync"),
        "plain_http_refused": translate("Sync", "Sync: the password would travel unencrypted "
                                        "— open Settings → Sync"),
        "not_set_up": translate("Sync", "Sync is not set up — open Settings → Sync"),
        "offline": translate("Sync", "Sync: offline"),
        "storage_full": translate("Sync", "Sync: the storage is full"),
        "keyring": translate("Sync", "Sync: the keyring could not be opened"),
        "busy": translate("Sync", "Sync: another sync is running"),
    }
    if kind in fixed:
        return fixed[kind]
    if kind == "folder_missing":
        return arg(translate("Sync", "Sync folder not found: %1"), detail)
    if kind == "storage_missing":
        return arg(translate("Sync", "Sync: the storage is not there: %1"), detail)
    return arg(translate("Sync", "Sync failed: %1"), detail)


def retry_words(words: str, seconds: float) -> str:
    """`words` of a failure, and when the next try is: "Sync: offline, retrying in 1 min"."""
    if seconds < 60:
        count = max(1, round(seconds))
        when = plural(translate("Sync", "%n s", None, count), count)
    else:
        minutes = max(1, round(seconds / 60))
        when = plural(translate("Sync", "%n min", None, minutes), minutes)
    return arg(translate("Sync", "%1, retrying in %2"), words, when)


def since_words(seconds: float) -> str:
    """"Synced just now", "Synced 2 min ago", "Synced 3 h ago"."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return translate("Sync", "Synced just now")
    if minutes < 60:
        return plural(translate("Sync", "Synced %n min ago", None, minutes), minutes)
    hours = minutes // 60
    return plural(translate("Sync", "Synced %n h ago", None, hours), hours)


def day_of(stamp: str) -> str:
    """An ISO 8601 time as a day: "3 May" (the locale's short date where one is chosen)."""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if QLocale().language() == QLocale.Language.C:
        local = when.astimezone()
        return f"{local.day} {local:%b}"
    return short_date(when)


def pending_delete_words(conversations: int, turns: int, records: int, deleted: str,
                         behind: tuple[str, ...]) -> str:
    """"1 conversation, 12 turns, deleted 3 May; office-pc has not synced since"."""
    what = []
    if conversations:
        what.append(plural(translate("Sync", "%n conversation(s)", None, conversations),
                           conversations))
    if turns:
        what.append(plural(translate("Sync", "%n turn(s)", None, turns), turns))
    if not what:
        what.append(plural(translate("Sync", "%n record(s)", None, records), records))
    names = translate("Sync", ", ").join(behind)
    since = (translate("Sync", "%1 has not synced since") if len(behind) == 1
             else translate("Sync", "%1 have not synced since"))
    return arg(translate("Sync", "%1, deleted %2; %3"), translate("Sync", ", ").join(what),
               day_of(deleted), arg(since, names))


def page_failure_words(kind: str, detail: str) -> str:
    """What stopped a setup, a forget or a passphrase change, said on Settings → Sync."""
    fixed = {
        "wrong_passphrase": translate("Sync", "Wrong passphrase: it does not open this sync "
                                      "storage, which another machine set up with a different "
                                      "one. Nothing was written."),
        "passphrase_changed": translate("Sync", "Another machine changed the passphrase: "
                                        "enter the new one with Change passphrase…"),
        "authentication_failed": translate("Sync", "Authentication failed: the server refused "
                                           "the user name and password (or the access key)."),
        "offline": translate("Sync", "Offline: the server could not be reached. Check the "
                             "address and the network."),
        "storage_full": translate("Sync", "The storage is full: free some room on it."),
        "tls_failed": translate("Sync", "The server's certificate could not be verified: "
                                "choose its CA file."),
        "plain_http_refused": translate("Sync", "The password would travel unencrypted over "
                                        "http://: use https://, or allow plain http."),
        "keyring": translate("Sync", "The system keyring could not be opened: the sync key "
                             "cannot be kept."),
        "busy": translate("Sync", "Another sync of this history is running: try again when "
                          "it has finished."),
    }
    if kind in fixed:
        return fixed[kind]
    if kind in ("folder_missing", "storage_missing"):
        return arg(translate("Sync", "Not found: %1"), detail)
    return arg(translate("Sync", "It did not work: %1"), detail)
