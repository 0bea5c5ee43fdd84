// The monkey test: the real MainWindow on the demo scene, offscreen, driven by a few thousand
// random user events drawn from a fixed seed: clicks, drags, double-clicks and wheel turns in
// the viewport; the tool, edit, view and simulation keys; Play/Pause; edits in the property
// panel, the group list, the undo history and the toolbar. Message boxes are answered by the
// window's presenter, file choosers cancel (and the File actions are never used), and a timer
// closes any other modal dialog or popup, so nothing waits for a user.
//
// It fails on a crash or a sanitizer report, on an event loop that does not run a queued call
// within 2 s (probed every few events), on an event that does not return within a minute, and
// when undoing every edit does not give back the scene as opened. Every failure names the event
// (its index and what it was). SHOAL_MONKEY_SEED and SHOAL_MONKEY_EVENTS choose the run (the
// sanitizer build runs fewer events): a seed gives the same events in the same order (while
// it plays, the simulation steps with the clock, as in the editor).

#include "document/document.h"
#include "document/groupselection.h"
#include "panels/grouplistpanel.h"
#include "panels/layergrid.h"
#include "panels/paramrow.h"
#include "panels/propertypanel.h"
#include "simulation/simulationcontroller.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMenu>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <QUndoView>
#include <QWheelEvent>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <thread>
#include <unistd.h>

using namespace shoal;
using namespace shoal::ui;

// Set by the sanitizer runtimes (ASan, UBSan): called before they end the process with a
// report. Weak, so the test links without them.
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

namespace {

constexpr std::uint64_t kDefaultSeed = 20240610;
constexpr int kDefaultEvents = 2000;
constexpr int kProbeEvery = 25;            ///< events between two event-loop probes
constexpr int kProbeTimeoutMs = 2000;      ///< a queued call must run within this
constexpr int kHangSeconds = 60;           ///< one event that takes longer is a hang
constexpr std::size_t kAgentBudget = 5000; ///< above it, the next event is an undo

int environmentInt(const char* name, int fallback)
{
    const QByteArray value = qgetenv(name);
    bool ok = false;
    const long long parsed = value.toLongLong(&ok);
    return ok && parsed > 0 ? int(parsed) : fallback;
}

/// The event going on, where a signal handler, the sanitizers' death callback and the hang
/// watchdog can read it: a fixed buffer written before each event.
struct CurrentEvent
{
    static inline char text[512] = "before the first event";
    static inline std::atomic<std::int64_t> startedMs{0}; ///< 0: no event yet

    static std::int64_t nowMs()
    {
        using namespace std::chrono;
        return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
    }
    static void set(int index, const QString& what)
    {
        std::snprintf(text, sizeof text, "event %d: %s", index, qPrintable(what));
        startedMs = nowMs();
    }
    /// Async-signal-safe: write(2) only.
    static void printTo(int fd, const char* prefix)
    {
        [[maybe_unused]] auto a = ::write(fd, prefix, std::strlen(prefix));
        [[maybe_unused]] auto b = ::write(fd, text, std::strlen(text));
        [[maybe_unused]] auto c = ::write(fd, "\n", 1);
    }
};

void onSanitizerDeath()
{
    CurrentEvent::printTo(2, "\nmonkey: a sanitizer stopped the test during ");
}

struct sigaction g_previous[32];

/// A crash names the event, then the signal goes on to the handler that was there before (the
/// sanitizers' report, or the default action).
void onCrashSignal(int signal)
{
    CurrentEvent::printTo(2, "\nmonkey: crashed (signal) during ");
    sigaction(signal, &g_previous[signal], nullptr);
    if (signal == SIGABRT)
        std::raise(signal);
}

void nameTheEventOnCrash()
{
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(&onSanitizerDeath);
    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        struct sigaction action = {};
        action.sa_handler = onCrashSignal;
        sigemptyset(&action.sa_mask);
        sigaction(signal, &action, &g_previous[signal]);
    }
}

/// Aborts the test, naming the event, when one event has not returned for kHangSeconds (the
/// event loop cannot probe itself while it is stuck in a handler).
class HangWatchdog
{
public:
    HangWatchdog()
        : m_thread([this] {
              while (!m_stop) {
                  std::this_thread::sleep_for(std::chrono::milliseconds(200));
                  const std::int64_t started = CurrentEvent::startedMs;
                  if (started > 0 && CurrentEvent::nowMs() - started > kHangSeconds * 1000) {
                      CurrentEvent::printTo(2, "\nmonkey: no return for a minute from ");
                      std::_Exit(3);
                  }
              }
          })
    {
    }
    ~HangWatchdog()
    {
        m_stop = true;
        m_thread.join();
    }

private:
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

/// Closes whatever modal dialog or popup menu the events opened, from the event loop (the
/// nested loops of QMenu::exec() and QDialog::exec() included), so no event waits for a user.
class ModalCloser : public QObject
{
public:
    ModalCloser()
    {
        m_timer.setInterval(20);
        connect(&m_timer, &QTimer::timeout, this, [this] { closeAll(); });
        m_timer.start();
    }
    void closeAll()
    {
        for (int guard = 0; guard < 8; ++guard) {
            QWidget* widget = QApplication::activePopupWidget();
            if (!widget)
                widget = QApplication::activeModalWidget();
            if (!widget)
                return;
            widget->close();
            ++m_closed;
        }
    }
    int closed() const { return m_closed; }

private:
    QTimer m_timer;
    int m_closed = 0;
};

/// Draws the events and sends them. Every choice comes from one generator seeded once, so a
/// seed gives the same events; what is on screen (rows, buttons) decides only among them.
class Monkey
{
public:
    Monkey(MainWindow& window, std::uint64_t seed)
        : m_window(window), m_view(window.view()), m_random(seed),
          m_panel(window.findChild<PropertyPanel*>()),
          m_groups(window.findChild<GroupListPanel*>()), m_undo(window.findChild<QUndoView*>()),
          m_toolBar(window.findChild<QToolBar*>(QStringLiteral("mainToolBar")))
    {
    }

    bool ready() const { return m_view && m_panel && m_groups && m_undo && m_toolBar; }

    /// Sends one random event; returns what it was.
    QString act()
    {
        const World* world = m_window.simulation()->world();
        if (world && world->agentCount() > kAgentBudget)
            return key(Qt::Key_Z, Qt::ControlModifier, "undo (agent budget)");
        // Weights: the viewport most, then the keys, then the docks.
        const std::pair<int, std::function<QString()>> actions[] = {
            {14, [this] { return click(); }},         {12, [this] { return drag(); }},
            {4, [this] { return doubleClick(); }},    {6, [this] { return wheel(); }},
            {8, [this] { return toolKey(); }},        {10, [this] { return editKey(); }},
            {4, [this] { return viewKey(); }},        {8, [this] { return simulationKey(); }},
            {12, [this] { return editParameter(); }}, {4, [this] { return pokePanel(); }},
            {6, [this] { return useGroupList(); }},   {2, [this] { return jumpInHistory(); }},
            {3, [this] { return useToolBar(); }},
        };
        int total = 0;
        for (const auto& action : actions)
            total += action.first;
        int pick = below(total);
        for (const auto& action : actions) {
            if (pick < action.first)
                return action.second();
            pick -= action.first;
        }
        return QString();
    }

private:
    int below(int n) { return n <= 0 ? 0 : int(m_random() % std::uint64_t(n)); }
    bool oneIn(int n) { return below(n) == 0; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * double(below(10001)) / 1e4; }
    template <class T> T pickFrom(std::initializer_list<T> values)
    {
        return values.begin()[below(int(values.size()))];
    }
    QString describe(QPoint p) const { return QStringLiteral("(%1,%2)").arg(p.x()).arg(p.y()); }

    QWidget* viewport() const { return m_view->viewport(); }

    /// A point in the viewport: mostly on the level, sometimes anywhere (off the level too).
    QPoint viewportPoint()
    {
        const QRect area = viewport()->rect().adjusted(2, 2, -2, -2);
        const Rect& bounds = m_window.document()->scene().bounds;
        if (!oneIn(4)) {
            const QPoint p = m_view->mapFromScene(
                QPointF(uniform(bounds.min.x, bounds.max.x), uniform(bounds.min.y, bounds.max.y)));
            if (area.contains(p))
                return p;
        }
        return {area.left() + below(area.width()), area.top() + below(area.height())};
    }

    Qt::KeyboardModifiers modifiers()
    {
        return pickFrom<Qt::KeyboardModifiers>({Qt::NoModifier, Qt::NoModifier, Qt::NoModifier,
                                                Qt::ShiftModifier, Qt::ControlModifier});
    }

    QString click()
    {
        const Qt::MouseButton button =
            pickFrom({Qt::LeftButton, Qt::LeftButton, Qt::LeftButton, Qt::RightButton});
        const Qt::KeyboardModifiers mods = modifiers();
        const QPoint p = viewportPoint();
        QTest::mouseClick(viewport(), button, mods, p);
        return QStringLiteral("click button %1 mods %2 at %3")
            .arg(int(button))
            .arg(int(mods))
            .arg(describe(p));
    }

    QString drag()
    {
        const Qt::MouseButton button = pickFrom(
            {Qt::LeftButton, Qt::LeftButton, Qt::LeftButton, Qt::MiddleButton, Qt::RightButton});
        const Qt::KeyboardModifiers mods = modifiers();
        const QPoint from = viewportPoint(), to = viewportPoint();
        const int steps = 2 + below(6);
        QTest::mousePress(viewport(), button, mods, from);
        for (int i = 1; i <= steps; ++i)
            QTest::mouseMove(viewport(), from + (to - from) * i / steps);
        QTest::mouseRelease(viewport(), button, mods, to);
        return QStringLiteral("drag button %1 mods %2 from %3 to %4 in %5 moves")
            .arg(int(button))
            .arg(int(mods))
            .arg(describe(from), describe(to))
            .arg(steps);
    }

    QString doubleClick()
    {
        const QPoint p = viewportPoint();
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, p);
        QTest::mouseDClick(viewport(), Qt::LeftButton, {}, p);
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, p);
        return QStringLiteral("double-click at %1").arg(describe(p));
    }

    QString wheel()
    {
        const QPoint p = viewportPoint();
        const int delta = pickFrom({120, -120, 240, -240, 15, -15});
        const Qt::KeyboardModifiers mods = modifiers();
        QWheelEvent event(QPointF(p), QPointF(viewport()->mapToGlobal(p)), QPoint(),
                          QPoint(0, delta), Qt::NoButton, mods, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(viewport(), &event);
        return QStringLiteral("wheel %1 mods %2 at %3").arg(delta).arg(int(mods)).arg(describe(p));
    }

    /// A key to the viewport, through the window's shortcuts as a user's key goes.
    QString key(Qt::Key k, Qt::KeyboardModifiers mods, const char* what)
    {
        QTest::keyClick(m_view, k, mods);
        return QStringLiteral("key %1 (%2)")
            .arg(QKeySequence(QKeyCombination(mods, k)).toString(), QLatin1String(what));
    }

    QString toolKey()
    {
        const Qt::Key k = pickFrom({Qt::Key_S, Qt::Key_W, Qt::Key_O, Qt::Key_A, Qt::Key_P,
                                    Qt::Key_T, Qt::Key_S, Qt::Key_Escape});
        return key(k, Qt::NoModifier, "tool");
    }

    QString editKey()
    {
        struct Chord
        {
            Qt::Key key;
            Qt::KeyboardModifiers mods;
        };
        const Chord chord = pickFrom<Chord>({
            {Qt::Key_Z, Qt::ControlModifier},
            {Qt::Key_Z, Qt::ControlModifier},
            {Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier},
            {Qt::Key_Y, Qt::ControlModifier},
            {Qt::Key_Delete, Qt::NoModifier},
            {Qt::Key_Backspace, Qt::NoModifier},
            {Qt::Key_A, Qt::ControlModifier},
            {Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier},
            {Qt::Key_D, Qt::ControlModifier},
            {Qt::Key_Escape, Qt::NoModifier},
            {Qt::Key_Return, Qt::NoModifier},
            {Qt::Key_Left, Qt::NoModifier},
            {Qt::Key_Right, Qt::ShiftModifier},
            {Qt::Key_Up, Qt::NoModifier},
            {Qt::Key_Down, Qt::ShiftModifier},
        });
        return key(chord.key, chord.mods, "edit");
    }

    QString viewKey()
    {
        struct Chord
        {
            Qt::Key key;
            Qt::KeyboardModifiers mods;
        };
        const Chord chord = pickFrom<Chord>({
            {Qt::Key_F, Qt::NoModifier},
            {Qt::Key_G, Qt::NoModifier},
            {Qt::Key_G, Qt::ShiftModifier},
            {Qt::Key_0, Qt::ControlModifier},
            {Qt::Key_Plus, Qt::ControlModifier},
            {Qt::Key_Minus, Qt::ControlModifier},
        });
        return key(chord.key, chord.mods, "view");
    }

    QString simulationKey()
    {
        switch (below(6)) {
        case 0:
        case 1: // a tap of Space over the viewport: Play/Pause
            QTest::keyPress(m_view, Qt::Key_Space);
            QTest::keyRelease(m_view, Qt::Key_Space);
            return QStringLiteral("key Space tap (play/pause)");
        case 2:
            return key(Qt::Key_Period, Qt::NoModifier, "step");
        case 3:
            return key(Qt::Key_R, Qt::NoModifier, "restart");
        case 4:
            return key(Qt::Key_BracketLeft, Qt::NoModifier, "slower");
        default:
            return key(Qt::Key_BracketRight, Qt::NoModifier, "faster");
        }
    }

    template <class W> QList<W*> usable(QWidget* parent) const
    {
        QList<W*> found;
        for (W* widget : parent->findChildren<W*>())
            if (widget->isVisible() && widget->isEnabled())
                found.append(widget);
        return found;
    }

    /// Types `text` into a spin box or line edit as a user does: select all, type, Enter.
    void typeInto(QWidget* widget, const QString& text)
    {
        widget->setFocus();
        QTest::keyClick(widget, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(widget, text);
        QTest::keyClick(widget, Qt::Key_Return);
    }

    /// A number for `spec`: in its range mostly, at and past its ends, or not a number.
    QString valueText(const ParamSpec& spec)
    {
        switch (below(8)) {
        case 0:
            return QString::number(spec.minValue);
        case 1:
            return QString::number(spec.maxValue);
        case 2:
            return QString::number(spec.maxValue + 10.0 * spec.step);
        case 3:
            return pickFrom<QString>(
                {QStringLiteral("-"), QStringLiteral("abc"), QStringLiteral("1e9"), QString()});
        default:
            return QString::number(uniform(spec.minValue, spec.maxValue), 'f', 3);
        }
    }

    QString editParameter()
    {
        const QList<ParamRow*> rows = usable<ParamRow>(m_panel);
        if (rows.isEmpty())
            return selectGroupRow();
        ParamRow* row = rows[below(int(rows.size()))];
        const QString name = QString::fromStdString(row->spec().key);
        if (QComboBox* combo = row->comboBox()) {
            QTest::keyClick(combo, pickFrom({Qt::Key_Down, Qt::Key_Up}));
            return QStringLiteral("parameter %1: choice key").arg(name);
        }
        QAbstractSpinBox* spin = row->doubleSpinBox();
        if (!spin)
            spin = row->intSpinBox();
        switch (below(5)) {
        case 0:
        case 1: {
            const QString text = valueText(row->spec());
            typeInto(spin, text);
            return QStringLiteral("parameter %1: typed '%2'").arg(name, text);
        }
        case 2:
            if (QSlider* slider = row->slider()) {
                const Qt::Key k = pickFrom({Qt::Key_PageUp, Qt::Key_PageDown, Qt::Key_Home,
                                            Qt::Key_End, Qt::Key_Left, Qt::Key_Right});
                QTest::keyClick(slider, k);
                return QStringLiteral("parameter %1: slider key %2").arg(name).arg(int(k));
            }
            [[fallthrough]];
        case 3:
            if (QSlider* slider = row->slider()) {
                const int y = slider->height() / 2;
                const QPoint from(below(slider->width()), y), to(below(slider->width()), y);
                QTest::mousePress(slider, Qt::LeftButton, {}, from);
                QTest::mouseMove(slider, (from + to) / 2);
                QTest::mouseMove(slider, to);
                QTest::mouseRelease(slider, Qt::LeftButton, {}, to);
                return QStringLiteral("parameter %1: slider drag %2 to %3")
                    .arg(name, describe(from), describe(to));
            }
            [[fallthrough]];
        default:
            if (row->resetButton()->isEnabled()) {
                QTest::mouseClick(row->resetButton(), Qt::LeftButton);
                return QStringLiteral("parameter %1: reset").arg(name);
            }
            QTest::keyClick(spin, pickFrom({Qt::Key_Up, Qt::Key_Down, Qt::Key_PageUp}));
            return QStringLiteral("parameter %1: spin key").arg(name);
        }
    }

    /// Any other control of the property panel: the seed, the Leads choice, the collision
    /// grids and priority, the new-seed and reset buttons.
    QString pokePanel()
    {
        switch (below(4)) {
        case 0: {
            const QList<QLineEdit*> edits = usable<QLineEdit>(m_panel);
            QList<QLineEdit*> plain;
            for (QLineEdit* edit : edits) // not the spin boxes' own line edits
                if (!qobject_cast<QAbstractSpinBox*>(edit->parentWidget()))
                    plain.append(edit);
            if (plain.isEmpty())
                break;
            QLineEdit* edit = plain[below(int(plain.size()))];
            const QString text =
                pickFrom<QString>({QString::number(below(1000000)), QStringLiteral("-1"),
                                   QStringLiteral("18446744073709551616"), QStringLiteral("x")});
            typeInto(edit, text);
            return QStringLiteral("panel: typed '%1' into %2").arg(text, edit->objectName());
        }
        case 1: {
            const QList<QComboBox*> combos = usable<QComboBox>(m_panel);
            if (combos.isEmpty())
                break;
            QComboBox* combo = combos[below(int(combos.size()))];
            if (oneIn(3)) { // opens its list, which the closer closes
                QTest::mouseClick(combo, Qt::LeftButton);
                return QStringLiteral("panel: combo click");
            }
            QTest::keyClick(combo, pickFrom({Qt::Key_Down, Qt::Key_Up}));
            return QStringLiteral("panel: combo key");
        }
        case 2: {
            const QList<LayerGrid*> grids = usable<LayerGrid>(m_panel);
            if (grids.isEmpty())
                break;
            LayerGrid* grid = grids[below(int(grids.size()))];
            const QPoint from(below(grid->width()), below(grid->height()));
            const QPoint to(below(grid->width()), below(grid->height()));
            QTest::mousePress(grid, Qt::LeftButton, {}, from);
            QTest::mouseMove(grid, to);
            QTest::mouseRelease(grid, Qt::LeftButton, {}, to);
            return QStringLiteral("panel: layer grid %1 to %2").arg(describe(from), describe(to));
        }
        default:
            break;
        }
        const QList<QAbstractButton*> buttons = usable<QAbstractButton>(m_panel);
        if (buttons.isEmpty())
            return selectGroupRow();
        QAbstractButton* button = buttons[below(int(buttons.size()))];
        QTest::mouseClick(button, Qt::LeftButton);
        return QStringLiteral("panel: button '%1'").arg(button->text());
    }

    QString selectGroupRow()
    {
        QTreeWidget* tree = m_groups->tree();
        const int count = tree->topLevelItemCount();
        if (count == 0)
            return addGroup();
        QTreeWidgetItem* item = tree->topLevelItem(below(count));
        const QPoint p = tree->visualItemRect(item).center();
        const Qt::KeyboardModifiers mods =
            pickFrom<Qt::KeyboardModifiers>({Qt::NoModifier, Qt::NoModifier, Qt::ControlModifier});
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, mods, p);
        return QStringLiteral("group list: click row '%1' mods %2")
            .arg(item->text(GroupListPanel::NameColumn))
            .arg(int(mods));
    }

    QString addGroup()
    {
        const QList<QAction*> kinds = m_groups->addMenu()->actions();
        QAction* action = kinds[below(int(kinds.size()))];
        action->trigger();
        return QStringLiteral("group list: add %1").arg(action->text());
    }

    QString useGroupList()
    {
        QTreeWidget* tree = m_groups->tree();
        switch (below(7)) {
        case 0:
        case 1:
        case 2:
            return selectGroupRow();
        case 3:
            if (tree->topLevelItemCount() < 12)
                return addGroup();
            [[fallthrough]];
        case 4:
            QTest::mouseClick(m_groups->removeButton(), Qt::LeftButton);
            return QStringLiteral("group list: remove");
        case 5:
            if (oneIn(2) && tree->topLevelItemCount() > 0) { // a context menu, closed by the closer
                QTreeWidgetItem* item = tree->topLevelItem(below(tree->topLevelItemCount()));
                const QPoint p = tree->visualItemRect(item).center();
                QContextMenuEvent event(QContextMenuEvent::Mouse, p,
                                        tree->viewport()->mapToGlobal(p));
                QCoreApplication::sendEvent(tree->viewport(), &event);
                return QStringLiteral("group list: context menu");
            }
            QTest::mouseClick(m_groups->colorButton(), Qt::LeftButton);
            return QStringLiteral("group list: colour");
        default: {
            if (tree->topLevelItemCount() == 0)
                return addGroup();
            QTreeWidgetItem* item = tree->topLevelItem(below(tree->topLevelItemCount()));
            const QString name =
                pickFrom<QString>({QStringLiteral("renamed"), QString(), QStringLiteral("school"),
                                   QStringLiteral("squad"), QStringLiteral("  spaced  ")});
            tree->editItem(item, GroupListPanel::NameColumn);
            QCoreApplication::processEvents();
            if (QWidget* editor = QApplication::focusWidget();
                editor && qobject_cast<QLineEdit*>(editor) && tree->isAncestorOf(editor))
                typeInto(editor, name);
            return QStringLiteral("group list: rename to '%1'").arg(name);
        }
        }
    }

    QString jumpInHistory()
    {
        QAbstractItemModel* model = m_undo->model();
        const int rows = model->rowCount();
        if (rows == 0)
            return key(Qt::Key_Z, Qt::ControlModifier, "undo");
        const QModelIndex index = model->index(below(rows), 0);
        m_undo->scrollTo(index);
        QTest::mouseClick(m_undo->viewport(), Qt::LeftButton, {},
                          m_undo->visualRect(index).center());
        return QStringLiteral("history: click row %1 of %2").arg(index.row()).arg(rows);
    }

    QString useToolBar()
    {
        const QList<QToolButton*> buttons = usable<QToolButton>(m_toolBar);
        if (oneIn(4) || buttons.isEmpty()) {
            const QList<QComboBox*> combos = usable<QComboBox>(m_toolBar);
            if (!combos.isEmpty()) {
                QTest::keyClick(combos.first(), pickFrom({Qt::Key_Down, Qt::Key_Up}));
                return QStringLiteral("toolbar: speed key");
            }
        }
        if (buttons.isEmpty())
            return key(Qt::Key_F, Qt::NoModifier, "fit");
        QToolButton* button = buttons[below(int(buttons.size()))];
        QTest::mouseClick(button, Qt::LeftButton);
        return QStringLiteral("toolbar: '%1'").arg(button->text());
    }

    MainWindow& m_window;
    SceneView* m_view;
    std::mt19937_64 m_random;
    PropertyPanel* m_panel;
    GroupListPanel* m_groups;
    QUndoView* m_undo;
    QToolBar* m_toolBar;
};

/// Hides one warning of the offscreen platform that every dock shown prints ("does not
/// support propagateSizeHints()"); everything else goes to Qt Test's handler.
QtMessageHandler g_testHandler = nullptr;
void quietOffscreenWarnings(QtMsgType type, const QMessageLogContext& context,
                            const QString& message)
{
    if (type == QtWarningMsg && message.contains(QLatin1String("propagateSizeHints")))
        return;
    g_testHandler(type, context, message);
}

/// Whether the event loop runs a call queued now within kProbeTimeoutMs.
bool eventLoopResponds()
{
    // Shared: a call that runs after the probe gave up must not write into a gone frame.
    const auto ran = std::make_shared<bool>(false);
    QMetaObject::invokeMethod(
        qApp, [ran] { *ran = true; }, Qt::QueuedConnection);
    QElapsedTimer clock;
    clock.start();
    while (!*ran && clock.elapsed() < kProbeTimeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return *ran;
}

} // namespace

class TestMonkey : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-monkey"));
        nameTheEventOnCrash();
        g_testHandler = qInstallMessageHandler(quietOffscreenWarnings);
    }

    void randomEventsKeepTheEditorAlive()
    {
        const auto seed = std::uint64_t(environmentInt("SHOAL_MONKEY_SEED", int(kDefaultSeed)));
        const int events = environmentInt("SHOAL_MONKEY_EVENTS", kDefaultEvents);
        std::printf("monkey: seed %llu, %d events (SHOAL_MONKEY_SEED, SHOAL_MONKEY_EVENTS)\n",
                    static_cast<unsigned long long>(seed), events);
        std::fflush(stdout);

        MainWindow window;
        int messages = 0;
        window.setMessagePresenter([&messages](QMessageBox::Icon, const QString&, const QString&,
                                               QMessageBox::StandardButtons buttons,
                                               QMessageBox::StandardButton defaultButton) {
            ++messages;
            if (defaultButton != QMessageBox::NoButton)
                return defaultButton;
            for (QMessageBox::StandardButton answer :
                 {QMessageBox::Discard, QMessageBox::No, QMessageBox::Cancel, QMessageBox::Ok})
                if (buttons.testFlag(answer))
                    return answer;
            return QMessageBox::Ok;
        });
        window.setFileChooser([](bool, const QString&) { return QString(); });
        std::mt19937 colours{std::uint32_t(seed)};
        if (auto* groups = window.findChild<GroupListPanel*>())
            groups->setColorPicker([&colours](const QColor&, const QString&, QWidget*) {
                return QColor::fromRgb(QRgb(colours() | 0xff000000u));
            });
        QVERIFY(window.files()->openDemo());
        const SceneDesc opened = window.document()->scene();
        window.resize(1100, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));

        ModalCloser closer;
        HangWatchdog watchdog;
        Monkey monkey(window, seed);
        QVERIFY(monkey.ready());
        // FNV-1a of every event's description: two runs of a seed print the same digest when
        // they sent the same events.
        std::uint64_t digest = 14695981039346656037ull;
        QElapsedTimer clock;
        clock.start();
        for (int index = 0; index < events; ++index) {
            CurrentEvent::set(index, QStringLiteral("(drawing it)"));
            // The description is known only once the event is sent: name the event by its
            // index first, then by what it was.
            const QString what = monkey.act();
            for (const char byte : what.toUtf8())
                digest = (digest ^ std::uint8_t(byte)) * 1099511628211ull;
            CurrentEvent::set(index, what + QStringLiteral(" (then the events it posted)"));
            closer.closeAll();
            QCoreApplication::processEvents();
            if (index % kProbeEvery == kProbeEvery - 1)
                QVERIFY2(eventLoopResponds(),
                         qPrintable(QStringLiteral("the event loop did not run a queued call "
                                                   "within %1 ms after event %2: %3")
                                        .arg(kProbeTimeoutMs)
                                        .arg(index)
                                        .arg(what)));
            if (index % 500 == 499) {
                const World* world = window.simulation()->world();
                std::printf("monkey: %d events in %.1f s; %d undo steps, %zu agents, %s\n",
                            index + 1, double(clock.elapsed()) / 1000.0,
                            int(window.document()->undoStack()->count()),
                            world ? world->agentCount() : std::size_t(0),
                            window.simulation()->isPlaying() ? "playing" : "paused");
                std::fflush(stdout);
            }
        }
        CurrentEvent::set(events, QStringLiteral("undoing every edit"));
        window.simulation()->pause();
        closer.closeAll();
        QVERIFY2(eventLoopResponds(), "the event loop did not run a queued call at the end");
        std::printf("monkey: %d events in %.1f s; %d messages answered, %d dialogs or popups "
                    "closed; events digest %016llx\n",
                    events, double(clock.elapsed()) / 1000.0, messages, closer.closed(),
                    static_cast<unsigned long long>(digest));

        // Every edit was one undo step: undoing them all gives back the scene as opened.
        QUndoStack* stack = window.document()->undoStack();
        stack->setIndex(0);
        QVERIFY2(window.document()->scene() == opened,
                 "undoing every edit did not give back the scene as opened");
        QVERIFY(!window.document()->isModified());
    }
};

QTEST_MAIN(TestMonkey)
#include "test_monkey.moc"
