#pragma once
/// Tank squad (seed 001). Every member heads for the group target (weighted by targetWeight,
/// scaled down inside targetCloseDistance), keeps apart within keepDistance, aligns with
/// neighbours, and drives with a limited turn rate; a target close behind is reached by
/// reversing rather than a U-turn.
///
/// Fixes to the seed: a squad comes to rest. A member is "arrived" inside arriveDistance of
/// the target, or when it touches an arrived member that is nearer the target while inside
/// the disc the squad needs to park; arrived members ease to speed 0 and stay put until the
/// target moves, so nobody orbits the target or jostles for the one spot.

#include "scene/paramtable.h"
#include "world/behaviour.h"

namespace shoal {

struct TankSquadParams
{
    float moveSpeed = 5.0f;      ///< m/s
    float rotateSpeed = 1.5708f; ///< rad/s (authored in deg/s)
    float targetWeight = 1.25f;
    float targetCloseDistance = 20.0f; ///< m
    float arriveDistance = 3.0f;       ///< m
    float keepDistance = 6.0f;         ///< m
    float keepWeight = 1.0f;
    float moveWeight = 0.8f;
    float speedEasing = 2.0f;  ///< 1/s
    float turnDeadZone = 0.2f; ///< rad
    float turnSlowdown = 0.8f;
    float reverseDistance = 15.0f; ///< m
    float reverseSpeed = 0.6f;     ///< fraction of moveSpeed
    float feelerLength = 4.0f;     ///< m
    float wallWeight = 2.0f;
    float radius = 1.5f; ///< m
};

const std::vector<ParamSpec>& tankSquadParamSpecs();
std::optional<Error> checkTankSquadRelations(const ParamValues& values);
const FamilyView& tankSquadView();

class TankSquadBehaviour final : public Behaviour
{
public:
    void setParams(const ParamValues& values) override;
    void plan(Group& group, const StepContext& ctx) override;
    bool allowsReordering() const override { return true; }
    float queryRadius() const override { return m_params.keepDistance; }
    float bodyRadius() const override { return m_params.radius; }
    float keepDistance() const override { return 2.0f * m_params.radius; }
    const TankSquadParams& params() const { return m_params; }
    void sketch(const Group& group, const StepContext& ctx, const SketchRequest& request,
                Sketch& out) const override;
    std::optional<Vec2> goal(const Group& group, const StepContext& ctx) const override;
    FeelerUse feelers() const override { return {m_params.feelerLength, false}; }
    const char* agentState(const Group& group, std::size_t i) const override;
    std::size_t memoryBytes() const override
    {
        return m_nextFlags.capacity() + m_sortedArrived.capacity() * sizeof(std::uint32_t) +
               (m_sortedVx.capacity() + m_sortedVy.capacity()) * sizeof(float);
    }

private:
    template <class Search> void planWith(Group& group, const StepContext& ctx);
    TankSquadParams m_params;
    std::uint32_t m_seenTargetVersion = 0;
    std::vector<std::uint8_t> m_nextFlags;     ///< this step's flags, applied after planning
    std::vector<float> m_sortedVx, m_sortedVy; ///< neighbour velocities in cell order (scratch)
    std::vector<std::uint32_t>
        m_sortedArrived; ///< parked neighbours in cell order: lane masks (scratch)
};

} // namespace shoal
