// CheckRunner: a scene's checks decided step by step against a running world.

#include <shoal/checks.h>

#include <shoal/displaytext.h>
#include <shoal/paramspec.h>
#include <shoal/world.h>

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

const char* compareWord(CheckCompare compare)
{
    switch (compare) {
    case CheckCompare::Within:
        return "within";
    case CheckCompare::Below:
        return "below";
    case CheckCompare::AtMost:
        return "at most";
    case CheckCompare::Above:
        return "above";
    case CheckCompare::AtLeast:
        return "at least";
    case CheckCompare::Equals:
        break;
    }
    return "equal to";
}

bool holds(const CheckDesc& check, double v, double bound)
{
    switch (check.compare) {
    case CheckCompare::Within:
        return v >= check.value && v <= check.high;
    case CheckCompare::Below:
        return v < bound;
    case CheckCompare::AtMost:
        return v <= bound;
    case CheckCompare::Above:
        return v > bound;
    case CheckCompare::AtLeast:
        return v >= bound;
    case CheckCompare::Equals:
        break;
    }
    return v == bound;
}

/// A measured value as results show it: four significant digits.
std::string shown(double v)
{
    return formatNumber(v, 4);
}

void note(CheckResult& r, double v)
{
    r.low = r.seen ? std::min(r.low, v) : v;
    r.high = r.seen ? std::max(r.high, v) : v;
    r.seen = true;
}

} // namespace

std::string describeCheck(const CheckDesc& check)
{
    std::string text = check.metric + " " + compareWord(check.compare) + " ";
    if (check.compare == CheckCompare::Within)
        text += "[" + formatNumber(check.value) + ", " + formatNumber(check.high) + "]";
    else
        text += check.valueMetric.empty() ? formatNumber(check.value) : check.valueMetric;
    switch (check.window) {
    case CheckWindow::Always:
        break;
    case CheckWindow::After:
        text += " after " + formatNumber(check.seconds) + " s";
        break;
    case CheckWindow::Last:
        text += " during the last " + formatNumber(check.seconds) + " s";
        break;
    case CheckWindow::By:
        text += " by " + formatNumber(check.seconds) + " s";
        break;
    }
    return text;
}

std::string describeResult(const CheckDesc& check, const CheckResult& r)
{
    if (!r.reason.empty())
        return r.reason;
    const std::string when = r.at >= 0.0 ? " at " + formatNumber(r.at, 4) + " s" : std::string();
    if (r.state == CheckState::Failed && r.at >= 0.0) {
        std::string wanted =
            check.compare == CheckCompare::Within
                ? "[" + formatNumber(check.value) + ", " + formatNumber(check.high) + "]"
                : shown(r.bound);
        return shown(r.value) + when + " (wanted " + compareWord(check.compare) + " " + wanted +
               ")";
    }
    if (check.window == CheckWindow::By && r.state == CheckState::Passed)
        return "held" + when + " (" + shown(r.value) + ")";
    if (!r.seen)
        return "not measured yet";
    if (r.low == r.high)
        return shown(r.low);
    return shown(r.low) + " to " + shown(r.high);
}

Expected<CheckRunner> CheckRunner::create(const std::vector<CheckDesc>& checks, const World& world)
{
    for (std::size_t k = 0; k < checks.size(); ++k) {
        const std::string where = "checks[" + std::to_string(k) + "]";
        auto metric = worldMetric(world, checks[k].metric);
        if (!metric)
            return Error{where + ".metric: " + metric.error().message};
        if (!checks[k].valueMetric.empty()) {
            auto other = worldMetric(world, checks[k].valueMetric);
            if (!other)
                return Error{where + ".value: " + other.error().message};
        }
    }
    CheckRunner runner;
    runner.m_checks = checks;
    runner.m_results.assign(checks.size(), CheckResult{});
    runner.m_lastMiss.assign(checks.size(), -1.0);
    runner.m_sinceMiss.assign(checks.size(), CheckResult{});
    return runner;
}

void CheckRunner::observe(const World& world)
{
    const double t = world.time();
    for (std::size_t k = 0; k < m_checks.size(); ++k) {
        const CheckDesc& check = m_checks[k];
        CheckResult& r = m_results[k];
        if (r.state == CheckState::Passed || r.state == CheckState::Failed)
            continue;
        // create() checked both names: the values exist.
        const double v = *worldMetric(world, check.metric);
        const double bound =
            check.valueMetric.empty() ? check.value : *worldMetric(world, check.valueMetric);
        // A step where the metric has no value (NaN: no neighbour within reach) decides nothing.
        const bool measured = !std::isnan(v) && !std::isnan(bound);
        const bool ok = measured && holds(check, v, bound);
        switch (check.window) {
        case CheckWindow::After:
            if (t < check.seconds)
                break; // pending until its window opens
            [[fallthrough]];
        case CheckWindow::Always:
            if (!measured)
                break;
            note(r, v);
            if (ok) {
                r.state = CheckState::Holding;
            } else {
                r.state = CheckState::Failed;
                r.value = v;
                r.bound = bound;
                r.at = t;
            }
            break;
        case CheckWindow::By:
            if (measured && t <= check.seconds)
                note(r, v);
            if (t > check.seconds) {
                r.state = CheckState::Failed;
                r.reason = "did not hold by " + formatNumber(check.seconds) + " s (" +
                           (r.seen ? shown(r.low) + " to " + shown(r.high) : "no value") +
                           " until then)";
            } else if (ok) {
                r.state = CheckState::Passed;
                r.value = v;
                r.bound = bound;
                r.at = t;
            }
            break;
        case CheckWindow::Last:
            // Undecided until the run ends: it holds when nothing failed in its last seconds.
            if (!measured)
                break;
            if (ok) {
                note(m_sinceMiss[k], v);
            } else {
                m_lastMiss[k] = t;
                m_sinceMiss[k] = CheckResult{};
                r.value = v;
                r.bound = bound;
            }
            r.state = ok ? CheckState::Holding : CheckState::Pending;
            r.low = m_sinceMiss[k].low;
            r.high = m_sinceMiss[k].high;
            r.seen = m_sinceMiss[k].seen;
            break;
        }
    }
}

void CheckRunner::finish(const World& world)
{
    const double end = world.time();
    for (std::size_t k = 0; k < m_checks.size(); ++k) {
        const CheckDesc& check = m_checks[k];
        CheckResult& r = m_results[k];
        if (r.state == CheckState::Passed || r.state == CheckState::Failed)
            continue;
        switch (check.window) {
        case CheckWindow::Always:
            r.state = r.seen ? CheckState::Passed : CheckState::Failed;
            if (!r.seen)
                r.reason = world.stepCount() == 0 ? std::string("the run made no step")
                                                  : std::string("the metric had no value");
            break;
        case CheckWindow::After:
            r.state = r.seen ? CheckState::Passed : CheckState::Failed;
            if (!r.seen)
                r.reason =
                    end < check.seconds
                        ? "the run ended at " + formatNumber(end, 4) + " s, before " +
                              formatNumber(check.seconds) + " s"
                        : "the metric had no value after " + formatNumber(check.seconds) + " s";
            break;
        case CheckWindow::By:
            r.state = CheckState::Failed;
            r.reason = "the run ended at " + formatNumber(end, 4) + " s without it holding" +
                       (r.seen ? " (" + shown(r.low) + " to " + shown(r.high) + ")" : "");
            break;
        case CheckWindow::Last:
            if (end < check.seconds) {
                r.state = CheckState::Failed;
                r.reason = "the run ended at " + formatNumber(end, 4) + " s, shorter than the " +
                           formatNumber(check.seconds) + " s it looks at";
            } else if (m_lastMiss[k] > end - check.seconds) {
                r.state = CheckState::Failed;
                r.at = m_lastMiss[k];
            } else if (!r.seen) {
                r.state = CheckState::Failed;
                r.reason =
                    "the metric had no value in the last " + formatNumber(check.seconds) + " s";
            } else {
                r.state = CheckState::Passed;
            }
            break;
        }
    }
}

bool CheckRunner::allPassed() const
{
    return std::all_of(m_results.begin(), m_results.end(),
                       [](const CheckResult& r) { return r.state == CheckState::Passed; });
}

double CheckRunner::secondsNeeded(const std::vector<CheckDesc>& checks)
{
    double latest = 0.0;
    for (const CheckDesc& check : checks)
        latest = std::max(latest, check.seconds);
    return std::max(10.0, latest + 2.0);
}

} // namespace shoal
