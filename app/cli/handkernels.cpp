#include "handkernels.h"

#include "benchscenes.h"
#include <shoal/paramspec.h>
#include <shoal/world.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace shoal::cli {

namespace {

constexpr float kDegree = 3.14159265f / 180.0f;
// Below this speed (m/s) a vehicle's velocity gives no direction: its heading does.
constexpr float kTinySpeed = 0.02f;

/// Parameter `key` of `group` as the scene has it (its default when the scene leaves it out).
float paramOf(const GroupDesc& group, const char* key)
{
    const auto& specs = paramSpecs(group.kind);
    const int index = paramIndex(specs, key);
    if (index < 0)
        return 0.0f;
    const auto i = static_cast<std::size_t>(index);
    return static_cast<float>(i < group.params.size() ? group.params[i] : specs[i].defaultValue);
}

/// The agents as arrays of floats, stored in the order of the cells they are in, and the
/// grid of those cells (square, `cell` wide, over the scene's bounds).
class Crowd
{
public:
    Crowd(const SceneDesc& scene, float cell)
        : m_originX(static_cast<float>(scene.bounds.min.x)),
          m_originY(static_cast<float>(scene.bounds.min.y)),
          m_upperX(static_cast<float>(scene.bounds.max.x)),
          m_upperY(static_cast<float>(scene.bounds.max.y)), m_inverseCell(1.0f / cell)
    {
        m_columns = static_cast<int>((m_upperX - m_originX) * m_inverseCell) + 1;
        m_rows = static_cast<int>((m_upperY - m_originY) * m_inverseCell) + 1;
        m_start.resize(static_cast<std::size_t>(m_columns) * static_cast<std::size_t>(m_rows) + 1);
    }

    /// Every agent of `world`'s groups, tagged with tagOf(group, index in the group).
    template <class Tag> void take(const World& world, Tag&& tagOf)
    {
        for (int g = 0; g < world.groupCount(); ++g) {
            const AgentArrays& a = world.group(g).agents;
            for (std::size_t i = 0; i < a.size(); ++i) {
                x.push_back(a.px[i]);
                y.push_back(a.py[i]);
                vx.push_back(a.vx[i]);
                vy.push_back(a.vy[i]);
                fx.push_back(std::cos(a.heading[i]));
                fy.push_back(std::sin(a.heading[i]));
                tag.push_back(tagOf(g, i));
            }
        }
        for (std::vector<float>* next : {&nx, &ny, &nvx, &nvy, &nfx, &nfy})
            next->resize(x.size());
        ntag.resize(x.size());
        m_cellOf.resize(x.size());
    }

    std::size_t size() const { return x.size(); }

    /// Sorts the agents into their cells (a stable counting sort): afterwards they are stored
    /// cell by cell, and each cell's agents are a run of indices.
    void sort()
    {
        const std::size_t n = size();
        std::fill(m_start.begin(), m_start.end(), 0u);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t c = cellOf(x[i], y[i]);
            m_cellOf[i] = c;
            ++m_start[c];
        }
        std::uint32_t sum = 0;
        for (std::uint32_t& start : m_start) {
            sum += start;
            start = sum; // the cell's end, for now
        }
        for (std::size_t i = n; i-- > 0;) {
            const std::uint32_t k = --m_start[m_cellOf[i]];
            nx[k] = x[i];
            ny[k] = y[i];
            nvx[k] = vx[i];
            nvy[k] = vy[i];
            nfx[k] = fx[i];
            nfy[k] = fy[i];
            ntag[k] = tag[i];
        }
        swapStates();
        tag.swap(ntag);
    }

    /// Calls f(j, dx, dy, d2) for every other agent j within `radius` (at most a cell) of
    /// agent i, (dx, dy) = agent i - agent j. (Weighing every candidate of the cells by
    /// 0 or 1 instead, without the branch, measured slower: every term is then worked out
    /// for the two thirds of them out of range.)
    template <class F> void forNeighbours(std::size_t i, float radius, F&& f) const
    {
        const float px = x[i], py = y[i];
        const float radius2 = radius * radius;
        const int column = cellCoordinate(px - m_originX, m_columns);
        const int row = cellCoordinate(py - m_originY, m_rows);
        const int firstColumn = std::max(column - 1, 0);
        const int lastColumn = std::min(column + 1, m_columns - 1);
        for (int r = std::max(row - 1, 0); r <= std::min(row + 1, m_rows - 1); ++r) {
            const std::size_t rowBase = static_cast<std::size_t>(r) * m_columns;
            const std::uint32_t begin = m_start[rowBase + firstColumn];
            const std::uint32_t end = m_start[rowBase + lastColumn + 1];
            for (std::uint32_t j = begin; j < end; ++j) {
                const float dx = px - x[j];
                const float dy = py - y[j];
                const float d2 = dx * dx + dy * dy;
                if (d2 <= radius2 && j != i) // within the radius, as the runtime's scans
                    f(j, dx, dy, d2);
            }
        }
    }

    /// The next state becomes the current one, every agent kept inside the bounds.
    void commit()
    {
        for (std::size_t i = 0; i < size(); ++i) {
            nx[i] = std::clamp(nx[i], m_originX, m_upperX);
            ny[i] = std::clamp(ny[i], m_originY, m_upperY);
        }
        swapStates();
    }

    double checksum() const
    {
        double sum = 0.0;
        for (std::size_t i = 0; i < size(); ++i)
            sum += static_cast<double>(x[i]) + static_cast<double>(y[i]);
        return sum;
    }

    // The agents now (in cell order after sort()), and their next state (by the same index):
    // place, velocity, and heading as a unit vector (no angle, so no trigonometry a step).
    std::vector<float> x, y, vx, vy, fx, fy;
    std::vector<std::uint32_t> tag;
    std::vector<float> nx, ny, nvx, nvy, nfx, nfy;
    std::vector<std::uint32_t> ntag;

private:
    /// The cell an offset from the origin falls in, clamped to the grid: as a float first
    /// (a NaN goes to cell 0), since converting a float beyond int's range is undefined.
    int cellCoordinate(float offset, int cells) const
    {
        const float f = offset * m_inverseCell;
        if (!(f > 0.0f))
            return 0;
        return f < static_cast<float>(cells) ? static_cast<int>(f) : cells - 1;
    }
    std::uint32_t cellOf(float px, float py) const
    {
        return static_cast<std::uint32_t>(cellCoordinate(py - m_originY, m_rows) * m_columns +
                                          cellCoordinate(px - m_originX, m_columns));
    }
    void swapStates()
    {
        x.swap(nx);
        y.swap(ny);
        vx.swap(nvx);
        vy.swap(nvy);
        fx.swap(nfx);
        fy.swap(nfy);
    }

    float m_originX, m_originY, m_upperX, m_upperY;
    float m_inverseCell;
    int m_columns = 0;
    int m_rows = 0;
    std::vector<std::uint32_t> m_start; ///< cell c's agents: [m_start[c], m_start[c + 1])
    std::vector<std::uint32_t> m_cellOf;
};

/// A turn toward (wishX, wishY) of at most rotateSpeed x dt, with the speed eased toward
/// `cruise` (slowed by `slowdown` while the turn is wider than `deadZone`): the drive the
/// school's and the squad's seeds write, on the heading's unit vector: the turn's cosine and
/// sine are the step's constants, so no agent calls the trigonometry.
class Drive
{
public:
    Drive(float rotateSpeed, float deadZone, float slowdown, float easing, float dt)
        : m_cosTurn(std::cos(rotateSpeed * dt)), m_sinTurn(std::sin(rotateSpeed * dt)),
          m_cosDeadZone(std::cos(deadZone)), m_slowdown(slowdown),
          m_easing(std::min(1.0f, easing * dt))
    {
    }
    void apply(float wishX, float wishY, float cruise, float& forwardX, float& forwardY,
               float& speed) const
    {
        const float wish = std::sqrt(wishX * wishX + wishY * wishY);
        if (wish > 1e-6f) {
            const float toX = wishX / wish, toY = wishY / wish;
            const float along = forwardX * toX + forwardY * toY;
            if (along < m_cosDeadZone)
                cruise *= m_slowdown;
            if (along >= m_cosTurn) {
                forwardX = toX; // within this step's turn
                forwardY = toY;
            } else {
                // The most this step turns, toward the wish's side.
                const float side = forwardX * toY - forwardY * toX < 0.0f ? -m_sinTurn : m_sinTurn;
                const float x = forwardX * m_cosTurn - forwardY * side;
                forwardY = forwardX * side + forwardY * m_cosTurn;
                forwardX = x;
            }
        }
        speed += (cruise - speed) * m_easing;
    }

private:
    float m_cosTurn, m_sinTurn, m_cosDeadZone, m_slowdown, m_easing;
};

/// A kernel over a Crowd of the scene's first group's family: the scene, the group's
/// parameters, the agents and the step count the bench's pointer is read at.
class CrowdKernel : public HandKernel
{
public:
    double checksum() const override { return m_crowd.checksum(); }

protected:
    /// The agents of `world`, in a grid of cells `cellKey` wide (a parameter of the group),
    /// tagged with tagOf(group, index in the group).
    template <class Tag>
    CrowdKernel(const World& world, const SceneDesc& scene, const char* cellKey, Tag&& tagOf)
        : m_scene(scene), m_group(scene.groups.front()), m_crowd(scene, paramOf(m_group, cellKey)),
          m_step(world.stepCount())
    {
        m_crowd.take(world, tagOf);
    }
    float param(const char* key) const { return paramOf(m_group, key); }
    float dt() const { return static_cast<float>(m_scene.simulation.dt); }
    /// The bench's pointer this step: where the player heads, with the school and the
    /// swarm after it.
    Vec2 pointer() const { return benchPointer(m_scene, m_step); }

    const SceneDesc& m_scene;
    const GroupDesc& m_group;
    Crowd m_crowd;
    std::uint64_t m_step;
};

/// The fish school: each member counts and aligns with its neighbours within neighborRadius,
/// is pushed away by those nearer than keepMinDistance and drawn to the centre of those
/// beyond keepMaxDistance, follows the player (the bench's pointer), and drives.
class FishKernel final : public CrowdKernel
{
public:
    FishKernel(const World& world, const SceneDesc& scene)
        : CrowdKernel(world, scene, "neighborRadius", [](int, std::size_t) { return 0u; })
    {
    }
    void step() override
    {
        const float dt = this->dt();
        const float radius = param("neighborRadius");
        const float keepMin = param("keepMinDistance");
        const float keepMax = param("keepMaxDistance");
        const float keepMin2 = keepMin * keepMin, keepMax2 = keepMax * keepMax;
        const float keepWeight = param("keepWeight");
        const float moveWeight = param("moveWeight");
        const float followWeight = param("followWeight");
        const float moveSpeed = param("moveSpeed");
        const Drive drive(param("rotateSpeed") * kDegree, param("turnDeadZone") * kDegree,
                          param("turnSlowdown"), param("speedEasing"), dt);
        const Vec2 lead = pointer();
        Crowd& c = m_crowd;
        c.sort();
        for (std::size_t i = 0; i < c.size(); ++i) {
            int count = 0, far = 0;
            float alignX = 0, alignY = 0, pushX = 0, pushY = 0, farX = 0, farY = 0;
            c.forNeighbours(i, radius, [&](std::uint32_t j, float dx, float dy, float d2) {
                ++count;
                alignX += c.vx[j];
                alignY += c.vy[j];
                if (d2 < keepMin2) {
                    const float inverse = 1.0f / (std::sqrt(d2) + 1e-6f);
                    pushX += dx * inverse;
                    pushY += dy * inverse;
                } else if (d2 > keepMax2) {
                    farX -= dx;
                    farY -= dy;
                    ++far;
                }
            });
            const float toX = lead.x - c.x[i], toY = lead.y - c.y[i];
            const float to = std::sqrt(toX * toX + toY * toY) + 1e-6f;
            float wishX = toX / to * followWeight;
            float wishY = toY / to * followWeight;
            if (count > 0) {
                const float align = std::sqrt(alignX * alignX + alignY * alignY) + 1e-6f;
                wishX += alignX / align * moveWeight;
                wishY += alignY / align * moveWeight;
                const float inverseFar = far > 0 ? 1.0f / static_cast<float>(far) : 0.0f;
                wishX += (pushX + farX * inverseFar) * keepWeight;
                wishY += (pushY + farY * inverseFar) * keepWeight;
            }
            float forwardX = c.fx[i], forwardY = c.fy[i];
            float speed = std::sqrt(c.vx[i] * c.vx[i] + c.vy[i] * c.vy[i]);
            drive.apply(wishX, wishY, moveSpeed, forwardX, forwardY, speed);
            c.nfx[i] = forwardX;
            c.nfy[i] = forwardY;
            c.nvx[i] = forwardX * speed;
            c.nvy[i] = forwardY * speed;
            c.nx[i] = c.x[i] + c.nvx[i] * dt;
            c.ny[i] = c.y[i] + c.nvy[i] * dt;
        }
        c.commit();
        ++m_step;
    }
};

/// The swarm: each enemy seeks the player (the bench's pointer) at `speed`, is pushed away
/// by (R - d) from every enemy nearer than R (averaged over them), and eases off as the
/// nearest ahead of it comes from R to settleFactor x R, where it stops pressing.
class SwarmKernel final : public CrowdKernel
{
public:
    SwarmKernel(const World& world, const SceneDesc& scene)
        : CrowdKernel(world, scene, "minAllowedRadius", [](int, std::size_t) { return 0u; })
    {
    }
    void step() override
    {
        const float dt = this->dt();
        const float R = param("minAllowedRadius");
        const float settle = param("settleFactor") * R;
        const float pushStrength = param("pushStrength");
        const float stopDistance = param("stopDistance");
        const float stride = param("speed") * dt;
        const Vec2 goal = pointer();
        Crowd& c = m_crowd;
        c.sort();
        for (std::size_t i = 0; i < c.size(); ++i) {
            const float toX = goal.x - c.x[i], toY = goal.y - c.y[i];
            const float distance = std::sqrt(toX * toX + toY * toY);
            const float seekX = distance > 1e-6f ? toX / distance : 0.0f;
            const float seekY = distance > 1e-6f ? toY / distance : 0.0f;
            float pushX = 0, pushY = 0, ahead = R;
            int overlaps = 0;
            c.forNeighbours(i, R, [&](std::uint32_t, float dx, float dy, float d2) {
                // (R - d) / d, with one division.
                const float inverse = 1.0f / (std::sqrt(d2) + 1e-6f);
                const float s = R * inverse - 1.0f;
                pushX += dx * s;
                pushY += dy * s;
                ++overlaps;
                if (dx * seekX + dy * seekY < 0.0f)
                    ahead = std::min(ahead, d2 * inverse);
            });
            if (overlaps > 1) {
                const float inverse = 1.0f / static_cast<float>(overlaps);
                pushX *= inverse;
                pushY *= inverse;
            }
            pushX *= pushStrength;
            pushY *= pushStrength;
            const float push = std::sqrt(pushX * pushX + pushY * pushY);
            if (push > R) {
                pushX *= R / push;
                pushY *= R / push;
            }
            float scale = distance > stopDistance ? 1.0f : 0.0f;
            if (ahead < R && R > settle)
                scale *= std::clamp((ahead - settle) / (R - settle), 0.0f, 1.0f);
            const float seek = std::min(stride, std::max(0.0f, distance - stopDistance)) * scale;
            const float moveX = seekX * seek + pushX, moveY = seekY * seek + pushY;
            c.nx[i] = c.x[i] + moveX;
            c.ny[i] = c.y[i] + moveY;
            c.nvx[i] = moveX / dt;
            c.nvy[i] = moveY / dt;
            c.nfx[i] = seek > 0.0f ? seekX : c.fx[i];
            c.nfy[i] = seek > 0.0f ? seekY : c.fy[i];
        }
        c.commit();
        ++m_step;
    }
};

/// The tank squad: each tank heads for the target, keeps apart from and aligns with the
/// tanks within keepDistance, measures the gap to the nearest tank in its nose cone, drives
/// with a limited turn rate and brakes so it stops short of that tank.
class TankKernel final : public CrowdKernel
{
public:
    // Tag: the tank's place in the crowd as taken, every group's in turn (sortSpeeds()
    // reads it); the cruise speeds are taken in the same order.
    TankKernel(const World& world, const SceneDesc& scene)
        : CrowdKernel(world, scene, "keepDistance",
                      [next = std::uint32_t{0}](int, std::size_t) mutable { return next++; })
    {
        for (int g = 0; g < world.groupCount(); ++g) {
            const std::vector<float>& speed = world.group(g).agents.speed;
            m_speed.insert(m_speed.end(), speed.begin(), speed.end());
        }
        m_nextSpeed.resize(m_speed.size());
        if (m_group.target)
            m_target = {static_cast<float>(m_group.target->x),
                        static_cast<float>(m_group.target->y)};
    }
    void step() override
    {
        const float dt = this->dt();
        const float keep = param("keepDistance");
        const float inverseKeep = 1.0f / keep;
        const float hull = 2.0f * param("radius");
        const float targetWeight = param("targetWeight");
        const float closeDistance = param("targetCloseDistance");
        const float arriveDistance = param("arriveDistance");
        const float keepWeight = param("keepWeight");
        const float moveWeight = param("moveWeight");
        const float moveSpeed = param("moveSpeed");
        const float easing = param("speedEasing");
        const Drive drive(param("rotateSpeed") * kDegree, param("turnDeadZone") * kDegree,
                          param("turnSlowdown"), easing, dt);
        Crowd& c = m_crowd;
        // The speeds ride along with the sort: sorted by the same permutation as the rest.
        c.sort();
        sortSpeeds();
        for (std::size_t i = 0; i < c.size(); ++i) {
            const float toX = m_target.x - c.x[i], toY = m_target.y - c.y[i];
            const float distance = std::sqrt(toX * toX + toY * toY) + 1e-6f;
            const float forwardX = c.fx[i], forwardY = c.fy[i];
            float keepX = 0, keepY = 0, alignX = 0, alignY = 0, gap = keep;
            c.forNeighbours(i, keep, [&](std::uint32_t j, float dx, float dy, float d2) {
                // (1 - d / keep) / d, with one division.
                const float inverse = 1.0f / (std::sqrt(d2) + 1e-6f);
                const float s = inverse - inverseKeep;
                keepX += dx * s;
                keepY += dy * s;
                alignX += c.vx[j];
                alignY += c.vy[j];
                const float toward = dx * forwardX + dy * forwardY;
                if (toward < 0.0f && toward * toward > 0.25f * d2)
                    gap = std::min(gap, d2 * inverse - hull);
            });
            const float pull = targetWeight * std::min(1.0f, distance / closeDistance);
            float wishX = toX / distance * pull, wishY = toY / distance * pull;
            const float keepLength = std::sqrt(keepX * keepX + keepY * keepY);
            if (keepLength > 1e-6f) {
                wishX += keepX / keepLength * keepWeight;
                wishY += keepY / keepLength * keepWeight;
            }
            const float alignLength = std::sqrt(alignX * alignX + alignY * alignY);
            if (alignLength > 1e-6f) {
                wishX += alignX / alignLength * moveWeight;
                wishY += alignY / alignLength * moveWeight;
            }
            float headingX = forwardX, headingY = forwardY;
            float speed = m_speed[i];
            drive.apply(wishX, wishY, distance < arriveDistance ? 0.0f : moveSpeed, headingX,
                        headingY, speed);
            m_nextSpeed[i] = speed;
            const float moving = std::min(speed, std::max(0.0f, gap) * easing);
            c.nfx[i] = headingX;
            c.nfy[i] = headingY;
            c.nvx[i] = headingX * moving;
            c.nvy[i] = headingY * moving;
            c.nx[i] = c.x[i] + c.nvx[i] * dt;
            c.ny[i] = c.y[i] + c.nvy[i] * dt;
        }
        c.commit();
        m_speed.swap(m_nextSpeed);
    }

private:
    /// The cruise speeds in the order sort() just stored the tanks in: the tags carry each
    /// tank's index before the sort.
    void sortSpeeds()
    {
        Crowd& c = m_crowd;
        for (std::size_t k = 0; k < c.size(); ++k)
            m_nextSpeed[k] = m_speed[c.tag[k]];
        m_speed.swap(m_nextSpeed);
        for (std::size_t k = 0; k < c.size(); ++k)
            c.tag[k] = static_cast<std::uint32_t>(k);
    }

    std::vector<float> m_speed, m_nextSpeed;
    Vec2 m_target;
};

/// Leader following, every group in one grid: each leader wanders (a jittered point on a
/// circle ahead of it); each follower arrives at the point behind its leader, keeps apart
/// from its own group's members within separationRadius and gets out of the way ahead of
/// the leader; everyone takes the vehicle step (force truncated, mass, speed truncated, the
/// heading eased toward the velocity).
class LeaderKernel final : public CrowdKernel
{
public:
    // Tag: the group's index, times two, plus one for its leader (agent 0).
    LeaderKernel(const World& world, const SceneDesc& scene)
        : CrowdKernel(world, scene, "separationRadius", [](int g, std::size_t i) {
              return static_cast<std::uint32_t>(g) * 2u + (i == 0 ? 1u : 0u);
          })
    {
        const std::size_t groups = static_cast<std::size_t>(world.groupCount());
        m_wanderX.assign(groups, 1.0f);
        m_wanderY.assign(groups, 0.0f);
        m_random.resize(groups);
        for (std::size_t g = 0; g < groups; ++g)
            m_random[g] = static_cast<std::uint32_t>(2654435761u * (g + 1));
        m_frames.resize(groups);
    }
    void step() override
    {
        const float dt = this->dt();
        const float mass = param("mass");
        const float maxSpeed = param("maxSpeed");
        const float maxForce = param("maxForce");
        const float damping = param("damping");
        const float wanderRadius = param("wanderRadius");
        const float wanderDistance = param("wanderDistance");
        const float jitter = param("wanderJitter") * dt;
        const float leaderSpeed = param("leaderSpeed") * maxSpeed;
        const float behind = param("leaderBehindDistance");
        const float slowing = param("slowingRadius");
        const float separation = param("separationRadius");
        const float inverseSeparation = 1.0f / separation;
        const float separationWeight = param("separationWeight") * maxSpeed;
        const float evade = param("evadeDistance");
        const float evadeWeight = param("evadeWeight");
        const float arriveWeight = param("arriveWeight");
        Crowd& c = m_crowd;
        c.sort();
        // Each group's leader: where it is, which way it goes, its behind and ahead points.
        for (std::size_t k = 0; k < c.size(); ++k) {
            if (!(c.tag[k] & 1u))
                continue;
            Frame& f = m_frames[c.tag[k] >> 1];
            f.x = c.x[k];
            f.y = c.y[k];
            const float speed = std::sqrt(c.vx[k] * c.vx[k] + c.vy[k] * c.vy[k]);
            f.forwardX = speed > kTinySpeed ? c.vx[k] / speed : c.fx[k];
            f.forwardY = speed > kTinySpeed ? c.vy[k] / speed : c.fy[k];
        }
        for (std::size_t i = 0; i < c.size(); ++i) {
            const std::uint32_t group = c.tag[i] >> 1;
            const Frame& f = m_frames[group];
            float forceX, forceY;
            if (c.tag[i] & 1u) {
                // Wander: the point on the circle drifts by a random step, renormalised.
                float& wx = m_wanderX[group];
                float& wy = m_wanderY[group];
                wx += (uniform(m_random[group]) * 2.0f - 1.0f) * jitter;
                wy += (uniform(m_random[group]) * 2.0f - 1.0f) * jitter;
                const float length = std::sqrt(wx * wx + wy * wy) + 1e-6f;
                wx /= length;
                wy /= length;
                const float aimX = f.forwardX * wanderDistance + wx * wanderRadius;
                const float aimY = f.forwardY * wanderDistance + wy * wanderRadius;
                const float aim = std::sqrt(aimX * aimX + aimY * aimY) + 1e-6f;
                forceX = aimX / aim * leaderSpeed - c.vx[i];
                forceY = aimY / aim * leaderSpeed - c.vy[i];
            } else {
                const float toX = f.x - f.forwardX * behind - c.x[i];
                const float toY = f.y - f.forwardY * behind - c.y[i];
                const float distance = std::sqrt(toX * toX + toY * toY) + 1e-6f;
                const float speed = maxSpeed * std::min(1.0f, distance / slowing);
                forceX = (toX / distance * speed - c.vx[i]) * arriveWeight;
                forceY = (toY / distance * speed - c.vy[i]) * arriveWeight;
                float apartX = 0, apartY = 0;
                c.forNeighbours(i, separation, [&](std::uint32_t j, float dx, float dy, float d2) {
                    if ((c.tag[j] >> 1) != group)
                        return;
                    // (separation - d) / (separation x d), with one division.
                    const float s = 1.0f / (std::sqrt(d2) + 1e-6f) - inverseSeparation;
                    apartX += dx * s;
                    apartY += dy * s;
                });
                forceX += apartX * separationWeight;
                forceY += apartY * separationWeight;
                const float offX = c.x[i] - (f.x + f.forwardX * behind);
                const float offY = c.y[i] - (f.y + f.forwardY * behind);
                if (offX * offX + offY * offY < evade * evade) {
                    const float awayX = c.x[i] - f.x, awayY = c.y[i] - f.y;
                    const float away = std::sqrt(awayX * awayX + awayY * awayY) + 1e-6f;
                    forceX += (awayX / away * maxSpeed - c.vx[i]) * evadeWeight;
                    forceY += (awayY / away * maxSpeed - c.vy[i]) * evadeWeight;
                }
            }
            // The vehicle step.
            const float force = std::sqrt(forceX * forceX + forceY * forceY);
            if (force > maxForce) {
                forceX *= maxForce / force;
                forceY *= maxForce / force;
            }
            float vx = c.vx[i] + forceX / mass * dt;
            float vy = c.vy[i] + forceY / mass * dt;
            const float speed = std::sqrt(vx * vx + vy * vy);
            if (speed > maxSpeed) {
                vx *= maxSpeed / speed;
                vy *= maxSpeed / speed;
            }
            // The heading eased toward the velocity's direction, and kept a unit vector.
            float headingX = c.fx[i], headingY = c.fy[i];
            if (speed > kTinySpeed) {
                const float ease = std::min(1.0f, damping * dt);
                const float moving = std::min(speed, maxSpeed);
                headingX += (vx / moving - headingX) * ease;
                headingY += (vy / moving - headingY) * ease;
                const float length = std::sqrt(headingX * headingX + headingY * headingY);
                if (length > 1e-6f) {
                    headingX /= length;
                    headingY /= length;
                } else {
                    headingX = vx / moving;
                    headingY = vy / moving;
                }
            }
            c.nvx[i] = vx;
            c.nvy[i] = vy;
            c.nfx[i] = headingX;
            c.nfy[i] = headingY;
            c.nx[i] = c.x[i] + vx * dt;
            c.ny[i] = c.y[i] + vy * dt;
        }
        c.commit();
    }

private:
    struct Frame
    {
        float x = 0, y = 0, forwardX = 1, forwardY = 0;
    };
    /// A number in [0, 1) from a xorshift generator.
    static float uniform(std::uint32_t& state)
    {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return static_cast<float>(state >> 8) * (1.0f / 16777216.0f);
    }

    std::vector<float> m_wanderX, m_wanderY;
    std::vector<std::uint32_t> m_random;
    std::vector<Frame> m_frames;
};

} // namespace

std::unique_ptr<HandKernel> HandKernel::make(BehaviourKind kind, const World& world,
                                             const SceneDesc& scene)
{
    if (scene.groups.empty() || world.agentCount() == 0)
        return nullptr;
    switch (kind) {
    case BehaviourKind::FishSchool:
        return std::make_unique<FishKernel>(world, scene);
    case BehaviourKind::Swarm:
        return std::make_unique<SwarmKernel>(world, scene);
    case BehaviourKind::TankSquad:
        return std::make_unique<TankKernel>(world, scene);
    case BehaviourKind::LeaderFollow:
        return std::make_unique<LeaderKernel>(world, scene);
    case BehaviourKind::Worm:
        break;
    }
    return nullptr;
}

} // namespace shoal::cli
