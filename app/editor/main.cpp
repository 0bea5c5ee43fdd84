// shoal: the editor. `shoal [scene.json]` opens a level (the embedded demo without one),
// `shoal run.shoalrec` a recording on the timeline (its scene, its input to scrub or play);
// `shoal --screenshot out.png [scene.json] [--steps N]` renders the window after N steps and
// exits; `--stress N` adds N agents to the level; `--bench-render` measures the viewport
// and what the measuring docks cost; `--bench-docks` the docks alone; `--bench-open` measures
// opening and editing a big level. SIGTERM, SIGHUP and SIGINT keep
// the unsaved edits in the recovery copy and quit without asking (QuitOnSignals).

#include "dockbench.h"
#include "document/document.h"
#include "document/groupselection.h"
#include "openbench.h"
#include "renderbench.h"
#include "simulation/simulationcontroller.h"
#include "stressscene.h"
#include "timeline/recordingfiles.h"
#include "viewport/sceneview.h"
#include "window/editortheme.h"
#include "window/mainwindow.h"
#include "window/quitonsignals.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <variant>

using namespace shoal;
using namespace shoal::ui;

namespace {

bool parseCount(const QString& text, int minimum, int* value)
{
    bool ok = false;
    const int n = text.toInt(&ok);
    if (!ok || n < minimum)
        return false;
    *value = n;
    return true;
}

/// What the command line asks for.
struct EditorOptions
{
    QString screenshot; ///< empty: run the editor
    int steps = 0;
    int stress = 0;
    int width = 1600;
    int height = 1000;
    QString scene;      ///< empty: the embedded demo
    QStringList select; ///< names of the groups selected once the level is open
};

/// Parses the command line; returns an exit code when it is refused (the message printed).
std::variant<EditorOptions, int> parseOptions(QApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Shoal: design levels and tune group movement live."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the window to <file> (PNG) after --steps steps, then exit."),
        QStringLiteral("file"));
    const QCommandLineOption steps(
        QStringLiteral("steps"),
        QStringLiteral("Simulation steps before the screenshot (default 0)."), QStringLiteral("N"),
        QStringLiteral("0"));
    const QCommandLineOption stress(
        QStringLiteral("stress"), QStringLiteral("Add <N> agents to the level (rendering speed)."),
        QStringLiteral("N"));
    const QCommandLineOption benchRender(
        QStringLiteral("bench-render"),
        QStringLiteral("Measure the viewport's frames per second, then the frame rate with the "
                       "metrics dock and the Problems tab open and closed, and exit (see "
                       "docs/rendering.md)."));
    const QCommandLineOption size(
        QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1600x1000)."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption select(
        QStringLiteral("select"),
        QStringLiteral("Select the group called <name> once the level is open, so Properties "
                       "shows it (repeat to select several)."),
        QStringLiteral("name"));
    parser.addOptions({screenshot, steps, stress, benchRender, size, select});
    parser.addPositionalArgument(
        QStringLiteral("scene"),
        QStringLiteral("Scene file to open (the embedded demo without one), or a recording "
                       "(.shoalrec): its scene, with its run on the timeline; --steps then "
                       "follows the recorded run."),
        QStringLiteral("[scene.json|run.shoalrec]"));
    parser.process(app);

    auto refuse = [](const char* what, const QString& value) {
        std::fprintf(stderr, "shoal: %s, got '%s'\n", what, qPrintable(value));
        return 2;
    };
    EditorOptions options;
    options.screenshot = parser.value(screenshot);
    options.select = parser.values(select);
    if (!parseCount(parser.value(steps), 0, &options.steps))
        return refuse("--steps needs a whole number >= 0", parser.value(steps));
    if (parser.isSet(stress) && !parseCount(parser.value(stress), 0, &options.stress))
        return refuse("--stress needs a whole number >= 0", parser.value(stress));
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "shoal: one scene file at most\n");
        return 2;
    }
    if (!positional.isEmpty())
        options.scene = positional.first();
    if (parser.isSet(screenshot)) {
        const QStringList dims = parser.value(size).split(QLatin1Char('x'));
        if (dims.size() != 2 || !parseCount(dims[0], 320, &options.width) ||
            !parseCount(dims[1], 240, &options.height))
            return refuse("--size needs WxH (at least 320x240)", parser.value(size));
    }
    return options;
}

/// Renders the window after the steps asked for into the screenshot file; the exit code.
int takeScreenshot(MainWindow& window, const EditorOptions& options)
{
    window.resize(options.width, options.height);
    window.show();
    QApplication::processEvents();
    window.view()->fitToLevel();
    for (int i = 0; i < options.steps; ++i)
        window.simulation()->stepOnce();
    window.refreshStatus();
    QApplication::processEvents();
    const QImage image = window.grab().toImage();
    if (image.isNull() || !image.save(options.screenshot)) {
        std::fprintf(stderr, "shoal: could not write the screenshot to %s\n",
                     qPrintable(options.screenshot));
        return 2;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("shoal"));
    QApplication::setOrganizationName(QStringLiteral("Shoal"));
    QApplication::setApplicationDisplayName(QStringLiteral("Shoal"));
    QApplication::setApplicationVersion(QStringLiteral(SHOAL_VERSION));

    // The benches parse their own options.
    if (app.arguments().contains(QStringLiteral("--bench-render")))
        return runRenderBench(app.arguments());
    if (app.arguments().contains(QStringLiteral("--bench-open")))
        return runOpenBench(app.arguments());
    if (app.arguments().contains(QStringLiteral("--bench-docks")) ||
        app.arguments().contains(QStringLiteral("--bench-metrics")))
        return runDockBench(app.arguments());
    const std::variant<EditorOptions, int> parsed = parseOptions(app);
    if (const int* code = std::get_if<int>(&parsed))
        return *code;
    const EditorOptions& options = std::get<EditorOptions>(parsed);
    const bool screenshotMode = !options.screenshot.isEmpty();

    applyEditorTheme(app);
    MainWindow window;
    if (screenshotMode) {
        window.files()->setAutosaveEnabled(false);
        window.setMessagePresenter([](QMessageBox::Icon, const QString& title, const QString& text,
                                      QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            std::fprintf(stderr, "shoal: %s: %s\n", qPrintable(title), qPrintable(text));
            return QMessageBox::Ok;
        });
    }
    const bool recording = options.scene.endsWith(QStringLiteral(".shoalrec"), Qt::CaseInsensitive);
    const bool opened = options.scene.isEmpty() ? window.files()->openDemo()
                        : recording             ? window.recordingFiles()->openFile(options.scene)
                                                : window.files()->openFile(options.scene);
    if (!opened && screenshotMode)
        return 2;
    if (options.stress > 0) {
        Document* document = window.document();
        document->resetScene(withStressAgents(document->scene(), options.stress), QString());
    }
    if (!options.select.isEmpty()) {
        QList<int> groups;
        for (const QString& name : options.select) {
            const int group = window.document()->scene().groupIndex(name.toStdString());
            if (group < 0) {
                std::fprintf(stderr, "shoal: --select: the level has no group named '%s'\n",
                             qPrintable(name));
                return 2;
            }
            groups.append(group);
        }
        window.groupSelection()->setGroups(groups);
    }
    if (screenshotMode)
        return takeScreenshot(window, options);

    const QuitOnSignals quitOnSignals;
    QSettings settings;
    window.restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    window.restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    window.show();
    QTimer::singleShot(0, &window, [&window] { window.files()->offerRecovery(); });
    const int code = app.exec();
    // Windows opened for further recovered copies delete themselves when closed; a stop
    // signal leaves them open. Collected first: deleting a window deletes its menus, which
    // are top-level widgets too.
    QList<MainWindow*> others;
    for (QWidget* widget : QApplication::topLevelWidgets())
        if (auto* other = qobject_cast<MainWindow*>(widget); other && other != &window)
            others.append(other);
    qDeleteAll(others);
    return code;
}
