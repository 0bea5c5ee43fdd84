// Files through the main window: save -> open round trips, a failed save keeps the old file
// and says why, a bad file shows the loader's message and keeps the scene, unsaved changes
// are asked about, and the autosave copy appears and is recovered (test_recovery has the rest
// of recovery). Then SceneFiles on its own, over a bare Document: the Save As suggestion, the
// recent-files list, what it announces, a save onto a folder, a failing autosave, and
// autosave switched off.

#include "document/commands.h"
#include "document/document.h"
#include "files/autosaveschedule.h"
#include "files/recoverycopy.h"
#include "files/scenefiles.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"
#include <shoal/scenefile.h>

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// Records what the window would have shown and answers with `answer`.
struct Presenter
{
    struct Shown
    {
        QMessageBox::Icon icon;
        QString title;
        QString text;
    };
    QList<Shown> shown;
    QMessageBox::StandardButton answer = QMessageBox::Ok;

    MainWindow::MessagePresenter function()
    {
        return [this](QMessageBox::Icon icon, const QString& title, const QString& text,
                      QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            shown.append({icon, title, text});
            return answer;
        };
    }
};

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

/// The recovery copies on disk, by file name.
QStringList recoveryCopies()
{
    return QDir(RecoveryCopy::directory())
        .entryList({QStringLiteral("recovery*.json")}, QDir::Files, QDir::Name);
}

void addCoin(Document* doc, double x)
{
    doc->undoStack()->push(new AddPickupCommand(doc, -1, PickupDesc{PickupKind::Coin, {x, 3.0}}));
}

/// A file chooser that records the suggestions it was given and answers with `answer`.
struct Chooser
{
    QStringList suggestions;
    QString answer;

    SceneFiles::FileChooser function()
    {
        return [this](bool, const QString& suggestion) {
            suggestions.append(suggestion);
            return answer;
        };
    }
};

} // namespace

class TestFiles : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-files"));
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        QDir(RecoveryCopy::directory()).removeRecursively();
        QSettings().clear();
    }

    void saveOpenRoundTrip()
    {
        Presenter presenter;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        QVERIFY(window.files()->openDemo());
        addCoin(window.document(), 1.5);
        GroupDesc group = window.document()->scene().groups[1];
        group.name = "tanks";
        window.document()->undoStack()->push(new SetGroupCommand(window.document(), 1, group));
        QVERIFY(window.isWindowModified());
        const SceneDesc edited = window.document()->scene();

        const QString file = path(QStringLiteral("level.json"));
        QVERIFY(window.files()->saveTo(file));
        QVERIFY(presenter.shown.isEmpty());
        QVERIFY(!window.document()->isModified());
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("level.json")));
        QCOMPARE(window.document()->filePath(), file);
        QCOMPARE(readAll(file), QByteArray::fromStdString(serializeScene(edited)));
        QCOMPARE(window.files()->recentFiles().value(0), file);

        MainWindow other;
        other.setMessagePresenter(presenter.function());
        QVERIFY(other.files()->openFile(file));
        QVERIFY(other.document()->scene() == edited);
        QVERIFY(!other.document()->isModified());
        QCOMPARE(other.document()->undoStack()->count(), 0);

        // Save As through the file chooser: a name without suffix gets ".json".
        other.setFileChooser([this](bool save, const QString&) {
            return save ? path(QStringLiteral("copy")) : QString();
        });
        QVERIFY(other.files()->saveAs());
        QCOMPARE(other.document()->filePath(), path(QStringLiteral("copy.json")));
        QCOMPARE(readAll(path(QStringLiteral("copy.json"))), readAll(file));
    }

    void failedSaveKeepsOldFile()
    {
        Presenter presenter;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        QVERIFY(window.files()->openDemo());
        const QString file = path(QStringLiteral("keep.json"));
        QVERIFY(window.files()->saveTo(file));
        const QByteArray old = readAll(file);
        addCoin(window.document(), 2.5);

        // Writing fails part-way (as on a full disk): at most 64 bytes may be written.
        struct rlimit saved;
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = saved;
        small.rlim_cur = 64;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const bool saved64 = window.files()->saveTo(file);
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, oldHandler);

        QVERIFY(!saved64);
        QCOMPARE(readAll(file), old);
        QVERIFY(window.document()->isModified());
        QCOMPARE(presenter.shown.size(), 1);
        QCOMPARE(presenter.shown[0].icon, QMessageBox::Critical);
        QVERIFY(presenter.shown[0].text.contains(file));
        QVERIFY(presenter.shown[0].text.contains(QStringLiteral("was not changed")));

        // A folder that does not exist: nothing written, the reason given.
        const QString missing = path(QStringLiteral("no-such-folder/level.json"));
        QVERIFY(!window.files()->saveTo(missing));
        QCOMPARE(presenter.shown.size(), 2);
        QVERIFY(presenter.shown[1].text.contains(missing));
        QVERIFY(!QFile::exists(missing));
        QCOMPARE(window.document()->filePath(), file);
        QVERIFY(window.document()->isModified());
    }

    void openingBadFileKeepsScene_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax")
            << QByteArray("{\n  \"format\": \"shoal-scene\",\n  \"version\": 1,\n  oops\n}\n")
            << QStringLiteral("bad.json:4:");
        QByteArray badValue = QByteArray::fromStdString(serializeScene(test::demoScene()));
        badValue.replace("\"moveSpeed\": 3.4", "\"moveSpeed\": -7");
        QTest::newRow("value") << badValue << QStringLiteral("moveSpeed");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("bad.json");
    }

    void openingBadFileKeepsScene()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        Presenter presenter;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        QVERIFY(window.files()->openDemo());
        addCoin(window.document(), 4.0);
        window.document()->undoStack()->setClean();
        const SceneDesc before = window.document()->scene();
        const int steps = window.document()->undoStack()->count();

        const QString bad = path(QStringLiteral("bad.json"));
        QVERIFY(writeFile(bad, content));
        QVERIFY(!window.files()->openFile(bad));
        QCOMPARE(presenter.shown.size(), 1);
        QCOMPARE(presenter.shown[0].icon, QMessageBox::Critical);
        QVERIFY2(presenter.shown[0].text.contains(expected), qPrintable(presenter.shown[0].text));
        QVERIFY(window.document()->scene() == before);
        QCOMPARE(window.document()->undoStack()->count(), steps);
        QVERIFY(window.document()->filePath().isEmpty());
    }

    void unsavedChangesAreAskedAbout()
    {
        Presenter presenter;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        QVERIFY(window.files()->openDemo());
        const QString file = path(QStringLiteral("other.json"));
        QVERIFY(window.files()->saveTo(file));
        addCoin(window.document(), 5.0);
        const SceneDesc edited = window.document()->scene();

        presenter.answer = QMessageBox::Cancel;
        QVERIFY(!window.files()->openFile(file));
        QCOMPARE(presenter.shown.size(), 1);
        QCOMPARE(presenter.shown[0].icon, QMessageBox::Warning);
        QVERIFY(window.document()->scene() == edited);
        window.show();
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());

        presenter.answer = QMessageBox::Discard;
        QVERIFY(window.files()->openFile(file));
        QVERIFY(!(window.document()->scene() == edited));
        QVERIFY(!window.document()->isModified());
        QVERIFY(window.close());
    }

    void autosaveIsRecovered()
    {
        const QString file = path(QStringLiteral("crash.json"));
        QString recovery;
        SceneDesc edited;
        {
            Presenter presenter;
            MainWindow window;
            window.setMessagePresenter(presenter.function());
            QVERIFY(window.files()->openDemo());
            QVERIFY(window.files()->saveTo(file));
            recovery = window.files()->recoveryFilePath();
            QVERIFY(!recovery.isEmpty());
            QVERIFY(!QFile::exists(recovery));
            window.files()->setAutosaveDelays(20, 20);
            addCoin(window.document(), 6.0);
            addCoin(window.document(), 7.0);
            edited = window.document()->scene();
            QTRY_VERIFY(QFile::exists(recovery));
            // A second instance while this one runs: it does not touch the copy.
            MainWindow second;
            second.setMessagePresenter(presenter.function());
            QVERIFY(second.files()->recoveryFilePath() != recovery);
            QVERIFY(!second.files()->offerRecovery());
            QVERIFY(presenter.shown.isEmpty());
            QVERIFY(QFile::exists(recovery));
            // The window goes away without closing (a crash): the copy stays.
        }
        QVERIFY(QFile::exists(recovery));

        Presenter presenter;
        presenter.answer = QMessageBox::Yes;
        MainWindow restarted;
        restarted.setMessagePresenter(presenter.function());
        QVERIFY(restarted.files()->offerRecovery());
        QCOMPARE(presenter.shown.size(), 1);
        QCOMPARE(presenter.shown[0].icon, QMessageBox::Question);
        QVERIFY(presenter.shown[0].text.contains(QStringLiteral("crash.json")));
        QVERIFY(restarted.document()->scene() == edited);
        QCOMPARE(restarted.document()->filePath(), file);
        QVERIFY(restarted.document()->isModified());
        // The edits moved into the restarted instance's own copy; the leftover is gone.
        QVERIFY(!QFile::exists(recovery));
        QCOMPARE(recoveryCopies(),
                 QStringList{QFileInfo(restarted.files()->recoveryFilePath()).fileName()});
        QCOMPARE(readAll(restarted.files()->recoveryFilePath()),
                 QByteArray::fromStdString(serializeScene(edited)));
        // Undo goes back to the file as it was saved.
        restarted.document()->undoStack()->undo();
        QCOMPARE(restarted.document()->scene().pickups.size(), edited.pickups.size() - 2);
        QVERIFY(!restarted.document()->isModified());
        restarted.document()->undoStack()->redo();

        // Saving clears the copy.
        QVERIFY(restarted.files()->saveTo(file));
        QVERIFY(recoveryCopies().isEmpty());
    }

    void declinedRecoveryIsDeleted()
    {
        {
            MainWindow window;
            window.setMessagePresenter(Presenter().function());
            QVERIFY(window.files()->openDemo());
            addCoin(window.document(), 8.0);
            QVERIFY(window.files()->autosave());
        }
        QCOMPARE(recoveryCopies().size(), 1);
        Presenter presenter;
        presenter.answer = QMessageBox::No;
        MainWindow restarted;
        restarted.setMessagePresenter(presenter.function());
        const SceneDesc before = restarted.document()->scene();
        QVERIFY(!restarted.files()->offerRecovery());
        QCOMPARE(presenter.shown.size(), 1);
        QVERIFY(presenter.shown[0].text.contains(QStringLiteral("untitled")));
        QVERIFY(recoveryCopies().isEmpty());
        QVERIFY(restarted.document()->scene() == before);
    }

    void saveAsSuggestsAFileNamedAfterTheScene()
    {
        Document document;
        Presenter presenter;
        Chooser chooser;
        SceneFiles files(&document, presenter.function(), chooser.function());
        QVERIFY(files.openDemo());
        const SceneDesc demo = document.scene();

        // Cancelled: nothing is written, asked or changed.
        QVERIFY(!files.saveAs());
        const QString documents =
            QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        QCOMPARE(chooser.suggestions.value(0),
                 QDir(documents).filePath(QStringLiteral("demo-all-five-families.json")));
        QVERIFY(presenter.shown.isEmpty());
        QVERIFY(document.filePath().isEmpty());
        QVERIFY(document.scene() == demo);

        // Untitled Save asks too; the next suggestion is in the folder of the newest file.
        chooser.answer = path(QStringLiteral("named.json"));
        QVERIFY(files.save());
        QCOMPARE(chooser.suggestions.size(), 2);
        QCOMPARE(document.filePath(), chooser.answer);
        QVERIFY(files.saveTo(path(QStringLiteral("second.json"))));
        files.newFile();
        chooser.answer.clear();
        QVERIFY(!files.saveAs());
        QCOMPARE(chooser.suggestions.last(), path(QStringLiteral("untitled.json")));
        // A document with a file suggests that file.
        QVERIFY(files.openFile(path(QStringLiteral("named.json"))));
        QVERIFY(!files.saveAs());
        QCOMPARE(chooser.suggestions.last(), path(QStringLiteral("named.json")));
    }

    void recentFilesKeepTheNewestTen()
    {
        Document document;
        Presenter presenter;
        SceneFiles files(&document, presenter.function(), Chooser().function());
        QVERIFY(files.openDemo());
        QVERIFY(files.recentFiles().isEmpty());
        for (int i = 0; i < 12; ++i)
            QVERIFY(files.saveTo(path(QStringLiteral("recent%1.json").arg(i))));
        QCOMPARE(files.recentFiles().size(), 10);
        QCOMPARE(files.recentFiles().first(), path(QStringLiteral("recent11.json")));
        QCOMPARE(files.recentFiles().last(), path(QStringLiteral("recent2.json")));
        // Opening one moves it to the front without a second entry.
        QVERIFY(files.openFile(path(QStringLiteral("recent5.json"))));
        QCOMPARE(files.recentFiles().size(), 10);
        QCOMPARE(files.recentFiles().first(), path(QStringLiteral("recent5.json")));
        QCOMPARE(files.recentFiles().count(path(QStringLiteral("recent5.json"))), 1);
        files.clearRecentFiles();
        QVERIFY(files.recentFiles().isEmpty());
        QVERIFY(presenter.shown.isEmpty());
    }

    void replacingTheSceneIsAnnounced()
    {
        Document document;
        Presenter presenter;
        SceneFiles files(&document, presenter.function(), Chooser().function());
        QSignalSpy before(&files, &SceneFiles::aboutToReplaceScene);
        QSignalSpy after(&files, &SceneFiles::sceneReplaced);
        QSignalSpy status(&files, &SceneFiles::statusMessage);
        QVERIFY(files.openDemo());
        QCOMPARE(before.count(), 1);
        QCOMPARE(after.count(), 1);
        const QString file = path(QStringLiteral("announced.json"));
        QVERIFY(files.saveTo(file));
        QCOMPARE(after.count(), 1); // saving keeps the scene
        QVERIFY(status.last().at(0).toString().startsWith(QStringLiteral("Saved ")));
        QVERIFY(status.last().at(0).toString().contains(file));
        files.newFile();
        QCOMPARE(after.count(), 2);
        QVERIFY(document.scene() == SceneFiles::newSceneDesc());
        QVERIFY(files.openFile(file));
        QCOMPARE(before.count(), 3);
        QCOMPARE(after.count(), 3);
        QVERIFY(status.last().at(0).toString().startsWith(QStringLiteral("Opened ")));
        // A file that does not load announces nothing.
        QVERIFY(!files.openFile(path(QStringLiteral("absent.json"))));
        QCOMPARE(before.count(), 3);
        QCOMPARE(presenter.shown.size(), 1);
        QVERIFY(presenter.shown[0].text.contains(path(QStringLiteral("absent.json"))));
    }

    void saveOntoAFolderNamesItAndKeepsIt()
    {
        Document document;
        Presenter presenter;
        SceneFiles files(&document, presenter.function(), Chooser().function());
        QVERIFY(files.openDemo());
        const QString folder = path(QStringLiteral("a-folder.json"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(writeFile(folder + QStringLiteral("/inside.txt"), "kept"));
        addCoin(&document, 1.0);

        QVERIFY(!files.saveTo(folder));
        QCOMPARE(presenter.shown.size(), 1);
        QCOMPARE(presenter.shown[0].icon, QMessageBox::Critical);
        QCOMPARE(presenter.shown[0].title, QStringLiteral("Save Failed"));
        QVERIFY(presenter.shown[0].text.contains(folder));
        QVERIFY(presenter.shown[0].text.contains(QStringLiteral("was not changed")));
        QVERIFY(QFileInfo(folder).isDir());
        QCOMPARE(readAll(folder + QStringLiteral("/inside.txt")), QByteArray("kept"));
        QVERIFY(document.isModified());
        QVERIFY(document.filePath().isEmpty());
        QVERIFY(files.recentFiles().isEmpty());
    }

    void failedAutosaveIsReportedAndLosesNothing()
    {
        Document document;
        Presenter presenter;
        SceneFiles files(&document, presenter.function(), Chooser().function());
        QVERIFY(files.openDemo());
        addCoin(&document, 2.0);
        // Something that is not a file sits where the recovery copy goes.
        const QString recovery = files.recoveryFilePath();
        QVERIFY(QDir().mkpath(recovery));
        QSignalSpy status(&files, &SceneFiles::statusMessage);

        const bool written = files.autosave();
        const bool stillThere = QFileInfo(recovery).isDir();
        QDir(recovery).removeRecursively();
        QVERIFY(!written);
        QVERIFY(stillThere);
        QCOMPARE(status.size(), 1);
        QVERIFY(status[0].at(0).toString().startsWith(QStringLiteral("Autosave failed: ")));
        QVERIFY(presenter.shown.isEmpty()); // a status line, not a dialog
        QVERIFY(document.isModified());
        // The next autosave, with the way clear, writes the copy.
        QVERIFY(files.autosave());
        QCOMPARE(readAll(recovery), QByteArray::fromStdString(serializeScene(document.scene())));
    }

    void autosaveOffLeavesTheCopyAlone()
    {
        const QString leftover =
            QDir(RecoveryCopy::directory()).filePath(QStringLiteral("recovery-1.json"));
        QVERIFY(QDir().mkpath(RecoveryCopy::directory()));
        QVERIFY(writeFile(leftover, "left by a crash"));
        {
            Document document;
            Presenter presenter;
            SceneFiles files(&document, presenter.function(), Chooser().function());
            files.setAutosaveEnabled(false);
            QVERIFY(files.recoveryFilePath().isEmpty());
            QVERIFY(files.openDemo());
            addCoin(&document, 3.0);
            QVERIFY(!files.autosave());
            document.undoStack()->undo(); // clean again: would remove the copy
            QVERIFY(!files.offerRecovery());
            QVERIFY(presenter.shown.isEmpty());
            files.closeConfirmed();
            QCOMPARE(readAll(leftover), QByteArray("left by a crash"));
            // Back on, it has a slot of its own again, beside the leftover, at the defaults.
            files.setAutosaveEnabled(true);
            QCOMPARE(files.autosaveQuietMs(), AutosaveSchedule::kQuietMs);
            QCOMPARE(files.autosaveLongestMs(), AutosaveSchedule::kLongestMs);
            QVERIFY(!files.recoveryFilePath().isEmpty());
            QVERIFY(files.recoveryFilePath() != leftover);
            QVERIFY(files.autosave()); // no unsaved changes: its own copy is absent
            QCOMPARE(readAll(leftover), QByteArray("left by a crash"));
            // Offered, the leftover cannot be read: said so, and deleted.
            QVERIFY(!files.offerRecovery());
            QCOMPARE(presenter.shown.size(), 1);
            QCOMPARE(presenter.shown[0].title, QStringLiteral("Recovery Failed"));
            QVERIFY(recoveryCopies().isEmpty());
        }
    }
};

QTEST_MAIN(TestFiles)
#include "test_files.moc"
