#include "renderbench.h"

#include "dockbench.h"

#include "benchsupport.h"

#include "benchscenes.h"
#include "embeddedscenes.h"
#include "simulation/agentlayeritem.h"
#include "simulation/layerbatches.h"
#include "simulation/overlayitem.h"
#include "simulation/overlayoptions.h"
#include "simulation/steppingthread.h"
#include "stressscene.h"
#include <shoal/scenefile.h>
#include <shoal/world.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>
#include <QThread>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <vector>

namespace shoal::ui {

namespace {

using bench::kExitBadInput;
using bench::kExitOk;
constexpr int kMaxAgents = 2000000;
constexpr int kWarmupFrames = 15;
/// Tank targets move this often (steps), so the squads keep driving instead of parking.
constexpr int kTargetPeriod = 150;

// The harness's own look for the level (the editor's geometry items draw their own).
constexpr QColor kBackground{0x0b, 0x15, 0x1e};
constexpr QColor kWater{0x10, 0x22, 0x30};
constexpr QColor kWall{0x9d, 0xb4, 0xc8};
constexpr QColor kObstacleFill{0x24, 0x36, 0x44};

struct Options
{
    std::vector<int> agents{10000, 100000};
    QString scene = QStringLiteral("demo");
    double seconds = 4.0;
    QSize size{1280, 800};
    double zoom = 1.0;
    QStringList overlays;
    bool metrics = false; ///< as `shoal-cli bench`: nothing in the editor shows them
    bool json = false;
    QString shots;
    QString png;
    int dockAgents = 10000; ///< the dock section's level; 0 leaves it out
    /// Step, then paint, on one thread (the editor before it stepped beside its paint).
    bool serial = false;
    int threads = 0; ///< World::setThreads: 0, every core, as the editor
};

struct Result
{
    QString scene;
    int agents = 0;
    int frames = 0;
    double fps = 0;
    double simMs = 0;
    double paintMs = 0;
    double frameMs = 0;
    double cpuMs = 0; ///< the process's CPU time per frame (what an idle machine would see)
    double longestFrameMs = 0; ///< the longest frame: a hitch the mean hides
    /// The longest step beside the paint (the copy of its frame included), the longest frame
    /// serial: how long a click waits at most before it reaches the world (docs/rendering.md).
    double clickWaitMs = 0;
    double pixelsPerMetre = 0;
    double paintsPerFrame = 0; ///< viewport paint events per frame: 1, as in the editor
    QString detail;
    bool beside = false; ///< the steps ran beside the paint
    int threads = 1;
};

using bench::processCpuMs;

void printError(const QString& message)
{
    std::fprintf(stderr, "shoal --bench-render: %s\n", message.toLocal8Bit().constData());
}

/// The scene's level geometry as one path item (bounds, walls, obstacles).
QGraphicsItem* makeLevelItem(const SceneDesc& scene)
{
    auto* group = new QGraphicsItemGroup;
    const QRectF bounds = sceneRectFromWorld(
        {static_cast<float>(scene.bounds.min.x), static_cast<float>(scene.bounds.min.y)},
        {static_cast<float>(scene.bounds.max.x), static_cast<float>(scene.bounds.max.y)});
    auto* water = new QGraphicsRectItem(bounds);
    water->setBrush(kWater);
    QPen edge(kWall, 2.0);
    edge.setCosmetic(true);
    water->setPen(edge);
    group->addToGroup(water);

    QPainterPath solids;
    for (const ObstacleDesc& o : scene.obstacles) {
        if (o.shape == ObstacleShape::Circle) {
            solids.addEllipse(sceneFromWorld(o.center.x, o.center.y), o.radius, o.radius);
            continue;
        }
        QPolygonF polygon;
        for (const Point2& p : o.points)
            polygon << sceneFromWorld(p.x, p.y);
        solids.addPolygon(polygon);
        solids.closeSubpath();
    }
    auto* obstacles = new QGraphicsPathItem(solids);
    obstacles->setBrush(kObstacleFill);
    QPen outline(kWall, 1.5);
    outline.setCosmetic(true);
    obstacles->setPen(outline);
    group->addToGroup(obstacles);

    QPainterPath walls;
    for (const WallDesc& w : scene.walls) {
        if (w.points.empty())
            continue;
        walls.moveTo(sceneFromWorld(w.points[0].x, w.points[0].y));
        for (std::size_t k = 1; k < w.points.size(); ++k)
            walls.lineTo(sceneFromWorld(w.points[k].x, w.points[k].y));
        if (w.closed)
            walls.closeSubpath();
    }
    auto* wallItem = new QGraphicsPathItem(walls);
    QPen wallPen(kWall, 3.0);
    wallPen.setCosmetic(true);
    wallPen.setCapStyle(Qt::RoundCap);
    wallPen.setJoinStyle(Qt::RoundJoin);
    wallItem->setPen(wallPen);
    group->addToGroup(wallItem);
    return group;
}

/// A world and everything that draws it, in its own scene and view.
class Stage
{
public:
    Stage(const SceneDesc& desc, std::unique_ptr<World> world, QSize size,
          const QStringList& overlays, bool serial)
        : m_desc(desc), m_world(std::move(world)), m_beside(!serial && overlays.isEmpty())
    {
        m_scene.setBackgroundBrush(kBackground);
        m_scene.addItem(makeLevelItem(desc));
        for (int g = 0; g < m_world->groupCount(); ++g) {
            auto* layer = new AgentLayerItem(g);
            const GroupDesc& group = desc.groups[static_cast<std::size_t>(g)];
            layer->setColors(toQColor(group.color), toQColor(group.accent));
            m_scene.addItem(layer);
            m_layers.push_back(layer);
        }
        auto* worldLayer = new AgentLayerItem(AgentLayerItem::kWorldLayer);
        m_scene.addItem(worldLayer);
        m_layers.push_back(worldLayer);
        m_options.setEnabledKeys(overlays);
        m_options.setScope(OverlayOptions::Scope::AllGroups);
        m_overlay = new OverlayItem(&m_options);
        m_scene.addItem(m_overlay);
        sync();
        // Small groups of one family in one layer, as the editor paints them.
        batchSmallGroups(m_layers, &m_frames[m_front]);

        m_view.setScene(&m_scene);
        m_view.viewport()->installEventFilter(&m_paints);
        configureViewForAgents(&m_view);
        m_view.setFrameShape(QFrame::NoFrame);
        m_view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        m_view.resize(size);
        m_view.setSceneRect(levelRect().adjusted(-1e4, -1e4, 1e4, 1e4));
        fit(1.0, std::nullopt);
        for (std::size_t g = 0; g < desc.groups.size(); ++g)
            if (desc.groups[g].target)
                m_targets.emplace_back(static_cast<int>(g), *desc.groups[g].target);
    }

    QRectF levelRect() const
    {
        return sceneRectFromWorld(
            {static_cast<float>(m_desc.bounds.min.x), static_cast<float>(m_desc.bounds.min.y)},
            {static_cast<float>(m_desc.bounds.max.x), static_cast<float>(m_desc.bounds.max.y)});
    }

    /// Fits the level, then zooms by `zoom` around `centre` (world) or the level's centre.
    void fit(double zoom, std::optional<Vec2> centre)
    {
        const QRectF level = levelRect();
        const qreal scale =
            std::min(m_view.width() / level.width(), m_view.height() / level.height()) * 0.98 *
            zoom;
        // The editor's convention (SceneView): the scene is the world, y up; the view flips.
        m_view.setTransform(QTransform::fromScale(scale, -scale));
        m_view.centerOn(centre ? sceneFromWorld(*centre) : level.center());
    }

    void show()
    {
        m_view.show();
        // Let the window get mapped and exposed before timing anything.
        for (int k = 0; k < 20; ++k) {
            QCoreApplication::processEvents();
            QThread::msleep(10);
        }
    }

    /// One frame. Beside the paint (the editor's way): the input, a step and the copy of its
    /// frame run on the stepping thread while the view repaints the frame before, then the
    /// layers take the new frame. Serial (or with overlays, which read the live world): the
    /// input, a step, the frame copied, the layers synced, one paint (paintOnce). Returns the
    /// milliseconds spent simulating (copy included) and painting.
    std::pair<double, double> frame()
    {
        QElapsedTimer timer;
        if (!m_beside) {
            timer.start();
            drive();
            m_world->step();
            m_world->copyFrame(m_frames[m_front], outlinesWanted());
            const double sim = static_cast<double>(timer.nsecsElapsed()) / 1e6;
            timer.restart();
            syncLayers();
            paintOnce();
            return {sim, static_cast<double>(timer.nsecsElapsed()) / 1e6};
        }
        const int back = 1 - m_front;
        double sim = 0.0;
        const bool outlines = outlinesWanted();
        m_stepper.start([this, back, outlines, &sim] {
            QElapsedTimer clock;
            clock.start();
            drive();
            m_world->step();
            m_world->copyFrame(m_frames[back], outlines);
            sim = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        });
        timer.start();
        paintOnce();
        const double paint = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        m_stepper.wait();
        m_front = back;
        syncLayers();
        return {sim, paint};
    }

    void sync()
    {
        m_world->copyFrame(m_frames[m_front]);
        syncLayers();
    }

    /// One paint of the view, now, the way the editor's event loop paints a tick: the layers'
    /// update() calls posted the scene's pass over its dirty items, which marks the viewport
    /// dirty and posts the window's update request; both are delivered here. (A synchronous
    /// repaint() before them painted the view, and the update request then painted it again,
    /// the same picture: every frame was painted twice until session 27.)
    void paintOnce()
    {
        QCoreApplication::sendPostedEvents(&m_scene, QEvent::MetaCall);
        QCoreApplication::sendPostedEvents(m_view.window(), QEvent::UpdateRequest);
        QCoreApplication::processEvents();
    }

    /// How many times the viewport has been painted.
    int paints() const { return m_paints.count; }

    void syncLayers()
    {
        for (AgentLayerItem* layer : m_layers)
            layer->syncFromFrame(&m_frames[m_front]);
        m_overlay->syncFromWorld(m_world.get());
    }

    void step(int count)
    {
        for (int k = 0; k < count; ++k) {
            drive();
            m_world->step();
        }
        sync();
    }

    bool beside() const { return m_beside; }

    /// Whether a worm layer would draw ribbons at this zoom: the frames then carry their
    /// edges, as the editor's.
    bool outlinesWanted() const
    {
        return AgentLayerItem::anyDrawsRibbons(
            m_layers, m_frames[m_front],
            QStyleOptionGraphicsItem::levelOfDetailFromTransform(m_view.viewportTransform()));
    }

    /// What the layers drew last frame, e.g. "shapes 2, dots 3".
    QString detailSummary() const
    {
        int dots = 0;
        int shapes = 0;
        for (const AgentLayerItem* layer : m_layers) {
            if (layer->groupIndex() == AgentLayerItem::kWorldLayer ||
                layer->lastVisibleCount() == 0)
                continue;
            (layer->lastDetail() == AgentLayerItem::Detail::Dots ? dots : shapes) += 1;
        }
        QStringList parts;
        if (shapes)
            parts << QStringLiteral("shapes %1").arg(shapes);
        if (dots)
            parts << QStringLiteral("dots %1").arg(dots);
        return parts.isEmpty() ? QStringLiteral("-") : parts.join(QStringLiteral(", "));
    }

    qreal pixelsPerMetre() const { return m_view.transform().m11(); }
    QGraphicsView& view() { return m_view; }
    World& world() { return *m_world; }
    OverlayOptions& options() { return m_options; }

private:
    /// The bench's input: the pointer circles the arena centre with the button held (the
    /// player swims, the school and the swarm follow, worms turn), and each squad's target
    /// moves around its original spot now and then so the tanks keep driving.
    void drive()
    {
        const std::uint64_t step = m_world->stepCount();
        m_world->setPointer(benchPointer(m_desc, step), true);
        if (step % kTargetPeriod != 0)
            return;
        const double angle = 2.1 * static_cast<double>(step / kTargetPeriod);
        for (const auto& [group, target] : m_targets) {
            const double r = 6.0;
            m_world->setTarget(group, {static_cast<float>(target.x + r * std::cos(angle)),
                                       static_cast<float>(target.y + r * std::sin(angle))});
        }
    }

    SceneDesc m_desc;
    std::unique_ptr<World> m_world;
    bench::PaintCounter m_paints; ///< the viewport's: one paint a frame
    QGraphicsScene m_scene;
    QGraphicsView m_view;
    OverlayOptions m_options;
    OverlayItem* m_overlay = nullptr;
    QList<AgentLayerItem*> m_layers;
    std::vector<std::pair<int, Point2>> m_targets;
    bool m_beside;
    SteppingThread m_stepper;
    WorldFrame m_frames[2]; ///< front (painted) and back (the step under way copies into it)
    int m_front = 0;
};

Expected<SceneDesc> demoScene()
{
    const QByteArray bytes = resources::demoSceneBytes();
    return parseScene(bytes.toStdString(), resources::demoScenePath().toStdString());
}

std::size_t sceneAgentCount(const SceneDesc& scene)
{
    auto world = World::create(scene);
    return world ? (*world)->agentCount() : 0;
}

/// The scene to measure at `agents` agents in total.
Expected<SceneDesc> benchScene(const QString& name, int agents)
{
    if (const auto kind = behaviourFromKey(name.toStdString()))
        return makeBenchScene(*kind, agents, 1);
    Expected<SceneDesc> base = name == QLatin1String("demo")
                                   ? demoScene()
                                   : loadSceneFile(QDir::fromNativeSeparators(name).toStdString());
    if (!base)
        return base;
    const int have = static_cast<int>(sceneAgentCount(*base));
    return withStressAgents(*base, agents - have);
}

QString platformName()
{
    return QGuiApplication::platformName();
}

Result measure(const Options& options, int agents)
{
    Result result;
    result.scene = options.scene;
    Expected<SceneDesc> scene = benchScene(options.scene, agents);
    if (!scene) {
        printError(QString::fromStdString(scene.error().message));
        return result;
    }
    auto created = World::create(*scene);
    if (!created) {
        printError(QString::fromStdString(created.error().message));
        return result;
    }
    (*created)->setMetricsEnabled(options.metrics);
    (*created)->setThreads(options.threads);
    result.agents = static_cast<int>((*created)->agentCount());
    result.threads = (*created)->threads();
    Stage stage(*scene, std::move(*created), options.size, options.overlays, options.serial);
    result.beside = stage.beside();
    stage.fit(options.zoom, std::nullopt);
    stage.show();
    for (int k = 0; k < kWarmupFrames; ++k)
        stage.frame();

    QElapsedTimer wall;
    wall.start();
    const double cpuStart = processCpuMs();
    const int paintsStart = stage.paints();
    double sim = 0.0;
    double paint = 0.0;
    int frames = 0;
    const qint64 limit = static_cast<qint64>(options.seconds * 1e9);
    qint64 frameStart = 0;
    while (frameStart < limit) {
        const auto [s, p] = stage.frame();
        sim += s;
        paint += p;
        ++frames;
        const qint64 frameEnd = wall.nsecsElapsed();
        // Beside the paint a click waits for the step under way; serial, for the whole frame.
        const double frameMs = static_cast<double>(frameEnd - frameStart) / 1e6;
        result.clickWaitMs = std::max(result.clickWaitMs, result.beside ? s : frameMs);
        result.longestFrameMs = std::max(result.longestFrameMs, frameMs);
        frameStart = frameEnd;
    }
    const double elapsedMs = static_cast<double>(wall.nsecsElapsed()) / 1e6;
    result.frames = frames;
    result.fps = frames * 1000.0 / elapsedMs;
    result.simMs = sim / frames;
    result.paintMs = paint / frames;
    result.frameMs = elapsedMs / frames;
    result.cpuMs = (processCpuMs() - cpuStart) / frames;
    result.paintsPerFrame = static_cast<double>(stage.paints() - paintsStart) / frames;
    result.pixelsPerMetre = stage.pixelsPerMetre();
    result.detail = stage.detailSummary();
    if (!options.png.isEmpty()) {
        QString path = options.png;
        if (options.agents.size() > 1)
            path.insert(path.endsWith(QLatin1String(".png")) ? path.size() - 4 : path.size(),
                        QStringLiteral("-%1").arg(agents));
        stage.view().grab().save(path);
    }
    return result;
}

/// The targets of issue 14 (the editor on both cores): 10,000 agents at >= 200 fps, 100,000
/// at >= 60 fps, and at 100,000 a click reaching the world within 50 ms.
std::optional<double> fpsTarget(int agents)
{
    if (agents == 10000)
        return 200.0;
    if (agents == 100000)
        return 60.0;
    return std::nullopt;
}

std::optional<double> clickWaitTarget(int agents)
{
    if (agents == 100000)
        return 50.0;
    return std::nullopt;
}

QString clickWaitText(const Result& r)
{
    auto fixed = [](double v) { return QString::number(v, 'f', 1); };
    const auto target = clickWaitTarget(r.agents);
    if (!target)
        return fixed(r.clickWaitMs);
    return QStringLiteral("%1 <=%2 %3")
        .arg(fixed(r.clickWaitMs))
        .arg(*target)
        .arg(r.clickWaitMs <= *target ? QStringLiteral("PASS") : QStringLiteral("MISS"));
}

QString targetText(int agents, double fps)
{
    const auto target = fpsTarget(agents);
    if (!target)
        return {};
    return QStringLiteral(">=%1 %2").arg(*target).arg(fps >= *target ? QStringLiteral("PASS")
                                                                     : QStringLiteral("MISS"));
}

double rounded(double value, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

void printJson(const Result& r, const Options& options)
{
    QJsonObject o;
    o.insert(QStringLiteral("scene"), r.scene);
    o.insert(QStringLiteral("agents"), r.agents);
    o.insert(QStringLiteral("frames"), r.frames);
    o.insert(QStringLiteral("fps"), rounded(r.fps, 1));
    o.insert(QStringLiteral("sim_ms_per_frame"), rounded(r.simMs, 3));
    o.insert(QStringLiteral("paint_ms_per_frame"), rounded(r.paintMs, 3));
    o.insert(QStringLiteral("frame_ms"), rounded(r.frameMs, 3));
    o.insert(QStringLiteral("cpu_ms_per_frame"), rounded(r.cpuMs, 3));
    o.insert(QStringLiteral("longest_frame_ms"), rounded(r.longestFrameMs, 3));
    o.insert(QStringLiteral("click_wait_ms"), rounded(r.clickWaitMs, 3));
    o.insert(QStringLiteral("pixels_per_metre"), rounded(r.pixelsPerMetre, 3));
    o.insert(QStringLiteral("paints_per_frame"), rounded(r.paintsPerFrame, 3));
    o.insert(QStringLiteral("detail"), r.detail);
    o.insert(QStringLiteral("view"), QJsonArray{options.size.width(), options.size.height()});
    o.insert(QStringLiteral("platform"), platformName());
    o.insert(QStringLiteral("stepping"),
             r.beside ? QStringLiteral("beside paint") : QStringLiteral("serial"));
    o.insert(QStringLiteral("threads"), r.threads);
    if (const auto target = fpsTarget(r.agents)) {
        o.insert(QStringLiteral("fps_target"), *target);
        o.insert(QStringLiteral("pass"), r.fps >= *target);
    }
    if (const auto target = clickWaitTarget(r.agents)) {
        o.insert(QStringLiteral("click_wait_target_ms"), *target);
        o.insert(QStringLiteral("click_wait_pass"), r.clickWaitMs <= *target);
    }
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
}

const char* kRowFormat = "%-12s %8s %7s %8s %-12s %13s %15s %7s %10s %8s %8s %-19s %8s  %s\n";

void printHeader(const Options& options)
{
    std::printf(
        "shoal --bench-render: %s scene, %dx%d view on '%s', %.1f s per size after %d warm-up "
        "frames; each frame = one World::step (metrics %s, %s) %s one paint of "
        "the view\n",
        options.scene.toLocal8Bit().constData(), options.size.width(), options.size.height(),
        platformName().toLocal8Bit().constData(), options.seconds, kWarmupFrames,
        options.metrics ? "on" : "off",
        options.threads == 0
            ? "every core"
            : (options.threads == 1
                   ? "one thread"
                   : qPrintable(QStringLiteral("%1 threads").arg(options.threads))),
        options.serial || !options.overlays.isEmpty()
            ? "then"
            : "on the stepping thread, beside (the frame before's)");
    std::printf(
        "(demo: the embedded level plus stress agents up to N; cpu ms: the process's CPU time "
        "per frame, which other processes on the machine do not stretch; targets are the "
        "issue's, timings never fail the command)\n\n");
    std::printf(kRowFormat, "scene", "agents", "frames", "fps", "target", "sim ms/frame",
                "paint ms/frame", "paints", "frame ms", "cpu ms", "longest", "click wait ms",
                "px/m", "detail");
}

void printRow(const Result& r)
{
    auto fixed = [](double v, int d) { return QString::number(v, 'f', d).toStdString(); };
    std::printf(kRowFormat, r.scene.toLocal8Bit().constData(), std::to_string(r.agents).c_str(),
                std::to_string(r.frames).c_str(), fixed(r.fps, 1).c_str(),
                targetText(r.agents, r.fps).toLocal8Bit().constData(), fixed(r.simMs, 2).c_str(),
                fixed(r.paintMs, 2).c_str(), fixed(r.paintsPerFrame, 2).c_str(),
                fixed(r.frameMs, 2).c_str(), fixed(r.cpuMs, 2).c_str(),
                fixed(r.longestFrameMs, 1).c_str(), clickWaitText(r).toLocal8Bit().constData(),
                fixed(r.pixelsPerMetre, 2).c_str(), r.detail.toLocal8Bit().constData());
}

/// Saves the stage's view as `name` in `dir`, printing the path; false when it failed.
bool saveShot(QGraphicsView& view, const QDir& dir, const QString& name)
{
    const QString path = dir.filePath(name);
    if (!view.grab().save(path))
        return false;
    std::printf("%s\n", path.toLocal8Bit().constData());
    return true;
}

/// The demo at a few zoom levels, with and without overlays; returns the shots written.
int demoShots(Stage& stage, const QDir& dir)
{
    const QStringList all = [] {
        QStringList keys;
        for (const OverlayOptions::Entry& e : OverlayOptions::entries())
            if (e.key != QLatin1String("grid") && e.key != QLatin1String("velocity"))
                keys << e.key;
        return keys;
    }();
    int written = 0;
    auto shot = [&](const char* name, double zoom, std::optional<Vec2> centre,
                    const QStringList& overlays) {
        stage.options().setEnabledKeys(overlays);
        stage.fit(zoom, centre);
        written += saveShot(stage.view(), dir, QString::fromLatin1(name)) ? 1 : 0;
    };
    const World& w = stage.world();
    auto agent0 = [&](const char* group) -> std::optional<Vec2> {
        const int g = w.groupIndex(group);
        if (g < 0 || w.group(g).agents.size() == 0)
            return std::nullopt;
        return Vec2{w.group(g).agents.px[0], w.group(g).agents.py[0]};
    };
    auto keys = [](std::initializer_list<const char*> names) {
        QStringList out;
        for (const char* name : names)
            out << QString::fromLatin1(name);
        return out;
    };
    shot("demo-fit.png", 1.0, std::nullopt, {});
    shot("demo-fit-overlays.png", 1.0, std::nullopt, all);
    shot("demo-school-x3.png", 3.0, agent0("school"), {});
    shot("demo-school-x3-overlays.png", 3.0, agent0("school"),
         keys({"fishBand", "feelers", "velocity"}));
    shot("demo-convoy-x5-overlays.png", 5.0, agent0("convoy"), keys({"leaderPoints", "feelers"}));
    shot("demo-worms-x5-overlays.png", 5.0, agent0("worms"), keys({"wormJoints"}));
    shot("demo-squad-x2-overlays.png", 2.0, agent0("squad"), keys({"squadRanges", "grid"}));
    shot("demo-swarm-x3-overlays.png", 3.0, agent0("swarm"), keys({"swarmScatter", "grid"}));
    shot("demo-x12.png", 12.0, agent0("school"), {});
    return written;
}

/// The demo level scaled up to each --agents size, whole and at x6; returns the shots written.
int stressShots(const Options& options, const QDir& dir)
{
    int written = 0;
    for (int n : options.agents) {
        Expected<SceneDesc> scene = benchScene(QStringLiteral("demo"), n);
        if (!scene)
            continue;
        auto created = World::create(*scene);
        if (!created)
            continue;
        Stage big(*scene, std::move(*created), options.size, {}, true);
        big.show();
        big.step(120);
        big.fit(1.0, std::nullopt);
        written += saveShot(big.view(), dir, QStringLiteral("stress-%1.png").arg(n)) ? 1 : 0;
        big.fit(6.0, std::nullopt);
        written += saveShot(big.view(), dir, QStringLiteral("stress-%1-x6.png").arg(n)) ? 1 : 0;
    }
    return written;
}

/// Renders the demo (and the stress scenes) to PNG files in `dir` for looking at.
int renderShots(const Options& options)
{
    QDir dir(options.shots);
    if (!dir.exists() && !QDir().mkpath(options.shots)) {
        printError(QStringLiteral("--shots: cannot create '%1'").arg(options.shots));
        return kExitBadInput;
    }
    Expected<SceneDesc> demo = demoScene();
    if (!demo) {
        printError(QString::fromStdString(demo.error().message));
        return kExitBadInput;
    }
    auto world = World::create(*demo);
    if (!world) {
        printError(QString::fromStdString(world.error().message));
        return kExitBadInput;
    }
    Stage stage(*demo, std::move(*world), options.size, {}, true);
    stage.show();
    stage.step(300);
    const int written = demoShots(stage, dir) + stressShots(options, dir);
    return written > 0 ? kExitOk : kExitBadInput;
}

/// The render bench's command line.
struct BenchOptions
{
    QCommandLineOption bench{QStringLiteral("bench-render"), QStringLiteral("This mode.")};
    QCommandLineOption agents{QStringLiteral("agents"),
                              QStringLiteral("Agents in the scene (default 10000,100000)."),
                              QStringLiteral("N,N,...")};
    QCommandLineOption scene{QStringLiteral("scene"),
                             QStringLiteral("'demo' (default: the demo level scaled up), a family "
                                            "(fishSchool, tankSquad, swarm, leaderFollow, worm: "
                                            "the CLI bench's scene) or a scene file (scaled up)."),
                             QStringLiteral("demo|family|file")};
    QCommandLineOption seconds{QStringLiteral("seconds"),
                               QStringLiteral("Timed seconds per size (default 4)."),
                               QStringLiteral("S")};
    QCommandLineOption size{QStringLiteral("size"), QStringLiteral("View size (default 1280x800)."),
                            QStringLiteral("WxH")};
    QCommandLineOption zoom{QStringLiteral("zoom"),
                            QStringLiteral("Zoom relative to fitting the level (default 1)."),
                            QStringLiteral("F")};
    QCommandLineOption overlays{
        QStringLiteral("overlays"),
        QStringLiteral("Overlays to draw for all groups (keys, comma-separated)."),
        QStringLiteral("key,...")};
    QCommandLineOption metrics{QStringLiteral("metrics"),
                               QStringLiteral("Compute the world's metrics every step (off by "
                                              "default, as in shoal-cli bench).")};
    QCommandLineOption json{QStringLiteral("json"),
                            QStringLiteral("One JSON object per line per size.")};
    QCommandLineOption png{QStringLiteral("png"),
                           QStringLiteral("Save the view after each size to this file (-N added)."),
                           QStringLiteral("file")};
    QCommandLineOption shots{QStringLiteral("shots"),
                             QStringLiteral("Render the demo at a few zoom levels to PNGs in this "
                                            "folder instead of timing."),
                             QStringLiteral("dir")};
    QCommandLineOption serial{
        QStringLiteral("serial"),
        QStringLiteral("Step, then paint, on one thread, instead of stepping beside the paint "
                       "as the editor does (with --overlays, always: they read the live "
                       "world).")};
    QCommandLineOption threads{
        QStringLiteral("threads"),
        QStringLiteral("Threads a step runs on (default 0: every core, as the editor)."),
        QStringLiteral("N")};
    QCommandLineOption docks{
        QStringLiteral("docks"),
        QStringLiteral("Agents in the closing section that plays the editor's window with the "
                       "metrics dock and the Problems tab open and closed (default 10000; 0 "
                       "leaves it out)."),
        QStringLiteral("N")};

    void addTo(QCommandLineParser& parser) const
    {
        parser.addOptions({bench, agents, scene, seconds, size, zoom, overlays, metrics, json, png,
                           shots, serial, threads, docks});
    }
};

/// A number from `text` in [lo, hi], or an error naming the option.
std::optional<QString> parseRanged(const QString& option, const QString& text, double lo, double hi,
                                   double& value)
{
    bool ok = false;
    value = text.toDouble(&ok);
    if (!ok || value < lo || value > hi)
        return QStringLiteral("--%1: '%2' must be in [%3, %4]").arg(option, text).arg(lo).arg(hi);
    return std::nullopt;
}

std::optional<QString> parseAgentCounts(const QString& text, std::vector<int>& counts)
{
    counts.clear();
    for (const QString& item : text.split(QLatin1Char(','))) {
        bool ok = false;
        const int n = item.trimmed().toInt(&ok);
        if (!ok || n < 1 || n > kMaxAgents)
            return QStringLiteral("--agents: '%1' must be a whole number in [1, %2]")
                .arg(item)
                .arg(kMaxAgents);
        counts.push_back(n);
    }
    return std::nullopt;
}

std::optional<QString> parseViewSize(const QString& text, QSize& size)
{
    const QStringList wh = text.split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
    const int h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 64 || h < 64 || w > 8192 || h > 8192)
        return QStringLiteral("--size: '%1' must be WxH, each in [64, 8192]").arg(text);
    size = {w, h};
    return std::nullopt;
}

std::optional<QString> parseOverlayKeys(const QString& text, QStringList& keys)
{
    for (const QString& key : text.split(QLatin1Char(','))) {
        if (!OverlayOptions::fromKey(key.trimmed())) {
            QStringList known;
            for (const OverlayOptions::Entry& e : OverlayOptions::entries())
                known << e.key;
            return QStringLiteral("--overlays: unknown overlay '%1'; known: %2")
                .arg(key, known.join(QStringLiteral(", ")));
        }
        keys << key.trimmed();
    }
    return std::nullopt;
}

std::optional<QString> parseOptions(const QStringList& args, Options& options)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Frames per second of the editor's viewport with N moving agents, simulation included."));
    const BenchOptions o;
    o.addTo(parser);
    parser.addHelpOption();
    if (!parser.parse(args))
        return parser.errorText();
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", parser.helpText().toLocal8Bit().constData());
        return QString();
    }
    std::optional<QString> error;
    if (!error && parser.isSet(o.agents))
        error = parseAgentCounts(parser.value(o.agents), options.agents);
    if (parser.isSet(o.scene))
        options.scene = parser.value(o.scene);
    if (!error && parser.isSet(o.seconds))
        error = parseRanged(QStringLiteral("seconds"), parser.value(o.seconds), 0.1, 600,
                            options.seconds);
    if (!error && parser.isSet(o.size))
        error = parseViewSize(parser.value(o.size), options.size);
    if (!error && parser.isSet(o.zoom))
        error = parseRanged(QStringLiteral("zoom"), parser.value(o.zoom), 0.01, 1000, options.zoom);
    if (!error && parser.isSet(o.overlays))
        error = parseOverlayKeys(parser.value(o.overlays), options.overlays);
    options.metrics = parser.isSet(o.metrics);
    options.serial = parser.isSet(o.serial);
    if (!error && parser.isSet(o.threads)) {
        double threads = 0;
        error = parseRanged(QStringLiteral("threads"), parser.value(o.threads), 0,
                            World::kMaxThreads, threads);
        options.threads = int(threads);
        if (!error && double(options.threads) != threads)
            error = QStringLiteral("--threads: '%1' must be a whole number")
                        .arg(parser.value(o.threads));
    }
    options.json = parser.isSet(o.json);
    options.png = parser.value(o.png);
    options.shots = parser.value(o.shots);
    if (!error && parser.isSet(o.docks)) {
        double docks = 0;
        error = parseRanged(QStringLiteral("docks"), parser.value(o.docks), 0, kMaxAgents, docks);
        options.dockAgents = int(docks);
        if (!error && double(options.dockAgents) != docks)
            error =
                QStringLiteral("--docks: '%1' must be a whole number").arg(parser.value(o.docks));
    }
    return error;
}

} // namespace

void configureViewForAgents(QGraphicsView* view)
{
    // Agents move every frame all over the view: tracking dirty regions would cost more
    // than repainting everything, and a BSP index would be rebuilt every step.
    view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    view->setCacheMode(QGraphicsView::CacheNone);
    view->setOptimizationFlag(QGraphicsView::DontAdjustForAntialiasing, true);
    view->setRenderHint(QPainter::Antialiasing, false);
    view->setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (view->scene())
        view->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
}

int runRenderBench(const QStringList& args)
{
    Options options;
    if (const auto error = parseOptions(args, options)) {
        if (error->isEmpty())
            return kExitOk; // --help
        printError(*error);
        return kExitBadInput;
    }
    if (!options.shots.isEmpty())
        return renderShots(options);

    if (!options.json)
        printHeader(options);
    std::fflush(stdout);
    for (const int n : options.agents) {
        const Result result = measure(options, n);
        if (result.frames == 0)
            return kExitBadInput;
        if (options.json)
            printJson(result, options);
        else
            printRow(result);
        std::fflush(stdout);
    }
    if (options.dockAgents == 0)
        return kExitOk;
    DockBenchOptions docks;
    docks.agents = options.dockAgents;
    docks.json = options.json;
    return measureDocks(docks);
}

} // namespace shoal::ui
