"""Settings → Sync in a real window, a real sync folder and a real keyring: sync set up
through the page (a wrong passphrase refused in plain words before anything is written;
each storage's fields), the other machines and a pending delete shown in counts and dates
(never the title), Forget this machine asks first, a new passphrase and Stop syncing; a
failed sync is tried again after waits that double and start over after Sync now, and one
that needs the person sends them to the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget

from providers_window import open_window
from sync_machines import storage_bytes
from turnlog.config.profiles import ProfileStore
from turnlog.config.secrets import SessionKeys
from turnlog.service.sync_runner import sync_data_directory
from turnlog.service.sync_setup import set_up
from turnlog.service.sync_status import read_status
from turnlog.store import TurnlogStore
from turnlog.sync.crypto import ENV_LIGHT_KDF
from turnlog.sync.storage import StorageConfig
from turnlog.ui.dialogs.privacy import Confirmation, Decision
from turnlog.ui.dialogs.settings import SettingsDialog
from turnlog.ui.dialogs.sync_passphrase import PassphraseDialog
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.sync_control import SyncTimes
from turnlog.ui.shell.window import window_settings
from uihelpers import seed

pytest_plugins = ["uiwindow"]
pytestmark = pytest.mark.keyring

QUICK = SyncTimes(first=50, after_change=60_000, every=60_000, words=100)
PASSPHRASE = "tulips in autumn"
PLANTED = "Planted title: the surprise party for Ines"


@pytest.fixture
def folder(tmp_path, secret_service, monkeypatch) -> Path:
    monkeypatch.setenv(ENV_LIGHT_KDF, "1")  # keys made in milliseconds
    made = tmp_path / "Sync"
    made.mkdir()
    return made


@pytest.fixture
def make_window(qtbot, store, turnlog_home):
    """A window with Settings (no provider needed to sync), its syncs quick."""
    made = []

    def make():
        setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home),
                              keyring=SessionKeys())
        window = open_window(qtbot, store, setup)
        window.sync.retime(QUICK)
        made.append(window)
        return window

    yield make
    for window in made:
        window.shutdown()


def sync_page(qtbot, window):
    dialog = window.open_settings()
    dialog.show_sync_page()
    page = dialog.sync_page
    qtbot.waitUntil(lambda: page.current() is not page.reading, timeout=10_000)
    return dialog, page


def fill(form, folder: Path, passphrase: str, machine: str) -> None:
    form.kind.setCurrentIndex(0)
    form.folder.setText(str(folder))
    form.passphrase.setText(passphrase)
    form.again.setText(passphrase)
    form.machine.setText(machine)


def shown_texts(dialog) -> list[str]:
    """Every word the dialog shows: its labels and every list's rows."""
    texts = [label.text() for label in dialog.findChildren(QLabel)]
    for view in dialog.findChildren(QListWidget):
        texts += [view.item(i).text() for i in range(view.count())]
    return texts


def other_machine(tmp_path: Path, folder: Path, name: str = "office-pc",
                  passphrase: str = PASSPHRASE) -> Path:
    home = tmp_path / name
    home.mkdir()
    set_up(home, StorageConfig("folder", str(folder)), None, passphrase.encode(), name)
    return home


def sync_other(home: Path) -> None:
    with TurnlogStore.open(home) as other:
        sync_data_directory(other)


def test_sync_is_set_up_through_the_page_and_the_window_syncs_at_once(
        qtbot, make_window, folder, turnlog_home):
    window = make_window()
    dialog, page = sync_page(qtbot, window)
    assert page.current() is page.form
    assert "A lost passphrase cannot be recovered" in page.form.findChild(
        QLabel, "syncPassphraseNote").text()
    assert not page.form.plain_http_row.isVisible()  # a folder needs no password
    fill(page.form, folder, PASSPHRASE, "laptop")
    qtbot.mouseClick(page.form.set_up_button, Qt.MouseButton.LeftButton)
    assert page.busy.isVisible() and not page.form.set_up_button.isEnabled()  # off the GUI thread
    qtbot.waitUntil(lambda: page.current() is page.overview, timeout=20_000)
    assert page.message.text() == ("Sync is set up: this machine is laptop; it started a new "
                                   "sync storage. Keep the passphrase safe: it cannot be "
                                   "recovered.")
    assert page.form.passphrase.text() == "" and page.form.again.text() == ""
    assert (folder / "turnlog-sync" / "keys").is_dir()
    assert page.overview.machine_line.text() == "This machine: laptop"
    assert page.overview.storage_line.text() == f"Folder: {folder}"
    # The window sends this history at once; the status bar and the page say so.
    qtbot.waitUntil(lambda: window.sync.text() == "Synced just now", timeout=20_000)
    qtbot.waitUntil(lambda: page.overview.state_line.text() == "Synced just now")
    qtbot.waitUntil(lambda: page.overview.last_line.text() != "Last sync: not yet")
    assert read_status(turnlog_home).machine_name == "laptop"


def test_a_wrong_passphrase_is_said_in_plain_words_and_nothing_is_written(
        qtbot, make_window, folder, tmp_path, turnlog_home):
    other_machine(tmp_path, folder)  # the storage was started with PASSPHRASE
    before = storage_bytes(folder)
    window = make_window()
    dialog, page = sync_page(qtbot, window)
    fill(page.form, folder, "tulips in spring", "laptop")
    page.form.submit()
    qtbot.waitUntil(lambda: not page.busy.isVisible(), timeout=20_000)
    assert page.message.text() == (
        "Wrong passphrase: it does not open this sync storage, which another machine set "
        "up with a different one. Nothing was written.")
    assert page.current() is page.form
    assert storage_bytes(folder) == before  # not one byte more in the storage
    assert not (turnlog_home / "sync.sqlite3").exists()
    assert page.form.set_up_button.isEnabled()
    # Typed twice differently: said before anything runs.
    page.form.again.setText("tulips in winter")
    page.form.submit()
    assert page.message.text() == "The two passphrases differ."


def test_the_other_machines_and_a_pending_delete_show_without_a_title(
        qtbot, make_window, folder, tmp_path, store, turnlog_home):
    planted = seed(store, PLANTED, [("Which cake?", "Lemon, with a secret message."),
                                    ("Who brings candles?", "Marta.")])
    set_up(turnlog_home, StorageConfig("folder", str(folder)), None, PASSPHRASE.encode(),
           "laptop")
    b = other_machine(tmp_path, folder)
    window = make_window()
    window.sync.start()  # as once the first screen is up
    qtbot.waitUntil(lambda: window.sync.text() == "Synced just now", timeout=20_000)
    sync_other(b)  # office-pc reads the laptop's history
    before = window.sync.last_done_at
    window.sync.ask_now()  # ... and the laptop sees that it did
    qtbot.waitUntil(lambda: window.sync.last_done_at != before, timeout=20_000)
    window.history.delete_now(planted, everywhere=True)
    qtbot.waitUntil(lambda: PLANTED not in [c.title for c in window.sidebar.model.items],
                    timeout=10_000)
    before = window.sync.last_done_at
    window.sync.ask_now()  # the delete goes out; office-pc has not read it yet
    qtbot.waitUntil(lambda: window.sync.last_done_at != before, timeout=20_000)
    dialog, page = sync_page(qtbot, window)
    assert page.current() is page.overview
    machines = [page.overview.machines.item(i).text()
                for i in range(page.overview.machines.count())]
    assert len(machines) == 1 and machines[0].startswith("office-pc — last synced ")
    pending = page.overview.pending
    assert pending.count() == 1
    line = pending.item(0).text()
    assert line.startswith("1 conversation, 2 turns, deleted ")
    assert line.endswith("; office-pc has not synced since")
    words = " ".join(shown_texts(dialog))
    for secret in (PLANTED, "surprise party", "Lemon", "Marta"):
        assert secret not in words
    # office-pc syncs; the page reads the state again after the window's next sync.
    sync_other(b)
    page.overview.sync_now.click()
    qtbot.waitUntil(lambda: pending.item(0).text().startswith("None"), timeout=20_000)
    assert pending.count() == 1


def test_forget_this_machine_asks_first(qtbot, make_window, folder, tmp_path, turnlog_home):
    set_up(turnlog_home, StorageConfig("folder", str(folder)), None, PASSPHRASE.encode(),
           "laptop")
    b = other_machine(tmp_path, folder)
    with TurnlogStore.open(b) as other:
        seed(other, "Shed", [("Which green?", "Moss green.")])
    sync_other(b)
    window = make_window()
    window.sync.start()  # as once the first screen is up
    qtbot.waitUntil(lambda: window.sync.text() == "Synced just now", timeout=20_000)
    asked: list[Confirmation] = []
    answers = [Decision(False), Decision(True)]
    window.confirm = lambda question: (asked.append(question), answers.pop(0))[1]
    dialog, page = sync_page(qtbot, window)
    overview = page.overview
    assert not overview.forget.isEnabled()  # no machine chosen
    overview.machines.setCurrentRow(0)
    b_id = overview.chosen().id
    assert (folder / "turnlog-sync" / b_id).is_dir()
    overview.forget.click()
    assert asked[0].text == "Forget office-pc for good?"
    assert asked[0].action == "Forget"
    assert (folder / "turnlog-sync" / b_id).is_dir()  # cancelled: nothing happened
    assert not page.busy.isVisible()
    overview.forget.click()
    qtbot.waitUntil(lambda: overview.machines.item(0).text() == "office-pc — forgotten",
                    timeout=20_000)
    assert not (folder / "turnlog-sync" / b_id).exists()
    assert page.message.text().startswith("Forgot office-pc: ")
    assert not overview.forget.isEnabled()  # a forgotten machine is not forgotten twice
    assert "Shed" in [c.title for c in window.store.conversations.list()]  # its history kept


def test_a_failed_sync_is_tried_again_after_waits_that_double_and_start_over(
        qtbot, make_window, folder, turnlog_home):
    set_up(turnlog_home, StorageConfig("folder", str(folder)), None, PASSPHRASE.encode(),
           "laptop")
    window = make_window()
    window.sync.retime(SyncTimes(first=50, after_change=60_000, every=60_000, words=100,
                                 retry=400, retry_most=1_600))
    window.sync.start()  # as once the first screen is up
    qtbot.waitUntil(lambda: window.sync.text() == "Synced just now", timeout=20_000)
    moved = folder.with_name("Sync-unplugged")
    folder.rename(moved)
    waits: list[int] = []
    window.sync.over.connect(lambda: waits.append(window.sync.retry_in() or 0))
    window.sync.ask_now()
    qtbot.waitUntil(lambda: len(waits) >= 5, timeout=30_000)
    # Each failure waits twice as long as the one before, up to the most (a coarse timer
    # may stretch a wait by 5 %).
    for got, wanted in zip(waits[:5], [400, 800, 1_600, 1_600, 1_600], strict=True):
        assert wanted * 0.6 <= got <= wanted * 1.06, waits
    assert window.sync.text() == f"Sync folder not found: {folder}, retrying in 1 s" or \
        window.sync.text() == f"Sync folder not found: {folder}, retrying in 2 s"
    # Sync now starts the waits over.
    waits.clear()
    window.sync.action.trigger()
    qtbot.waitUntil(lambda: len(waits) >= 1, timeout=10_000)
    assert 240 <= waits[0] <= 424
    # A sync that works ends the tries; the next failure waits the shortest again.
    moved.rename(folder)
    qtbot.waitUntil(lambda: window.sync.text() == "Synced just now", timeout=10_000)
    assert window.sync.retry_in() is None
    assert window.sync.delays.next == 400


def test_the_form_asks_for_what_each_storage_needs(qtbot, make_window, folder):
    window = make_window()
    dialog, page = sync_page(qtbot, window)
    form = page.form
    form.kind.setCurrentIndex(1)  # WebDAV
    assert form.webdav_url.isVisible() and not form.folder.isVisible()
    assert form.ca_file.isVisible()
    form.webdav_url.setText("http://nas.example.lan/dav/Turnlog")
    assert form.plain_http_row.isVisible()  # a password over plain http to another machine
    form.webdav_url.setText("http://127.0.0.1:8080/dav")
    assert not form.plain_http_row.isVisible()  # this machine: nothing travels
    form.webdav_url.setText("https://nas.example.lan/dav/Turnlog")
    assert not form.plain_http_row.isVisible()
    form.webdav_user.setText("me")
    form.passphrase.setText(PASSPHRASE)
    form.again.setText(PASSPHRASE)
    form.submit()
    assert page.message.text() == "Type both the user name and the password, or neither."
    form.kind.setCurrentIndex(2)  # S3
    assert form.s3_bucket.isVisible() and not form.webdav_url.isVisible()
    form.s3_endpoint.setText("https://s3.example.com")
    form.submit()
    assert page.message.text() == "Type the bucket's name."
    assert not page.busy.isVisible()  # nothing ran


def test_a_new_passphrase_and_stop_syncing_from_the_page(qtbot, make_window, folder,
                                                         turnlog_home):
    set_up(turnlog_home, StorageConfig("folder", str(folder)), None, PASSPHRASE.encode(),
           "laptop")
    window = make_window()
    window.sync.start()  # as once the first screen is up
    qtbot.waitUntil(lambda: window.sync.text() == "Synced just now", timeout=20_000)
    asked: list[Confirmation] = []
    window.confirm = lambda question: (asked.append(question), Decision(True))[1]
    dialog, page = sync_page(qtbot, window)
    page.overview.passphrase.click()
    changing = page.findChild(PassphraseDialog)
    qtbot.waitUntil(changing.isVisible)
    changing.passphrase.setText("roses in May")
    changing.again.setText("roses in june")
    changing.accept()
    assert changing.isVisible() and changing.problem.text() == "The two passphrases differ."
    changing.again.setText("roses in May")
    changing.accept()
    qtbot.waitUntil(lambda: page.message.text().startswith("Passphrase changed"),
                    timeout=20_000)
    assert len(list((folder / "turnlog-sync" / "keys").iterdir())) == 2  # a new key header
    qtbot.waitUntil(lambda: window.sync.text() == "Synced just now", timeout=20_000)
    page.overview.stop.click()
    assert asked[-1].action == "Stop syncing"
    qtbot.waitUntil(lambda: page.current() is page.form, timeout=20_000)
    assert page.message.text() == "Sync is stopped for this history."
    assert not (turnlog_home / "sync.sqlite3").exists()
    qtbot.waitUntil(lambda: window.sync.set_up is False, timeout=20_000)
    assert not window.sync.button.isVisible()  # the status bar says nothing more of sync
    assert (folder / "turnlog-sync").is_dir()  # the storage is left as it was


def test_a_sync_that_needs_you_sends_you_to_the_sync_page(qtbot, make_window, folder,
                                                          turnlog_home):
    from turnlog.sync.crypto import new_header
    from turnlog.sync.keystore import load_keys, save_keys
    from turnlog.sync.state import SyncState

    set_up(turnlog_home, StorageConfig("folder", str(folder)), None, PASSPHRASE.encode(),
           "laptop")
    with SyncState.open(turnlog_home) as state:
        user = state.get("keyring_user")
    keys = load_keys(user)
    _, other_key = new_header(b"not the passphrase", keys.current, 1)
    keys.by_id[keys.current] = other_key
    save_keys(user, keys)  # a key the storage refuses
    window = make_window()
    window.sync.start()
    qtbot.waitUntil(lambda: "passphrase" in window.sync.text(), timeout=20_000)
    assert window.sync.text() == "Sync: wrong passphrase — open Settings → Sync"
    assert window.sync.retry_in() is not None  # tried again all the same, later
    window.sync.button.click()
    dialog = window.findChild(SettingsDialog)
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible())
    assert dialog.pages.currentWidget() is dialog.sync_tab
    qtbot.waitUntil(lambda: dialog.sync_page.current() is dialog.sync_page.overview)
    assert dialog.sync_page.overview.state_line.text() == (
        "Sync: wrong passphrase — open Settings → Sync")
