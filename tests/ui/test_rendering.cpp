// The agent layers and the overlays, rendered through a real QGraphicsView (offscreen):
// agents show in their group's colour where they are, at every zoom; glyphs close up and
// dots far out; bounds follow the agents; each overlay draws when on and only then; the
// stress scene has the agents it was asked for.

#include "bigscene.h"
#include "openbench.h"
#include "renderbench.h"
#include "simulation/agentlayeritem.h"
#include "simulation/layerbatches.h"
#include "simulation/overlayitem.h"
#include "simulation/overlayoptions.h"
#include "stressscene.h"
#include "uitestsupport.h"
#include <shoal/scenefile.h>
#include <shoal/sketch.h>
#include <shoal/world.h>

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <memory>

#include <unistd.h>

using namespace shoal;
using namespace shoal::ui;

namespace {

const QColor kBackground(0, 0, 0);

bool near(QRgb pixel, const QColor& color, int tolerance = 40)
{
    return std::abs(qRed(pixel) - color.red()) <= tolerance &&
           std::abs(qGreen(pixel) - color.green()) <= tolerance &&
           std::abs(qBlue(pixel) - color.blue()) <= tolerance;
}

bool isBackground(QRgb pixel)
{
    return (pixel & 0xffffff) == 0;
}

int countNonBackground(const QImage& image)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += isBackground(image.pixel(x, y)) ? 0 : 1;
    return count;
}

/// Sends this process's stdout to `fd` while it lives (what the render bench prints goes
/// there), and back when it goes, however the test leaves the scope.
class StdoutTo
{
public:
    explicit StdoutTo(int fd)
    {
        std::fflush(stdout);
        m_saved = dup(STDOUT_FILENO);
        m_ok = m_saved >= 0 && dup2(fd, STDOUT_FILENO) >= 0;
    }
    ~StdoutTo()
    {
        std::fflush(stdout);
        if (m_saved >= 0) {
            dup2(m_saved, STDOUT_FILENO);
            close(m_saved);
        }
    }
    StdoutTo(const StdoutTo&) = delete;
    StdoutTo& operator=(const StdoutTo&) = delete;
    bool ok() const { return m_ok; }

private:
    int m_saved = -1;
    bool m_ok = false;
};

/// A world from the demo level, stepped so every family has moved.
/// A copy of `world`'s frame as it is now, kept for the rest of the run (a layer keeps the
/// pointer and paints the frame, World::copyFrame()); null for null.
const WorldFrame* frameOf(const World* world)
{
    static std::list<WorldFrame> frames;
    if (!world)
        return nullptr;
    frames.emplace_back();
    world->copyFrame(frames.back());
    return &frames.back();
}

std::unique_ptr<World> demoWorld(int steps)
{
    auto created = World::create(test::demoScene());
    if (!created)
        qFatal("demo world: %s", created.error().message.c_str());
    std::unique_ptr<World> world = std::move(*created);
    for (int k = 0; k < steps; ++k) {
        world->setPointer({-20.0f, 5.0f}, true);
        world->step();
    }
    return world;
}

/// A view configured as the editor's (y up, view flips), rendering to an image.
struct Viewport
{
    QGraphicsScene scene;
    QGraphicsView view;

    Viewport()
    {
        scene.setBackgroundBrush(kBackground);
        view.setScene(&scene);
        configureViewForAgents(&view);
        view.setFrameShape(QFrame::NoFrame);
        view.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        view.resize(480, 360);
        view.setSceneRect(-2000, -2000, 4000, 4000);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            qFatal("the view was not exposed");
    }

    void look(Vec2 centre, double pixelsPerMetre)
    {
        view.setTransform(QTransform::fromScale(pixelsPerMetre, -pixelsPerMetre));
        view.centerOn(sceneFromWorld(centre));
    }

    QImage render()
    {
        QImage image(view.viewport()->size(), QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        view.render(&painter, QRectF(image.rect()), view.viewport()->rect());
        return image;
    }

    QPoint pixelOf(Vec2 p) const { return view.mapFromScene(sceneFromWorld(p)); }
};

Vec2 centroid(const GroupState& group)
{
    Vec2 sum;
    for (std::size_t i = 0; i < group.agents.size(); ++i)
        sum += Vec2{group.agents.px[i], group.agents.py[i]};
    return sum / static_cast<float>(std::max<std::size_t>(group.agents.size(), 1));
}

/// The agent nearest the group's centroid: a spread-out group (a squad in line) may have
/// nobody at its centroid, and a close look there would show none of it.
Vec2 middleAgent(const GroupState& group)
{
    const Vec2 c = centroid(group);
    Vec2 best = c;
    float nearest = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < group.agents.size(); ++i) {
        const Vec2 p{group.agents.px[i], group.agents.py[i]};
        if (distance(p, c) < nearest) {
            nearest = distance(p, c);
            best = p;
        }
    }
    return best;
}

/// Does a pixel of `color` lie within `radius` pixels of `at`?
bool colourNear(const QImage& image, QPoint at, int radius, const QColor& color)
{
    for (int y = at.y() - radius; y <= at.y() + radius; ++y)
        for (int x = at.x() - radius; x <= at.x() + radius; ++x)
            if (image.rect().contains(x, y) && near(image.pixel(x, y), color))
                return true;
    return false;
}

/// The point of the agent's body that is nearest to `p` (worms: the polyline).
float distanceToAgent(const GroupState& group, const AgentBodies* bodies, std::size_t i, Vec2 p)
{
    const Vec2 head{group.agents.px[i], group.agents.py[i]};
    if (!bodies)
        return distance(head, p);
    std::vector<Vec2> joints;
    for (int k = 0; k < bodies->pointCount(static_cast<int>(i)); ++k)
        joints.push_back(bodies->point(static_cast<int>(i), k));
    float best = distance(head, p);
    for (std::size_t k = 0; k + 1 < joints.size(); ++k) {
        const Vec2 a = joints[k];
        const Vec2 ab = joints[k + 1] - a;
        const float t =
            std::clamp(dot(p - a, ab) / std::max(ab.lengthSquared(), 1e-9f), 0.0f, 1.0f);
        best = std::min(best, distance(a + ab * t, p));
    }
    return best;
}

} // namespace

class TestRendering : public QObject
{
    Q_OBJECT

private slots:
    void everyFamilyIsDrawnInItsColourWhereItsAgentsAre_data();
    void everyFamilyIsDrawnInItsColourWhereItsAgentsAre();
    void theLayerSwitchesFromGlyphsToDotsWhenZoomingOut();
    void thePlayerAndTheFreeFishStandOut();
    void theWorldLayerDrawsCoinsAndAFreePlayer();
    void boundsFollowTheAgents();
    void aLayerWithoutAWorldDrawsNothing();
    void overlaysDrawOnlyWhenEnabled_data();
    void overlaysDrawOnlyWhenEnabled();
    void overlaysFollowTheScope();
    void overlayOptionsListEveryOverlayOnce();
    void theStressSceneHasTheRequestedAgents();
    void aStressSceneOfAHundredThousandFitsItsRoutes();
    void smallGroupsOfOneFamilyPaintInOneLayer();
    void theRenderBenchPaintsEveryFrameOnce_data();
    void theRenderBenchPaintsEveryFrameOnce();
    void theOpenBenchPaintsEveryEditOnce();
};

void TestRendering::everyFamilyIsDrawnInItsColourWhereItsAgentsAre_data()
{
    QTest::addColumn<QString>("group");
    QTest::addColumn<double>("pixelsPerMetre");
    const SceneDesc demo = test::demoScene();
    for (const GroupDesc& group : demo.groups)
        for (const double ppm : {3.0, 12.0, 45.0})
            QTest::addRow("%s at %g px/m", group.name.c_str(), ppm)
                << QString::fromStdString(group.name) << ppm;
}

void TestRendering::everyFamilyIsDrawnInItsColourWhereItsAgentsAre()
{
    QFETCH(QString, group);
    QFETCH(double, pixelsPerMetre);
    const SceneDesc demo = test::demoScene();
    const auto world = demoWorld(90);
    const int g = world->groupIndex(group.toStdString());
    QVERIFY(g >= 0);
    const GroupState& agents = world->group(g);
    const GroupDesc& desc = demo.groups[static_cast<std::size_t>(g)];
    const QColor body = toQColor(desc.color);

    Viewport viewport;
    auto* layer = new AgentLayerItem(g);
    layer->setColors(body, toQColor(desc.accent));
    viewport.scene.addItem(layer);
    layer->syncFromFrame(frameOf(world.get()));
    viewport.look(middleAgent(agents), pixelsPerMetre);
    const QImage image = viewport.render();

    // Every agent on screen shows its group's colour within its body's reach.
    const float radius = world->bodyRadius(g);
    const int reach = std::clamp(static_cast<int>(0.8 * radius * pixelsPerMetre), 2, 60);
    // The player's ring (at least 6 px across) may cover its neighbours far out.
    const QPoint player = viewport.pixelOf({agents.agents.px[0], agents.agents.py[0]});
    const int ring =
        agents.playerLed ? std::max(8, static_cast<int>(3.0 * radius * pixelsPerMetre)) : 0;
    int checked = 0;
    for (std::size_t i = 0; i < agents.agents.size(); ++i) {
        const bool special =
            i == 0 && (agents.playerLed || agents.kind == BehaviourKind::LeaderFollow);
        const bool free =
            agents.kind == BehaviourKind::FishSchool && !(agents.agents.flags[i] & kAgentInSchool);
        if (special || free)
            continue; // drawn in the accent colour or dimmed (thePlayerAndTheFreeFishStandOut)
        const QPoint at = viewport.pixelOf({agents.agents.px[i], agents.agents.py[i]});
        if (!image.rect().adjusted(reach, reach, -reach, -reach).contains(at) ||
            (agents.playerLed && (at - player).manhattanLength() <= 2 * ring))
            continue;
        ++checked;
        QVERIFY2(colourNear(image, at, reach, body),
                 qPrintable(QStringLiteral("agent %1 at pixel (%2, %3) shows no %4")
                                .arg(i)
                                .arg(at.x())
                                .arg(at.y())
                                .arg(body.name())));
    }
    QVERIFY2(checked > 0, "no agent of the group was on screen");

    // ...and nothing of that colour is drawn away from the agents.
    const float slack = 3.0f / static_cast<float>(pixelsPerMetre) +
                        (agents.kind == BehaviourKind::Worm ? 0.6f : 2.0f * radius);
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            if (!near(image.pixel(x, y), body, 12))
                continue;
            const QPointF scenePoint = viewport.view.mapToScene(QPoint(x, y));
            const Vec2 p = worldFromScene(scenePoint);
            float nearest = 1e9f;
            for (std::size_t i = 0; i < agents.agents.size(); ++i)
                nearest = std::min(nearest, distanceToAgent(agents, world->bodies(g), i, p));
            QVERIFY2(
                nearest <= slack,
                qPrintable(QStringLiteral("group colour at pixel (%1, %2), %3 m from any agent")
                               .arg(x)
                               .arg(y)
                               .arg(static_cast<double>(nearest))));
        }
    }
}

void TestRendering::theLayerSwitchesFromGlyphsToDotsWhenZoomingOut()
{
    const SceneDesc demo = test::demoScene();
    const auto world = demoWorld(30);
    const int g = world->groupIndex("swarm");
    const GroupState& swarm = world->group(g);
    const QColor body = toQColor(demo.groups[static_cast<std::size_t>(g)].color);
    const QColor outline = body.darker(175);

    Viewport viewport;
    auto* layer = new AgentLayerItem(g);
    layer->setColors(body, toQColor(demo.groups[static_cast<std::size_t>(g)].accent));
    viewport.scene.addItem(layer);
    layer->syncFromFrame(frameOf(world.get()));

    auto drawn = [&](double ppm, int& outlinePixels) {
        viewport.look(centroid(swarm), ppm);
        const QImage image = viewport.render();
        outlinePixels = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                outlinePixels += near(image.pixel(x, y), outline, 10) ? 1 : 0;
        return countNonBackground(image);
    };

    // Far out: flat dots, a few pixels each, no outlines.
    int farOutline = 0;
    const int far = drawn(2.0, farOutline);
    QCOMPARE(layer->lastDetail(), AgentLayerItem::Detail::Dots);
    QCOMPARE(layer->detailAt(2.0), AgentLayerItem::Detail::Dots);
    const int visibleFar = layer->lastVisibleCount();
    QVERIFY(visibleFar > 0);
    QVERIFY2(far <= 4 * visibleFar,
             qPrintable(QStringLiteral("%1 pixels for %2 dots").arg(far).arg(visibleFar)));
    QCOMPARE(farOutline, 0);

    // Close up: outlined glyphs, many pixels each.
    int closeOutline = 0;
    const int close = drawn(30.0, closeOutline);
    QCOMPARE(layer->lastDetail(), AgentLayerItem::Detail::Shapes);
    const int visibleClose = layer->lastVisibleCount();
    QVERIFY(visibleClose > 0);
    QVERIFY2(close >= 40 * visibleClose,
             qPrintable(QStringLiteral("%1 pixels for %2 glyphs").arg(close).arg(visibleClose)));
    QVERIFY(closeOutline > 5 * visibleClose);
}

void TestRendering::thePlayerAndTheFreeFishStandOut()
{
    const SceneDesc demo = test::demoScene();
    const auto world = demoWorld(5);
    const int g = world->groupIndex("school");
    const GroupState& school = world->group(g);
    QVERIFY(school.playerLed);
    const GroupDesc& desc = demo.groups[static_cast<std::size_t>(g)];
    const QColor body = toQColor(desc.color);
    const QColor accent = toQColor(desc.accent);

    Viewport viewport;
    auto* layer = new AgentLayerItem(g);
    layer->setColors(body, accent);
    viewport.scene.addItem(layer);
    layer->syncFromFrame(frameOf(world.get()));

    // The player fish is filled with the accent colour, not the body colour.
    const Vec2 player{school.agents.px[0], school.agents.py[0]};
    viewport.look(player, 60.0);
    QImage image = viewport.render();
    const QPoint at = viewport.pixelOf(player);
    QVERIFY(colourNear(image, at, 3, accent));
    QVERIFY(!colourNear(image, at, 3, body));

    // A free fish is drawn dimmer than a school fish.
    std::size_t freeFish = school.agents.size();
    for (std::size_t i = 1; i < school.agents.size(); ++i)
        if (!(school.agents.flags[i] & kAgentInSchool)) {
            freeFish = i;
            break;
        }
    QVERIFY(freeFish < school.agents.size());
    const Vec2 p{school.agents.px[freeFish], school.agents.py[freeFish]};
    viewport.look(p, 60.0);
    image = viewport.render();
    const QPoint f = viewport.pixelOf(p);
    QVERIFY(!colourNear(image, f, 6, body));
    const QRgb centre = image.pixel(f);
    QVERIFY2(!isBackground(centre), "the free fish is not drawn");
    QVERIFY(qBlue(centre) < body.blue() - 40);
}

void TestRendering::theWorldLayerDrawsCoinsAndAFreePlayer()
{
    // The player leads no group here: the world layer draws it, with the coins.
    SceneDesc scene = test::demoScene();
    scene.player.group.clear();
    auto created = World::create(scene);
    QVERIFY(created);
    const World& world = **created;
    QVERIFY(world.player().enabled && world.player().group < 0);

    Viewport viewport;
    auto* layer = new AgentLayerItem(AgentLayerItem::kWorldLayer);
    const QColor accent(255, 140, 60);
    layer->setColors(QColor(58, 160, 255), accent);
    viewport.scene.addItem(layer);
    layer->syncFromFrame(frameOf(&world));

    const QColor coin(0xff, 0xcc, 0x33);
    int coins = 0;
    for (const PickupState& pickup : world.pickups()) {
        if (pickup.kind != PickupKind::Coin)
            continue;
        viewport.look(pickup.position, 40.0);
        const QImage image = viewport.render();
        QVERIFY(colourNear(image, viewport.pixelOf(pickup.position), 2, coin));
        ++coins;
    }
    QVERIFY(coins > 0);

    viewport.look(world.player().position, 40.0);
    QImage image = viewport.render();
    QVERIFY(colourNear(image, viewport.pixelOf(world.player().position), 3, accent));
    QVERIFY(layer->boundingRect().contains(sceneFromWorld(world.player().position)));

    // Without a world: nothing.
    layer->syncFromFrame(frameOf(nullptr));
    QCOMPARE(countNonBackground(viewport.render()), 0);
}

void TestRendering::boundsFollowTheAgents()
{
    auto world = demoWorld(0);
    const int g = world->groupIndex("swarm");
    AgentLayerItem layer(g);
    layer.syncFromFrame(frameOf(world.get()));
    const QRectF before = layer.boundingRect();

    auto containsAll = [&](const QRectF& bounds) {
        const GroupState& group = world->group(g);
        for (std::size_t i = 0; i < group.agents.size(); ++i)
            if (!bounds.contains(sceneFromWorld(Vec2{group.agents.px[i], group.agents.py[i]})))
                return false;
        return true;
    };
    QVERIFY(containsAll(before));

    for (int k = 0; k < 240; ++k) {
        world->setPointer({-20.0f, 0.0f}, true);
        world->step();
    }
    layer.syncFromFrame(frameOf(world.get()));
    const QRectF after = layer.boundingRect();
    QVERIFY(after != before);
    QVERIFY(containsAll(after));

    // Tight: no wider than the agents' box plus a few body radii.
    const GroupState& group = world->group(g);
    float minX = 1e9f, maxX = -1e9f;
    for (std::size_t i = 0; i < group.agents.size(); ++i) {
        minX = std::min(minX, group.agents.px[i]);
        maxX = std::max(maxX, group.agents.px[i]);
    }
    QVERIFY(after.width() <= (maxX - minX) + 8.0 * world->bodyRadius(g));
}

void TestRendering::aLayerWithoutAWorldDrawsNothing()
{
    auto world = demoWorld(0);
    Viewport viewport;
    auto* layer = new AgentLayerItem(world->groupIndex("swarm"));
    viewport.scene.addItem(layer);
    layer->syncFromFrame(frameOf(world.get()));
    viewport.look(centroid(world->group(layer->groupIndex())), 10.0);
    QVERIFY(countNonBackground(viewport.render()) > 0);

    layer->syncFromFrame(frameOf(nullptr));
    QVERIFY(layer->boundingRect().isEmpty());
    QCOMPARE(countNonBackground(viewport.render()), 0);
}

void TestRendering::overlaysDrawOnlyWhenEnabled_data()
{
    QTest::addColumn<QString>("key");
    for (const OverlayOptions::Entry& e : OverlayOptions::entries())
        QTest::newRow(qPrintable(e.key)) << e.key;
}

void TestRendering::overlaysDrawOnlyWhenEnabled()
{
    QFETCH(QString, key);
    const auto overlay = OverlayOptions::fromKey(key);
    QVERIFY(overlay);
    const auto world = demoWorld(60);

    Viewport viewport;
    OverlayOptions options;
    options.setScope(OverlayOptions::Scope::AllGroups);
    auto* item = new OverlayItem(&options);
    viewport.scene.addItem(item);
    item->syncFromWorld(world.get());
    viewport.look({0.0f, 0.0f}, 6.0); // the whole 80 x 50 m demo in 480 x 360 px

    QCOMPARE(countNonBackground(viewport.render()), 0);

    QSignalSpy changed(&options, &OverlayOptions::changed);
    options.setEnabled(*overlay, true);
    QCOMPARE(changed.count(), 1);
    const int drawn = countNonBackground(viewport.render());
    QVERIFY2(drawn >= 30, qPrintable(QStringLiteral("%1 drew %2 pixels").arg(key).arg(drawn)));

    options.setEnabled(*overlay, false);
    QCOMPARE(countNonBackground(viewport.render()), 0);
}

void TestRendering::overlaysFollowTheScope()
{
    const auto world = demoWorld(60);
    Viewport viewport;
    OverlayOptions options;
    auto* item = new OverlayItem(&options);
    viewport.scene.addItem(item);
    item->syncFromWorld(world.get());
    viewport.look({0.0f, 0.0f}, 6.0);
    options.setEnabled(OverlayOptions::familyOverlay(BehaviourKind::Swarm), true);

    // Selected groups (the default scope), nothing selected: nothing.
    QCOMPARE(options.scope(), OverlayOptions::Scope::SelectedGroups);
    QCOMPARE(countNonBackground(viewport.render()), 0);

    // A group of another family selected: the swarm overlay has nothing to say about it.
    item->setSelectedGroups({world->groupIndex("squad")});
    QCOMPARE(countNonBackground(viewport.render()), 0);

    // The swarm selected: its circles.
    item->setSelectedGroups({world->groupIndex("swarm")});
    const int selected = countNonBackground(viewport.render());
    QVERIFY(selected > 30);

    // Velocity vectors for all groups draw more than for the swarm alone.
    options.setEnabled(OverlayOptions::familyOverlay(BehaviourKind::Swarm), false);
    options.setEnabled(OverlayOptions::Overlay::Velocity, true);
    const int swarmOnly = countNonBackground(viewport.render());
    options.setScope(OverlayOptions::Scope::AllGroups);
    QCOMPARE(item->shownGroups().size(), world->groupCount());
    QVERIFY(countNonBackground(viewport.render()) > swarmOnly);
}

void TestRendering::overlayOptionsListEveryOverlayOnce()
{
    const QList<OverlayOptions::Entry>& entries = OverlayOptions::entries();
    QCOMPARE(entries.size(),
             int(kAllBehaviourKinds.size()) + 3); // each family's own, then feelers, velocity, grid
    QStringList keys;
    for (const OverlayOptions::Entry& e : entries) {
        QVERIFY(!e.label.isEmpty());
        QVERIFY(!keys.contains(e.key));
        keys << e.key;
        QCOMPARE(OverlayOptions::fromKey(e.key), std::optional<OverlayOptions::Overlay>(e.overlay));
    }
    OverlayOptions options;
    QSignalSpy toggled(&options, &OverlayOptions::overlayToggled);
    options.setEnabledKeys(
        {QStringLiteral("feelers"), QStringLiteral("grid"), QStringLiteral("nonsense")});
    QCOMPARE(options.enabledKeys(),
             (QStringList{QStringLiteral("feelers"), QStringLiteral("grid")}));
    QCOMPARE(toggled.count(), 2);
    options.setEnabled(OverlayOptions::Overlay::Grid, true); // already on: no signal
    QCOMPARE(toggled.count(), 2);
}

void TestRendering::theStressSceneHasTheRequestedAgents()
{
    const SceneDesc demo = test::demoScene();
    const auto base = World::create(demo);
    QVERIFY(base);
    const std::size_t baseCount = (*base)->agentCount();

    QCOMPARE(withStressAgents(demo, 0), demo);

    const SceneDesc stress = withStressAgents(demo, 5003);
    QVERIFY(!validateScene(stress));
    const auto world = World::create(stress);
    QVERIFY2(world, world ? "" : world.error().message.c_str());
    QCOMPARE((*world)->agentCount(), baseCount + 5003);

    // Every family of the level got its share (about a fifth each), in a larger arena.
    for (const BehaviourKind kind : kAllBehaviourKinds) {
        std::size_t before = 0;
        std::size_t after = 0;
        for (int g = 0; g < (*base)->groupCount(); ++g)
            before += (*base)->group(g).kind == kind ? (*base)->group(g).agents.size() : 0;
        for (int g = 0; g < (*world)->groupCount(); ++g)
            after += (*world)->group(g).kind == kind ? (*world)->group(g).agents.size() : 0;
        QVERIFY2(after - before >= 1000 && after - before <= 1001,
                 qPrintable(QStringLiteral("%1: %2 more")
                                .arg(QString::fromUtf8(behaviourKey(kind).data()))
                                .arg(after - before)));
    }
    QVERIFY(stress.bounds.max.x - stress.bounds.min.x > demo.bounds.max.x - demo.bounds.min.x);

    // A level without groups gets fish.
    const SceneDesc empty = test::emptyScene();
    const auto fish = World::create(withStressAgents(empty, 300));
    QVERIFY(fish);
    QCOMPARE((*fish)->agentCount(), std::size_t(300) + ((*World::create(empty))->agentCount()));
    QCOMPARE((*fish)->group(0).kind, BehaviourKind::FishSchool);
}

void TestRendering::aStressSceneOfAHundredThousandFitsItsRoutes()
{
    // 20,000 tanks in squads of 25 would be 800 routes over a big arena: far more than a
    // level's route fields may hold. The squads grow until theirs fit, and the scene runs.
    const SceneDesc stress = withStressAgents(test::demoScene(), 100000);
    QVERIFY2(!validateScene(stress),
             qPrintable(QString::fromStdString(validateScene(stress).value_or(Error{}).message)));
    QVERIFY(routeBudget(stress).bytes <= 0.5 * kMaxRouteFieldBytes);
    int squads = 0;
    for (const GroupDesc& group : stress.groups)
        squads += group.kind == BehaviourKind::TankSquad ? 1 : 0;
    QVERIFY(squads >= 10);
}

void TestRendering::smallGroupsOfOneFamilyPaintInOneLayer()
{
    // Twelve convoys and twelve swarms in two colours: each family and colour is painted by
    // one layer, and the picture is the one a layer per group paints.
    SceneDesc scene = test::emptyScene();
    scene.bounds = {{-40.0, -30.0}, {40.0, 30.0}};
    scene.player.enabled = false;
    for (int k = 0; k < 24; ++k) {
        const bool convoy = k % 2 == 0;
        GroupDesc group = makeDefaultGroup(
            convoy ? BehaviourKind::LeaderFollow : BehaviourKind::Swarm, "g" + std::to_string(k));
        const double x = -36.0 + 12.0 * (k % 6), y = -26.0 + 13.0 * (k / 6);
        group.spawn = SpawnAreaDesc{{{x, y}, {x + 8.0, y + 9.0}}, 12};
        if (k % 4 == 1)
            group.color = Color{250, 120, 40, 255}; // half the swarms in another colour
        scene.groups.push_back(group);
    }
    auto world = World::create(scene);
    QVERIFY(world);
    (*world)->step(30);
    const WorldFrame* frame = frameOf(world->get());
    Viewport viewport;
    QList<AgentLayerItem*> layers;
    for (int g = 0; g < (*world)->groupCount(); ++g) {
        auto* layer = new AgentLayerItem(g);
        const GroupDesc& desc = scene.groups[static_cast<std::size_t>(g)];
        layer->setColors(toQColor(desc.color), toQColor(desc.accent));
        layer->syncFromFrame(frame);
        viewport.scene.addItem(layer);
        layers << layer;
    }
    for (const double ppm : {4.0, 30.0}) {
        viewport.look({0.0f, 0.0f}, ppm);
        batchSmallGroups(layers, nullptr);
        const QImage apart = viewport.render();
        batchSmallGroups(layers, frame);
        const QImage together = viewport.render();
        int leaders = 0;
        for (const AgentLayerItem* layer : layers)
            leaders += layer->isAbsorbed() ? 0 : 1;
        QCOMPARE(leaders, 3); // convoys, swarms, orange swarms
        QCOMPARE(layers[0]->batch().size(), std::size_t(11));
        QVERIFY(layers[2]->isAbsorbed());
        QVERIFY(countNonBackground(together) > 100);
        QCOMPARE(together, apart);
    }
    // A group hidden leaves its batch, and its agents are not drawn.
    layers[2]->setVisible(false);
    batchSmallGroups(layers, frame);
    QVERIFY(!layers[2]->isAbsorbed());
    QCOMPARE(layers[0]->batch().size(), std::size_t(10));
    QCOMPARE(std::count(layers[0]->batch().begin(), layers[0]->batch().end(), 2), 0);
    // A group the player takes the lead of (in place, no new world) leaves it too: its
    // agent 0 is drawn as the player, by its own layer.
    WorldFrame led = *frame;
    led.groups[4].playerLed = true;
    batchSmallGroups(layers, &led);
    QVERIFY(!layers[4]->isAbsorbed());
    QCOMPARE(std::count(layers[0]->batch().begin(), layers[0]->batch().end(), 4), 0);
}

void TestRendering::theRenderBenchPaintsEveryFrameOnce_data()
{
    QTest::addColumn<QStringList>("mode");
    QTest::newRow("beside the paint") << QStringList{};
    QTest::newRow("serial") << QStringList{QStringLiteral("--serial")};
    QTest::newRow("overlays") << QStringList{QStringLiteral("--overlays"), QStringLiteral("grid")};
}

void TestRendering::theRenderBenchPaintsEveryFrameOnce()
{
    // The bench times the editor's frame: the world's step and one paint of the view. Each
    // frame used to be painted twice (a synchronous repaint, then the update request the
    // layers had posted), which doubled the paint time it reported.
    QFETCH(QStringList, mode);
    QTemporaryFile out;
    QVERIFY(out.open());
    int status = -1;
    {
        StdoutTo redirected(out.handle());
        QVERIFY(redirected.ok());
        status = runRenderBench(QStringList{QStringLiteral("shoal"), QStringLiteral("--agents"),
                                            QStringLiteral("2000"), QStringLiteral("--seconds"),
                                            QStringLiteral("0.4"), QStringLiteral("--docks"),
                                            QStringLiteral("0"), QStringLiteral("--json")} +
                                mode);
    }
    QCOMPARE(status, 0);
    out.seek(0);
    int rows = 0;
    for (const QByteArray& line : out.readAll().split('\n')) {
        const QJsonObject row = QJsonDocument::fromJson(line).object();
        if (row.isEmpty())
            continue;
        ++rows;
        QVERIFY2(row.value(QStringLiteral("frames")).toInt() > 2, line.constData());
        QCOMPARE(row.value(QStringLiteral("paints_per_frame")).toDouble(), 1.0);
    }
    QCOMPARE(rows, 1);
}

void TestRendering::theOpenBenchPaintsEveryEditOnce()
{
    // `shoal --bench-open` times each edit to the next frame. Until session 27 it repainted
    // after the events had painted the edit's update: two frames in most edits' times. Every
    // edit it reports must have painted the view exactly once.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("level.json"));
    QVERIFY(!saveSceneFile(bigScene(400), path.toStdString()));
    QTemporaryFile out;
    QVERIFY(out.open());
    int status = -1;
    {
        StdoutTo redirected(out.handle());
        QVERIFY(redirected.ok());
        status = runOpenBench({QStringLiteral("shoal"), QStringLiteral("--bench-open"),
                               QStringLiteral("--file"), path, QStringLiteral("--rounds"),
                               QStringLiteral("2")});
    }
    QCOMPARE(status, 0);
    out.seek(0);
    const QString report = QString::fromUtf8(out.readAll());
    const QRegularExpression edit(QStringLiteral("^ +(\\S.*\\S) +[0-9.]+ +paints (\\d+)$"),
                                  QRegularExpression::MultilineOption);
    QStringList edits;
    for (QRegularExpressionMatchIterator it = edit.globalMatch(report); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        edits << match.captured(1).trimmed();
        QVERIFY2(match.captured(2) == QStringLiteral("1"), qPrintable(match.captured(0)));
    }
    // Select, drag a point, change a parameter and add a wall, and each one's undo.
    QCOMPARE(edits.size(), 7);
    QCOMPARE(edits.count(QStringLiteral("undo")), 3);
}

QTEST_MAIN(TestRendering)
#include "test_rendering.moc"
