#pragma once
/// The five behaviour families, and their stable names in scene files and on the command line.

#include <array>
#include <optional>
#include <string_view>

namespace shoal {

enum class BehaviourKind
{
    FishSchool,   ///< seed 000: a player fish picks up free fish that school around it
    TankSquad,    ///< seed 001: a squad drives to a shared target and comes to rest
    Swarm,        ///< seed 003: enemies seek the player and scatter by (R - d)
    LeaderFollow, ///< seed 004: followers arrive behind a wandering leader
    Worm,         ///< seed 002: segmented worms with mitred joints, steered at joints
};

constexpr std::array<BehaviourKind, 5> kAllBehaviourKinds = {
    BehaviourKind::FishSchool, BehaviourKind::TankSquad, BehaviourKind::Swarm,
    BehaviourKind::LeaderFollow, BehaviourKind::Worm};

/// File and CLI key: "fishSchool", "tankSquad", "swarm", "leaderFollow", "worm".
constexpr std::string_view behaviourKey(BehaviourKind kind)
{
    switch (kind) {
    case BehaviourKind::FishSchool:
        return "fishSchool";
    case BehaviourKind::TankSquad:
        return "tankSquad";
    case BehaviourKind::Swarm:
        return "swarm";
    case BehaviourKind::LeaderFollow:
        return "leaderFollow";
    case BehaviourKind::Worm:
        return "worm";
    }
    return "fishSchool";
}

/// Human-readable name for menus and summaries.
constexpr std::string_view behaviourLabel(BehaviourKind kind)
{
    switch (kind) {
    case BehaviourKind::FishSchool:
        return "Fish school";
    case BehaviourKind::TankSquad:
        return "Tank squad";
    case BehaviourKind::Swarm:
        return "Swarm";
    case BehaviourKind::LeaderFollow:
        return "Leader following";
    case BehaviourKind::Worm:
        return "Worm";
    }
    return "";
}

inline std::optional<BehaviourKind> behaviourFromKey(std::string_view key)
{
    for (BehaviourKind kind : kAllBehaviourKinds)
        if (behaviourKey(kind) == key)
            return kind;
    return std::nullopt;
}

} // namespace shoal
