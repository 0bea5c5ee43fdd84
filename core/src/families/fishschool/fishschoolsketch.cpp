// What the fish school shows a viewer: the band round the player fish, every member's half
// keep distance coloured by what the band rule is doing, free fish with their pick-up
// radius; its feelers; what each fish is doing. And the free-fish rule at build: fish
// pickups become agents of the player's school, waiting to be picked up.

#include "families/fishschool/fishschool.h"

#include "families/sketchsupport.h"

namespace shoal {

const FamilyView& fishSchoolView()
{
    static const FamilyView view = [] {
        FamilyView v;
        v.overlayKey = "fishBand";
        v.overlayLabel = "Neighbour Radius and Keep Band (Fish)";
        v.overlayToolTip =
            "Around the player fish: the neighbour radius and the keep band. Around every school "
            "fish: half the keep distance, orange while it makes room, blue while it closes up.";
        v.glyph = FamilyView::Glyph::Fish;
        v.dimUnlessFlag = kAgentInSchool;
        v.restingFlag = 0;
        v.leaderFirst = false;
        v.takesTarget = false;
        v.groupName = "school";
        v.usualCount = 12;
        v.paintedCount = 40;
        return v;
    }();
    return view;
}

void FishSchoolBehaviour::adoptPickups(Group& group, std::vector<PickupState>& pickups,
                                       Random& random)
{
    for (PickupState& pickup : pickups) {
        if (pickup.kind != PickupKind::Fish)
            continue;
        const std::size_t n = group.agents.size();
        group.agents.resize(n + 1);
        group.agents.px[n] = pickup.position.x;
        group.agents.py[n] = pickup.position.y;
        group.agents.heading[n] = random.uniform(-kPi, kPi);
        group.agents.flags[n] = 0;
        pickup.taken = true;
    }
}

void FishSchoolBehaviour::sketch(const Group& group, const StepContext& ctx,
                                 const SketchRequest& request, Sketch& out) const
{
    (void)ctx;
    const AgentArrays& a = group.agents;
    if (a.size() == 0)
        return;
    const FishSchoolParams& p = m_params;
    const float half = 0.5f * p.keepMinDistance;
    // Every school fish: half the keep distance (two circles overlap = too close); free fish:
    // the radius the player picks them up in.
    if (sketch::visibleAgents(a, request, p.pickRadius, 1) <= request.maxAgentCircles) {
        for (std::size_t i = 1; i < a.size(); ++i) {
            const Vec2 at{a.px[i], a.py[i]};
            if (!request.visible(at, p.pickRadius))
                continue;
            const std::uint8_t flags = a.flags[i];
            if (!(flags & kAgentInSchool)) {
                out.circles.push_back(
                    {at, p.pickRadius, {SketchTone::Faint, SketchStroke::Dotted}});
                continue;
            }
            const SketchTone tone = (flags & kAgentMakingRoom)  ? SketchTone::Warm
                                    : (flags & kAgentClosingUp) ? SketchTone::Cool
                                                                : SketchTone::Faint;
            out.circles.push_back({at, half, {tone}});
        }
    }

    // Around agent 0 (the player fish when it leads): the neighbour radius and the band.
    const Vec2 focus{a.px[0], a.py[0]};
    if (!request.visible(focus, p.neighborRadius))
        return;
    out.rings.push_back({focus,
                         p.keepMinDistance,
                         p.keepMaxDistance,
                         {SketchTone::Good, SketchStroke::Solid, 1.0f, 160, true, 45}});
    out.circles.push_back({focus, p.neighborRadius, {SketchTone::Reference, SketchStroke::Dashed}});
    if (p.neighborRadius * request.pixelsPerMetre >= 40.0f) {
        const auto& specs = fishSchoolParamSpecs();
        out.labels.push_back(
            {focus + Vec2{p.neighborRadius, p.neighborRadius} * 0.7071f,
             "neighbours " + sketch::authored(group, specs, "neighborRadius") + " m",
             SketchTone::Reference});
        out.labels.push_back({focus + Vec2{p.keepMaxDistance, 0.0f},
                              "band " + sketch::authored(group, specs, "keepMinDistance") + "-" +
                                  sketch::authored(group, specs, "keepMaxDistance") + " m",
                              SketchTone::Good});
    }
}

const char* FishSchoolBehaviour::agentState(const Group& group, std::size_t i) const
{
    const std::uint8_t flags = group.agents.flags[i];
    if (group.playerLed && i == 0)
        return "player";
    if (!(flags & kAgentInSchool))
        return "free";
    if (flags & kAgentMakingRoom)
        return "making room";
    if (flags & kAgentClosingUp)
        return "closing up";
    return Behaviour::agentState(group, i);
}

} // namespace shoal
