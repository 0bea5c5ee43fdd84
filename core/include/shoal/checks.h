#pragma once
/// Checks inside scenes, run: the metrics a check can name, and the runner that watches a
/// world step by step and says of each of the scene's checks whether it is pending, holding,
/// passed or failed, with the value it measured (shoal-cli check; the editor's Checks tab).

#include <shoal/expected.h>
#include <shoal/export.h>
#include <shoal/metrics.h>
#include <shoal/scenedesc.h>

#include <optional>
#include <string>
#include <vector>

namespace shoal {

class World;

/// The metric keys a check may name after "GROUP." or "all.", in GroupMetrics order.
SHOAL_API const std::vector<std::string>& checkMetricKeys();
/// The value of metric `key` of `metrics`; nothing for a key checkMetricKeys() lacks. NaN when
/// the group has no value this step: the nearest-neighbour distances of a group none of whose
/// agents has a neighbour within reach (a check skips such a step).
SHOAL_API std::optional<double> groupMetric(const GroupMetrics& metrics, const std::string& key);
/// The value of "GROUP.KEY" or "all.KEY" in the world's last metrics. "all" combines the
/// groups: counts are summed, maxima and minima taken over the groups, means weighted by the
/// agents they are of (NaN where no group has a value). An Error names the group or key that
/// does not exist.
SHOAL_API Expected<double> worldMetric(const World& world, const std::string& metric);

/// The check's condition in words: "school.nearestMedian within [1.6, 2] after 5 s".
SHOAL_API std::string describeCheck(const CheckDesc& check);

enum class CheckState
{
    Pending, ///< its window has not come, or (By) it has not held yet
    Holding, ///< it holds so far; it passes if it still does when the run ends
    Passed,  ///< decided: it held (By), or the run ended with it holding
    Failed,  ///< decided: it did not hold where it had to
};

/// What a check found so far.
struct SHOAL_API CheckResult
{
    CheckState state = CheckState::Pending;
    /// The metric's lowest and highest value where the check looked (its window); NaN before.
    double low = 0.0, high = 0.0;
    bool seen = false;  ///< low and high hold values
    double value = 0.0; ///< the metric's value when it failed or (By) first held
    double bound = 0.0; ///< what it was compared with then (a metric's value, or the number)
    double at = -1.0;   ///< the simulated time of that, s (-1: none)
    std::string reason; ///< a failure that no value explains ("the run ended at 4 s")
};

/// Watches a world built from the scene whose checks it holds: call observe() after every
/// step (the world's metrics must be computed that step), finish() once the run is over.
class SHOAL_API CheckRunner
{
public:
    /// Refused when a check names a group the world does not have or a key no metric has:
    /// the Error names the check ("checks[2]") and what exists.
    static Expected<CheckRunner> create(const std::vector<CheckDesc>& checks, const World& world);

    /// Looks at the world after a step.
    void observe(const World& world);
    /// The run is over at the world's time: Holding and Pending checks are decided.
    void finish(const World& world);

    const std::vector<CheckDesc>& checks() const { return m_checks; }
    const std::vector<CheckResult>& results() const { return m_results; }
    bool allPassed() const;
    /// The seconds a run needs for every window to be decided: 2 s past the latest time a
    /// check names, and at least 10 s.
    static double secondsNeeded(const std::vector<CheckDesc>& checks);

private:
    std::vector<CheckDesc> m_checks;
    std::vector<CheckResult> m_results;
    /// Last: the time the comparison last failed (-1: never), per check.
    std::vector<double> m_lastMiss;
    /// Last: the range since that failure.
    std::vector<CheckResult> m_sinceMiss;
};

/// One line of a result, after describeCheck(): "1.62 to 1.87", "0.31 at 9.2 s (wanted below
/// 0.05)", "held at 12.4 s".
SHOAL_API std::string describeResult(const CheckDesc& check, const CheckResult& result);

} // namespace shoal
