"""Screenshots of Settings → Sync showing a pending delete, in English and Simplified
Chinese, on 1280×720 and 1024×600 screens, for the README's Sync section:

    dbus-run-session -- sh -c 'printf %s pw | gnome-keyring-daemon --unlock \
        --components=secrets >/dev/null; .venv/bin/python tests/support/screenshots_sync.py'
    (OUT_DIR, the first argument, by default: resources/screenshots/sync)

    sync-LANG-SIZE.png   the whole screen: Settings → Sync over the window of "laptop",
                         which syncs through a folder with "office-pc" and "mini-pc"; a
                         conversation deleted everywhere that office-pc has not read yet

The sync key goes to the keyring, so a Secret Service must be running (as above).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import places
from screen_steps import run_script

HERE = Path(__file__).resolve().parent
CHILD = "TURNLOG_SCREENSHOT_CHILD"
SIZES = ((1280, 720), (1024, 600))
LANGUAGES = ("en", "zh_CN")
WORDS = {
    "en": [("Garden plans", [("When do tulips go in?", "In autumn, 15 cm deep.")]),
           ("Tax letter", [("Draft a reply", "Dear Sir, …"), ("Shorter", "Dear Sir, …")])],
    "zh_CN": [("花园计划", [("郁金香什么时候种？", "秋天，深 15 厘米。")]),
              ("税务回信", [("起草回信", "尊敬的先生：……"), ("再短一些", "尊敬的先生：……")])],
}


def parent(out: Path) -> int:
    sys.path.insert(0, str(HERE))
    from screenshots_everyday import each_size_and_language

    return each_size_and_language(__file__, out, SIZES, LANGUAGES, CHILD, "turnlog-sync-")


def machines(home: Path, language: str) -> None:
    """laptop (`home`), office-pc and mini-pc on one sync folder; a conversation of laptop
    deleted everywhere after office-pc last synced, mini-pc synced since."""
    from turnlog.service.sync_runner import sync_data_directory
    from turnlog.service.sync_setup import set_up
    from turnlog.store import TurnlogStore
    from turnlog.sync.storage import StorageConfig
    from uihelpers import seed

    folder = home / "Sync"  # all in the picture's data directory, gone with it
    folder.mkdir()
    config = StorageConfig("folder", str(folder))
    others = [home / "other machines" / name for name in ("office-pc", "mini-pc")]
    with TurnlogStore.open(home) as store:
        made = [seed(store, title, pairs) for title, pairs in WORDS[language]]
    set_up(home, config, None, b"tulips in autumn", "laptop")
    for other, name in zip(others, ("office-pc", "mini-pc"), strict=True):
        other.mkdir(parents=True)
        set_up(other, config, None, b"tulips in autumn", name)

    def sync(where: Path) -> None:
        with TurnlogStore.open(where) as store:
            sync_data_directory(store)

    for where in (home, *others, home):
        sync(where)
    with TurnlogStore.open(home) as store:
        store.sync_feed.delete_conversations([made[1].id], everywhere=True)
    sync(home)
    sync(others[1])  # mini-pc reads the delete; office-pc has not synced since


def child(out: Path, language: str) -> int:
    sys.path.insert(0, str(HERE))
    from PySide6.QtGui import QGuiApplication

    from screen_steps import close_down, settle, start_in, until
    from turnlog.config.paths import data_dir
    from turnlog.config.profiles import ProfileStore
    from turnlog.config.secrets import SessionKeys
    from turnlog.store import TurnlogStore
    from turnlog.sync.crypto import ENV_LIGHT_KDF
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConnector
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.sync_control import SyncTimes
    from turnlog.ui.shell.window import MainWindow

    os.environ[ENV_LIGHT_KDF] = "1"  # the pictures need no strong key
    machines(data_dir(), language)  # before the start: the window finds them there
    home, remembered, app = start_in(language)
    screen = QGuiApplication.primaryScreen()
    size = f"{screen.geometry().width()}x{screen.geometry().height()}"

    store = TurnlogStore.open(home)
    setup = ProviderSetup(ProfileStore(home), remembered, keyring=SessionKeys())
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    window.setGeometry(screen.availableGeometry())
    window.show()
    window.sync.retime(SyncTimes(first=50))
    window.sync.start()
    until(lambda: window.sync.last_done_at is not None)
    dialog = window.open_settings()
    until(dialog.isVisible)
    dialog.show_sync_page()
    page = dialog.sync_page
    until(lambda: page.current() is page.overview
          and page.overview.pending.count() == 1 and page.overview.state_line.text() != "")
    settle(500)
    path = out / f"sync-{language}-{size}.png"
    screen.grabWindow(0).toImage().save(str(path))
    print("saved", path)
    dialog.reject()
    close_down(window, store)
    del app
    return 0


if __name__ == "__main__":
    run_script(parent, child, places.ROOT / "resources" / "screenshots" / "sync", CHILD)
