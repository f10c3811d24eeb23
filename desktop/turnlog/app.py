"""Start-up: the application object, fonts, logging, the crash hook, the store, the window."""

from __future__ import annotations

import faulthandler
import gc
import logging
import logging.handlers
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .system import compiled_methods
from .ui.infra import enum_classes, support_code

# Before PySide6 loads: the enum classes it makes for each Qt class it loads, made the
# standard library's quicker way (`enum_classes`)
enum_classes.quicken()
# What this start compiles and keeps for the next: PySide's support modules now, the
# dataclass methods of the window's modules once `_run` installs it (`compiled_methods`)
KEPT_CODE = compiled_methods.CompiledMethods(compiled_methods.kept_path())

with support_code.kept(KEPT_CODE):  # PySide's support modules, compiled at an earlier start
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication, QIcon, QPixmap
    from PySide6.QtWidgets import QApplication

from .ui.infra.module_scan import kept_answers, quicken  # noqa: E402

# Before Turnlog's modules load: PySide6 looks at each module imported from now on,
# answered from the file, or from what an earlier start kept of it (`module_scan`)
SCAN_ANSWERS = kept_answers()
quicken(SCAN_ANSWERS)

from . import APP_ID, APP_NAME  # noqa: E402
from .config.paths import ENV_HOME, LOG_NAME, PRIVATE_UMASK, data_dir, log_dir  # noqa: E402
from .resources import ICON_SIZES, app_icon_png  # noqa: E402
from .ui.infra.fonts import CJK_FAMILIES, configure_fonts  # noqa: E402

__all__ = ["CJK_FAMILIES", "application", "configure_fonts", "main"]

if TYPE_CHECKING:
    from .core.failures import StoreError
    from .store import TurnlogStore
    from .ui.shell.window import MainWindow

log = logging.getLogger(__name__)

ORGANIZATION = "Turnlog"
ORGANIZATION_DOMAIN = "turnlog.github.io"
FAULT_LOG = "faults.log"
WARM_UP_LATEST_MS = 3_000
FAULT_STREAMS: list[TextIO] = []  # open for the life of the process, as faulthandler needs


def configure_logging(home: Path) -> bool:
    """Log to logs/turnlog.log; False (and no file logging) where it cannot be written,
    such as a read-only data directory: that is told by the start-up dialog, not here."""
    root = logging.getLogger()
    if any(getattr(h, "turnlog", False) for h in root.handlers):
        return True
    try:
        handler = logging.handlers.RotatingFileHandler(
            log_dir(home) / LOG_NAME, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
        )
    except OSError as err:
        log.warning("Could not write the log in %s: %s", home, err)
        return False
    handler.turnlog = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return True


def packaged_icon() -> QIcon:
    """The icon shipped inside the package, at the usual sizes (empty if the installation
    cannot be read). Its PNG renders, not its SVG: Qt's SVG reader is not loaded for it."""
    icon = QIcon()
    for size in ICON_SIZES:
        pixmap = QPixmap()
        if pixmap.loadFromData(app_icon_png(size), "PNG"):
            icon.addPixmap(pixmap)
    if icon.isNull():
        log.warning("the packaged icon could not be read; the window has no icon")
    return icon


def enable_fault_log(home: Path) -> Path | None:
    """Hard crashes (a segfault in Qt, an abort) leave a Python traceback in logs/ (on
    standard error where logs/ cannot be written; then None).

    The file stays open for the life of the process, as faulthandler requires."""
    try:
        path = log_dir(home) / FAULT_LOG
        stream = path.open("a", encoding="utf-8")
    except OSError:
        with suppress(RuntimeError, ValueError, AttributeError, OSError):
            faulthandler.enable(all_threads=True)  # no standard error (a GUI launch): none
        return None
    faulthandler.enable(file=stream, all_threads=True)
    FAULT_STREAMS.append(stream)
    return path


def application(argv: Sequence[str]) -> QApplication:
    """The QApplication with Turnlog's identity, fonts and message routing (its version:
    `name_version`, once the first screen is up)."""
    from .ui.faults.crash import route_qt_messages

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(list(argv))
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setOrganizationName(ORGANIZATION)
    app.setOrganizationDomain(ORGANIZATION_DOMAIN)
    QGuiApplication.setDesktopFileName(APP_ID)
    # The desktop's icon theme wins where it has ours installed; else the packaged copy.
    app.setWindowIcon(QIcon.fromTheme(APP_ID, packaged_icon()))
    route_qt_messages()
    configure_fonts(app)
    return app


def open_window(store: TurnlogStore, home: Path, *, n_ctx: int | None = None,
                first_screen: bool = False) -> MainWindow:
    """The main window over `store`, wired to the active provider profile.

    `n_ctx`: the built-in model's context window (None: its default). On the first
    start where the built-in model can run, its profile is added (once:
    a user who removes it keeps it removed). Its server starts on the first question
    and stops in `MainWindow.shutdown`. `first_screen`: what that screen does not show
    waits for `warm_up`, which the start calls once the screen is up.
    """
    from .config.model_counts import ModelCounts
    from .config.model_facts import FactStore
    from .config.profiles import ProfileStore
    from .service.connect import LocalModels
    from .ui.infra.tasks import TaskRunner
    from .ui.request.connection import ProviderConnector
    from .ui.request.provider_setup import ProviderSetup
    from .ui.shell.window import MainWindow, window_settings

    profiles = ProfileStore(home)
    if profiles.offer_builtin() is not None:
        log.info("added the built-in local model profile")
    local = LocalModels(log_dir=log_dir(home)) if n_ctx is None else \
        LocalModels(n_ctx=n_ctx, log_dir=log_dir(home))
    setup = ProviderSetup(profiles, window_settings(home), local=local)
    connector = ProviderConnector(setup.config, setup.keys, local=local,
                                  counts=ModelCounts(FactStore.in_dir(home)),
                                  removed=setup.gone)
    return MainWindow(store, TaskRunner(), connector, setup=setup, first_screen=first_screen)


class LazyUpgradeProgress:
    """`UpgradeProgress` (an upgrade that indexes shows its progress), loaded with its
    dialog when an upgrade first reports: most starts upgrade nothing."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self._progress: Callable[[int, int], None] | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._progress is None:
            from .ui.faults.startup import UpgradeProgress

            progress = UpgradeProgress()
            progress.started = self.started  # counted from the open, as it always was
            self._progress = progress
        self._progress(done, total)


def open_data() -> tuple[Path, TurnlogStore | StoreError]:
    """The data directory and its store, or the named fault that keeps it from opening
    (a read-only folder or file, a damaged or locked database, one from a newer Turnlog).
    Logging starts here, where it can: a folder that cannot hold logs/ is no traceback.

    The store's modules load only here, after `_run` has installed the kept methods of
    their dataclasses (`system.compiled_methods`)."""
    from .core.failures import StoreError
    from .store import TurnlogStore
    from .store.errors import file_fault
    from .ui.infra.languages import install_for

    try:
        home = data_dir()
    except OSError as err:
        known = file_fault(err)
        if known is None:
            raise
        install_for(None)  # the system's language: there is no choice to read
        return Path(err.filename or os.environ.get(ENV_HOME, ".")), known
    if configure_logging(home):
        enable_fault_log(home)
    language = install_for(home)  # the interface language, before the first dialog
    app = QGuiApplication.instance()
    if isinstance(app, QGuiApplication):
        configure_fonts(app, language)  # its CJK shapes first (TC for zh_TW)
    try:
        return home, TurnlogStore.open(home, progress=LazyUpgradeProgress())
    except StoreError as err:
        return home, err
    except OSError as err:
        known = file_fault(err)
        if known is None:
            raise
        return home, known


def smoke_test(argv: list[str]) -> int:
    """`turnlog --smoke-test`: the window on a temporary data directory sends one question
    to the built-in model; 0 once a turn is committed and read back from the database."""
    from .core.failures import StoreError
    from .ui.shell.smoke import SmokeRun

    with tempfile.TemporaryDirectory(prefix="turnlog-smoke-") as temp:
        os.environ[ENV_HOME] = temp
        os.umask(PRIVATE_UMASK)
        app = application(argv)
        home, store = open_data()
        if isinstance(store, StoreError):
            print(f"smoke test: cannot open {home}: {store}", file=sys.stderr)
            return 1
        window = open_window(store, home)
        name_version(app)
        run = SmokeRun(window)
        window.show()
        try:
            status = run.exec(app)
        finally:
            window.shutdown()
            store.close()
        return run.check_committed(home) if status == 0 else status


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    if "--version" in argv[1:]:
        from .ui.dialogs.about import version_text

        print(version_text())
        return 0
    if "--smoke-test" in argv[1:]:
        return smoke_test(argv)
    os.umask(PRIVATE_UMASK)  # window.ini, logs, the database: the user's alone
    gc.disable()  # until the first screen is up: see `collect_again`
    try:
        return _run(argv)
    finally:
        collect_again()


def collect_again() -> None:
    """The cyclic garbage collector, paused while the window's modules load and its first
    screen is built (thousands of long-lived objects, next to no garbage: each pass then
    only walks what stays), runs again; what the start made is frozen out of its later
    passes, so a full pass while an answer streams walks only what came after."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _run(argv: list[str]) -> int:
    # Before the window's modules: their dataclasses' methods, compiled at an earlier start
    methods = compiled_methods.install(KEPT_CODE)
    from .core.failures import StoreError
    from .ui.faults.crash import ExceptHook
    from .ui.infra.languages import restart_requested

    app = application(argv)
    hook = ExceptHook()
    hook.install()
    home, store = open_data()
    if isinstance(store, StoreError):
        from .ui.faults.startup import show_startup_fault

        log.warning("Cannot open the data in %s: %s", home, store)
        collect_again()
        return show_startup_fault(store, home)
    from .ui.shell.ending import EndOnSignals
    from .ui.shell.geometry import fit_first_window  # only now: a failed start needs no more
    from .ui.shell.ready import FirstScreen

    # What the first screen does not show waits until it is up: the draft's preview, the
    # whole file's check (seconds for a large log read from disk the first time)
    window = open_window(store, home, first_screen=True)
    ending = EndOnSignals(window)  # a logout's SIGTERM closes the window as a click would
    fit_first_window(window)  # its frame too, once the window manager has put one round it
    hook.secrets = lambda: list(window.connector.secrets())  # keys it handled, redacted
    window.show()
    # The keyboard's shortcuts work from the first key: the window asks to be the active
    # one (a window manager usually makes it so; with none, only a click would).
    window.raise_()
    window.activateWindow()
    # What the first screen does not need starts once it is up (at the latest after
    # WARM_UP_LATEST_MS, if what it waits for never comes: a conversation without turns).
    first = FirstScreen(window.view, window.composer.edit, lambda: window.conversation is not None)
    first.shown.connect(collect_again)
    first.shown.connect(window.warm_up)
    first.shown.connect(lambda: name_version(app))
    first.shown.connect(methods.keep)  # for the next start (only what this one compiled)
    first.shown.connect(SCAN_ANSWERS.keep)
    QTimer.singleShot(WARM_UP_LATEST_MS, window, collect_again)
    QTimer.singleShot(WARM_UP_LATEST_MS, window, window.warm_up)
    try:
        status = app.exec()
    finally:
        ending.release()
        window.shutdown()  # stops the built-in model's server too, after an error as well
        store.close()
        methods.keep()  # and what the dialogs opened since compiled
        SCAN_ANSWERS.keep()
    if status == 0 and restart_requested():  # View → Language: Restart now
        relaunch(argv)
    return status


def name_version(app: QApplication) -> None:
    """Tell Qt the application's version: read from the installed metadata, which takes
    tens of milliseconds that the first screen does not wait for."""
    from . import __version__

    app.setApplicationVersion(__version__)


def relaunch(argv: Sequence[str]) -> None:
    """Start Turnlog again in this process, with the same arguments (the data is closed)."""
    from .system import children  # the one way a child process starts

    log.info("starting again")
    logging.shutdown()
    children.start_again([sys.executable, "-m", "turnlog", *argv[1:]])


if __name__ == "__main__":
    raise SystemExit(main())
