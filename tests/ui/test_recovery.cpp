// Several instances and what they leave behind: each instance autosaves into a copy of its
// own; a copy whose instance is gone is offered once at the next start (and not to a second
// instance started after it), a running instance's copy never; every leftover copy is
// offered, one question each, and each one recovered gets a window; an unanswered question
// keeps the copy for the next start; a normal close leaves nothing behind.

#include "document/commands.h"
#include "document/document.h"
#include "files/recoverycopy.h"
#include "files/scenefiles.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"
#include <shoal/scenefile.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace shoal;
using namespace shoal::ui;

namespace {

/// Counts the questions and answers each with `answer`.
struct Presenter
{
    int questions = 0;
    QStringList texts;
    QMessageBox::StandardButton answer = QMessageBox::Yes;

    MainWindow::MessagePresenter function()
    {
        return [this](QMessageBox::Icon, const QString&, const QString& text,
                      QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            ++questions;
            texts.append(text);
            return answer;
        };
    }
};

void addCoin(Document* doc, double x)
{
    doc->undoStack()->push(new AddPickupCommand(doc, -1, PickupDesc{PickupKind::Coin, {x, 3.0}}));
}

bool hasCoinAt(const SceneDesc& scene, double x)
{
    for (const PickupDesc& pickup : scene.pickups)
        if (pickup.position.x == x)
            return true;
    return false;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Every file in the recovery folder: copies, descriptions, locks.
QStringList recoveryFolder()
{
    return QDir(RecoveryCopy::directory()).entryList(QDir::Files, QDir::Name);
}

QStringList recoveryCopies()
{
    return QDir(RecoveryCopy::directory())
        .entryList({QStringLiteral("recovery*.json")}, QDir::Files, QDir::Name);
}

/// Editor windows other than `except` (those opened for further recovered copies).
QList<MainWindow*> otherWindows(const MainWindow* except)
{
    QList<MainWindow*> windows;
    for (QWidget* widget : QApplication::topLevelWidgets())
        if (auto* window = qobject_cast<MainWindow*>(widget); window && window != except)
            windows.append(window);
    return windows;
}

/// An instance that edits the demo (a coin at each x), autosaves and dies without closing.
void leaveACopy(const QList<double>& coins)
{
    MainWindow window;
    window.setMessagePresenter(Presenter().function());
    QVERIFY(window.files()->openDemo());
    for (double x : coins)
        addCoin(window.document(), x);
    QVERIFY(window.files()->autosave());
}

} // namespace

class TestRecovery : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("shoal-test-recovery"));
    }

    void init() { QDir(RecoveryCopy::directory()).removeRecursively(); }

    void cleanup()
    {
        for (MainWindow* window : otherWindows(nullptr))
            delete window;
    }

    void eachInstanceAutosavesIntoItsOwnCopy()
    {
        MainWindow first;
        MainWindow second;
        Document document;
        SceneFiles third(&document, Presenter().function(),
                         [](bool, const QString&) { return QString(); });
        QVERIFY(third.openDemo());
        QVERIFY(first.files()->openDemo());
        QVERIFY(second.files()->openDemo());
        const QStringList copies = {first.files()->recoveryFilePath(),
                                    second.files()->recoveryFilePath(), third.recoveryFilePath()};
        for (const QString& copy : copies) {
            QVERIFY(!copy.isEmpty());
            QCOMPARE(copies.count(copy), 1);
            QCOMPARE(QFileInfo(copy).absolutePath(),
                     QDir(RecoveryCopy::directory()).absolutePath());
            QVERIFY(QFile::exists(copy + QStringLiteral(".lock")));
        }
        addCoin(first.document(), 1.5);
        addCoin(second.document(), 2.5);
        addCoin(&document, 3.5);
        QVERIFY(first.files()->autosave());
        QVERIFY(second.files()->autosave());
        QVERIFY(third.autosave());
        QCOMPARE(readAll(copies[0]),
                 QByteArray::fromStdString(serializeScene(first.document()->scene())));
        QCOMPARE(readAll(copies[1]),
                 QByteArray::fromStdString(serializeScene(second.document()->scene())));
        QCOMPARE(readAll(copies[2]), QByteArray::fromStdString(serializeScene(document.scene())));
        // None of them offers another's copy: they are all running.
        Presenter presenter;
        MainWindow fourth;
        fourth.setMessagePresenter(presenter.function());
        QVERIFY(!fourth.files()->offerRecovery());
        QCOMPARE(presenter.questions, 0);
        QCOMPARE(recoveryCopies().size(), 3);
    }

    void aLeftoverIsOfferedOnceAndRecovered()
    {
        leaveACopy({4.5});
        QCOMPARE(recoveryCopies().size(), 1);
        Presenter presenter;
        MainWindow restarted;
        restarted.setMessagePresenter(presenter.function());
        QVERIFY(restarted.files()->offerRecovery());
        QCOMPARE(presenter.questions, 1);
        QVERIFY(hasCoinAt(restarted.document()->scene(), 4.5));
        QVERIFY(restarted.document()->isModified());
        QCOMPARE(recoveryCopies(),
                 QStringList{QFileInfo(restarted.files()->recoveryFilePath()).fileName()});
        // A second instance started now finds nothing to offer: the copy is the first's.
        Presenter later;
        MainWindow second;
        second.setMessagePresenter(later.function());
        QVERIFY(!second.files()->offerRecovery());
        QCOMPARE(later.questions, 0);
        QVERIFY(otherWindows(&restarted).size() == 1); // `second` only: no window was opened
    }

    void everyLeftoverIsOfferedAndEachRecoveredGetsAWindow()
    {
        {
            // Two instances at once, both killed: two copies.
            MainWindow a;
            MainWindow b;
            QVERIFY(a.files()->openDemo());
            QVERIFY(b.files()->openDemo());
            addCoin(a.document(), 5.5);
            addCoin(b.document(), 6.5);
            QVERIFY(a.files()->autosave());
            QVERIFY(b.files()->autosave());
        }
        QCOMPARE(recoveryCopies().size(), 2);
        Presenter presenter;
        MainWindow restarted;
        restarted.setMessagePresenter(presenter.function());
        QVERIFY(restarted.files()->offerRecovery());
        QCOMPARE(presenter.questions, 2);
        const QList<MainWindow*> opened = otherWindows(&restarted);
        QCOMPARE(opened.size(), 1);
        MainWindow* other = opened.first();
        QVERIFY(other->isVisible());
        QVERIFY(other->testAttribute(Qt::WA_DeleteOnClose));
        const SceneDesc& here = restarted.document()->scene();
        const SceneDesc& there = other->document()->scene();
        QVERIFY((hasCoinAt(here, 5.5) && hasCoinAt(there, 6.5)) ||
                (hasCoinAt(here, 6.5) && hasCoinAt(there, 5.5)));
        QVERIFY(other->document()->isModified());
        // Each window's own copy holds its edits; the leftovers are gone.
        QCOMPARE(readAll(restarted.files()->recoveryFilePath()),
                 QByteArray::fromStdString(serializeScene(here)));
        QCOMPARE(readAll(other->files()->recoveryFilePath()),
                 QByteArray::fromStdString(serializeScene(there)));
        QCOMPARE(recoveryCopies().size(), 2);
    }

    void declinedAndUnansweredCopies()
    {
        leaveACopy({7.5});
        leaveACopy({8.5});
        QCOMPARE(recoveryCopies().size(), 2);
        // No answer (the editor quits while asking): both stay for the next start.
        {
            Presenter presenter;
            presenter.answer = QMessageBox::NoButton;
            MainWindow window;
            window.setMessagePresenter(presenter.function());
            QVERIFY(!window.files()->offerRecovery());
            QCOMPARE(presenter.questions, 1); // it stops asking
        }
        QCOMPARE(recoveryCopies().size(), 2);
        // No to both: both go.
        Presenter presenter;
        presenter.answer = QMessageBox::No;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        const SceneDesc before = window.document()->scene();
        QVERIFY(!window.files()->offerRecovery());
        QCOMPARE(presenter.questions, 2);
        QVERIFY(recoveryCopies().isEmpty());
        QVERIFY(window.document()->scene() == before);
    }

    void theCopyOfAnEditorBeforeTheSlotsIsOffered()
    {
        // recovery.json and its description, as a single-copy editor left them.
        const QDir dir(RecoveryCopy::directory());
        QVERIFY(QDir().mkpath(dir.absolutePath()));
        SceneDesc old = test::demoScene();
        old.pickups.push_back(PickupDesc{PickupKind::Coin, {9.5, 3.0}});
        QVERIFY(
            RecoveryCopy::write(dir.filePath(QStringLiteral("recovery.json")), old, {}).isEmpty());
        Presenter presenter;
        MainWindow window;
        window.setMessagePresenter(presenter.function());
        QVERIFY(window.files()->offerRecovery());
        QVERIFY(presenter.texts.value(0).contains(QStringLiteral("untitled")));
        QVERIFY(hasCoinAt(window.document()->scene(), 9.5));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("recovery.json"))));
    }

    void aNormalCloseLeavesNothingBehind()
    {
        {
            Presenter presenter;
            presenter.answer = QMessageBox::Discard;
            MainWindow window;
            window.setMessagePresenter(presenter.function());
            QVERIFY(window.files()->openDemo());
            addCoin(window.document(), 10.5);
            QVERIFY(window.files()->autosave());
            QCOMPARE(recoveryCopies().size(), 1);
            window.show();
            QVERIFY(window.close());
            QCOMPARE(presenter.questions, 1);
            QVERIFY(recoveryCopies().isEmpty());
        }
        QCOMPARE(recoveryFolder(), QStringList()); // no copy, description or lock
        {
            QTemporaryDir dir;
            MainWindow window;
            QVERIFY(window.files()->openDemo());
            addCoin(window.document(), 11.5);
            QVERIFY(window.files()->autosave());
            QVERIFY(window.files()->saveTo(dir.filePath(QStringLiteral("saved.json"))));
            QVERIFY(recoveryCopies().isEmpty());
            window.show();
            QVERIFY(window.close());
        }
        QCOMPARE(recoveryFolder(), QStringList());
    }
};

QTEST_MAIN(TestRecovery)
#include "test_recovery.moc"
