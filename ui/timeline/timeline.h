#pragma once
/// The running world's history, for scrubbing: the input the world took (pointer, squad
/// targets, parameter edits, each with the step before which it was applied) and a snapshot
/// of the world every `interval` steps, within a memory budget. Any step between the oldest
/// snapshot kept and the head (the furthest step the run reached) can be shown again: the
/// nearest snapshot at or before it is restored and the logged input replayed up to it, so
/// the world is exactly what a fresh run with that input shows at that step (same hash).
/// Behind the head the world follows the logged future as it steps; an edit there is a
/// branch: the future after it is dropped and the run goes on live from that step.
///
/// A history that began when the world was built (step 0) holds everything a recording
/// needs (recording()); one that began later (the walls or the collision rules changed while
/// it ran: neither is an input a recording holds) can be scrubbed but not saved.

#include <shoal/inputscript.h>
#include <shoal/recording.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shoal {
class World;
}

namespace shoal::ui {

class Timeline
{
public:
    /// 256 MiB: at about 80 bytes an agent, 3,000 one-second snapshots of the demo (a run
    /// of 50 minutes) or 30 of a 100,000-agent level.
    static constexpr std::size_t kDefaultBudgetBytes = std::size_t{256} << 20;
    /// Every half second at the default 60 steps a second: scrubbing replays at most this
    /// many steps.
    static constexpr int kDefaultInterval = 30;

    /// A new history that begins at the world's current step, which it keeps as its first
    /// snapshot. `fromBuild`: the world was just built (step 0), so the history can be saved
    /// as a recording.
    void begin(const World& world, bool fromBuild);
    /// No history (no world).
    void clear();
    bool isEmpty() const { return m_snapshots.empty(); }

    /// The memory the snapshots may take; the oldest go first once over it (the newest is
    /// always kept).
    void setBudgetBytes(std::size_t bytes);
    std::size_t budgetBytes() const { return m_budget; }
    /// Steps between snapshots, at least 1 (from the next snapshot on).
    void setInterval(int steps);
    int interval() const { return m_interval; }

    /// The world took `event` just now, before its next step (event.step is set to the
    /// world's stepCount()). Behind the head this is a branch (branch() first).
    void note(const World& world, InputEvent event);
    /// Drops the future after the world's current step: the head becomes this step.
    void branch(const World& world);
    /// Whether the world is behind the head, where its steps follow the logged input.
    bool following(const World& world) const;
    /// While following: applies the logged input due before the world's next step.
    void applyDue(World& world);
    /// After each step of the world: the head moves on (when the world reached it), and a
    /// snapshot is kept every interval() steps.
    void stepped(const World& world);

    /// Puts the world at `step`, clamped to [firstKept(), head()]: restores the nearest
    /// snapshot at or before it (or steps on from where the world is, when that is nearer)
    /// and replays the logged input. `eachStep`, when given, is called after every step
    /// replayed, `restored` after a snapshot was put back (before the replay). Returns the
    /// step reached; the error of a snapshot the world refused (nothing changed then).
    struct SeekResult
    {
        std::uint64_t step = 0;
        std::optional<Error> error;
    };
    SeekResult seek(World& world, std::uint64_t step, const std::function<void()>& eachStep = {},
                    const std::function<void()>& restored = {});

    /// The first step of the history, the oldest step a snapshot is kept for, and the head.
    std::uint64_t base() const { return m_base; }
    std::uint64_t firstKept() const;
    std::uint64_t head() const { return m_head; }
    /// The hash the loaded recording says its run ended with at the head (load()); none for
    /// a history recorded here.
    std::optional<std::uint64_t> recordedHash() const { return m_recordedHash; }
    /// The steps where a parameter or a squad target was edited (the timeline's marks), in
    /// order, each once.
    std::vector<std::uint64_t> editSteps() const;
    const InputScript& input() const { return m_input; }
    std::size_t snapshotCount() const { return m_snapshots.size(); }
    /// Bytes the snapshots and the log take.
    std::size_t memoryBytes() const;

    /// Whether recording() can be made: the history began at step 0.
    bool recordable() const { return m_recordable; }
    /// The run as a recording of `scene` (the scene the world was built from): the logged
    /// input before the head, the head's step and `headHash`, the world's stateHash() there.
    Recording recording(const SceneDesc& scene, std::uint64_t headHash) const;
    /// Takes a recording's input and length as this history's future: the world (built from
    /// the recording's scene, at step 0) can then be scrubbed anywhere up to its end.
    void load(const World& world, const Recording& recording);

private:
    struct Snapshot
    {
        std::uint64_t step = 0;
        std::vector<std::uint8_t> bytes;
    };
    void keepSnapshot(const World& world);
    void dropOverBudget();
    /// The first event at or after `step`.
    std::size_t eventAt(std::uint64_t step) const;

    InputScript m_input;
    std::size_t m_cursor = 0; ///< the next event to apply while following
    std::vector<Snapshot> m_snapshots;
    std::size_t m_snapshotBytes = 0;
    std::uint64_t m_base = 0;
    std::uint64_t m_head = 0;
    std::optional<std::uint64_t> m_recordedHash;
    bool m_recordable = false;
    std::size_t m_budget = kDefaultBudgetBytes;
    int m_interval = kDefaultInterval;
};

} // namespace shoal::ui
