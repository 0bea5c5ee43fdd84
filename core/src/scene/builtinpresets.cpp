// The presets Shoal ships: two per family, each named for what it does and measured to do it
// against the family's defaults (tests/core/test_presets.cpp). They set only the parameters
// that make the difference, so a group's other tuning survives applying one.

#include <shoal/preset.h>

namespace shoal {
namespace {

Preset builtIn(const char* name, BehaviourKind kind, const char* description,
               std::vector<PresetValue> values)
{
    Preset preset;
    preset.name = name;
    preset.kind = kind;
    preset.description = description;
    preset.builtIn = true;
    // In table order, as presetFromValues and the files list them.
    const std::vector<ParamSpec>& specs = paramSpecs(kind);
    for (const ParamSpec& spec : specs)
        for (const PresetValue& value : values)
            if (value.key == spec.key)
                preset.values.push_back(value);
    return preset;
}

std::vector<Preset> makeBuiltIns()
{
    using K = BehaviourKind;
    return {
        builtIn("loose-school", K::FishSchool,
                "spreads out: neighbours keep 2.8-3.6 m apart and look 6 m around",
                {{"neighborRadius", 6.0}, {"keepMinDistance", 2.8}, {"keepMaxDistance", 3.6}}),
        builtIn("tight-school", K::FishSchool,
                "packs close: neighbours keep 1.0-1.3 m apart and hold the band harder",
                {{"neighborRadius", 2.5},
                 {"keepMinDistance", 1.0},
                 {"keepMaxDistance", 1.3},
                 {"keepWeight", 1.5}}),
        builtIn("careful-squad", K::TankSquad,
                "drives at 3 m/s, turns at 60 deg/s and parks with 8 m between tanks",
                {{"moveSpeed", 3.0},
                 {"rotateSpeed", 60.0},
                 {"keepDistance", 8.0},
                 {"turnSlowdown", 1.0}}),
        builtIn("fast-squad", K::TankSquad,
                "drives at 9 m/s, turns at 150 deg/s and slows down later: arrives sooner",
                {{"moveSpeed", 9.0},
                 {"rotateSpeed", 150.0},
                 {"targetCloseDistance", 12.0},
                 {"speedEasing", 4.0}}),
        builtIn("hungry-swarm", K::Swarm,
                "runs at 4.5 m/s and crowds its prey: stops 0.3 m off, scatters only at 0.6 m",
                {{"speed", 4.5}, {"minAllowedRadius", 0.6}, {"stopDistance", 0.3}}),
        builtIn("wary-swarm", K::Swarm,
                "creeps at 2 m/s and keeps its distance: stops 3 m off, scatters at 2 m",
                {{"speed", 2.0}, {"minAllowedRadius", 2.0}, {"stopDistance", 3.0}}),
        builtIn("close-escort", K::LeaderFollow,
                "follows 1 m behind its leader with 0.9 m between followers",
                {{"leaderBehindDistance", 1.0},
                 {"separationRadius", 0.9},
                 {"evadeDistance", 1.0},
                 {"arriveWeight", 2.0}}),
        builtIn("loose-escort", K::LeaderFollow,
                "trails 4 m behind its leader with 2 m between followers",
                {{"leaderBehindDistance", 4.0}, {"separationRadius", 2.0}, {"evadeDistance", 2.0}}),
        builtIn("fast-worm", K::Worm, "crawls at 5 m/s and turns up to 45 deg a joint",
                {{"speed", 5.0}, {"maxTurnAngle", 45.0}}),
        builtIn("slow-worm", K::Worm, "crawls at 1.2 m/s and turns up to 20 deg a joint",
                {{"speed", 1.2}, {"maxTurnAngle", 20.0}}),
    };
}

} // namespace

const std::vector<Preset>& builtInPresets()
{
    static const std::vector<Preset> presets = makeBuiltIns();
    return presets;
}

} // namespace shoal
