// The metrics a check can name: one table of GroupMetrics' fields with how "all" combines
// the groups, read by worldMetric() and by the scene's validation.

#include <shoal/checks.h>

#include <shoal/displaytext.h>
#include <shoal/world.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace shoal {

namespace {

/// How "all.KEY" combines the groups' values.
enum class Combine
{
    Sum,
    Max,
    Min,            ///< over the groups that have a value (withNeighbour > 0 for distances)
    MeanOfAgents,   ///< weighted by agents
    MeanOfActive,   ///< weighted by active agents
    MeanOfMeasured, ///< weighted by agents with a neighbour
};

struct MetricField
{
    const char* key;
    double (*read)(const GroupMetrics&);
    Combine combine;
};

#define SHOAL_METRIC(field, combine)                                                               \
    MetricField                                                                                    \
    {                                                                                              \
#field, [](const GroupMetrics& m) { return static_cast<double>(m.field); }, combine        \
    }

const MetricField kFields[] = {
    SHOAL_METRIC(agents, Combine::Sum),
    SHOAL_METRIC(active, Combine::Sum),
    SHOAL_METRIC(withNeighbour, Combine::Sum),
    SHOAL_METRIC(nearestMin, Combine::Min),
    SHOAL_METRIC(nearestMean, Combine::MeanOfMeasured),
    SHOAL_METRIC(nearestMedian, Combine::MeanOfMeasured),
    SHOAL_METRIC(insideKeep, Combine::Sum),
    SHOAL_METRIC(outsideBand, Combine::Sum),
    SHOAL_METRIC(polarization, Combine::MeanOfActive),
    SHOAL_METRIC(meanSpeed, Combine::MeanOfAgents),
    SHOAL_METRIC(maxSpeed, Combine::Max),
    SHOAL_METRIC(penetrations, Combine::Sum),
    SHOAL_METRIC(maxPenetration, Combine::Max),
    SHOAL_METRIC(crossPenetrations, Combine::Sum),
    SHOAL_METRIC(crossMaxPenetration, Combine::Max),
    SHOAL_METRIC(wallOverlaps, Combine::Sum),
    SHOAL_METRIC(wallOverlapMax, Combine::Max),
    SHOAL_METRIC(overlapSeconds, Combine::Max),
    SHOAL_METRIC(wallCrossings, Combine::Sum),
    SHOAL_METRIC(totalWallCrossings, Combine::Sum),
    SHOAL_METRIC(stuck, Combine::Sum),
    SHOAL_METRIC(blocked, Combine::Sum),
    SHOAL_METRIC(goalDistanceMean, Combine::MeanOfAgents),
    SHOAL_METRIC(goalDistanceMax, Combine::Max),
    SHOAL_METRIC(atGoal, Combine::Sum),
};

#undef SHOAL_METRIC

const MetricField* fieldOf(const std::string& key)
{
    for (const MetricField& field : kFields)
        if (key == field.key)
            return &field;
    return nullptr;
}

double weightOf(const GroupMetrics& m, Combine combine)
{
    switch (combine) {
    case Combine::MeanOfActive:
        return m.active;
    case Combine::MeanOfMeasured:
        return m.withNeighbour;
    default:
        return m.agents;
    }
}

/// "all.KEY": the groups combined as the field says.
double combined(const World& world, const MetricField& field)
{
    double sum = 0.0, weights = 0.0;
    double best = field.combine == Combine::Min ? std::numeric_limits<double>::infinity()
                                                : -std::numeric_limits<double>::infinity();
    bool any = false;
    for (int g = 0; g < world.groupCount(); ++g) {
        const GroupMetrics& m = world.group(g).metrics;
        const double v = field.read(m);
        switch (field.combine) {
        case Combine::Sum:
            sum += v;
            break;
        case Combine::Max:
            best = std::max(best, v);
            any = true;
            break;
        case Combine::Min:
            if (m.withNeighbour > 0) {
                best = std::min(best, v);
                any = true;
            }
            break;
        default: {
            const double w = weightOf(m, field.combine);
            sum += v * w;
            weights += w;
            break;
        }
        }
    }
    switch (field.combine) {
    case Combine::Sum:
        return sum;
    case Combine::Max:
    case Combine::Min:
        return any ? best : std::numeric_limits<double>::quiet_NaN();
    default:
        return weights > 0.0 ? sum / weights : std::numeric_limits<double>::quiet_NaN();
    }
}

/// The group's value, or NaN where it has none: the distances to the nearest neighbour are
/// measured only among agents that have one within reach (withNeighbour), and read 0 otherwise.
double valueOf(const MetricField& field, const GroupMetrics& m)
{
    const bool needsNeighbour =
        field.combine == Combine::Min || field.combine == Combine::MeanOfMeasured;
    return needsNeighbour && m.withNeighbour == 0 ? std::numeric_limits<double>::quiet_NaN()
                                                  : field.read(m);
}

} // namespace

const std::vector<std::string>& checkMetricKeys()
{
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> out;
        for (const MetricField& field : kFields)
            out.emplace_back(field.key);
        return out;
    }();
    return keys;
}

std::optional<double> groupMetric(const GroupMetrics& metrics, const std::string& key)
{
    const MetricField* field = fieldOf(key);
    if (!field)
        return std::nullopt;
    return valueOf(*field, metrics);
}

Expected<double> worldMetric(const World& world, const std::string& metric)
{
    const std::size_t dot = metric.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == metric.size())
        return Error{quotedName(metric) + " must be GROUP.KEY or all.KEY"};
    const std::string group = metric.substr(0, dot);
    const std::string key = metric.substr(dot + 1);
    const MetricField* field = fieldOf(key);
    if (!field) {
        std::string keys;
        for (const std::string& k : checkMetricKeys())
            keys += (keys.empty() ? "" : ", ") + k;
        return Error{"no metric " + quotedName(key) + "; metrics: " + keys};
    }
    if (group == "all")
        return combined(world, *field);
    const int index = world.groupIndex(group);
    if (index < 0) {
        std::string names;
        for (int g = 0; g < world.groupCount(); ++g)
            names += (names.empty() ? "" : ", ") + quotedName(world.group(g).name);
        return Error{"there is no group " + quotedName(group) +
                     "; groups: " + (names.empty() ? std::string("none") : names) + ", or all"};
    }
    return valueOf(*field, world.group(index).metrics);
}

} // namespace shoal
