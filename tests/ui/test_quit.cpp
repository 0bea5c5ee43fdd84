// Quitting without losing work, inside one process: a window with unsaved changes is
// destroyed cleanly (run under the sanitizer build: the dying undo stack once reached a
// half-destroyed MainWindow); a stop signal writes the edits to the recovery copy and ends
// the event loop without a question, also out of an open dialog; when the copy cannot be
// written the editor stays and the next signal quits; a session end (logout) keeps the edits
// and closes without asking until the next edit. test_quitprocess does the same with real
// editor processes.

#include "document/commands.h"
#include "document/document.h"
#include "files/recoverycopy.h"
#include "files/scenefiles.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"
#include "window/quitonsignals.h"
#include <shoal/scenefile.h>

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>
#include <QUndoView>

#include <csignal>
#include <memory>
#include <unistd.h>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// Counts what the window asks and answers `answer`; `whileAsking` runs as the question is up.
struct Presenter
{
    int questions = 0;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    /// Stands for a modal dialog: a nested event loop until something ends it.
    bool modal = false;

    MainWindow::MessagePresenter function()
    {
        return [this](QMessageBox::Icon, const QString&, const QString&,
                      QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            ++questions;
            if (modal) {
                QEventLoop loop;
                loop.exec();
                return QMessageBox::NoButton; // ended without an answer
            }
            return answer;
        };
    }
};

void addCoin(Document* doc, double x)
{
    doc->undoStack()->push(new AddPickupCommand(doc, -1, PickupDesc{PickupKind::Coin, {x, 3.0}}));
}

bool copyHolds(const QString& path, const SceneDesc& scene)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) &&
           file.readAll() == QByteArray::fromStdString(serializeScene(scene));
}

/// Sends SIGTERM to this process once the event loop runs, and ends the loop with 1 if
/// nothing else has after `safetyMs` (the test then fails instead of hanging).
int runUntilQuit(int signalNumber = SIGTERM, int safetyMs = 10000)
{
    QTimer::singleShot(0, [signalNumber] { ::kill(::getpid(), signalNumber); });
    QTimer safety;
    safety.setSingleShot(true);
    QObject::connect(&safety, &QTimer::timeout, [] { QCoreApplication::exit(1); });
    safety.start(safetyMs);
    return QCoreApplication::exec();
}

} // namespace

class TestQuit : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-quit"));
    }

    void init() { QDir(RecoveryCopy::directory()).removeRecursively(); }

    void destroyingAWindowWithUnsavedChangesIsClean()
    {
        QString copy;
        SceneDesc edited;
        {
            auto window = std::make_unique<MainWindow>();
            window->show();
            QVERIFY(window->files()->openDemo());
            addCoin(window->document(), 1.5);
            addCoin(window->document(), 2.5);
            window->document()->undoStack()->undo(); // something to redo as well
            QVERIFY(window->isWindowModified());
            QVERIFY(window->files()->autosave());
            copy = window->files()->recoveryFilePath();
            edited = window->document()->scene();
            window.reset(); // a crash would not close it either
        }
        // Nothing asked, the copy left for the next start, and its lock released.
        QVERIFY(copyHolds(copy, edited));
        QVERIFY(!QFile::exists(copy + QStringLiteral(".lock")));
    }

    void destroyingADocumentWithUnsavedChangesShowsListenersAWholeDocument()
    {
        QStringList seen;
        {
            auto document = std::make_unique<Document>();
            // Built at run time and held by the document alone, so a destroyed path would be
            // freed memory (ASan sees it).
            document->resetScene(
                test::emptyScene(),
                QDir(QStringLiteral("/levels")).filePath(QStringLiteral("whole.json")));
            QUndoView view(document->undoStack());
            addCoin(document.get(), 1.0);
            Document* raw = document.get();
            QObject::connect(raw, &Document::titleChanged, raw,
                             [raw, &seen] { seen.append(raw->displayName()); });
            document.reset();
        }
        QCOMPARE(seen, QStringList{QStringLiteral("whole.json")});
    }

    void aStopSignalKeepsTheEditsAndQuitsWithoutAsking()
    {
        QuitOnSignals quitOnSignals;
        QVERIFY(quitOnSignals.isInstalled());
        QSignalSpy received(&quitOnSignals, &QuitOnSignals::received);
        Presenter presenter;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        window.show();
        QVERIFY(window.files()->openDemo());
        addCoin(window.document(), 3.5);
        QCOMPARE(runUntilQuit(SIGTERM), 0);
        QCOMPARE(received.size(), 1);
        QCOMPARE(received[0].at(0).toInt(), SIGTERM);
        QCOMPARE(received[0].at(1).toBool(), true);
        QCOMPARE(presenter.questions, 0);
        QVERIFY(copyHolds(window.files()->recoveryFilePath(), window.document()->scene()));
        // What is left of the quit (the window closing) asks nothing and keeps the copy.
        QVERIFY(window.close());
        QCOMPARE(presenter.questions, 0);
        QVERIFY(QFile::exists(window.files()->recoveryFilePath()));
    }

    void sighupAndSigintQuitTheSameWay_data()
    {
        QTest::addColumn<int>("signalNumber");
        QTest::newRow("SIGHUP") << int(SIGHUP);
        QTest::newRow("SIGINT") << int(SIGINT);
    }

    void sighupAndSigintQuitTheSameWay()
    {
        QFETCH(int, signalNumber);
        QuitOnSignals quitOnSignals;
        MainWindow window;
        window.show();
        QVERIFY(window.files()->openDemo());
        addCoin(window.document(), 4.5);
        QCOMPARE(runUntilQuit(signalNumber), 0);
        QVERIFY(copyHolds(window.files()->recoveryFilePath(), window.document()->scene()));
    }

    void aStopSignalEndsAnOpenDialog()
    {
        QuitOnSignals quitOnSignals;
        Presenter presenter;
        presenter.modal = true;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        window.show();
        QVERIFY(window.files()->openDemo());
        addCoin(window.document(), 5.5);
        // The user closes the window: "Save the changes?" is up when the signal comes.
        QTimer::singleShot(0, &window, [&window] { window.close(); });
        QCOMPARE(runUntilQuit(SIGTERM), 0);
        QCOMPARE(presenter.questions, 1);
        QVERIFY(copyHolds(window.files()->recoveryFilePath(), window.document()->scene()));
    }

    void whenTheCopyCannotBeWrittenTheSecondSignalQuits()
    {
        QuitOnSignals quitOnSignals;
        QSignalSpy received(&quitOnSignals, &QuitOnSignals::received);
        // The second signal follows the first once it has been handled.
        connect(&quitOnSignals, &QuitOnSignals::received, this, [](int, bool kept) {
            if (!kept)
                QTimer::singleShot(0, [] { ::kill(::getpid(), SIGTERM); });
        });
        Presenter presenter;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        window.show();
        QVERIFY(window.files()->openDemo());
        addCoin(window.document(), 6.5);
        const QString copy = window.files()->recoveryFilePath();
        QVERIFY(QDir().mkpath(copy)); // a folder where the copy goes: the write fails
        const int code = runUntilQuit(SIGTERM);
        QDir(copy).removeRecursively();
        QCOMPARE(code, 0);
        QCOMPARE(received.size(), 2);
        QCOMPARE(received[0].at(1).toBool(), false);
        QCOMPARE(received[1].at(1).toBool(), false);
        QCOMPARE(presenter.questions, 0);
        // Closing still asks: the edits are nowhere else.
        presenter.answer = QMessageBox::Cancel;
        QVERIFY(!window.close());
        QCOMPARE(presenter.questions, 1);
    }

    void theSessionEndKeepsTheEditsAndClosesWithoutAsking()
    {
        Presenter presenter;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        window.show();
        QVERIFY(window.files()->openDemo());
        addCoin(window.document(), 7.5);
        window.keepEditsForSessionEnd(); // what commitDataRequest and saveStateRequest call
        QVERIFY(copyHolds(window.files()->recoveryFilePath(), window.document()->scene()));
        QCOMPARE(presenter.questions, 0);
        // The logout is cancelled and the user edits on: closing asks again.
        addCoin(window.document(), 8.5);
        presenter.answer = QMessageBox::Cancel;
        QVERIFY(!window.close());
        QCOMPARE(presenter.questions, 1);
        // The logout goes ahead this time: the session manager's close asks nothing.
        window.keepEditsForSessionEnd();
        QVERIFY(copyHolds(window.files()->recoveryFilePath(), window.document()->scene()));
        QVERIFY(window.close());
        QCOMPARE(presenter.questions, 1);
        QVERIFY(QFile::exists(window.files()->recoveryFilePath()));
    }

    void theDefaultHandlersComeBack()
    {
        {
            QuitOnSignals first;
            QVERIFY(first.isInstalled());
            QuitOnSignals second; // one at a time
            QVERIFY(!second.isInstalled());
        }
        struct sigaction action = {};
        QCOMPARE(::sigaction(SIGTERM, nullptr, &action), 0);
        QVERIFY(action.sa_handler == SIG_DFL);
        QuitOnSignals again;
        QVERIFY(again.isInstalled());
    }
};

QTEST_MAIN(TestQuit)
#include "test_quit.moc"
