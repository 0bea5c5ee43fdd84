#include "metrics/metricshistory.h"

#include <shoal/worldstate.h>

#include <QLocale>

#include <algorithm>
#include <limits>

namespace shoal::ui {

Fold foldOf(MetricField field)
{
    switch (field) {
    case MetricField::NearestMin:
        return Fold::Min;
    case MetricField::InsideKeep:
    case MetricField::OutsideBand:
    case MetricField::Penetrations:
    case MetricField::CrossPenetrations:
    case MetricField::WallOverlaps:
    case MetricField::DeepestOverlap:
    case MetricField::DeepestWallOverlap:
    case MetricField::Stuck:
    case MetricField::Blocked:
        return Fold::Max;
    default:
        return Fold::Latest;
    }
}

float metricValue(const GroupMetrics& m, MetricField field)
{
    switch (field) {
    case MetricField::NearestMin:
        return m.nearestMin;
    case MetricField::NearestMedian:
        return m.nearestMedian;
    case MetricField::Polarization:
        return m.polarization;
    case MetricField::MeanSpeed:
        return m.meanSpeed;
    case MetricField::InsideKeep:
        return static_cast<float>(m.insideKeep);
    case MetricField::OutsideBand:
        return static_cast<float>(m.outsideBand);
    case MetricField::Penetrations:
        return static_cast<float>(m.penetrations);
    case MetricField::CrossPenetrations:
        return static_cast<float>(m.crossPenetrations);
    case MetricField::WallOverlaps:
        return static_cast<float>(m.wallOverlaps);
    case MetricField::DeepestOverlap:
        return std::max(m.maxPenetration, m.crossMaxPenetration);
    case MetricField::DeepestWallOverlap:
        return m.wallOverlapMax;
    case MetricField::Stuck:
        return static_cast<float>(m.stuck);
    case MetricField::Blocked:
        return static_cast<float>(m.blocked);
    case MetricField::GoalDistance:
        return m.goalDistanceMean;
    case MetricField::AtGoal:
        return static_cast<float>(m.atGoal);
    case MetricField::Count:
        break;
    }
    return 0.0f;
}

QString EditMark::label(bool withGroup) const
{
    const QLocale locale;
    const QString change =
        QStringLiteral("%1 %2 \u2192 %3")
            .arg(key, locale.toString(from, 'g', 4), locale.toString(to, 'g', 4));
    return withGroup ? QStringLiteral("%1: %2").arg(groupName, change) : change;
}

void MetricsHistory::clear()
{
    m_groups.clear();
    m_all.clear();
    m_gathering.clear();
    m_gatheringAll = {};
    m_edits.clear();
    m_intervalStart = -1.0;
    m_latest = 0.0;
    m_groupCount = 0;
}

void MetricsHistory::fold(Gathering& gathering, double time, const MetricSample& sample)
{
    if (!gathering.any) {
        gathering.any = true;
        gathering.folded = sample;
        gathering.folded.time = time;
        return;
    }
    gathering.folded.time = time;
    for (int f = 0; f < kMetricFieldCount; ++f) {
        float& slot = gathering.folded.values[static_cast<std::size_t>(f)];
        const float v = sample.values[static_cast<std::size_t>(f)];
        switch (foldOf(static_cast<MetricField>(f))) {
        case Fold::Latest:
            slot = v;
            break;
        case Fold::Max:
            slot = std::max(slot, v);
            break;
        case Fold::Min:
            slot = std::min(slot, v);
            break;
        }
    }
}

void MetricsHistory::fold(Gathering& gathering, double time, const GroupMetrics& metrics)
{
    MetricSample sample;
    for (int f = 0; f < kMetricFieldCount; ++f)
        sample.values[static_cast<std::size_t>(f)] =
            metricValue(metrics, static_cast<MetricField>(f));
    fold(gathering, time, sample);
}

MetricSample MetricsHistory::allTogether(const std::vector<const GroupState*>& groups)
{
    // Counts add up; spacing is the smallest of any group (the median: the groups' medians
    // weighted by the agents they were measured over); speeds, order and goal distances are
    // weighted by the agents taking part; depths are the deepest of any.
    MetricSample all;
    auto at = [&](MetricField f) -> float& { return all.values[static_cast<std::size_t>(f)]; };
    float nearestMin = std::numeric_limits<float>::infinity();
    double medianSum = 0.0, polarizationSum = 0.0, speedSum = 0.0, goalSum = 0.0;
    double withNeighbour = 0.0, active = 0.0;
    for (const GroupState* group : groups) {
        const GroupMetrics& m = group->metrics;
        for (MetricField f :
             {MetricField::InsideKeep, MetricField::OutsideBand, MetricField::Penetrations,
              MetricField::CrossPenetrations, MetricField::WallOverlaps, MetricField::Stuck,
              MetricField::Blocked, MetricField::AtGoal})
            at(f) += metricValue(m, f);
        for (MetricField f : {MetricField::DeepestOverlap, MetricField::DeepestWallOverlap})
            at(f) = std::max(at(f), metricValue(m, f));
        if (m.withNeighbour > 0) {
            nearestMin = std::min(nearestMin, m.nearestMin);
            medianSum += static_cast<double>(m.nearestMedian) * m.withNeighbour;
            withNeighbour += m.withNeighbour;
        }
        polarizationSum += static_cast<double>(m.polarization) * m.active;
        speedSum += static_cast<double>(m.meanSpeed) * m.active;
        goalSum += static_cast<double>(m.goalDistanceMean) * m.active;
        active += m.active;
    }
    at(MetricField::NearestMin) = withNeighbour > 0 ? nearestMin : 0.0f;
    at(MetricField::NearestMedian) =
        withNeighbour > 0 ? static_cast<float>(medianSum / withNeighbour) : 0.0f;
    if (active > 0) {
        at(MetricField::Polarization) = static_cast<float>(polarizationSum / active);
        at(MetricField::MeanSpeed) = static_cast<float>(speedSum / active);
        at(MetricField::GoalDistance) = static_cast<float>(goalSum / active);
    }
    return all;
}

void MetricsHistory::observe(double time, const std::vector<const GroupState*>& groups)
{
    if (time < m_latest) // a world that went back in time is another world
        clear();
    const int count = static_cast<int>(groups.size());
    if (count != m_groupCount) {
        // Groups added or removed: their series would no longer match their names.
        clear();
        m_groupCount = count;
    }
    const std::size_t recorded = static_cast<std::size_t>(std::min(count, kMaxGroups));
    m_groups.resize(recorded);
    m_gathering.resize(recorded);
    if (m_intervalStart < 0.0)
        m_intervalStart = time;
    for (std::size_t g = 0; g < recorded; ++g)
        fold(m_gathering[g], time, groups[g]->metrics);
    fold(m_gatheringAll, time, allTogether(groups));
    if (time - m_intervalStart >= kSampleSeconds - 1e-9 || m_all.empty())
        flush(time);
}

void MetricsHistory::flush(double time)
{
    auto keep = [&](std::deque<MetricSample>& series, Gathering& gathering) {
        if (!gathering.any)
            return;
        series.push_back(gathering.folded);
        gathering = {};
        while (!series.empty() && series.front().time < time - kKeepSeconds)
            series.pop_front();
    };
    for (std::size_t g = 0; g < m_groups.size(); ++g)
        keep(m_groups[g], m_gathering[g]);
    keep(m_all, m_gatheringAll);
    while (!m_edits.empty() && m_edits.front().time < time - kKeepSeconds)
        m_edits.pop_front();
    m_intervalStart = time;
    m_latest = time;
}

void MetricsHistory::rewindTo(double time)
{
    auto cut = [time](auto& series) {
        while (!series.empty() && series.back().time > time + 1e-9)
            series.pop_back();
    };
    for (auto& series : m_groups)
        cut(series);
    cut(m_all);
    cut(m_edits);
    for (Gathering& gathering : m_gathering)
        gathering = {};
    m_gatheringAll = {};
    m_intervalStart = -1.0;
    m_latest = m_all.empty() ? 0.0 : m_all.back().time;
}

void MetricsHistory::addEdit(double time, int group, int paramIndex, const QString& groupName,
                             const QString& key, double from, double to)
{
    // A drag of a slider is many edits of one parameter in a row: one mark, from where it
    // began to where it ended, at the time it began.
    for (auto it = m_edits.rbegin(); it != m_edits.rend(); ++it) {
        if (time - it->lastEdit > kMergeEditsSeconds)
            continue;
        if (it->group == group && it->paramIndex == paramIndex) {
            it->to = to;
            it->lastEdit = time;
            if (it->from == it->to)
                m_edits.erase(std::next(it).base()); // dragged back where it began
            return;
        }
    }
    if (from == to)
        return;
    EditMark mark;
    mark.time = time;
    mark.group = group;
    mark.paramIndex = paramIndex;
    mark.groupName = groupName;
    mark.key = key;
    mark.from = from;
    mark.to = to;
    mark.lastEdit = time;
    m_edits.push_back(mark);
}

const std::deque<MetricSample>& MetricsHistory::samples(int group) const
{
    static const std::deque<MetricSample> none;
    if (group == kAllGroups)
        return m_all;
    if (group < 0 || static_cast<std::size_t>(group) >= m_groups.size())
        return none;
    return m_groups[static_cast<std::size_t>(group)];
}

} // namespace shoal::ui
