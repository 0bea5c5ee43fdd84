// Files through the main window: save -> open round trips, a failed save keeps the old file
// and says why, a bad file shows the loader's message and keeps the scene, unsaved changes
// are asked about, and the autosave copy appears and is recovered.

#include "document/document.h"
#include "window/mainwindow.h"
#include <shoal/scenefile.h>
#include "document/commands.h"
#include "uitestsupport.h"

#include <QFile>
#include <QSettings>
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

void addCoin(Document* doc, double x)
{
    doc->undoStack()->push(new AddPickupCommand(doc, -1, PickupDesc{PickupKind::Coin, {x, 3.0}}));
}

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
        QFile::remove(SceneFiles::recoveryFilePath());
        QFile::remove(SceneFiles::recoveryFilePath() + QStringLiteral(".ini"));
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
        QTest::newRow("syntax") << QByteArray("{\n  \"format\": \"shoal-scene\",\n  \"version\": 1,\n  oops\n}\n")
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
        const QString recovery = SceneFiles::recoveryFilePath();
        SceneDesc edited;
        {
            Presenter presenter;
            MainWindow window;
            window.setMessagePresenter(presenter.function());
            QVERIFY(window.files()->openDemo());
            QVERIFY(window.files()->saveTo(file));
            QVERIFY(!QFile::exists(recovery));
            window.files()->setAutosaveInterval(20);
            addCoin(window.document(), 6.0);
            addCoin(window.document(), 7.0);
            edited = window.document()->scene();
            QTRY_VERIFY(QFile::exists(recovery));
            // A second instance while this one runs: it does not touch the copy.
            MainWindow second;
            second.setMessagePresenter(presenter.function());
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
        // Undo goes back to the file as it was saved.
        restarted.document()->undoStack()->undo();
        QCOMPARE(restarted.document()->scene().pickups.size(), edited.pickups.size() - 2);
        QVERIFY(!restarted.document()->isModified());
        restarted.document()->undoStack()->redo();

        // Saving clears the copy.
        QVERIFY(QFile::exists(recovery) || restarted.files()->autosave());
        QVERIFY(restarted.files()->saveTo(file));
        QVERIFY(!QFile::exists(recovery));
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
        QVERIFY(QFile::exists(SceneFiles::recoveryFilePath()));
        Presenter presenter;
        presenter.answer = QMessageBox::No;
        MainWindow restarted;
        restarted.setMessagePresenter(presenter.function());
        const SceneDesc before = restarted.document()->scene();
        QVERIFY(!restarted.files()->offerRecovery());
        QCOMPARE(presenter.shown.size(), 1);
        QVERIFY(presenter.shown[0].text.contains(QStringLiteral("untitled")));
        QVERIFY(!QFile::exists(SceneFiles::recoveryFilePath()));
        QVERIFY(restarted.document()->scene() == before);
    }
};

QTEST_MAIN(TestFiles)
#include "test_files.moc"
