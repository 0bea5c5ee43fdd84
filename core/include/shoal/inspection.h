#pragma once
/// What one inspected agent wanted in a step, rule by rule, as its family weighed it
/// (World::setInspected): a viewer shows why an agent turns. Only the one agent is reported,
/// during the real step, so the numbers are the runtime's own; nothing is recorded while no
/// agent is inspected.

#include <shoal/export.h>
#include <shoal/vec2.h>

#include <cstdint>
#include <string>
#include <vector>

namespace shoal {

/// One rule's share: a named vector in the family's unit (Inspection::unit).
struct SHOAL_API RuleShare
{
    std::string name; ///< "seek", "scatter", "arrive", "separation", ...
    Vec2 vector;
};

struct SHOAL_API Inspection
{
    int group = -1;         ///< the inspected agent's group; -1: none
    std::uint32_t id = 0;   ///< its stable id (AgentArrays::id)
    std::uint64_t step = 0; ///< the step the rules were recorded in
    bool recorded = false;  ///< the family planned the agent in that step
    /// "m/s" (the shares are velocities that add up to `wanted`) or "N" (steering forces
    /// that add up to `wanted`, the force applied) or "heading" (each share a direction at
    /// the agent's speed: what it aimed at, and what it could turn to).
    std::string unit;
    std::vector<RuleShare> rules;
    Vec2 wanted;  ///< what the rules asked for together (in `unit`)
    Vec2 planned; ///< the velocity planned after walls (m/s)

    /// Whether agent `agentId` of group `groupIndex` is the inspected one.
    bool wants(int groupIndex, std::uint32_t agentId) const
    {
        return groupIndex == group && agentId == id;
    }
    void begin(std::uint64_t stepIndex, const char* unitName)
    {
        step = stepIndex;
        recorded = true;
        unit = unitName;
        rules.clear();
        wanted = {};
        planned = {};
    }
    void add(const char* name, Vec2 vector) { rules.push_back({name, vector}); }
};

} // namespace shoal
