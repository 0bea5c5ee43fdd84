// Quitting without losing work, with real editor processes on a home of their own (HOME and
// the XDG folders in a temporary folder, offscreen): the `shoal` editor quits within 2 s of
// SIGTERM and leaves nothing behind when nothing was edited; SIGTERM while it asks about a
// leftover copy quits at once and keeps the copy for the next start. The editor's command
// line cannot make an edit, so the edits come from shoal_editor_probe (the same MainWindow
// and quit handling as `shoal`, plus one added coin): SIGTERM writes the edit to the
// recovery copy and quits within 2 s; a second instance killed with SIGKILL ten seconds
// after its edit leaves a copy of its own; the next start offers both and recovers them.

#include "document/document.h"
#include "files/recoverycopy.h"
#include "files/scenefiles.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"
#include <shoal/scenefile.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLockFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <sys/types.h>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// The bounds: quit within 2 s of SIGTERM; no edit more than 10 s from its copy.
constexpr int kQuitMs = 2000;
constexpr int kAutosaveMs = 10000;
/// How long a process may take to start (a sanitizer build is slow); not a bound under test.
constexpr int kStartMs = 60000;

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The coins' x of the scene in the recovery copy at `path` (none if it does not parse).
QList<double> coinsInCopy(const QString& path)
{
    QList<double> coins;
    Expected<SceneDesc> scene = parseScene(readAll(path).toStdString(), "copy");
    if (scene)
        for (const PickupDesc& pickup : scene->pickups)
            coins.append(pickup.position.x);
    return coins;
}

QStringList recoveryCopies()
{
    return QDir(RecoveryCopy::directory())
        .entryList({QStringLiteral("recovery*.json")}, QDir::Files, QDir::Name);
}

QStringList recoveryFolder()
{
    return QDir(RecoveryCopy::directory()).entryList(QDir::Files, QDir::Name);
}

/// Linux: the process has its SIGTERM handler (the SigCgt mask of /proc/<pid>/status).
bool catchesSigterm(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("SigCgt:"))
            return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> (SIGTERM - 1)) & 1;
    return false;
}

bool hasCoinAt(const SceneDesc& scene, double x)
{
    for (const PickupDesc& pickup : scene.pickups)
        if (pickup.position.x == x)
            return true;
    return false;
}

/// Answers every question with Yes and counts them.
struct YesPresenter
{
    int questions = 0;
    MainWindow::MessagePresenter function()
    {
        return [this](QMessageBox::Icon, const QString&, const QString&,
                      QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            ++questions;
            return QMessageBox::Yes;
        };
    }
};

} // namespace

class TestQuitProcess : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QString m_level;
    QList<std::shared_ptr<QProcess>> m_processes;

    /// A process on the temporary home, offscreen, its output kept apart.
    std::shared_ptr<QProcess> start(const QString& program, const QStringList& arguments)
    {
        auto process = std::make_shared<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_home.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_home.filePath(QStringLiteral("runtime")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process->setProcessEnvironment(env);
        process->setProcessChannelMode(QProcess::SeparateChannels);
        process->start(program, arguments);
        m_processes.append(process);
        return process;
    }

    /// The probe with the level and a coin at `x`, once its event loop runs; its copy's path.
    QString startProbe(std::shared_ptr<QProcess>& probe, double x)
    {
        probe = start(QStringLiteral(SHOAL_EDITOR_PROBE), {m_level, QString::number(x)});
        QString copy;
        QElapsedTimer clock;
        clock.start();
        while (copy.isEmpty() && clock.elapsed() < kStartMs && probe->waitForReadyRead(1000)) {
            const QByteArray line = probe->readLine().trimmed();
            if (line.startsWith("ready "))
                copy = QString::fromLocal8Bit(line.mid(6));
        }
        return copy;
    }

    /// Sends SIGTERM and waits at most kQuitMs for the exit; the milliseconds it took, or -1.
    qint64 terminate(QProcess& process)
    {
        QElapsedTimer clock;
        clock.start();
        ::kill(pid_t(process.processId()), SIGTERM);
        if (!process.waitForFinished(kQuitMs))
            return -1;
        return clock.elapsed();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        for (const char* dir : {"home", "config", "data", "cache", "runtime"})
            QVERIFY(QDir().mkpath(m_home.filePath(QString::fromLatin1(dir))));
        QFile::setPermissions(m_home.filePath(QStringLiteral("runtime")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        // This process finds the copies where the editors put them: same names, same data home.
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_home.filePath(QStringLiteral("data"))));
        QCoreApplication::setApplicationName(QStringLiteral("shoal"));
        QCoreApplication::setOrganizationName(QStringLiteral("Shoal"));
        QVERIFY(RecoveryCopy::directory().startsWith(m_home.filePath(QStringLiteral("data"))));
        m_level = m_home.filePath(QStringLiteral("level.json"));
        QFile level(m_level);
        QVERIFY(level.open(QIODevice::WriteOnly));
        level.write(QByteArray::fromStdString(serializeScene(test::demoScene())));
    }

    void init() { QDir(RecoveryCopy::directory()).removeRecursively(); }

    void cleanup()
    {
        for (const std::shared_ptr<QProcess>& process : m_processes)
            if (process->state() != QProcess::NotRunning) {
                process->kill();
                process->waitForFinished(kStartMs);
            }
        m_processes.clear();
        // Collected first: deleting a window deletes its menus, which are in the list too.
        QList<MainWindow*> windows;
        for (QWidget* widget : QApplication::topLevelWidgets())
            if (auto* window = qobject_cast<MainWindow*>(widget))
                windows.append(window);
        qDeleteAll(windows);
    }

    void theEditorQuitsOnSigtermAndLeavesNothing()
    {
        const auto editor = start(QStringLiteral(SHOAL_EDITOR), {m_level});
        QVERIFY(editor->waitForStarted(kStartMs));
        QTRY_VERIFY_WITH_TIMEOUT(catchesSigterm(editor->processId()), kStartMs);
        const qint64 ms = terminate(*editor);
        QVERIFY2(ms >= 0, "shoal did not quit within 2 s of SIGTERM");
        qInfo("shoal quit %lld ms after SIGTERM", ms);
        QCOMPARE(editor->exitStatus(), QProcess::NormalExit);
        QCOMPARE(editor->exitCode(), 0);
        QCOMPARE(recoveryFolder(), QStringList()); // no copy, no lock
    }

    void sigtermDuringTheRecoveryQuestionKeepsTheCopy()
    {
        // A copy left by an instance that is gone, for an untitled level.
        QVERIFY(QDir().mkpath(RecoveryCopy::directory()));
        const QString leftover =
            QDir(RecoveryCopy::directory()).filePath(QStringLiteral("recovery-1.json"));
        SceneDesc edited = test::demoScene();
        edited.pickups.push_back(PickupDesc{PickupKind::Coin, {13.5, 3.0}});
        QVERIFY(RecoveryCopy::write(leftover, edited, {}).isEmpty());

        const auto editor = start(QStringLiteral(SHOAL_EDITOR), {m_level});
        QVERIFY(editor->waitForStarted(kStartMs));
        // Its handlers are in, and it holds the leftover's lock: the question is up.
        QTRY_VERIFY_WITH_TIMEOUT(catchesSigterm(editor->processId()) &&
                                     QFile::exists(leftover + QStringLiteral(".lock")),
                                 kStartMs);
        const qint64 ms = terminate(*editor);
        QVERIFY2(ms >= 0, "shoal did not quit within 2 s of SIGTERM while asking");
        qInfo("shoal quit %lld ms after SIGTERM while asking about a leftover copy", ms);
        QCOMPARE(editor->exitStatus(), QProcess::NormalExit);
        QCOMPARE(recoveryCopies(), QStringList{QStringLiteral("recovery-1.json")});
        QCOMPARE(coinsInCopy(leftover).count(13.5), 1);
        // Not answered, so offered again at the next start.
        YesPresenter presenter;
        MainWindow next;
        next.setMessagePresenter(presenter.function());
        QVERIFY(next.files()->offerRecovery());
        QCOMPARE(presenter.questions, 1);
        QVERIFY(hasCoinAt(next.document()->scene(), 13.5));
    }

    void sigtermWritesTheEditAndQuitsWithinTwoSeconds()
    {
        std::shared_ptr<QProcess> probe;
        const QString copy = startProbe(probe, 11.5);
        QVERIFY2(!copy.isEmpty(), probe->readAllStandardError().constData());
        const qint64 ms = terminate(*probe);
        QVERIFY2(ms >= 0, "the editor did not quit within 2 s of SIGTERM");
        qInfo("the editor wrote its edit and quit %lld ms after SIGTERM", ms);
        QCOMPARE(probe->exitStatus(), QProcess::NormalExit);
        QCOMPARE(probe->exitCode(), 0);
        QCOMPARE(recoveryCopies(), QStringList{QFileInfo(copy).fileName()});
        QCOMPARE(coinsInCopy(copy).count(11.5), 1);
        QVERIFY(!QFile::exists(copy + QStringLiteral(".lock")));

        // The next start offers it, over the level it belongs to.
        YesPresenter presenter;
        MainWindow next;
        next.setMessagePresenter(presenter.function());
        QVERIFY(next.files()->offerRecovery());
        QCOMPARE(presenter.questions, 1);
        QVERIFY(hasCoinAt(next.document()->scene(), 11.5));
        QCOMPARE(next.document()->filePath(), QFileInfo(m_level).absoluteFilePath());
        QVERIFY(next.document()->isModified());
    }

    void aKilledSecondInstanceLeavesACopyOfItsOwn()
    {
        std::shared_ptr<QProcess> first;
        std::shared_ptr<QProcess> second;
        const QString firstCopy = startProbe(first, 21.5);
        QVERIFY2(!firstCopy.isEmpty(), first->readAllStandardError().constData());
        QElapsedTimer sinceEdit;
        sinceEdit.start();
        const QString secondCopy = startProbe(second, 22.5);
        QVERIFY2(!secondCopy.isEmpty(), second->readAllStandardError().constData());
        QVERIFY(firstCopy != secondCopy);
        sinceEdit.restart();
        // The second one's edit reaches its copy by itself within 10 s; then SIGKILL.
        QTRY_VERIFY_WITH_TIMEOUT(coinsInCopy(secondCopy).count(22.5) == 1, kAutosaveMs);
        qInfo("the second instance's edit was autosaved within %lld ms", sinceEdit.elapsed());
        ::kill(pid_t(second->processId()), SIGKILL);
        QVERIFY(second->waitForFinished(kStartMs));
        QCOMPARE(second->exitStatus(), QProcess::CrashExit);
        QVERIFY(terminate(*first) >= 0);
        QCOMPARE(recoveryCopies().size(), 2);
        QCOMPARE(coinsInCopy(firstCopy).count(21.5), 1);
        QCOMPARE(coinsInCopy(secondCopy).count(22.5), 1);
        QCOMPARE(coinsInCopy(secondCopy).count(21.5), 0);
        // The killed one's lock is still on disk, but stale: its process is gone.
        QVERIFY(QFile::exists(secondCopy + QStringLiteral(".lock")));

        // The next start offers both, one question each, and recovers each into a window.
        YesPresenter presenter;
        MainWindow next;
        next.setMessagePresenter(presenter.function());
        QVERIFY(next.files()->offerRecovery());
        QCOMPARE(presenter.questions, 2);
        MainWindow* other = nullptr;
        for (QWidget* widget : QApplication::topLevelWidgets())
            if (auto* window = qobject_cast<MainWindow*>(widget); window && window != &next)
                other = window;
        QVERIFY(other);
        const bool here21 = hasCoinAt(next.document()->scene(), 21.5);
        QVERIFY(hasCoinAt(next.document()->scene(), here21 ? 21.5 : 22.5));
        QVERIFY(hasCoinAt(other->document()->scene(), here21 ? 22.5 : 21.5));
        // Each window's own copy holds its edits now; the leftovers are gone.
        QStringList expected = {QFileInfo(next.files()->recoveryFilePath()).fileName(),
                                QFileInfo(other->files()->recoveryFilePath()).fileName()};
        expected.sort();
        QCOMPARE(recoveryCopies(), expected);
    }
};

QTEST_MAIN(TestQuitProcess)
#include "test_quitprocess.moc"
