#pragma once
/// The running world's metrics over time, for the metrics dock's plots: per group (and for
/// all groups together) one sample every kSampleSeconds of simulated time, the last
/// kKeepSeconds kept, and the parameter edits made meanwhile as marks ("keepWeight 1 ->
/// 1.4"). A sample folds every step the editor saw in its interval the way a user wants to
/// read it: the most agents in trouble and the deepest overlap of any of those steps, the
/// smallest spacing, the latest of the rest, so a one-step spike is never lost to sampling.
/// Plain data, no widgets: the dock draws it, tests read it.

#include <shoal/metrics.h>

#include <QString>

#include <array>
#include <deque>
#include <vector>

namespace shoal {
struct GroupState;
}

namespace shoal::ui {

/// What the plots can show of a group, one value per sample.
enum class MetricField
{
    NearestMin,         ///< m, smallest nearest-neighbour distance (min over the interval)
    NearestMedian,      ///< m
    Polarization,       ///< 0..1
    MeanSpeed,          ///< m/s
    InsideKeep,         ///< agents whose nearest is inside the keep distance (max)
    OutsideBand,        ///< agents beyond the band (max)
    Penetrations,       ///< pairs within the group overlapping > 5 cm (max)
    CrossPenetrations,  ///< pairs with other groups' bodies (max)
    WallOverlaps,       ///< agents overlapping a wall > 5 cm (max)
    DeepestOverlap,     ///< m, deepest body-body overlap, within or across (max)
    DeepestWallOverlap, ///< m (max)
    Stuck,              ///< agents stuck (max)
    Blocked,            ///< agents whose motion a wall shortened (max)
    GoalDistance,       ///< m, mean distance to the goal
    AtGoal,             ///< agents at their goal
    Count
};
constexpr int kMetricFieldCount = static_cast<int>(MetricField::Count);

/// How a field folds the steps of one sample interval.
enum class Fold
{
    Latest,
    Max,
    Min
};
Fold foldOf(MetricField field);

/// The field's value in a group's metrics.
float metricValue(const GroupMetrics& metrics, MetricField field);

struct MetricSample
{
    double time = 0.0; ///< simulated seconds
    std::array<float, kMetricFieldCount> values{};
    float value(MetricField field) const { return values[static_cast<std::size_t>(field)]; }
};

/// A parameter edit made while the world ran, at the simulated time it took effect.
struct EditMark
{
    double time = 0.0;
    int group = -1;
    int paramIndex = -1;
    QString groupName;
    QString key;
    double from = 0.0;
    double to = 0.0;
    double lastEdit = 0.0; ///< when the last edit merged into this mark was made
    /// "keepWeight 1 -> 1.4" (the group's name first when `withGroup`).
    QString label(bool withGroup) const;
};

class MetricsHistory
{
public:
    /// Five samples a second: at 10,000 agents a measure costs about half a step, so the
    /// world measuring every twelfth step costs about 5 % (`shoal --bench-metrics`).
    static constexpr double kSampleSeconds = 0.2;
    static constexpr double kKeepSeconds = 120.0;
    /// Groups recorded one by one; beyond this, only all groups together (a stress level
    /// of thousands of groups would otherwise keep hundreds of megabytes of samples).
    static constexpr int kMaxGroups = 64;
    /// Index of the series of all groups together in samples().
    static constexpr int kAllGroups = -1;
    /// Edits of one parameter of one group closer together than this (s) are one mark: a
    /// slider drag is one change, from where it began to where it ended.
    static constexpr double kMergeEditsSeconds = 1.0;

    /// Forgets everything (a new world: its time starts again at 0).
    void clear();
    /// The world after one or more steps, at simulated time `time`: folded into the interval
    /// being gathered, which becomes a sample once kSampleSeconds have passed.
    void observe(double time, const std::vector<const GroupState*>& groups);
    /// The world went back to simulated time `time` (the timeline was scrubbed): what was
    /// gathered for later times is dropped, so the world's replay writes it again.
    void rewindTo(double time);
    /// A parameter of `group` changed from `from` to `to` at simulated time `time`.
    void addEdit(double time, int group, int paramIndex, const QString& groupName,
                 const QString& key, double from, double to);

    /// The samples of group `group` (or kAllGroups), oldest first; empty when not recorded.
    const std::deque<MetricSample>& samples(int group) const;
    const std::deque<EditMark>& edits() const { return m_edits; }
    /// Time of the newest sample (0 when none).
    double latestTime() const { return m_latest; }
    int groupCount() const { return m_groupCount; }

private:
    struct Gathering
    {
        bool any = false;
        MetricSample folded;
    };
    void fold(Gathering& gathering, double time, const GroupMetrics& metrics);
    void fold(Gathering& gathering, double time, const MetricSample& sample);
    void flush(double time);
    static MetricSample allTogether(const std::vector<const GroupState*>& groups);

    std::vector<std::deque<MetricSample>> m_groups;
    std::deque<MetricSample> m_all;
    std::vector<Gathering> m_gathering;
    Gathering m_gatheringAll;
    std::deque<EditMark> m_edits;
    double m_intervalStart = -1.0;
    double m_latest = 0.0;
    int m_groupCount = 0;
};

} // namespace shoal::ui
