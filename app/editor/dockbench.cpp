#include "dockbench.h"

#include "benchsupport.h"

#include "document/document.h"
#include "files/scenefiles.h"
#include "simulation/simulationcontroller.h"
#include "stressscene.h"
#include "window/mainwindow.h"

#include <shoal/world.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QTreeWidget>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace shoal::ui {

namespace {

using bench::kExitBadInput;
using bench::kExitOk;
using bench::median;
using bench::processCpuMs;

/// One way of showing the docks, measured over the rounds.
struct Phase
{
    const char* name;
    QDockWidget* shown; ///< the dock shown in this phase, or none
    std::vector<double> fps;
    std::vector<double> cpuMs;
};

/// Plays `seconds` of wall-clock time in the window's own event loop: frames per second and
/// the process's CPU time per frame.
void play(MainWindow& window, double seconds, Phase& phase)
{
    int frames = 0;
    const QMetaObject::Connection counting = QObject::connect(
        window.simulation(), &SimulationController::stepped, [&frames] { ++frames; });
    QElapsedTimer wall;
    wall.start();
    const double cpu = processCpuMs();
    QEventLoop loop;
    QTimer::singleShot(static_cast<int>(seconds * 1000.0), &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(counting);
    const double elapsed = static_cast<double>(wall.nsecsElapsed()) / 1e9;
    phase.fps.push_back(frames / elapsed);
    phase.cpuMs.push_back(frames > 0 ? (processCpuMs() - cpu) / frames : 0.0);
}

/// Mean ms of World::step over `steps` steps.
double stepMs(World& world, int steps)
{
    QElapsedTimer clock;
    clock.start();
    world.step(steps);
    return static_cast<double>(clock.nsecsElapsed()) / 1e6 / steps;
}

double ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

double rounded(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

} // namespace

int measureDocks(const DockBenchOptions& options)
{
    MainWindow window;
    window.files()->setAutosaveEnabled(false);
    window.files()->openDemo();
    Document* document = window.document();
    const SceneDesc demo = document->scene();
    const int have = static_cast<int>(window.simulation()->world()->agentCount());
    document->resetScene(withStressAgents(demo, std::max(0, options.agents - have)), QString());
    window.resize(1600, 1000);
    window.show();
    auto* metrics = window.findChild<QDockWidget*>(QStringLiteral("metricsDock"));
    auto* problems = window.findChild<QDockWidget*>(QStringLiteral("problemsDock"));
    if (!metrics || !problems) {
        std::fprintf(stderr, "shoal: dock bench: the window has no metrics or problems dock\n");
        return kExitBadInput;
    }
    window.simulation()->waitForWorld();
    const int worldAgents = static_cast<int>(window.simulation()->world()->agentCount());
    window.simulation()->play();
    // Each dock alone: the two are tabs of one area, and a hidden tab's neighbour comes
    // forward and watches the world in its place.
    Phase phases[] = {{"docks closed", nullptr, {}, {}},
                      {"metrics open", metrics, {}, {}},
                      {"problems open", problems, {}, {}}};
    for (int r = 0; r < options.rounds; ++r)
        for (Phase& phase : phases) {
            for (QDockWidget* dock : {metrics, problems})
                dock->setVisible(dock == phase.shown);
            if (phase.shown)
                phase.shown->raise();
            play(window, options.seconds, phase);
        }
    window.simulation()->pause();
    // What the Problems tab had to show: a cost that grows with the problems listed.
    auto* list = problems->findChild<QTreeWidget*>();
    const int listed = list ? list->topLevelItemCount() : 0;

    // The world alone: measuring every twelfth step (what the dock asks for) against never.
    auto created = World::create(document->scene());
    if (!created) {
        std::fprintf(stderr, "shoal: %s\n", created.error().message.c_str());
        return kExitBadInput;
    }
    World& world = **created;
    world.setMetricsEvery(12);
    std::vector<double> measured, bare;
    world.setMetricsEnabled(false);
    world.step(60);
    for (int r = 0; r < options.rounds; ++r) {
        world.setMetricsEnabled(true);
        measured.push_back(stepMs(world, 120));
        world.setMetricsEnabled(false);
        bare.push_back(stepMs(world, 120));
    }

    const Phase& closed = phases[0];
    if (options.json) {
        QJsonObject o;
        o.insert(QStringLiteral("section"), QStringLiteral("docks"));
        o.insert(QStringLiteral("agents"), worldAgents);
        o.insert(QStringLiteral("rounds"), options.rounds);
        for (const Phase& phase : phases) {
            QJsonObject p;
            p.insert(QStringLiteral("fps"), rounded(median(phase.fps), 1));
            p.insert(QStringLiteral("cpu_ms_per_frame"), rounded(median(phase.cpuMs), 3));
            p.insert(QStringLiteral("fps_ratio"),
                     rounded(ratio(median(phase.fps), median(closed.fps)), 3));
            p.insert(QStringLiteral("cpu_ratio"),
                     rounded(ratio(median(phase.cpuMs), median(closed.cpuMs)), 3));
            o.insert(QString::fromLatin1(phase.name).replace(QLatin1Char(' '), QLatin1Char('_')),
                     p);
        }
        o.insert(QStringLiteral("problems_listed"), listed);
        o.insert(QStringLiteral("step_ms_measuring"), rounded(median(measured), 3));
        o.insert(QStringLiteral("step_ms_bare"), rounded(median(bare), 3));
        std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
        return kExitOk;
    }
    std::printf("\nDocks: the editor's window on the demo plus stress agents, %d agents, %d "
                "rounds of %.1f s per phase, interleaved (medians; the editor's timer caps the "
                "frame rate, the CPU time per frame is what a frame costs)\n",
                worldAgents, options.rounds, options.seconds);
    for (const Phase& phase : phases) {
        std::printf("  %-14s %6.1f fps   %7.2f ms CPU per frame", phase.name, median(phase.fps),
                    median(phase.cpuMs));
        if (phase.shown)
            std::printf("   fps x%.3f, CPU x%.3f of closed%s",
                        ratio(median(phase.fps), median(closed.fps)),
                        ratio(median(phase.cpuMs), median(closed.cpuMs)),
                        phase.shown == metrics ? " (target: fps within 10 %)" : "");
        if (phase.shown == problems)
            std::printf(" (%d problems listed at the end)", listed);
        std::printf("\n");
    }
    std::printf("  World::step    %.3f ms measuring every 12th step, %.3f ms never: x%.3f "
                "(target: at most x1.10)\n",
                median(measured), median(bare), ratio(median(measured), median(bare)));
    return kExitOk;
}

int runDockBench(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Measure what the measuring docks cost."));
    const QCommandLineOption docks(QStringLiteral("bench-docks"));
    const QCommandLineOption metricsName(QStringLiteral("bench-metrics"));
    const QCommandLineOption agents(QStringLiteral("agents"),
                                    QStringLiteral("Agents in the level (default 10000)."),
                                    QStringLiteral("N"), QStringLiteral("10000"));
    const QCommandLineOption seconds(QStringLiteral("seconds"),
                                     QStringLiteral("Seconds per phase (default 4)."),
                                     QStringLiteral("S"), QStringLiteral("4"));
    const QCommandLineOption rounds(QStringLiteral("rounds"),
                                    QStringLiteral("Rounds of each phase (default 3)."),
                                    QStringLiteral("N"), QStringLiteral("3"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("One JSON object."));
    parser.addOptions({docks, metricsName, agents, seconds, rounds, json});
    parser.process(args);
    DockBenchOptions options;
    bool ok = false;
    options.agents = parser.value(agents).toInt(&ok);
    if (!ok || options.agents < 1 || options.agents > 1000000) {
        std::fprintf(stderr, "shoal: --agents: '%s' must be a whole number in [1, 1000000]\n",
                     qPrintable(parser.value(agents)));
        return kExitBadInput;
    }
    options.seconds = parser.value(seconds).toDouble(&ok);
    if (!ok || !(options.seconds >= 0.5 && options.seconds <= 600.0)) {
        std::fprintf(stderr, "shoal: --seconds: '%s' must be a number in [0.5, 600]\n",
                     qPrintable(parser.value(seconds)));
        return kExitBadInput;
    }
    options.rounds = parser.value(rounds).toInt(&ok);
    if (!ok || options.rounds < 1 || options.rounds > 100) {
        std::fprintf(stderr, "shoal: --rounds: '%s' must be a whole number in [1, 100]\n",
                     qPrintable(parser.value(rounds)));
        return kExitBadInput;
    }
    options.json = parser.isSet(json);
    return measureDocks(options);
}

} // namespace shoal::ui
