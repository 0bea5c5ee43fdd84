#include "behaviour.h"

#include "fishschool.h"
#include "leaderfollow.h"
#include "swarm.h"
#include "tanksquad.h"
#include "worm.h"

namespace shoal {

void Behaviour::spawn(Group& group, const GroupDesc& desc, Random& random,
                      const StaticGeometry& geometry)
{
    const float radius = bodyRadius();
    std::size_t count = desc.agents.size() + (desc.spawn ? static_cast<std::size_t>(desc.spawn->count) : 0);
    group.agents.resize(0);
    group.agents.resize(count);
    std::size_t n = 0;
    auto place = [&](Vec2 p, float heading) {
        group.agents.px[n] = p.x;
        group.agents.py[n] = p.y;
        group.agents.heading[n] = heading;
        ++n;
    };
    for (const AgentDesc& agent : desc.agents)
        place({static_cast<float>(agent.position.x), static_cast<float>(agent.position.y)},
              degToRad(static_cast<float>(agent.heading)));
    if (desc.spawn) {
        const Rect& area = desc.spawn->area;
        for (int k = 0; k < desc.spawn->count; ++k) {
            // Rejection sampling against obstacles; a spawn area mostly covered by solid
            // geometry ends up with fewer agents rather than agents inside walls.
            for (int attempt = 0; attempt < 256; ++attempt) {
                const Vec2 p{random.uniform(static_cast<float>(area.min.x), static_cast<float>(area.max.x)),
                             random.uniform(static_cast<float>(area.min.y), static_cast<float>(area.max.y))};
                const float heading = random.uniform(-kPi, kPi);
                if (!geometry.isInsideSolid(p, radius)) {
                    place(p, heading);
                    break;
                }
            }
        }
    }
    group.agents.resize(n);
}

std::unique_ptr<Behaviour> makeBehaviour(BehaviourKind kind)
{
    std::unique_ptr<Behaviour> behaviour;
    switch (kind) {
    case BehaviourKind::FishSchool: behaviour = std::make_unique<FishSchoolBehaviour>(); break;
    case BehaviourKind::TankSquad: behaviour = std::make_unique<TankSquadBehaviour>(); break;
    case BehaviourKind::Swarm: behaviour = std::make_unique<SwarmBehaviour>(); break;
    case BehaviourKind::LeaderFollow: behaviour = std::make_unique<LeaderFollowBehaviour>(); break;
    case BehaviourKind::Worm: behaviour = std::make_unique<WormBehaviour>(); break;
    }
    behaviour->setParams(defaultParamValues(paramSpecs(kind)));
    return behaviour;
}

} // namespace shoal
