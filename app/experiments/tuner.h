#pragma once
/// Tuning: a search for the parameter values that make a scene's checks pass (or a metric as
/// small, as large or as near a target as it gets) with NLopt's derivative-free optimizers: a
/// global pass (DIRECT-L) over the whole box with half the budget, then a local one (BOBYQA)
/// from its best point; each point runs over several seeds so what it finds does not hang on
/// one. shoal-cli tune and the editor's Tune dialog run it.

#include "sceneparam.h"

#include <QString>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shoal::experiments {

/// The objective of values the scene refuses (a band whose minimum passes its maximum): worse
/// than any run, so the search leaves them.
constexpr double kRefusedObjective = 1e6;

/// A parameter and its box.
struct TuneParam
{
    SceneParam param;
    double low = 0.0, high = 0.0;
    bool whole = false; ///< an integer parameter: the value is rounded
};

/// What the search makes small.
struct TuneObjective
{
    bool checks = true;           ///< the checks' misses; otherwise a metric
    std::string metric;           ///< GROUP.KEY
    double sign = 1.0;            ///< -1: the metric is made large
    std::optional<double> target; ///< the distance of the metric to it is made small
};

/// What to search: the scene, the parameters with their boxes, the objective, the seeds per
/// point, the points at most and the steps per run.
struct TunePlan
{
    SceneDesc scene;
    std::vector<TuneParam> params;
    TuneObjective objective;
    int seeds = 3;
    int budget = 60;
    std::int64_t steps = 600;
};

/// What one point scored over the seeds.
struct TuneScore
{
    double objective = kRefusedObjective;
    int passed = 0, checks = 0; ///< summed over the seeds
    std::string refused;        ///< why the scene refused the values
};

/// GROUP.PARAM of `scene` in [low, high] (low below high, both allowed by its spec; not a
/// choice); the Error starts with `where`.
std::optional<Error> makeTuneParam(const SceneDesc& scene, const std::string& target, double low,
                                   double high, const std::string& where, TuneParam& p);

/// "GROUP.PARAM=MIN:MAX" (shoal-cli tune --param); the Error starts with `where`.
std::optional<Error> parseTuneParam(const SceneDesc& scene, const QString& text,
                                    const std::string& where, TuneParam& p);

/// "checks", "GROUP.KEY" (made small), "-GROUP.KEY" (made large) or "GROUP.KEY=TARGET" (made
/// near TARGET); the Error starts with `where`.
std::optional<Error> parseObjective(const SceneDesc& scene, const QString& text,
                                    const std::string& where, TuneObjective& o);

/// The plan's scene with the point's values (whole parameters rounded) and seed `seed`.
SceneDesc sceneWith(const TunePlan& plan, const std::vector<double>& x, std::uint64_t seed);

/// The point over every seed (in parallel): the mean objective, the checks summed. Once
/// `cancel` (may be null) is set the runs stop early and the score means nothing.
TuneScore evaluatePoint(const TunePlan& plan, const std::vector<double>& x,
                        const std::atomic<bool>* cancel = nullptr);

/// "group.param=value ..." (whole parameters rounded, 4 significant digits).
std::string describePoint(const TunePlan& plan, const std::vector<double>& x);
/// "objective 0.5, checks 3 of 6 passed over 3 seeds", or "refused: why".
std::string describeScore(const TunePlan& plan, const TuneScore& score);

/// One point the search tried.
struct TuneStep
{
    int evaluation = 0; ///< 1-based
    int budget = 0;
    std::vector<double> point;
    TuneScore score;
    bool improved = false; ///< the best so far from now on
    std::vector<double> best;
    TuneScore bestScore;
};

/// How a search ended: the points it tried, the best of them and its score.
struct TuneResult
{
    int evaluations = 0;
    std::vector<double> best;
    TuneScore bestScore;
    bool cancelled = false;
};

/// Runs the search: the scene's own values (clamped into the boxes) first, then DIRECT-L and
/// BOBYQA; with the checks as objective it stops once they all pass. `step` (may be empty)
/// hears every point on the calling thread. Once `cancel` (may be null) is set the search
/// stops within a few steps of the runs under way, and the point they were of does not
/// count; the result is the best so far.
TuneResult runTune(const TunePlan& plan, const std::function<void(const TuneStep&)>& step,
                   const std::atomic<bool>* cancel);

} // namespace shoal::experiments
