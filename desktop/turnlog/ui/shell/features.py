"""The window's features, each handed the parts it works with: the docks beside the
inspector (Memory, Side questions), the tool approval card, and the conversation's
controls (first send, versions, partial answers, titles, the welcome). Only the shell
reads the window's attributes; a feature never sees the window itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QStatusBar, QWidget

from ...core.model import Conversation
from ...core.numbers import ordinal_in_use
from ...core.outcome import Committed
from ...core.tools import Approval
from ...store import TurnlogStore
from ..conversation.actions import HistoryActions
from ..conversation.banner import FailureBanner
from ..conversation.centre import CentrePanel
from ..conversation.composer import Composer
from ..conversation.drafts import DraftKeeper
from ..conversation.first_minute import FirstMinute
from ..conversation.first_send import FirstSendParts, FirstSendUndo
from ..conversation.from_assistant import AssistantStarter
from ..conversation.partial_answers import HandOff, PartialAnswers, PartialParts
from ..conversation.parts import HistoryParts, SendParts
from ..conversation.spend import ConversationSpend
from ..conversation.titles import ConversationTitles, TitleParts
from ..conversation.tool_approval import ApprovalCard
from ..conversation.versions import VersionControls, VersionParts
from ..dialogs.privacy import Confirmation, Decision, forget_summaries_question
from ..infra import operations
from ..infra.changes import ChangeHub, Changes, OpenChange, OpenState
from ..infra.docks import FrontTabClicks, add_dock, panel_toggle
from ..infra.languages import arg
from ..infra.open_log import OpenLog
from ..infra.tasks import TaskRunner
from ..infra.titles import conversation_title
from ..panels.folder_actions import FolderActions, FolderParts
from ..panels.memory.dock import MemoryDock, MemoryParts
from ..panels.sidebar import Sidebar
from ..panels.turn_matches import TurnMatches
from ..request.compaction_history import CompactionHistory, CompactionHistoryPanel
from ..request.connection import Connector
from ..request.inspector import Inspector
from ..request.live_preview import LivePreview
from ..request.past_request import PastRequests
from ..request.provider_setup import ProviderSetup
from ..request.send_session import SendSession, ToolProblems
from ..request.tool_gate import ToolGate
from ..transcript.model import TranscriptModel
from ..transcript.view import TranscriptView
from .geometry import DockFolding
from .lazy_docks import LazyDock, empty_panel
from .ready import WarmUp
from .sync_control import SyncControl, SyncTimes

if TYPE_CHECKING:  # loaded when Settings first opens, or the panel first shows
    from ..dialogs.settings import SettingsDialog
    from ..panels.search import SearchDock
    from ..panels.side.questions import SideQuestions

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


class WindowParts(Protocol):
    """What the features are built from (the main window, which imports this module)."""

    store: TurnlogStore
    runner: TaskRunner
    connector: Connector
    setup: ProviderSetup | None
    conversation: Conversation | None
    session: SendSession
    history: HistoryActions
    changes: ChangeHub
    open_state: OpenState
    preview: LivePreview
    drafts: DraftKeeper
    centre: CentrePanel
    composer: Composer
    banner: FailureBanner
    transcript: TranscriptModel
    view: TranscriptView
    sidebar: Sidebar
    inspector: Inspector
    inspector_dock: QDockWidget
    past_requests: PastRequests
    folding: DockFolding
    first_send: FirstSendUndo
    versions: VersionControls
    titles: ConversationTitles
    confirm: Callable[[Confirmation], Decision]

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name

    def say_about(self, conversation_id: int, text: str) -> None: ...

    def open_settings(self) -> SettingsDialog | None: ...

    def refresh_conversations(self, select_id: int | None = None) -> None: ...

    def refresh_preview(self) -> None: ...

    def _storage_failed(self, error: BaseException) -> None: ...

    def _close_conversation(self) -> None: ...


def _status(host: WindowParts) -> Callable[[str], None]:
    return lambda text: host.statusBar().showMessage(text)  # the bar is made lazily


def _log(host: WindowParts) -> OpenLog:
    return OpenLog(host.store, host.runner, host.changes, host.open_state)


def _sending(host: WindowParts) -> SendParts:
    return SendParts(host.session, host.preview, host.composer, host.banner)


def _history(host: WindowParts) -> HistoryParts:
    return HistoryParts(host.transcript, host.view)


# ------------------------------------------------------------------ the conversation
def folder_actions(host: WindowParts, parent: QWidget) -> FolderActions:
    """The sidebar's folders, stars and several conversations chosen at once."""
    return FolderActions(FolderParts(_log(host), lambda question: host.confirm(question),
                                     host.session, host.sidebar), parent)


def first_send_undo(host: WindowParts, parent: QObject) -> FirstSendUndo:
    """A failed first send leaves nothing behind."""
    return FirstSendUndo(FirstSendParts(
        _log(host), host.session, host.composer, host.banner, host.history.default_model,
        host._storage_failed), parent)


def version_controls(host: WindowParts, parent: QObject) -> VersionControls:
    """Regenerate, edit and resend, use this version, fork from here."""
    return VersionControls(VersionParts(
        _log(host), _sending(host), _history(host), host.centre,
        lambda question: host.confirm(question), _status(host)), parent)


def partial_answers(host: WindowParts, parent: QObject) -> PartialAnswers:
    """Keep or Continue a stopped answer."""
    return PartialAnswers(PartialParts(
        _log(host), _sending(host), _history(host),
        HandOff(host.drafts, host.first_send, host.versions), _status(host), host.say_about),
        parent)


def conversation_titles(host: WindowParts, parent: QObject) -> ConversationTitles:
    """Conversations named after their first question (or by the model)."""
    def shown() -> list[Conversation]:  # the open one first: the list's may be older
        opened = host.conversation
        return [*([opened] if opened is not None else []), *host.sidebar.model.items]

    return ConversationTitles(TitleParts(_log(host), host.connector, host.setup,
                                         host.session, shown), parent)


def conversation_spend(host: WindowParts, parent: QObject) -> ConversationSpend:
    """What the open conversation cost, in its header and on its turns' hover."""
    return ConversationSpend(_log(host), host.centre.header, host.transcript, host.preview,
                             parent, view=host.centre.view)


def first_minute(host: WindowParts, parent: QObject) -> FirstMinute:
    """The welcome's buttons."""
    return FirstMinute(host.centre.welcome, host.setup, host.changes, host.composer,
                       host.open_settings, parent)


# ------------------------------------------------------------------------ the docks
def _beside_inspector(window: QMainWindow, host: WindowParts, dock: QDockWidget) -> None:
    window.tabifyDockWidget(host.inspector_dock, dock)  # a tab beside the inspector
    host.folding.also_fold(dock)  # a narrow window folds it away with the inspector
    host.inspector_dock.raise_()  # the request inspector stays in front until asked aside


def attach_side_questions(window: QMainWindow, host: WindowParts) -> LazyDock[SideQuestions]:
    """The "Side questions" dock on the right of `window`; its panel, and what runs side
    questions, are built when the dock first shows or the composer asks aside."""
    def build(dock: QDockWidget) -> SideQuestions:
        from ..panels.side.panel import SidePanel
        from ..panels.side.questions import SideParts, SideQuestions

        panel = SidePanel(window)
        dock.setWidget(panel)
        side = SideQuestions(panel, SideParts(
            _log(host), host.connector, lambda: host.session.running, host.composer,
            host.transcript, host.preview), _status(host), window)
        host.history.closing.connect(side.closing)
        host.titles.yield_to(side.session)
        return side

    holder = LazyDock(_lazy_dock(window, host, translate("SidePanel", "Side questions"),
                                 "sideDock"), build)
    host.composer.aside_requested.connect(holder.dock.raise_)
    host.composer.aside_requested.connect(lambda: holder.get().ask_from_composer())

    def chosen(dock: QDockWidget) -> None:
        # Its tab chosen, or clicked while in front, in a window in use: what is typed next
        # is a side question, not a turn sent into the conversation from the composer that
        # kept the focus.
        if dock is holder.dock and window.isActiveWindow():
            holder.get().panel.edit.setFocus()
    window.tabifiedDockWidgetActivated.connect(chosen)
    FrontTabClicks(window).clicked.connect(chosen)
    return holder


def _lazy_dock(window: QMainWindow, host: WindowParts, title: str, name: str) -> QDockWidget:
    dock = add_dock(window, title, name, empty_panel(), Qt.DockWidgetArea.RightDockWidgetArea)
    _beside_inspector(window, host, dock)
    return dock


def attach_memory(window: QMainWindow, host: WindowParts,
                  view_menu: QMenu) -> tuple[MemoryDock, QDockWidget]:
    """The Memory dock (a tab beside the inspector; View → Memory), wired; the transcript's
    menu gains Pin from this turn… The memory is kept in step from the start; its panel
    is built when the dock first shows."""
    dock = add_dock(window, translate("MemoryPanel", "Memory"), "memoryDock", empty_panel(),
                    Qt.DockWidgetArea.RightDockWidgetArea, scrolls=True)
    _beside_inspector(window, host, dock)
    memory = MemoryDock(dock, MemoryParts(
        _log(host), host.preview, _history(host), host._storage_failed, _status(host)),
        window)
    host.inspector.pin_requested.connect(memory.pin_text)
    view_menu.addAction(panel_toggle(dock, translate("MemoryPanel", "&Memory"),
                                     "Ctrl+Shift+M", memory.go_to))
    action = QAction(translate("MemoryPanel", "Pin from this turn…"), host.view)
    action.setShortcut("Ctrl+Shift+P")
    action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    action.triggered.connect(memory.pin_from_current_turn)
    host.view.addAction(action)
    memory.pin_action = action
    return memory, dock


def _summary_and_turns(host: WindowParts) -> tuple[int | None, int]:
    summary = host.preview.summary
    return (summary.id if summary is not None else None), len(host.transcript.turns)


def attach_compaction_history(window: QMainWindow, host: WindowParts, view_menu: QMenu
                              ) -> CompactionHistory:
    """The "Compaction history" dock (a tab beside the inspector; View → Compaction
    history): every summary kept, and the summary in use to edit or undo; a turn number
    in it goes to that turn as Go to turn does."""
    panel = CompactionHistoryPanel(window)
    dock = add_dock(window, translate("CompactionHistory", "Compaction history"),
                    "compactionDock", panel, Qt.DockWidgetArea.RightDockWidgetArea)
    _beside_inspector(window, host, dock)
    history = CompactionHistory(panel, host.store, host.runner, host.changes,
                                lambda: (host.conversation, _summary_and_turns(host)),
                                host.preview.refresh, host._storage_failed,
                                lambda earlier: host.confirm(
                                    forget_summaries_question(earlier)).accepted, window)
    host.preview.shown_changed.connect(lambda _shown: history.follow())

    def go_to_turn(number: int) -> None:
        ordinal = ordinal_in_use(host.transcript.versions, number)
        host.folding.back_to_conversation()
        host.view.reveal_ordinal(ordinal)

    history.turn_requested.connect(go_to_turn)
    history.request_requested.connect(host.past_requests.open)
    history.dock = dock
    view_menu.addAction(panel_toggle(dock, translate("CompactionHistory", "Compaction &history"),
                                     "", history.reload))
    return history


def attach_search(window: QMainWindow, host: WindowParts,
                  view_menu: QMenu) -> LazyDock[SearchDock]:
    """The search panel (Ctrl+Shift+F): a hidden tab beside the inspector, the widest side
    panel, at 1280 as at 1024 wide, so a hit's title, "turn N", date and snippet lines all
    have room; a hit opens its conversation at its turn. The panel is built when first
    opened; the matches in the open conversation (F3, Shift+F3) are there from the start."""
    dock = QDockWidget(translate("SearchPanel", "Search"), window)
    dock.setObjectName("searchDock")
    dock.setAccessibleName(translate("SearchPanel", "Search"))
    dock.setWidget(empty_panel())
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.tabifyDockWidget(host.inspector_dock, dock)
    host.folding.also_fold(dock)
    dock.hide()
    host.inspector_dock.raise_()  # hidden, it left the front

    def note(text: str) -> None:
        bar = host.statusBar()
        if text:
            bar.showMessage(text)
        else:
            bar.clearMessage()

    matches = TurnMatches(host.view, note, window)
    action = QAction(translate("SearchPanel", "Search all &text…"), window)
    action.setShortcut(QKeySequence("Ctrl+Shift+F"))
    action.setStatusTip(translate("SearchPanel", "Find a turn in any conversation by its words"))

    def build(dock: QDockWidget) -> SearchDock:
        from ..panels.search import JumpParts, SearchDock, SearchPanel, TurnJump

        panel = SearchPanel(host.store, host.runner, window)
        dock.setWidget(panel)
        jump = TurnJump(JumpParts(
            lambda: host.conversation, lambda: host.session.running, host.sidebar,
            lambda cid: host.refresh_conversations(select_id=cid), host.transcript, host.view),
            matches)
        return SearchDock(panel, dock, host.inspector_dock, jump, action)

    holder = LazyDock(dock, build)
    action.triggered.connect(lambda _checked=False: holder.get().open())
    for each in (action, matches.next_action, matches.previous_action):
        view_menu.addAction(each)
    return holder


def attach_tools(window: QMainWindow, host: WindowParts) -> tuple[ToolGate, ApprovalCard]:
    """The window's tool servers and the approval card above its composer, wired; the
    servers stop when the window goes."""
    gate = ToolGate(host.store.home, window)
    host.session.tools = gate
    host.preview.tools = gate  # the preview offers what a send offers
    card = ApprovalCard(host.centre)
    column = host.centre.layout()
    column.insertWidget(column.indexOf(host.banner), card)  # type: ignore[attr-defined]
    gate.approval_needed.connect(card.ask)
    gate.approval_over.connect(card.hide)
    card.answered.connect(gate.answer)

    def remember(approval: Approval) -> None:
        conversation_id = host.session.conversation_id
        if approval is Approval.ALWAYS and card.call is not None and conversation_id:
            operations.allow_tool_always(host.store, conversation_id, card.call.name).announce(
                host.runner, host.changes, card, on_failure=host.history.failed.emit)

    card.answered.connect(remember)

    def say_problems(problems: ToolProblems) -> None:
        text = "; ".join(arg(translate("ToolApproval", "%1 %2"), name, what)
                         for name, what in problems.servers)
        host.statusBar().showMessage(arg(translate(
            "ToolApproval", "Sent without the tools of: %1 (Settings → Tools)"), text), 30_000)

    host.session.tool_problems.connect(say_problems)
    window.destroyed.connect(gate.hosting.close)
    app = QCoreApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(gate.close)
    return gate, card


def from_assistant(window: QMainWindow, host: WindowParts) -> AssistantStarter:
    """New from an assistant: File → New from assistant, Ctrl+Shift+N and the New
    button's menu (the button itself still starts a plain conversation)."""
    gate = host.session.tools
    starter = AssistantStarter(host.store, host.runner, host.changes, host.connector,
                               lambda: gate.servers.list() if gate is not None else [],
                               window, setup=host.setup)
    starter.status.connect(_status(host))
    starter.failed.connect(host._storage_failed)
    button = host.sidebar.new_button
    menu = QMenu(button)
    menu.setObjectName("newButtonMenu")
    menu.aboutToShow.connect(lambda: starter.fill(menu))
    button.setMenu(menu)
    button.setPopupMode(button.ToolButtonPopupMode.MenuButtonPopup)
    return starter


def when_ready(window: QMainWindow, host: WindowParts, view_menu: QMenu, *,
               held: bool = False) -> tuple[WarmUp, SyncControl]:
    """What starts once the first screen is up (`WarmUp`), the window's syncs last; `held`:
    what that screen does not show waits for it too (`WarmUp.after`), as at a start."""
    control = attach_sync(window, host, view_menu)
    warm_up = WarmUp(host.session, host.setup, control.start)
    if held:
        warm_up.hold()
    return warm_up, control


def attach_sync(window: QMainWindow, host: WindowParts, view_menu: QMenu,
                times: SyncTimes | None = None) -> SyncControl:
    """Sync in the window (when the data directory has it set up): its button in the status
    bar, View → Sync now, a sync after each committed change; what a sync brought in shown."""
    control = SyncControl(host.store, host.runner,
                          lambda: host.conversation.id if host.conversation else None,
                          window.statusBar, times, window)
    view_menu.addAction(control.action)
    host.session.finished.connect(
        lambda result: control.changed() if isinstance(result.outcome, Committed) else None)
    host.changes.changed.connect(lambda _changes, _origin: control.changed())
    control.synced.connect(lambda done: _show_synced(host, done.open_gone))
    control.settings_wanted.connect(lambda: _open_sync_settings(host))
    return control


def _open_sync_settings(host: WindowParts) -> None:
    """Settings → Sync (the status bar's button, when a sync needs the person)."""
    dialog = host.open_settings()
    if dialog is not None:
        dialog.show_sync_page()


def _show_synced(host: WindowParts, open_gone: bool) -> None:
    """Records came in from other machines: the list as it is now; the open conversation
    closed with a plain message if a delete everywhere removed it (what was typed stays in
    the box), else its turns and title read again."""
    conversation = host.conversation
    if conversation is not None and open_gone:
        host.drafts.forget(Changes(deleted=frozenset({conversation.id})))  # its draft file
        host._close_conversation()
        host.statusBar().showMessage(translate(
            "Sync", "The conversation you had open was deleted on another machine."))
        host.refresh_conversations()
        return
    host.refresh_conversations()
    conversation, listed = host.conversation, host.sidebar.current()
    if conversation is None or host.session.running:
        return  # a send commits into the log it read; the next sync shows the rest
    if listed is not None and listed.id == conversation.id:
        host.changes.ask(OpenChange.opening(listed), host)  # as it is stored now: renamed
        conversation = listed
    host.centre.title.setText(conversation_title(conversation))
    cid = conversation.id

    def loaded(found: operations.Loaded) -> None:
        now = host.conversation
        if now is not None and now.id == cid and not host.session.running:
            host.changes.ask(OpenChange.summary_read(cid, found.summary), host)  # one synced too
            host.transcript.set_turns(found.turns)
            host.refresh_preview()  # the turns read again carry their marks again

    operations.load_conversation(host.store, cid).run(
        host.runner, on_success=loaded, on_failure=host._storage_failed)
