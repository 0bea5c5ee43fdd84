// The worm's head among other bodies: nobody moves a worm's head (its body is the path it
// took), so the worm keeps it off the bodies it meets itself, as it keeps it off walls.

#include "families/worm/worm.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

/// The head stops this far short of touching a body (m), so rounding never leaves it inside.
/// Not even a body that would give way is pressed: a head cannot back out of one that then
/// cannot (against a wall, in a crowd), as it turns no more than maxTurnAngle a joint.
constexpr float kBodySkin = 5e-3f;
/// A move this little toward a touched body's centre (per metre of offset) counts as along
/// it: a head gliding round a body is not stopped by rounding.
constexpr float kGlideSlack = 1e-4f;

} // namespace

void WormBehaviour::gatherNear(const Group& group, int w, Vec2 head, const StepContext& ctx,
                               NearBodies& near) const
{
    // Nothing to meet (a world of worms alone, crawling over each other): no query at all.
    near.count = 0;
    if (!ctx.bodies && !(group.collision.mask & group.collision.layers))
        return;
    // This step's leg and a bend's leg after it, and what the look-ahead feels.
    const float reach = lookAhead() + 2.0f * m_params.speed * ctx.dt;
    near.count = bodiesNear(ctx, group, static_cast<std::size_t>(w), head, 0.5f * m_params.width,
                            reach, near.at, kNearCapacity);
}

float WormBehaviour::bodyRun(const NearBodies& near, Vec2 from, Vec2 dir, float length,
                             RayHit* contact) const
{
    const float radius = 0.5f * m_params.width;
    float run = std::max(length, 0.0f);
    int first = -1;
    for (int k = 0; k < near.count; ++k) {
        const NearBody& body = near.at[k];
        const Vec2 offset = from - body.at;
        const float along = dot(offset, dir);
        // Away from its centre, or along it: the move never brings the two nearer.
        if (along >= -kGlideSlack * offset.length())
            continue;
        const float touch = radius + body.radius + kBodySkin;
        const float c = offset.lengthSquared() - touch * touch;
        float stop = 0.0f; // touching (or inside) already: no nearer
        if (c > 0.0f) {
            // The first point of the ray at `touch` from the centre, if the ray comes there.
            const float disc = along * along - c;
            if (disc <= 0.0f)
                continue;
            stop = std::max(0.0f, -along - std::sqrt(disc));
        }
        if (stop < run) {
            run = stop;
            first = k;
        }
    }
    if (contact && first >= 0) {
        const NearBody& body = near.at[first];
        const Vec2 normal = (from + dir * run - body.at).normalizedOr(-dir);
        contact->hit = true;
        contact->point = body.at + normal * body.radius;
        contact->normal = normal;
        contact->fraction = length > 0.0f ? run / length : 0.0f;
    }
    return run;
}

} // namespace shoal
