#include "openbench.h"

#include "benchsupport.h"

#include "bigscene.h"
#include "document/commands.h"
#include "files/scenefiles.h"
#include "simulation/simulationcontroller.h"
#include "viewport/editorscene.h"
#include "viewport/sceneview.h"
#include "window/mainwindow.h"
#include <shoal/scenefile.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace shoal::ui {

namespace {

using bench::kExitBadInput;
using bench::kExitOk;

/// kB of a /proc/self/status field ("VmHWM", "VmRSS").
long statusKb(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(status, line))
        if (line.rfind(key, 0) == 0)
            return std::stol(line.substr(key.size()));
    return -1;
}

using bench::median;

double elapsedMs(const QElapsedTimer& clock)
{
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

/// Events delivered and the viewport painted once: what the user sees next. An edit posts
/// the view's update, which the events paint; only when nothing did is it repainted here.
/// (Until session 27 it was always repainted as well: two frames in every edit's time.)
void showFrame(MainWindow& window, const bench::PaintCounter& paints)
{
    QWidget* viewport = window.view()->viewport();
    const int before = paints.count;
    QApplication::processEvents();
    if (paints.count == before)
        viewport->repaint();
}

/// One kind of edit's rounds: each one's time to the next frame, and the most frames of the
/// view one of them painted (1: the edit's own frame, nothing painted twice).
struct EditRounds
{
    std::vector<double> ms;
    int mostPaints = 0;
};

/// An edit's line of the report: the median time and the most paints.
void printEdit(const char* what, const EditRounds& rounds)
{
    std::printf("  %-20s %8.1f   paints %d\n", what, median(rounds.ms), rounds.mostPaints);
}

/// The measuring half: opens `path` and makes the edits.
int measure(const QString& path, int rounds)
{
    const long rssStart = statusKb("VmRSS");
    bench::PaintCounter paints; // the viewport's (outlives the window it watches)
    MainWindow window;
    window.view()->viewport()->installEventFilter(&paints);
    window.files()->setAutosaveEnabled(false);
    window.setMessagePresenter([](QMessageBox::Icon, const QString& title, const QString& text,
                                  QMessageBox::StandardButtons, QMessageBox::StandardButton) {
        std::fprintf(stderr, "shoal: %s: %s\n", qPrintable(title), qPrintable(text));
        return QMessageBox::Ok;
    });
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();

    QElapsedTimer clock;
    clock.start();
    if (!window.files()->openFile(path))
        return kExitBadInput;
    const double loadMs = elapsedMs(clock);
    showFrame(window, paints);
    const double openMs = elapsedMs(clock);
    // The world is built in the background; the edits are measured once it is in place, so
    // the build does not take their CPU.
    window.simulation()->waitForWorld();
    QApplication::processEvents();
    const double worldMs = elapsedMs(clock);
    const long peakOpen = statusKb("VmHWM");
    const long rssOpen = statusKb("VmRSS");

    SceneView* view = window.view();
    EditorScene* scene = window.editorScene();
    Document* document = window.document();
    view->fitToLevel();
    std::vector<double> fullFrame;
    for (int r = 0; r < rounds; ++r) {
        clock.restart();
        view->viewport()->repaint();
        fullFrame.push_back(elapsedMs(clock));
    }

    // Edits are made zoomed in on the clear centre of the level, as a user works.
    view->setPixelsPerMetre(SceneView::kNominalPixelsPerMetre);
    QWidget* viewport = view->viewport();
    const auto at = [view](double x, double y) { return view->mapFromScene(QPointF(x, y)); };
    // Times `edit` to the next frame into `rounds`, with the view's paints on the way.
    const auto timeEdit = [&](EditRounds& rounds, const std::function<void()>& edit) {
        const int before = paints.count;
        clock.restart();
        edit();
        showFrame(window, paints);
        rounds.ms.push_back(elapsedMs(clock));
        rounds.mostPaints = std::max(rounds.mostPaints, paints.count - before);
    };
    const auto undo = [&] { document->undoStack()->undo(); };
    std::vector<double> zoomedFrame;
    EditRounds select, point, pointUndo, param, paramUndo, wall, wallUndo;

    const int wallIndex = static_cast<int>(document->scene().walls.size() / 2);
    // What every edit below includes: one repaint of the whole viewport where it is made.
    {
        const Point2 p = document->scene().walls[static_cast<std::size_t>(wallIndex)].points[2];
        view->centerOn(p.x, p.y);
        showFrame(window, paints);
        for (int r = 0; r < rounds; ++r) {
            clock.restart();
            view->viewport()->repaint();
            zoomedFrame.push_back(elapsedMs(clock));
        }
    }
    window.setTool(window.tools().front()); // select
    for (int r = 0; r < rounds; ++r) {
        scene->setSelectedRefs({});
        showFrame(window, paints);
        timeEdit(select, [&] { scene->setSelectedRefs({{ItemKind::Wall, wallIndex}}); });

        const Point2 p = document->scene().walls[static_cast<std::size_t>(wallIndex)].points[2];
        view->centerOn(p.x, p.y);
        showFrame(window, paints);
        timeEdit(point, [&] {
            QTest::mousePress(viewport, Qt::LeftButton, {}, at(p.x, p.y));
            for (int i = 1; i <= 4; ++i)
                QTest::mouseMove(viewport, at(p.x + 0.05 * i, p.y + 0.03 * i));
            QTest::mouseRelease(viewport, Qt::LeftButton, {}, at(p.x + 0.2, p.y + 0.12));
        });
        timeEdit(pointUndo, undo);
    }

    const GroupDesc& group = document->scene().groups.front();
    for (int r = 0; r < rounds; ++r) {
        const double old = group.params[0];
        const ParamSpec& spec = paramSpecs(group.kind)[0];
        const double value = old + spec.step <= spec.maxValue ? old + spec.step : old - spec.step;
        timeEdit(param, [&] {
            document->undoStack()->push(new SetGroupParamCommand(document, 0, 0, value, true));
        });
        timeEdit(paramUndo, undo);
    }

    window.setTool(window.tools()[1]); // wall
    view->centerOn(0.0, 0.0);
    showFrame(window, paints);
    const std::size_t wallsBefore = document->scene().walls.size();
    for (int r = 0; r < rounds; ++r) {
        timeEdit(wall, [&] {
            QTest::mouseClick(viewport, Qt::LeftButton, {}, at(-5.0, 5.0));
            QTest::mouseClick(viewport, Qt::LeftButton, {}, at(0.0, 7.0));
            QTest::mouseClick(viewport, Qt::LeftButton, {}, at(5.0, 5.0));
            QTest::mouseDClick(viewport, Qt::LeftButton, {}, at(5.0, 5.0));
            QTest::mouseRelease(viewport, Qt::LeftButton, {}, at(5.0, 5.0));
        });
        if (document->scene().walls.size() != wallsBefore + 1) {
            std::fprintf(stderr, "shoal: --bench-open: the wall tool added no wall\n");
            return kExitBadInput;
        }
        timeEdit(wallUndo, undo);
    }
    window.setTool(window.tools().front());

    const long peakEnd = statusKb("VmHWM");
    const double fileMb = static_cast<double>(QFileInfo(path).size()) / 1e6;
    std::printf("level              %.1f MB, %zu walls, %zu obstacles\n", fileMb,
                document->scene().walls.size(), document->scene().obstacles.size());
    std::printf("open (to 1st frame) %8.0f ms (read, check, items %.0f ms; the frame %.0f ms)\n",
                openMs, loadMs, openMs - loadMs);
    std::printf("world ready         %8.0f ms (built in the background)\n", worldMs);
    std::printf("rss before open     %8.0f MB\n", rssStart / 1024.0);
    std::printf("rss after open      %8.0f MB (peak %.0f MB = %.1fx the file)\n", rssOpen / 1024.0,
                peakOpen / 1024.0, peakOpen / 1024.0 / fileMb);
    std::printf("peak rss after edits%8.0f MB (%.1fx the file)\n", peakEnd / 1024.0,
                peakEnd / 1024.0 / fileMb);
    std::printf("median of %d rounds (ms, to the next frame; paints: the most frames of the view "
                "one round painted, 1 = the edit's own):\n",
                rounds);
    std::printf("  %-20s %8.1f\n", "full-view frame", median(fullFrame));
    std::printf("  %-20s %8.1f   (in each edit below)\n", "frame at 50 px/m", median(zoomedFrame));
    printEdit("select a wall", select);
    printEdit("drag a wall point", point);
    printEdit("  undo", pointUndo);
    printEdit("change a param", param);
    printEdit("  undo", paramUndo);
    printEdit("add a wall", wall);
    printEdit("  undo", wallUndo);
    return kExitOk;
}

} // namespace

int runOpenBench(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Measure opening and editing a big level."));
    const QCommandLineOption benchOpen(QStringLiteral("bench-open"));
    const QCommandLineOption walls(QStringLiteral("walls"),
                                   QStringLiteral("Walls in the level (default 215000)."),
                                   QStringLiteral("N"), QStringLiteral("215000"));
    const QCommandLineOption rounds(QStringLiteral("rounds"),
                                    QStringLiteral("Rounds of each edit (default 5)."),
                                    QStringLiteral("N"), QStringLiteral("5"));
    const QCommandLineOption file(
        QStringLiteral("file"),
        QStringLiteral("Measure this level instead of writing one (the measuring process)."),
        QStringLiteral("path"));
    const QCommandLineOption keep(QStringLiteral("keep"),
                                  QStringLiteral("Write the generated level here and keep it."),
                                  QStringLiteral("path"));
    parser.addOptions({benchOpen, walls, rounds, file, keep});
    parser.process(args);
    bool ok = false;
    const int roundCount = parser.value(rounds).toInt(&ok);
    if (!ok || roundCount < 1) {
        std::fprintf(stderr, "shoal: --rounds needs a whole number >= 1\n");
        return kExitBadInput;
    }
    if (parser.isSet(file))
        return measure(parser.value(file), roundCount);

    const int wallCount = parser.value(walls).toInt(&ok);
    if (!ok || wallCount < 1 || wallCount > 240000) {
        std::fprintf(stderr, "shoal: --walls needs a whole number in [1, 240000]\n");
        return kExitBadInput;
    }
    QTemporaryDir dir;
    const QString path =
        parser.isSet(keep) ? parser.value(keep) : dir.filePath(QStringLiteral("big-level.json"));
    if (auto error = saveSceneFile(bigScene(wallCount), path.toStdString())) {
        std::fprintf(stderr, "shoal: %s\n", error->message.c_str());
        return kExitBadInput;
    }
    // A process of its own: the generator's copy of the level is not in its peak memory.
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedChannels);
    child.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--bench-open"), QStringLiteral("--file"), path,
                 QStringLiteral("--rounds"), QString::number(roundCount)});
    if (!child.waitForFinished(-1))
        return kExitBadInput;
    return child.exitCode();
}

} // namespace shoal::ui
