#include "stressscene.h"

#include "benchscenes.h"

#include <shoal/scenelimits.h>
#include <shoal/sketch.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace shoal::ui {

namespace {

int tileGroupSize(BehaviourKind kind, int squadSize)
{
    switch (kind) {
    case BehaviourKind::LeaderFollow:
        return kStressFollowGroupSize;
    case BehaviourKind::TankSquad:
        return squadSize;
    default:
        return 0; // one group for the whole band
    }
}

std::string uniqueName(const SceneDesc& scene, const std::string& stem)
{
    if (scene.groupIndex(stem) < 0)
        return stem;
    for (int k = 2;; ++k) {
        const std::string name = stem + " " + std::to_string(k);
        if (scene.groupIndex(name) < 0)
            return name;
    }
}

GroupDesc stressGroup(const GroupDesc& family, const std::string& name)
{
    GroupDesc group = family;
    group.name = name;
    group.agents.clear();
    group.spawn.reset();
    group.target.reset();
    return group;
}

/// One template per family, in the order the level first uses them (a fish school when the
/// level has no group).
std::vector<GroupDesc> familyTemplates(const SceneDesc& base)
{
    std::vector<GroupDesc> families;
    for (const GroupDesc& group : base.groups) {
        const bool seen = std::any_of(families.begin(), families.end(),
                                      [&](const GroupDesc& f) { return f.kind == group.kind; });
        if (!seen)
            families.push_back(group);
    }
    if (families.empty())
        families.push_back(makeDefaultGroup(BehaviourKind::FishSchool, "school"));
    return families;
}

/// A band of the grown level given to one family: [x0, x1] x [y0, y1].
struct Band
{
    double x0, x1, y0, y1;
};

/// Fills `band` with `count` agents of `family`: one group, or square tiles of one group each
/// (bigger groups when the band has too few tiles) for the families a game runs in small
/// groups.
void fillBand(SceneDesc& scene, const GroupDesc& family, const Band& band, int count, int squadSize)
{
    const int groupSize = tileGroupSize(family.kind, squadSize);
    if (groupSize == 0) {
        GroupDesc group = stressGroup(family, uniqueName(scene, family.name + " stress"));
        group.spawn = SpawnAreaDesc{{{band.x0, band.y0}, {band.x1, band.y1}}, count};
        scene.groups.push_back(std::move(group));
        return;
    }
    const double tile = std::sqrt(groupSize * areaPerAgent(family));
    const int cols = std::max(1, static_cast<int>((band.x1 - band.x0) / tile));
    const int rows = std::max(1, static_cast<int>((band.y1 - band.y0) / tile));
    const double tileW = (band.x1 - band.x0) / cols;
    const double tileH = (band.y1 - band.y0) / rows;
    const int tiles = cols * rows;
    const int perTile = std::max(groupSize, (count + tiles - 1) / tiles);
    int remaining = count;
    for (int t = 0; t < tiles && remaining > 0; ++t) {
        const int inTile = std::min(perTile, remaining);
        remaining -= inTile;
        const double tx = band.x0 + (t % cols) * tileW;
        const double ty = band.y0 + (t / cols) * tileH;
        GroupDesc group = stressGroup(
            family, uniqueName(scene, family.name + " stress " + std::to_string(t + 1)));
        const double inset = std::min(0.5, 0.25 * std::min(tileW, tileH));
        group.spawn = SpawnAreaDesc{
            {{tx + inset, ty + inset}, {tx + tileW - inset, ty + tileH - inset}}, inTile};
        if (familyView(family.kind).takesTarget)
            group.target = Point2{tx + 0.5 * tileW, ty + 0.5 * tileH};
        scene.groups.push_back(std::move(group));
    }
}

} // namespace

SceneDesc withStressAgents(const SceneDesc& base, int agents)
{
    if (agents <= 0)
        return base;
    SceneDesc scene = base;
    scene.name = base.name + " + " + std::to_string(agents) + " stress agents";
    const std::vector<GroupDesc> families = familyTemplates(base);
    const int familyCount = static_cast<int>(families.size());
    std::vector<int> share(families.size(), agents / familyCount);
    for (int k = 0; k < agents % familyCount; ++k)
        ++share[static_cast<std::size_t>(k)];

    // Room for the extra agents, half again as much (bodies spawn apart at random places,
    // which fill about half of an area side by side, and tiles may not fill their band),
    // added to the level's area with the same aspect ratio.
    std::vector<double> area(families.size());
    double extra = 0.0;
    for (std::size_t f = 0; f < families.size(); ++f) {
        area[f] = share[f] * areaPerAgent(families[f]) * 1.5;
        extra += area[f];
    }
    const double width = base.bounds.max.x - base.bounds.min.x;
    const double height = base.bounds.max.y - base.bounds.min.y;
    const double grow = std::sqrt(1.0 + extra / (width * height));
    const double cx = 0.5 * (base.bounds.min.x + base.bounds.max.x);
    const double cy = 0.5 * (base.bounds.min.y + base.bounds.max.y);
    const double halfW = 0.5 * width * grow;
    const double halfH = 0.5 * height * grow;
    scene.bounds = {{cx - halfW, cy - halfH}, {cx + halfW, cy + halfH}};

    // Horizontal bands, one per family, as tall as its share of the area.
    // Each squad routes round the walls with a field over the whole arena: squads grow
    // (twice as big at a time) until their fields take at most half of what a level may
    // hold, so the result passes validateScene() at any N.
    const SceneDesc grown = scene;
    for (int squadSize = kStressSquadSize;; squadSize *= 2) {
        scene = grown;
        const double margin = 1.0;
        double bandBottom = scene.bounds.min.y;
        for (std::size_t f = 0; f < families.size(); ++f) {
            const double bandHeight = 2.0 * halfH * area[f] / extra;
            const double y0 = bandBottom + margin;
            const Band band{scene.bounds.min.x + margin, scene.bounds.max.x - margin, y0,
                            std::max(bandBottom + bandHeight - margin, y0 + 0.5)};
            bandBottom += bandHeight;
            if (share[f] > 0)
                fillBand(scene, families[f], band, share[f], squadSize);
        }
        if (routeBudget(scene).bytes <= 0.5 * kMaxRouteFieldBytes || squadSize >= agents)
            break;
    }
    return scene;
}

} // namespace shoal::ui
