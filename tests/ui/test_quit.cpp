// Quitting without losing work, inside one process: a window with unsaved changes is
// destroyed cleanly (run under the sanitizer build: the dying undo stack once reached a
// half-destroyed MainWindow), and so is a document whose listeners read it as it goes.

#include "document/commands.h"
#include "document/document.h"
#include "files/recoverycopy.h"
#include "files/scenefiles.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"
#include <shoal/scenefile.h>

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTest>
#include <QUndoView>

#include <memory>

using namespace shoal;
using namespace shoal::ui;

namespace {

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
};

QTEST_MAIN(TestQuit)
#include "test_quit.moc"
