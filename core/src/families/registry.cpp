// The registry of the five behaviour families: the one place that knows them all. It maps a
// BehaviourKind to the family's parameter table, its cross-parameter rules, its overlay entry
// and a new instance; everything else (files, the world, the CLI, the editor) goes through
// these functions, so adding a family touches this file and the family's own folder.

#include "families/fishschool/fishschool.h"
#include "families/leaderfollow/leaderfollow.h"
#include "families/swarm/swarm.h"
#include "families/tanksquad/tanksquad.h"
#include "families/worm/worm.h"
#include "world/behaviour.h"
#include <shoal/paramspec.h>

namespace shoal {

const std::vector<ParamSpec>& paramSpecs(BehaviourKind kind)
{
    switch (kind) {
    case BehaviourKind::FishSchool:
        return fishSchoolParamSpecs();
    case BehaviourKind::TankSquad:
        return tankSquadParamSpecs();
    case BehaviourKind::Swarm:
        return swarmParamSpecs();
    case BehaviourKind::LeaderFollow:
        return leaderFollowParamSpecs();
    case BehaviourKind::Worm:
        return wormParamSpecs();
    }
    return fishSchoolParamSpecs();
}

std::optional<Error> checkParamRelations(BehaviourKind kind, const ParamValues& values)
{
    switch (kind) {
    case BehaviourKind::FishSchool:
        return checkFishSchoolRelations(values);
    case BehaviourKind::TankSquad:
        return checkTankSquadRelations(values);
    case BehaviourKind::Swarm:
        return checkSwarmRelations(values);
    case BehaviourKind::LeaderFollow:
        return checkLeaderFollowRelations(values);
    case BehaviourKind::Worm:
        return checkWormRelations(values);
    }
    return std::nullopt;
}

const FamilyView& familyView(BehaviourKind kind)
{
    switch (kind) {
    case BehaviourKind::FishSchool:
        return fishSchoolView();
    case BehaviourKind::TankSquad:
        return tankSquadView();
    case BehaviourKind::Swarm:
        return swarmView();
    case BehaviourKind::LeaderFollow:
        return leaderFollowView();
    case BehaviourKind::Worm:
        return wormView();
    }
    return fishSchoolView();
}

std::unique_ptr<Behaviour> makeBehaviour(BehaviourKind kind)
{
    std::unique_ptr<Behaviour> behaviour;
    switch (kind) {
    case BehaviourKind::FishSchool:
        behaviour = std::make_unique<FishSchoolBehaviour>();
        break;
    case BehaviourKind::TankSquad:
        behaviour = std::make_unique<TankSquadBehaviour>();
        break;
    case BehaviourKind::Swarm:
        behaviour = std::make_unique<SwarmBehaviour>();
        break;
    case BehaviourKind::LeaderFollow:
        behaviour = std::make_unique<LeaderFollowBehaviour>();
        break;
    case BehaviourKind::Worm:
        behaviour = std::make_unique<WormBehaviour>();
        break;
    }
    behaviour->setParams(defaultParamValues(paramSpecs(kind)));
    return behaviour;
}

} // namespace shoal
