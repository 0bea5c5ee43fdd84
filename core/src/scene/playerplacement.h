#pragma once
/// Where the player may start: its body clear of every wall, obstacle and the level's edge.
/// A player placed on a wall would start inside it, and run's checks fail at step 0 on what
/// validate passed; so validateScene() refuses it, and the editor, which keeps its scene valid,
/// refuses the move (or the wall drawn over the player) with the same message.

#include <shoal/expected.h>
#include <shoal/scenedesc.h>

#include <optional>
#include <string>

namespace shoal {

/// The player's body as the runtime measures it: where it starts and its radius, that of the
/// group it leads (the player is that group's agent 0) or else the player's own.
struct PlayerBody
{
    Point2 at;
    double radius = 0.0;
    std::string whose; ///< "the player's radius" or "the radius of 'school', the group it leads"
    bool operator==(const PlayerBody& o) const
    {
        return at == o.at && radius == o.radius && whose == o.whose;
    }
};

/// The body of an enabled player; none for a disabled one, or one that leads a group the
/// scene does not have (refused elsewhere).
std::optional<PlayerBody> playerBody(const SceneDesc& scene);

/// Refuses a body that overlaps walls[index] (open or closed).
std::optional<Error> checkPlayerClearOfWall(const PlayerBody& body, const WallDesc& wall,
                                            std::size_t index);
/// Refuses a body that overlaps obstacles[index] or lies inside it.
std::optional<Error> checkPlayerClearOfObstacle(const PlayerBody& body,
                                                const ObstacleDesc& obstacle, std::size_t index);
/// Refuses a body that reaches past the bounds or overlaps any wall or obstacle: O(points).
std::optional<Error> checkPlayerPlacement(const SceneDesc& scene);

} // namespace shoal
