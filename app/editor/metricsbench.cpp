#include "metricsbench.h"

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
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

namespace shoal::ui {

namespace {

using bench::kExitBadInput;
using bench::kExitOk;

using bench::processCpuMs;

using bench::median;

struct Phase
{
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

} // namespace

int runMetricsBench(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Measure what the metrics dock costs."));
    const QCommandLineOption bench(QStringLiteral("bench-metrics"));
    const QCommandLineOption agents(QStringLiteral("agents"),
                                    QStringLiteral("Agents in the level (default 10000)."),
                                    QStringLiteral("N"), QStringLiteral("10000"));
    const QCommandLineOption seconds(QStringLiteral("seconds"),
                                     QStringLiteral("Seconds per phase (default 4)."),
                                     QStringLiteral("S"), QStringLiteral("4"));
    const QCommandLineOption rounds(QStringLiteral("rounds"),
                                    QStringLiteral("Rounds of each phase (default 3)."),
                                    QStringLiteral("N"), QStringLiteral("3"));
    parser.addOptions({bench, agents, seconds, rounds});
    parser.process(args);
    bool ok = false;
    const int agentCount = parser.value(agents).toInt(&ok);
    if (!ok || agentCount < 1 || agentCount > 1000000) {
        std::fprintf(stderr, "shoal: --agents needs a whole number in [1, 1000000]\n");
        return kExitBadInput;
    }
    const double phaseSeconds = parser.value(seconds).toDouble(&ok);
    if (!ok || !(phaseSeconds >= 0.5 && phaseSeconds <= 600.0)) {
        std::fprintf(stderr, "shoal: --seconds needs a number in [0.5, 600]\n");
        return kExitBadInput;
    }
    const int roundCount = parser.value(rounds).toInt(&ok);
    if (!ok || roundCount < 1 || roundCount > 100) {
        std::fprintf(stderr, "shoal: --rounds needs a whole number in [1, 100]\n");
        return kExitBadInput;
    }

    MainWindow window;
    window.files()->setAutosaveEnabled(false);
    window.files()->openDemo();
    Document* document = window.document();
    const SceneDesc demo = document->scene();
    const int have = static_cast<int>(window.simulation()->world()->agentCount());
    document->resetScene(withStressAgents(demo, std::max(0, agentCount - have)), QString());
    window.resize(1600, 1000);
    window.show();
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("metricsDock"));
    if (!dock) {
        std::fprintf(stderr, "shoal: --bench-metrics: the window has no metrics dock\n");
        return kExitBadInput;
    }
    // The metrics dock alone: the Problems tab beside it would come forward as the metrics
    // hide and watch the world in both phases (its cost is its own, while it is shown).
    if (auto* problems = window.findChild<QDockWidget*>(QStringLiteral("problemsDock")))
        problems->hide();
    window.simulation()->waitForWorld();
    const int worldAgents = static_cast<int>(window.simulation()->world()->agentCount());
    window.simulation()->play();
    Phase open, closed;
    for (int r = 0; r < roundCount; ++r) {
        dock->show();
        dock->raise();
        play(window, phaseSeconds, open);
        dock->hide();
        play(window, phaseSeconds, closed);
    }
    window.simulation()->pause();

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
    for (int r = 0; r < roundCount; ++r) {
        world.setMetricsEnabled(true);
        measured.push_back(stepMs(world, 120));
        world.setMetricsEnabled(false);
        bare.push_back(stepMs(world, 120));
    }

    std::printf("shoal --bench-metrics: the demo plus stress agents, %d agents, %d rounds of "
                "%.1f s per phase, interleaved (medians; the editor's timer caps the frame "
                "rate, the CPU time per frame is what a frame costs)\n",
                worldAgents, roundCount, phaseSeconds);
    std::printf("  dock open     %6.1f fps   %7.2f ms CPU per frame\n", median(open.fps),
                median(open.cpuMs));
    std::printf("  dock closed   %6.1f fps   %7.2f ms CPU per frame\n", median(closed.fps),
                median(closed.cpuMs));
    const double cpuRatio =
        median(closed.cpuMs) > 0 ? median(open.cpuMs) / median(closed.cpuMs) : 0;
    const double fpsRatio = median(closed.fps) > 0 ? median(open.fps) / median(closed.fps) : 0;
    std::printf("  open/closed   fps x%.3f, CPU per frame x%.3f (target: fps within 10 %%)\n",
                fpsRatio, cpuRatio);
    std::printf("  World::step   %.3f ms measuring every 12th step, %.3f ms never: x%.3f "
                "(target: at most x1.10)\n",
                median(measured), median(bare),
                median(bare) > 0 ? median(measured) / median(bare) : 0.0);
    return kExitOk;
}

} // namespace shoal::ui
