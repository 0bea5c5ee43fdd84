// shoal_editor_probe: the editor as the `shoal` executable runs it (a MainWindow, autosave
// on, QuitOnSignals, the same application names, so the same recovery folder) plus the one
// thing the editor's command line cannot do: an edit. test_quitprocess starts it as a real
// process. `shoal_editor_probe <scene.json> <x>` opens the scene, adds a coin at (x, 3) as
// the Pickup tool would, and prints "ready <recovery copy>" once its event loop runs.

#include "document/commands.h"
#include "document/document.h"
#include "files/scenefiles.h"
#include "window/mainwindow.h"
#include "window/quitonsignals.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>

using namespace shoal;
using namespace shoal::ui;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("shoal"));
    QApplication::setOrganizationName(QStringLiteral("Shoal"));
    const QStringList args = app.arguments();
    bool ok = false;
    const double x = args.value(2).toDouble(&ok);
    if (args.size() != 3 || !ok) {
        std::fprintf(stderr, "usage: shoal_editor_probe <scene.json> <x>\n");
        return 2;
    }
    MainWindow window;
    if (!window.files()->openFile(args[1]))
        return 2;
    Document* document = window.document();
    document->undoStack()->push(
        new AddPickupCommand(document, -1, PickupDesc{PickupKind::Coin, {x, 3.0}}));
    const QuitOnSignals quitOnSignals;
    window.show();
    QTimer::singleShot(0, &window, [&window] {
        std::printf("ready %s\n", qPrintable(window.files()->recoveryFilePath()));
        std::fflush(stdout);
    });
    return app.exec();
}
