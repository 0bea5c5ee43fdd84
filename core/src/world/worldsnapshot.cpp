// World::snapshot() and restore(): the running state as bytes, and back, so that a restored
// world continues with the same hashes (replays, rollback, the editor's timeline).
//
// The bytes: a fixed header (magic, format version, byte order, what scene and level they
// belong to, the payload's length and checksum), the groups' kinds, then the payload: the
// world's own state, each group's state and its family's (Behaviour::saveState), and what the
// body pass carries from one step to the next. Grids and indexes are rebuilt from it.

#include <shoal/world.h>

#include <shoal/displaytext.h>

#include "geometry/staticgeometry.h"
#include "math/statehash.h"
#include "world/behaviour.h"
#include "world/bodypass.h"
#include "world/statebytes.h"

#include <cstring>
#include <string>

namespace shoal {

namespace {

constexpr char kMagic[8] = {'S', 'H', 'O', 'A', 'L', 'S', 'N', 'P'};
constexpr std::uint32_t kByteOrder = 0x01020304u;

/// The fixed start of a snapshot.
struct SnapshotHeader
{
    char magic[8];
    std::uint32_t version = 0;
    std::uint32_t byteOrder = 0;
    std::uint64_t sceneIdentity = 0;
    std::uint64_t levelIdentity = 0;
    std::uint32_t groupCount = 0;
    std::uint32_t reserved = 0;
    std::uint64_t payloadSize = 0; ///< bytes after the header (the kinds and the state)
    std::uint64_t checksum = 0;    ///< FNV-1a of those bytes
};
static_assert(sizeof(SnapshotHeader) == 56, "no padding in the header");

void hashString(std::uint64_t& h, const std::string& s)
{
    const std::uint64_t n = s.size();
    hashValue(h, n);
    hashBytes(h, s.data(), s.size());
}

void hashPoint(std::uint64_t& h, Point2 p)
{
    hashValue(h, p.x);
    hashValue(h, p.y);
}

Error snapshotError(const std::string& what)
{
    return Error{"snapshot: " + what};
}

void saveAgents(StateWriter& out, const AgentArrays& a)
{
    for (const std::vector<float>* v :
         {&a.px, &a.py, &a.vx, &a.vy, &a.heading, &a.speed, &a.stuckTime, &a.goalDistance, &a.nx,
          &a.ny, &a.nvx, &a.nvy, &a.nheading, &a.nspeed, &a.prevX, &a.prevY, &a.prevHeading})
        out.array(*v);
    out.array(a.flags);
    out.array(a.id);
}

bool loadAgents(StateReader& in, AgentArrays& a)
{
    for (std::vector<float>* v :
         {&a.px, &a.py, &a.vx, &a.vy, &a.heading, &a.speed, &a.stuckTime, &a.goalDistance, &a.nx,
          &a.ny, &a.nvx, &a.nvy, &a.nheading, &a.nspeed, &a.prevX, &a.prevY, &a.prevHeading})
        if (!in.array(*v))
            return false;
    if (!in.array(a.flags) || !in.array(a.id))
        return false;
    const std::size_t n = a.px.size();
    for (const std::vector<float>* v :
         {&a.py, &a.vx, &a.vy, &a.heading, &a.speed, &a.stuckTime, &a.goalDistance})
        if (v->size() != n)
            return false;
    return a.flags.size() == n && a.id.size() == n;
}

} // namespace

void World::noteSceneIdentity(const SceneDesc& scene)
{
    std::uint64_t h = kFnvOffset;
    hashValue(h, scene.simulation.seed);
    hashValue(h, scene.simulation.dt);
    const std::uint64_t groups = scene.groups.size();
    hashValue(h, groups);
    for (const GroupDesc& group : scene.groups) {
        hashString(h, group.name);
        hashValue(h, group.kind);
    }
    const std::uint64_t pickups = scene.pickups.size();
    hashValue(h, pickups);
    for (const PickupDesc& pickup : scene.pickups) {
        hashValue(h, pickup.kind);
        hashPoint(h, pickup.position);
    }
    hashValue(h, scene.player.enabled);
    hashString(h, scene.player.group);
    m_sceneIdentity = h;
}

void World::noteLevelIdentity(const SceneDesc& scene)
{
    std::uint64_t h = kFnvOffset;
    hashPoint(h, scene.bounds.min);
    hashPoint(h, scene.bounds.max);
    for (const WallDesc& wall : scene.walls) {
        hashValue(h, wall.closed);
        const std::uint64_t n = wall.points.size();
        hashValue(h, n);
        for (const Point2 p : wall.points)
            hashPoint(h, p);
    }
    for (const ObstacleDesc& obstacle : scene.obstacles) {
        hashValue(h, obstacle.shape);
        const std::uint64_t n = obstacle.points.size();
        hashValue(h, n);
        for (const Point2 p : obstacle.points)
            hashPoint(h, p);
        hashPoint(h, obstacle.center);
        hashValue(h, obstacle.radius);
    }
    m_levelIdentity = h;
}

std::vector<std::uint8_t> World::snapshot() const
{
    std::vector<std::uint8_t> bytes(sizeof(SnapshotHeader));
    StateWriter out(bytes);
    for (const auto& group : m_groups)
        out.value(static_cast<std::uint8_t>(group->kind));

    out.value(m_step);
    out.value(m_frameTime);
    out.value(m_pointer.position);
    out.flag(m_pointer.pressed);
    out.value(m_player);
    out.array(m_playerValues);
    out.flag(m_keepPrevious);
    out.value(m_playerPrevious);
    out.flag(m_indexesDirty);
    out.array(m_pickups);
    for (const auto& group : m_groups) {
        out.array(group->values);
        out.value(group->collision);
        out.value(group->target);
        out.flag(group->hasTarget);
        out.value(group->targetVersion);
        out.value(group->chaseGroup);
        out.flag(group->playerLed);
        out.value(group->nextId);
        saveAgents(out, group->agents);
        out.array(group->indexOfId);
        group->behaviour->saveState(out);
    }
    m_bodies->saveCarried(out);

    SnapshotHeader header;
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.version = kSnapshotVersion;
    header.byteOrder = kByteOrder;
    header.sceneIdentity = m_sceneIdentity;
    header.levelIdentity = m_levelIdentity;
    header.groupCount = static_cast<std::uint32_t>(m_groups.size());
    header.payloadSize = bytes.size() - sizeof(SnapshotHeader);
    std::uint64_t checksum = kFnvOffset;
    hashBytes(checksum, bytes.data() + sizeof(SnapshotHeader), header.payloadSize);
    header.checksum = checksum;
    std::memcpy(bytes.data(), &header, sizeof header);
    return bytes;
}

std::optional<Error> World::restore(const std::uint8_t* data, std::size_t size)
{
    // Everything that can be told from the header, the checksum and the kinds is checked
    // before anything changes.
    if (!data || size < sizeof kMagic || std::memcmp(data, kMagic, sizeof kMagic) != 0)
        return snapshotError("not a Shoal snapshot (it does not begin with 'SHOALSNP')");
    SnapshotHeader header;
    if (size < sizeof header)
        return snapshotError("cut short: " + std::to_string(size) + " bytes, less than its " +
                             std::to_string(sizeof header) + "-byte header");
    std::memcpy(&header, data, sizeof header);
    if (header.version > kSnapshotVersion)
        return snapshotError("format version " + std::to_string(header.version) +
                             " is newer than this runtime reads (" +
                             std::to_string(kSnapshotVersion) +
                             "); restore it with the Shoal version that wrote it");
    if (header.version < kOldestSnapshotVersion)
        return snapshotError("format version " + std::to_string(header.version) +
                             " is unknown (this runtime reads " +
                             std::to_string(kOldestSnapshotVersion) + " to " +
                             std::to_string(kSnapshotVersion) + ")");
    if (header.byteOrder != kByteOrder)
        return snapshotError("written on a machine of the other byte order; a snapshot is "
                             "restored on the kind of machine that took it");
    const std::size_t payload = size - sizeof header;
    if (header.payloadSize != payload)
        return snapshotError(
            header.payloadSize > payload
                ? "cut short: " + std::to_string(payload) + " of its " +
                      std::to_string(header.payloadSize) + " bytes of state are there"
                : std::to_string(payload - header.payloadSize) + " bytes more than the " +
                      std::to_string(header.payloadSize) + " bytes of state it says it holds");
    std::uint64_t checksum = kFnvOffset;
    hashBytes(checksum, data + sizeof header, payload);
    if (checksum != header.checksum)
        return snapshotError("damaged: its checksum does not match its bytes");
    if (header.groupCount != m_groups.size())
        return snapshotError("belongs to another scene: it has " +
                             std::to_string(header.groupCount) + " groups, this world " +
                             std::to_string(m_groups.size()));
    if (payload < m_groups.size())
        return snapshotError("cut short: it has no kinds for its groups");
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        const auto kind = static_cast<BehaviourKind>(data[sizeof header + g]);
        if (kind != m_groups[g]->kind)
            return snapshotError(
                "belongs to another scene: its group " + std::to_string(g) + " is a " +
                (static_cast<int>(kind) < 5 ? std::string(behaviourKey(kind)) : "(unknown)") +
                " group, this world's " + quotedName(m_groups[g]->name) + " a " +
                std::string(behaviourKey(m_groups[g]->kind)));
    }
    if (header.sceneIdentity != m_sceneIdentity)
        return snapshotError("belongs to another scene: its groups' names, pickups, player, "
                             "seed or dt differ from this world's");
    if (header.levelIdentity != m_levelIdentity)
        return snapshotError("was taken over another level: its bounds, walls or obstacles "
                             "differ from this world's");

    // Should the state itself not read back (which the checksum makes a bug, not bad
    // input), the world is put back as it was.
    const std::vector<std::uint8_t> before = snapshot();
    StateReader in(data + sizeof header + m_groups.size(), payload - m_groups.size(),
                   header.version);
    bool ok = in.value(m_step) && in.value(m_frameTime) && in.value(m_pointer.position) &&
              in.flag(m_pointer.pressed) && in.value(m_player) && in.array(m_playerValues) &&
              in.flag(m_keepPrevious) && in.value(m_playerPrevious);
    bool indexesDirty = false;
    ok = ok && in.flag(indexesDirty) && in.array(m_pickups);
    for (std::size_t g = 0; ok && g < m_groups.size(); ++g) {
        Group& group = *m_groups[g];
        ok = in.array(group.values) && in.value(group.collision) && in.value(group.target) &&
             in.flag(group.hasTarget) && in.value(group.targetVersion) &&
             in.value(group.chaseGroup) && in.flag(group.playerLed) && in.value(group.nextId) &&
             loadAgents(in, group.agents) && in.array(group.indexOfId);
        if (ok)
            group.behaviour->setParams(group.values);
        ok = ok && group.behaviour->loadState(in, *m_geometry);
    }
    std::vector<std::uint32_t> squeezed;
    ok = ok && m_bodies->loadCarried(in, squeezed) && in.remaining() == 0;
    if (!ok) {
        const bool back = !restore(before.data(), before.size());
        (void)back;
        return snapshotError("its state does not read back as this runtime writes it");
    }
    // The grids and the body index as the step that made the state left them (in the order
    // stored: no reshuffle now), and the bodies that step's pass left squeezed.
    rebuildIndexes(nullptr, false);
    m_bodies->setSqueezed(squeezed);
    m_indexesDirty = indexesDirty;
    m_events.clear(); // they told of steps this world no longer comes from
    return std::nullopt;
}

} // namespace shoal
