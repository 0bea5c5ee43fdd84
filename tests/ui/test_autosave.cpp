// When the autosave writes: an edit reaches the recovery copy within seconds at the real
// delays, and not at the moment it is made (it waits for a pause); each of the two delays
// writes on its own (once the edits pause, and while they never do); edits made after a
// write are written next; a save, even with a write in flight, leaves no copy behind; a
// large level is written whole.

#include "document/commands.h"
#include "document/document.h"
#include "files/autosaveschedule.h"
#include "files/recoverycopy.h"
#include "files/scenefiles.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"
#include <shoal/scenefile.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// The bound: no edit more than ten seconds from its recovery copy.
constexpr int kAtMostMs = 10000;

MainWindow::MessagePresenter silentPresenter()
{
    return [](QMessageBox::Icon, const QString&, const QString&, QMessageBox::StandardButtons,
              QMessageBox::StandardButton) { return QMessageBox::Ok; };
}

SceneFiles::FileChooser noFiles()
{
    return [](bool, const QString&) { return QString(); };
}

void addCoin(Document* doc, double x)
{
    doc->undoStack()->push(new AddPickupCommand(doc, -1, PickupDesc{PickupKind::Coin, {x, 3.0}}));
}

/// The copy at `path` is there and holds exactly `scene`.
bool copyHolds(const QString& path, const SceneDesc& scene)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) &&
           file.readAll() == QByteArray::fromStdString(serializeScene(scene));
}

/// The small test level with `coins` coins on a grid inside it.
SceneDesc levelWithCoins(int coins)
{
    SceneDesc scene = test::emptyScene();
    for (int i = 0; i < coins; ++i)
        scene.pickups.push_back(
            PickupDesc{PickupKind::Coin, {-19.5 + (i % 390) * 0.1, -14.5 + (i / 390) * 0.1}});
    return scene;
}

} // namespace

class TestAutosave : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-autosave"));
    }

    void init() { QDir(RecoveryCopy::directory()).removeRecursively(); }

    void anEditIsAutosavedWithinSecondsAtTheRealDelays()
    {
        MainWindow window;
        window.setMessagePresenter(silentPresenter());
        QVERIFY(window.files()->openDemo());
        QCOMPARE(window.files()->autosaveQuietMs(), AutosaveSchedule::kQuietMs);
        QCOMPARE(window.files()->autosaveLongestMs(), AutosaveSchedule::kLongestMs);
        QVERIFY(AutosaveSchedule::kQuietMs < AutosaveSchedule::kLongestMs);
        QVERIFY(AutosaveSchedule::kLongestMs < kAtMostMs);
        const QString copy = window.files()->recoveryFilePath();
        QElapsedTimer clock;
        clock.start();
        addCoin(window.document(), 12.5);
        const SceneDesc edited = window.document()->scene();
        QVERIFY(!QFile::exists(copy)); // not written at the edit: it waits for a pause
        QTRY_VERIFY_WITH_TIMEOUT(copyHolds(copy, edited), kAtMostMs);
        qInfo("the edit reached the recovery copy after %lld ms", clock.elapsed());
    }

    void theQuietDelayWritesOnceTheEditsPause()
    {
        Document document;
        SceneFiles files(&document, silentPresenter(), noFiles());
        QVERIFY(files.openDemo());
        files.setAutosaveDelays(100, 10 * 60 * 1000); // only the quiet delay can fire
        addCoin(&document, 1.0);
        addCoin(&document, 2.0);
        QTRY_VERIFY_WITH_TIMEOUT(copyHolds(files.recoveryFilePath(), document.scene()), kAtMostMs);
    }

    void theLongestDelayWritesWhileTheEditsGoOn()
    {
        Document document;
        SceneFiles files(&document, silentPresenter(), noFiles());
        QVERIFY(files.openDemo());
        files.setAutosaveDelays(10 * 60 * 1000, 100); // the edits never pause long enough
        addCoin(&document, 1.0);
        QTRY_VERIFY_WITH_TIMEOUT(copyHolds(files.recoveryFilePath(), document.scene()), kAtMostMs);
    }

    void editsAfterAWriteAreWrittenNext()
    {
        Document document;
        SceneFiles files(&document, silentPresenter(), noFiles());
        QVERIFY(files.openDemo());
        files.setAutosaveDelays(20, 20);
        addCoin(&document, 1.0);
        QTRY_VERIFY_WITH_TIMEOUT(copyHolds(files.recoveryFilePath(), document.scene()), kAtMostMs);
        addCoin(&document, 2.0);
        document.undoStack()->undo();
        document.undoStack()->undo();
        addCoin(&document, 3.0);
        QTRY_VERIFY_WITH_TIMEOUT(copyHolds(files.recoveryFilePath(), document.scene()), kAtMostMs);
        // Undone back to the file as it was opened: no unsaved changes, no copy.
        document.undoStack()->undo();
        QVERIFY(!document.isModified());
        QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(files.recoveryFilePath()), kAtMostMs);
    }

    void aSaveLeavesNoCopyEvenWithAWriteInFlight()
    {
        QTemporaryDir dir;
        Document document;
        SceneFiles files(&document, silentPresenter(), noFiles());
        document.resetScene(levelWithCoins(20000), {}); // the write takes a while
        files.setAutosaveDelays(0, 0);
        addCoin(&document, 4.0);
        QCoreApplication::processEvents(); // due: the write starts on a worker
        QVERIFY(files.saveTo(dir.filePath(QStringLiteral("saved.json"))));
        QVERIFY(!QFile::exists(files.recoveryFilePath()));
        QTest::qWait(200); // whatever the worker still reports
        QVERIFY(!QFile::exists(files.recoveryFilePath()));
        QVERIFY(!document.isModified());
    }

    void aLargeLevelIsWrittenWhole()
    {
        Document document;
        SceneFiles files(&document, silentPresenter(), noFiles());
        document.resetScene(levelWithCoins(80000), {});
        files.setAutosaveDelays(20, 20);
        addCoin(&document, 5.0);
        QTRY_VERIFY_WITH_TIMEOUT(copyHolds(files.recoveryFilePath(), document.scene()), kAtMostMs);
        // What it says about the file it belongs to and when it was written.
        const QString info = files.recoveryFilePath() + QStringLiteral(".ini");
        QSettings described(info, QSettings::IniFormat);
        QVERIFY(described.value(QStringLiteral("savedAt")).toDateTime().isValid());
        QVERIFY(described.value(QStringLiteral("filePath")).toString().isEmpty());
    }
};

QTEST_MAIN(TestAutosave)
#include "test_autosave.moc"
