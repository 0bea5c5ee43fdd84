#include "timeline/timeline.h"

#include <shoal/world.h>

#include <algorithm>

namespace shoal::ui {

void Timeline::clear()
{
    m_input = InputScript{};
    m_cursor = 0;
    m_snapshots.clear();
    m_snapshotBytes = 0;
    m_base = m_head = 0;
    m_recordedHash.reset();
    m_recordable = false;
}

void Timeline::begin(const World& world, bool fromBuild)
{
    clear();
    // Events read back from a recording name themselves "events[i]": so do these.
    m_input.fileName = "timeline";
    m_input.fromRecording = true;
    m_base = m_head = world.stepCount();
    m_recordable = fromBuild && m_base == 0;
    keepSnapshot(world);
}

void Timeline::setBudgetBytes(std::size_t bytes)
{
    m_budget = bytes;
    dropOverBudget();
}

void Timeline::setInterval(int steps)
{
    m_interval = std::max(1, steps);
}

bool Timeline::following(const World& world) const
{
    return !m_snapshots.empty() && world.stepCount() < m_head;
}

void Timeline::note(const World& world, InputEvent event)
{
    if (m_snapshots.empty())
        return;
    if (following(world))
        branch(world);
    // Input logged for this step that the world has not taken yet (it was scrubbed back to
    // here) is the future the edit branches from.
    m_input.events.resize(m_cursor);
    event.step = world.stepCount();
    event.line = static_cast<int>(m_input.events.size());
    m_input.events.push_back(std::move(event));
    m_cursor = m_input.events.size(); // the world has it already
}

void Timeline::branch(const World& world)
{
    const std::uint64_t step = world.stepCount();
    if (m_snapshots.empty() || step >= m_head)
        return;
    // Input at this step has not been applied yet (it comes before the next step): it is
    // the future too.
    m_input.events.erase(m_input.events.begin() + static_cast<std::ptrdiff_t>(eventAt(step)),
                         m_input.events.end());
    m_cursor = m_input.events.size();
    while (m_snapshots.size() > 1 && m_snapshots.back().step > step) {
        m_snapshotBytes -= m_snapshots.back().bytes.size();
        m_snapshots.pop_back();
    }
    m_head = step;
    m_recordedHash.reset(); // the run no longer ends where the recording did
}

void Timeline::applyDue(World& world)
{
    // At the head too: input logged there was not taken when the world came back to it.
    if (!m_snapshots.empty())
        applyInputEvents(world, m_input, world.stepCount(), m_cursor);
}

void Timeline::stepped(const World& world)
{
    if (m_snapshots.empty())
        return;
    const std::uint64_t step = world.stepCount();
    m_head = std::max(m_head, step);
    // Behind the head the snapshots of these steps were kept as the run first made them.
    if (step >= m_snapshots.back().step + static_cast<std::uint64_t>(m_interval))
        keepSnapshot(world);
}

void Timeline::keepSnapshot(const World& world)
{
    Snapshot snapshot{world.stepCount(), world.snapshot()};
    m_snapshotBytes += snapshot.bytes.size();
    m_snapshots.push_back(std::move(snapshot));
    dropOverBudget();
}

void Timeline::dropOverBudget()
{
    // The newest stays: without it the head could not be reached again.
    std::size_t drop = 0;
    while (m_snapshotBytes > m_budget && drop + 1 < m_snapshots.size())
        m_snapshotBytes -= m_snapshots[drop++].bytes.size();
    m_snapshots.erase(m_snapshots.begin(), m_snapshots.begin() + static_cast<std::ptrdiff_t>(drop));
}

std::size_t Timeline::eventAt(std::uint64_t step) const
{
    const auto it =
        std::lower_bound(m_input.events.begin(), m_input.events.end(), step,
                         [](const InputEvent& event, std::uint64_t s) { return event.step < s; });
    return static_cast<std::size_t>(it - m_input.events.begin());
}

std::uint64_t Timeline::firstKept() const
{
    return m_snapshots.empty() ? m_head : m_snapshots.front().step;
}

Timeline::SeekResult Timeline::seek(World& world, std::uint64_t step,
                                    const std::function<void()>& eachStep,
                                    const std::function<void()>& restored)
{
    SeekResult result;
    if (m_snapshots.empty()) {
        result.step = world.stepCount();
        return result;
    }
    const std::uint64_t target = std::clamp(step, firstKept(), m_head);
    // The last snapshot at or before the target.
    const auto after = std::upper_bound(
        m_snapshots.begin(), m_snapshots.end(), target,
        [](std::uint64_t s, const Snapshot& snapshot) { return s < snapshot.step; });
    const Snapshot& from = *(after - 1);
    const std::uint64_t now = world.stepCount();
    if (now > target || now < from.step) {
        if (auto error = world.restore(from.bytes)) {
            result.step = now;
            result.error = std::move(error);
            return result;
        }
        if (restored)
            restored();
    }
    m_cursor = eventAt(world.stepCount());
    while (world.stepCount() < target) {
        applyInputEvents(world, m_input, world.stepCount(), m_cursor);
        world.step();
        if (eachStep)
            eachStep();
    }
    result.step = world.stepCount();
    return result;
}

std::vector<std::uint64_t> Timeline::editSteps() const
{
    std::vector<std::uint64_t> steps;
    for (const InputEvent& event : m_input.events)
        if (event.kind != InputEventKind::Pointer && (steps.empty() || steps.back() != event.step))
            steps.push_back(event.step);
    return steps;
}

std::size_t Timeline::memoryBytes() const
{
    std::size_t bytes = m_snapshotBytes + m_snapshots.capacity() * sizeof(Snapshot) +
                        m_input.events.capacity() * sizeof(InputEvent);
    for (const InputEvent& event : m_input.events)
        bytes += event.group.capacity() + event.key.capacity();
    return bytes;
}

Recording Timeline::recording(const SceneDesc& scene, std::uint64_t headHash) const
{
    Recording recording;
    recording.scene = scene;
    recording.input = m_input;
    // Input at the head was taken for a step the run did not make.
    recording.input.events.resize(eventAt(m_head));
    recording.steps = m_head;
    recording.hash = headHash;
    return recording;
}

void Timeline::load(const World& world, const Recording& recording)
{
    begin(world, true);
    m_input.events = recording.input.events;
    for (std::size_t i = 0; i < m_input.events.size(); ++i)
        m_input.events[i].line = static_cast<int>(i);
    m_cursor = 0;
    m_head = std::max(m_head, recording.steps);
    m_recordedHash = recording.hash;
}

} // namespace shoal::ui
