// World::copyFrame() and FrameBodies: what a viewer draws, copied out of the world so it can
// be drawn while the world steps on (<shoal/worldframe.h>).

#include <shoal/world.h>
#include <shoal/worldframe.h>

namespace shoal {

namespace {

template <class T> void copyInto(std::vector<T>& to, const std::vector<T>& from)
{
    // assign() keeps the capacity: no allocation once the frame has held this many.
    to.assign(from.begin(), from.end());
}

} // namespace

void FrameBodies::clear()
{
    m_start.assign(1, 0);
    m_points.clear();
    m_left.clear();
    m_right.clear();
    m_lengths.clear();
}

void FrameBodies::assign(const AgentBodies& from, bool outlines)
{
    clear();
    m_hasOutlines = outlines;
    m_width = from.bodyWidth();
    m_segmentLength = from.segmentLength();
    const int bodies = from.bodyCount();
    m_lengths.reserve(static_cast<std::size_t>(bodies));
    for (int b = 0; b < bodies; ++b) {
        const int n = from.pointCount(b);
        for (int k = 0; k < n; ++k)
            m_points.push_back(from.point(b, k));
        if (outlines) {
            from.outline(b, m_scratchLeft, m_scratchRight);
            m_left.insert(m_left.end(), m_scratchLeft.begin(), m_scratchLeft.end());
            m_right.insert(m_right.end(), m_scratchRight.begin(), m_scratchRight.end());
        }
        m_start.push_back(m_points.size());
        m_lengths.push_back(from.centreLineLength(b));
    }
}

void FrameBodies::outline(int body, std::vector<Vec2>& left, std::vector<Vec2>& right) const
{
    if (!m_hasOutlines) {
        left.clear();
        right.clear();
        return;
    }
    const std::size_t begin = m_start[static_cast<std::size_t>(body)];
    const std::size_t end = m_start[static_cast<std::size_t>(body) + 1];
    left.assign(m_left.begin() + static_cast<std::ptrdiff_t>(begin),
                m_left.begin() + static_cast<std::ptrdiff_t>(end));
    right.assign(m_right.begin() + static_cast<std::ptrdiff_t>(begin),
                 m_right.begin() + static_cast<std::ptrdiff_t>(end));
}

void World::copyFrame(WorldFrame& out, bool outlines) const
{
    out.step = stepCount();
    out.time = time();
    out.player = player();
    copyInto(out.pickups, pickups());
    out.groups.resize(static_cast<std::size_t>(groupCount()));
    for (int g = 0; g < groupCount(); ++g) {
        const GroupState& from = group(g);
        FrameGroup& to = out.groups[static_cast<std::size_t>(g)];
        to.kind = from.kind;
        to.playerLed = from.playerLed;
        to.bodyRadius = bodyRadius(g);
        const AgentArrays& a = from.agents;
        copyInto(to.agents.px, a.px);
        copyInto(to.agents.py, a.py);
        copyInto(to.agents.vx, a.vx);
        copyInto(to.agents.vy, a.vy);
        copyInto(to.agents.heading, a.heading);
        copyInto(to.agents.flags, a.flags);
        copyInto(to.agents.id, a.id);
        const AgentBodies* bodies = this->bodies(g);
        to.hasBodies = bodies != nullptr;
        if (bodies)
            to.bodies.assign(*bodies, outlines);
        else
            to.bodies.clear();
    }
}

} // namespace shoal
