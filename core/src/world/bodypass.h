#pragma once
/// Bodies are solid against each other, across groups: after every group has planned, one
/// pass over all agents (one grid for all groups) pushes overlapping bodies apart, as each
/// group's CollisionDesc says (layers, mask, priority). The player is a body too, pushed by
/// nobody but a body that cannot move (see Holding). Walls always win: every round keeps the
/// pushed bodies clear of the walls (StaticGeometry::keepClear), and a body a wall holds is
/// "pinned" for the next round: the bodies pressing on it give way instead, whatever their
/// priority, so a crowd against a wall resolves from the wall outward instead of pressing its
/// first row into it. The world keeps every body clear of the walls once more as it commits.
///
/// Order independence: every push is computed from the planned positions alone (a Jacobi
/// step, not one body after another), and the pushes on a body are summed in fixed point, so
/// the result is the same whatever the order of agents, groups or grid cells.

#include "kernels/uniformgrid.h"
#include "parallel/workerpool.h"
#include "world/behaviour.h"
#include "world/blocklevels.h"
#include <shoal/scenedesc.h>
#include <shoal/vec2.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace shoal {

class StaticGeometry;

/// One group as the pass sees it.
struct BodyGroupRule
{
    float radius = 0.0f;
    CollisionDesc collision;
    /// The group's agents follow paths the family keeps (worm heads): never moved, and every
    /// body they meet gives way to them, whatever its priority.
    bool fixed = false;
};

/// How firmly a body holds its place in BodyPass::run(), weakest first. A body that holds
/// still gives way to a firmer one, and the player also to a body that cannot move (held by
/// a wall or squeezed): otherwise a body between two that hold, or between the player and a
/// wall, could never get out.
enum Holding : std::uint8_t
{
    kMoves = 0,   ///< pushed as the collision rules say
    kHoldsPlace,  ///< a free fish, tethered to its spot: gives way only to the firmer
    kSteered,     ///< the player: goes where it is steered, and stops at what cannot move
    kFollowsPath, ///< a worm head: never moved (its body is its path); its family keeps it
                  ///< off other bodies
};

class BodyPass
{
public:
    /// One per group, in group order; the world refreshes them before each step.
    std::vector<BodyGroupRule> rules;

    /// Rounds of pushes per step, at most: they stop once no overlap is deeper than 2 mm.
    /// One resolves a pair; a crowd pressed on a wall is parted a row of bodies a round
    /// (m_level), so a crowd many rows deep that its families keep pressing needs dozens.
    static constexpr int kRounds = 64;
    /// Rounds per settling pass of a new world (what kSettleBudget counts).
    static constexpr int kSettleRounds = 16;
    /// Passes when a world is built: spawn areas asked to hold many bodies start them
    /// overlapping, and they are parted before the first step.
    static constexpr int kSettlePasses = 32;
    /// Contacts times rounds the settling passes of a new world may spend in all: a crowd
    /// too dense to part stops there (every level that can be parted settles long before).
    static constexpr std::size_t kSettleBudget = 8000000;
    /// The pairs the last run() followed.
    std::size_t contactCount() const { return m_contacts.size(); }
    /// The step's threads (null: this one only), for the passes over every body, and about
    /// how many bodies a block of their work holds (the world's part size: tests cut finer).
    void setPool(WorkerPool* pool, std::size_t blockBodies)
    {
        m_pool = pool;
        m_blockBodies = static_cast<std::uint32_t>(blockBodies > 0 ? blockBodies : 1);
    }

    /// Which bodies hold their ground in run(): every fixed one (a step), or only the
    /// player and groups that keep their own bodies (settling a new world: free fish are
    /// parted too, and wait where they settle).
    enum class Hold
    {
        AllFixed,
        OnlyFixedGroups
    };

    /// Pushes the planned positions (agents.nx, ny) of every group apart. `rules[g]` belongs
    /// to groups[g]. A player that leads no group is the body at `player` (radius
    /// `playerRadius`, none when `hasPlayer` is false); agent 0 of a player-led group is
    /// fixed. `startGrid`, when given, is a grid of where the step began whose first bodies
    /// are its points in order (a lone group's own grid): contacts are found in it (or in the
    /// index, when it holds these bodies) instead of a grid built for the plans. Returns how
    /// many bodies were moved; `moved`, when given (one per agent of every group, in group
    /// order), is set to 1 for each of them and left alone for the others.
    std::size_t run(std::vector<std::unique_ptr<Group>>& groups,
                    const std::vector<BodyGroupRule>& rules, bool hasPlayer, Vec2 player,
                    float playerRadius, const StaticGeometry& geometry, float dt,
                    int rounds = kRounds, const UniformGrid* startGrid = nullptr,
                    Hold hold = Hold::AllFixed, std::uint8_t* moved = nullptr);

    /// Where run() left the lone player (a player that leads no group; run() had hasPlayer):
    /// it gives way to bodies that cannot move, as a led player's agent 0 does in its group.
    /// Nothing when the last run() had nothing to push and gathered no bodies.
    std::optional<Vec2> lonePlayerAt() const
    {
        if (!m_gathered || m_x.empty())
            return std::nullopt;
        return Vec2{m_x.back(), m_y.back()};
    }

    /// After a commit (and at build): indexes every body where it now is, for measure() and
    /// for the families' next plan (othersNear()). `committedMoved`, right after a step's
    /// run() and its commit with no agent reordered since: one flag per body of the groups,
    /// set for those the commit may have moved after the pass (the others are where the pass
    /// left them, so only these are read again).
    /// What the next step reads of the last one (World::snapshot()): the rules as the last
    /// step ran them and which bodies its pass left squeezed (body numbers in group order).
    void saveCarried(StateWriter& out) const;
    /// Reads them back: the rules at once, the squeezed bodies into `squeezed`, for
    /// setSqueezed() once index() has gathered the same bodies (an index clears them).
    bool loadCarried(StateReader& in, std::vector<std::uint32_t>& squeezed);
    void setSqueezed(const std::vector<std::uint32_t>& squeezed);
    void index(std::vector<std::unique_ptr<Group>>& groups, bool hasPlayer, Vec2 player,
               float playerRadius, const std::uint8_t* committedMoved = nullptr);
    /// Where the lone player is (a player that leads no group), each step: in a world of one
    /// group the families see it through othersNear() without an index.
    void notePlayer(bool lone, Vec2 at, float radius);
    /// Whether index() ran since the last run() (which reuses the arrays).
    bool indexed() const { return m_indexed; }
    /// What othersNear() would read first (StepContext::bodyGlance).
    BodyGlance glance() const;

    /// What a body of group `group` at p (radius `radius`, heading `forward`) sees of the
    /// bodies of other groups it gives way to (its mask has their layer, their priority is
    /// not below its own): `away`, the sum of unit vectors away from those within its own
    /// radius of touching, each weighted by how near (1 when touching); `gapAhead`, the room
    /// to the nearest of them within 60 degrees of `forward` (surface to surface, at most
    /// `look`), and `firmAhead`, to the nearest of those that cannot make way. Families add `away`
    /// to their separation, so bodies steer round each other rather than only being pushed. Reads
    /// the index.
    OtherBodies othersNear(int group, Vec2 p, float radius, Vec2 forward, float look) const;
    /// The bodies of other groups (and the lone player) that a body of group `group` at p
    /// (radius `radius`) meets (either's mask has the other's layer), with a gap to it below
    /// `reach`: up to `capacity` of them into `out`, nearest first. Returns how many. Reads
    /// the index (bodiesnear.cpp).
    int bodiesNear(int group, Vec2 p, float radius, float reach, NearBody* out, int capacity) const;

    /// What a user would notice of the bodies after a step, into each group's metrics:
    /// overlaps within the group and with other groups' bodies (pairs that collide, deeper
    /// than kPenetrationTolerance), how long each body has been overlapping without a break
    /// (the longest per group), and body-wall overlaps. Reads the index.
    void measure(std::vector<std::unique_ptr<Group>>& groups, const StaticGeometry& geometry,
                 float dt);

    std::size_t memoryBytes() const;
    /// Lets go of the rounds' state beyond what the last run kept: a new world's settling
    /// passes may involve every body at once, a step a few thousand.
    void releaseRoundState();

private:
    /// Pairs nearer than touching plus this fraction of the first body's radius are followed
    /// through the rounds (a round's pushes move a body by at most an overlap; pairs that
    /// more rounds bring together are added late, see addLateContacts).
    static constexpr float kContactMargin = 0.25f;
    /// A body planned this near a wall (m) counts as held by it.
    static constexpr float kTouching = 0.02f;
    /// m_pinned: held by a wall (it may still slide along it), or squeezed among bodies a
    /// round could not part it from (it cannot move at all). A boolean true is kWallPin.
    static constexpr std::uint8_t kWallPin = 1;
    static constexpr std::uint8_t kSqueezedPin = 2;
    /// m_level of a body no chain of overlaps links to a support.
    static constexpr std::uint16_t kUnsupported = 0xFFFF;
    /// The level a body starts the rounds at: 0 when held by a wall or holding its place.
    std::uint16_t startLevel(std::uint32_t b) const
    {
        return m_fixed[b] != kMoves || m_pinned[b] ? 0 : kUnsupported;
    }

    /// Which positions gatherBodies reads.
    enum class Positions
    {
        Planned,
        Committed
    };
    /// index(): the bodies the step's run() gathered, where they committed (see index).
    void takeCommitted(const std::vector<std::unique_ptr<Group>>& groups, bool hasPlayer,
                       Vec2 player, const std::uint8_t* committedMoved);
    void gatherBodies(std::vector<std::unique_ptr<Group>>& groups,
                      const std::vector<BodyGroupRule>& rules, bool hasPlayer, Vec2 player,
                      float playerRadius, Positions positions, Hold hold = Hold::AllFixed);
    float maxRadius() const;
    float minRadius() const;
    /// index(): the block map's origin, block size, columns and rows for bodies in the box
    /// (lowest, highest) indexed in cells `cellWidth` wide; returns how many blocks.
    std::size_t planBlocks(Vec2 lowest, Vec2 highest, float cellWidth);
    /// index(): every body's rule into the lowest and highest of its block (blocks of
    /// 1 / `inverse` metres).
    void markBlocks(float inverse);
    /// The index's block map as glance() hands it out (the rest left as a BodyGlance starts),
    /// kept up to date by index(): othersNear reads it without building a glance per body.
    const BodyGlance& blocksGlance() const { return m_blocksGlance; }
    /// Whether the index's blocks within `reach` of p may hold a body of a group but
    /// `group`: false only when none does; true when one does, and now and then for one in
    /// a block just past the reach (the caller measures the bodies it finds anyway).
    bool othersInBlocks(int group, Vec2 p, float reach) const;
    float radiusOf(std::size_t b) const { return m_ruleRadius[m_rule[b]]; }
    /// Forgets the squeezed marks (m_squeezedAfter, m_squeezedList) and sizes the marks for
    /// `bodies` bodies.
    void clearSqueezed(std::size_t bodies);
    /// Where body b began the step, and its group and stable id (ties between bodies).
    Vec2 fromOf(std::size_t b) const;
    std::uint64_t keyOf(std::size_t b) const;
    /// measure(): the deepest overlap of body i with any body it collides with, tallying
    /// each pair once into the groups' penetration counts.
    float deepestOverlap(std::uint32_t i, float reach, std::vector<std::unique_ptr<Group>>& groups,
                         const StaticGeometry& geometry);
    /// Whether a wall or obstacle lies between two centres (then the bodies do not touch).
    static bool wallBetween(const StaticGeometry& geometry, Vec2 a, Vec2 b);
    /// bodywalls.cpp: what the pass asks of the walls, answered from the clearances the plans
    /// looked up where the step began when those prove it (the level's clearance grid is too
    /// big to stay in cache: a look-up there per pair and round missed it every time).
    /// gatherBodies(), planned: group g's start places and clearances, when its plan left
    /// them this step, and the bounds of its bodies [begin, end) (m_clearLow; -1 when it did
    /// not).
    void noteStartClearances(std::size_t g, const Group& group, std::size_t begin, std::size_t end);
    /// A lower bound of the distance from body b, where it is now, to any geometry: its
    /// plan's clearance where the step began, less how far it is from there; negative when
    /// no plan told.
    float clearLow(std::uint32_t b) const;
    /// Whether keepClear of involved body b from where it began the step to `pushed` would
    /// leave `pushed` as it is, as its bound proves (false when it cannot tell).
    bool pushStaysClear(std::uint32_t b, Vec2 pushed) const;
    /// StaticGeometry::clearance(from) for `from` = fromOf(b): the plan's, when it told.
    float clearanceFrom(std::uint32_t b, Vec2 from) const;
    /// wallBetween() for bodies i and j where they are now.
    bool wallBetweenBodies(std::uint32_t i, std::uint32_t j) const;
    /// Whether body b, where it is now, is within kTouching of a wall (it starts pinned).
    bool heldByWall(std::uint32_t b) const;
    /// The pairs of bodies near enough to meet this step, each once, from `grid` of where
    /// the step began (its first `covered` bodies; none moved more than maxMove).
    void findContacts(const UniformGrid& grid, std::size_t covered, float maxMove);
    /// findContacts: m_lonely[b] is set for each body no other can come near enough to
    /// touch this step, as the plans tell (bodyalone.cpp); false when no plan told.
    bool markLonely(float maxRadius);
    /// A pair of bodies, and where each is in m_involved (and m_rounds): set once the pair
    /// is listed (addContact, addLateContacts).
    struct Contact
    {
        std::uint32_t a, b;
        std::uint32_t roundA = 0, roundB = 0;
    };
    /// Whether bodies i and j may push each other: one would give way to the other, and no
    /// wall is between them.
    bool mayMeet(std::uint32_t i, std::uint32_t j) const;
    /// Lists the pair of bodies i and j, and each as involved.
    void addContact(std::uint32_t i, std::uint32_t j);
    /// Lists body b as involved unless it is; returns its place in m_involved.
    std::uint32_t involve(std::uint32_t b);
    /// findContacts: lists the pair of bodies i and j if they mayMeet().
    void noteContact(std::uint32_t i, std::uint32_t j);
    /// findContacts, off its hot loop: the lanes `bits` of the slots from `slot` passed the
    /// lane test against the body in slot k (exact for a grid of one radius, else loose);
    /// the pairs near enough that mayMeet() go into `found`.
    SHOAL_NEVER_INLINE void noteNearLanes(const UniformGrid& grid, std::uint32_t k,
                                          std::uint32_t slot, int bits, float maxRadius,
                                          std::vector<Contact>& found) const;
    /// findContacts: scan(firstRow, endRow, found, awake) for every block of rows
    /// (m_rowBlocks), on the step's threads when there are several, each block into its
    /// m_blockContacts (with its m_blockAwake for scratch).
    template <class Scan> void scanBlocks(std::size_t blocks, Scan&& scan);
    /// Bodies in contact that their plan puts against a wall start the rounds pinned (and
    /// where each starts them is noted, for addLateContacts).
    void pinContacts();
    /// After each round: the pushes, carried through many rounds, can take a body further
    /// than the margin its contacts were found with (a crowd parted from a wall moves a row
    /// a round; a swarm agent shoved by a tank into its neighbour). The bodies the round
    /// took more than m_shoveSlack from where their contacts were last looked for
    /// (m_shoved) look again, from the same grid, and the pairs nearer than touching plus
    /// twice that are added (bodycontacts.cpp): a pair the list did not hold is listed the
    /// round its bodies come near, not after all the rounds. Whether any was.
    bool addLateContacts(const UniformGrid& grid, std::size_t covered, float maxMove);
    /// addLateContacts: whether findContacts listed the pair (its test, from where the rounds
    /// began), or an earlier addLateContacts did.
    bool listedAtStart(std::uint32_t i, std::uint32_t j, std::size_t covered) const;
    bool listedLate(std::uint32_t i, std::uint32_t j) const;
    /// pushRound, for each body it moved: into `shoved` when it went further than
    /// m_shoveSlack from where its contacts were last looked for; `furthest2` kept.
    void noteShoved(std::uint32_t b, std::vector<std::uint32_t>& shoved, float& furthest2);
    static std::size_t bodyCount(const std::vector<std::unique_ptr<Group>>& groups, bool hasPlayer);
    /// Whether any body of these groups may give way to another (else no round would move
    /// anything): some group that is not fixed has in its mask a layer some body is on.
    static bool someMayGiveWay(const std::vector<std::unique_ptr<Group>>& groups,
                               const std::vector<BodyGroupRule>& rules, bool hasPlayer);
    /// Whether body `held`, held by a wall, would move at least half of its overlap with
    /// body `from` if pushed straight away from it: along a wall, out of a corner. The player
    /// gives way to a held body only when it would not (it is pressed into its wall).
    bool slidesAway(std::uint32_t held, std::uint32_t from) const;
    /// Whether pinned body `held` cannot get out of the way of body `from` (the player):
    /// squeezed among bodies, or pressed into its wall (not slidesAway).
    bool cannotMakeWay(std::uint32_t held, std::uint32_t from) const;
    /// The part of the overlap of i with j that i takes (0, 1/2 or 1).
    float giveWay(std::uint32_t i, std::uint32_t j) const;
    /// Whether giveWay(i, j) can be above 0 in some round (whatever the pins and levels):
    /// findContacts lists only the pairs where one of the two may give way.
    bool mayGiveWay(std::uint32_t i, std::uint32_t j) const;
    /// After the rounds (bodyjams.cpp): a body they left overlapping another deeper than a
    /// user should see, that would overlap less where it began the step, goes back there
    /// (its plan is undone, and the step marks it blocked). Only a step's pass; returns how
    /// many went back.
    std::size_t undoJams();
    /// Whether undoJams may send body b back: one that moves, of a group, moved this step.
    bool mayUndo(std::uint32_t b) const;
    /// bodyrounds.cpp: one round over the contacts: the push on every body from the overlaps
    /// at the current positions, then the pushed bodies kept clear of the walls. False once
    /// settled.
    bool pushRound(const StaticGeometry& geometry, int round);
    /// pushRound's blocks of involved bodies (m_roundCut), cut when the rounds begin, and
    /// the contacts each block's bodies are in (m_blockPairs), the new ones added; how many
    /// blocks.
    std::size_t cutRoundBlocks();
    /// Runs job(block) for each of the rounds' blocks, on the step's threads when several.
    template <class Job> void runRoundBlocks(std::size_t blocks, Job&& job)
    {
        if (m_pool && blocks > 1)
            m_pool->run(blocks, [&](std::size_t block, int) { job(block); });
        else
            for (std::size_t block = 0; block < blocks; ++block)
                job(block);
    }
    /// pushRound, for the involved bodies of one block: their round state reset, then their
    /// side of each of their contacts summed; the block's deepest overlap.
    float pushBlock(std::size_t block, int round);
    /// pushRound, for the involved bodies of one block: stalls and levels, then (`walls`)
    /// each pushed body moved and kept clear of the walls.
    void settleBlock(std::size_t block, int round, bool walls, const StaticGeometry& geometry);

    // Every body, in group order (the player last), as structure of arrays.
    std::vector<float> m_x, m_y;
    std::vector<std::uint16_t> m_rule; ///< index into rules (the player: rules.size())
    std::vector<std::uint8_t> m_fixed; ///< how firmly it holds (Holding; kMoves = 0)
    /// Held, and by what (kWallPin, kSqueezedPin; 0: free): others give way to it.
    std::vector<std::uint8_t> m_pinned;
    /// Per body, in the order of the last pass (and of the index taken from it): 1 when that
    /// pass's rounds left it squeezed. m_squeezedList holds those set, to clear them.
    std::vector<std::uint8_t> m_squeezedAfter;
    std::vector<std::uint32_t> m_squeezedList;
    /// Contacts from the nearest support (a wall that holds it, or a body that holds its
    /// place), through bodies it overlaps; kUnsupported when none leads to one. Of two
    /// overlapping bodies the one further from its support gives way (giveWay), so a crowd
    /// pressed on a wall or a fixed body is parted from the support outward, one contact a
    /// round, instead of each pair sharing its overlap and pushing the first row back in.
    std::vector<std::uint16_t> m_level;
    /// What the rounds keep of one involved body. The rounds touch a few thousand bodies of
    /// 100,000: kept in arrays of every body, each round's start missed the cache once per
    /// array and body; here a body's state is one half of a line, in m_involved's order.
    struct RoundBody
    {
        std::int64_t pushX = 0, pushY = 0; ///< this round's push, fixed point
        float squeeze = 0.0f;              ///< this round's deepest overlap it gave way in
        float lastSqueeze = 0.0f;          ///< the round before's
        std::uint16_t pushes = 0;          ///< this round's overlaps it gave way in
        /// The least level its overlaps lead it to this round (from the last round's levels;
        /// kUnsupported: none); its level becomes the lesser of the two.
        std::uint16_t nextLevel = kUnsupported;
        std::uint8_t stalls = 0; ///< rounds in a row its overlap did not shrink
    };
    std::vector<RoundBody> m_rounds; ///< per involved body, as m_involved
    /// pushRound's blocks: the first place in m_involved of each (the count last). A body's
    /// state is written by its block alone, and each block reads every contact its bodies
    /// are in (a contact across two blocks is worked out by both, each taking its own side),
    /// so the blocks run on the threads without locks; the pushes are summed in fixed point
    /// and the rest are minima and maxima, so any cut gives the same bits.
    std::vector<std::uint32_t> m_roundCut;
    std::vector<std::vector<std::uint32_t>> m_blockPairs; ///< per block: its contacts' indices
    std::size_t m_cutContacts = 0;                        ///< the contacts in m_blockPairs
    std::vector<float> m_blockDeepest;                    ///< per block, pushBlock's answer
    /// Per block, the bodies shoved in a round in order (and after the rounds those left
    /// squeezed), and how many it moved.
    std::vector<std::vector<std::uint32_t>> m_blockShoved;
    std::vector<std::size_t> m_blockMoved;
    std::vector<float> m_blockFurthest; ///< per block, m_furthest2's part
    /// undoJams, per involved body as m_involved: its deepest overlap now, and if it went back.
    std::vector<float> m_jamNow, m_jamBack;
    std::vector<std::uint32_t> m_groupStart; ///< first body of each group, and the end
    /// Per group: where its bodies began the step and their clearance there, as its plan
    /// looked it up (noteStartClearances); null pointers when it did not.
    struct StartPlaces
    {
        const float* x = nullptr;
        const float* y = nullptr;
        const float* clearance = nullptr;
    };
    std::vector<StartPlaces> m_starts;
    /// Per body: a lower bound of its distance to any geometry where it was gathered (its
    /// plan), negative when no plan told (clearLow).
    std::vector<float> m_clearLow;
    bool m_roundsBegun = false;      ///< pinContacts ran: m_roundX holds the involved bodies' start
    std::vector<Contact> m_contacts; ///< this step's pairs near enough to meet
    /// findContacts: the first row of each block of rows (the row count last), and each
    /// block's pairs, before they are joined in order.
    std::vector<int> m_rowBlocks;
    std::vector<std::vector<Contact>> m_blockContacts;
    /// findContacts: each block's slots of the bodies that are not alone (its scratch).
    std::vector<std::vector<std::uint32_t>> m_blockAwake;
    std::vector<std::uint32_t> m_involved; ///< the bodies in them, each once
    /// Per body: its place in m_involved, for the bodies marked kMarkInvolved (the others'
    /// are stale).
    std::vector<std::uint32_t> m_roundSlot;
    std::vector<float> m_roundX, m_roundY; ///< where the involved bodies began the rounds
    /// Where each involved body's contacts were last looked for (findContacts, then
    /// addLateContacts).
    std::vector<float> m_searchX, m_searchY;
    std::vector<std::uint32_t> m_shoved; ///< moved beyond m_shoveSlack in the last round
    /// How far a body may go from where its contacts were last looked for before it looks
    /// again: half the contact margin of the smallest body, m (see addLateContacts).
    float m_shoveSlack = 0.0f;
    float m_furthest2 = 0.0f;        ///< the squared furthest any body has gone in the rounds
    float m_contactMaxRadius = 0.0f; ///< maxRadius() of the running pass
    std::size_t m_lateBegin = 0;     ///< the first contact addLateContacts added
    /// Per body: kMarkInvolved once in m_involved (0: not), with kMarkShoved while in
    /// m_shoved and kMarkLate once in a pair addLateContacts added.
    std::vector<std::uint8_t> m_mark;
    static constexpr std::uint8_t kMarkInvolved = 1;
    static constexpr std::uint8_t kMarkShoved = 2;
    static constexpr std::uint8_t kMarkLate = 4;
    std::vector<std::uint8_t> m_lonely; ///< scratch: body no other can touch (markLonely)
    /// The running pass is a step's (every group planned): the plans' notes are current.
    bool m_stepping = false;
    std::vector<float> m_slotX, m_slotY; ///< planned positions in the grid's slot order
    std::vector<float> m_slotRadius;     ///< radii in the grid's slot order (scratch)
    std::size_t m_indexCount = 0;        ///< bodies in the index
    bool m_lonePlayer = false;
    Vec2 m_playerAt;
    float m_playerRadius = 0.0f;
    std::vector<std::uint32_t> m_layers, m_mask;
    std::vector<int> m_priority;
    std::vector<float> m_ruleRadius;
    const std::vector<std::unique_ptr<Group>>* m_groups = nullptr; ///< the last gathered
    float m_maxMove = 0.0f;                     ///< the largest planned move of the last gather, m
    const StaticGeometry* m_geometry = nullptr; ///< of the running pass
    UniformGrid m_grid;
    /// Each slot's rule (its group; the lone player's past the last), as a float, in the
    /// index's slot order: othersNear drops the lanes of its own group in lanes instead of
    /// looking each body's rule up one at a time. Valid while m_slotRulesValid (from
    /// index() until the grid is built again for a run).
    std::vector<float> m_slotRule;
    bool m_slotRulesValid = false;
    bool m_indexed = false;
    bool m_gathered = false; ///< the last run() gathered the bodies (lonePlayerAt)
    /// The last run() was a step's and gathered its bodies, and nothing has gathered since:
    /// m_x, m_y hold where the pass left every body (index() takes them from there).
    bool m_stepGathered = false;
    // The index's coarse map: per block (row-major), the lowest and highest rule of its
    // bodies, and of its bodies and those of the eight blocks round it.
    std::vector<std::uint16_t> m_blockLow, m_blockHigh;
    std::vector<std::uint16_t> m_around; ///< the group round each block (BodyGlance)
    std::vector<std::uint16_t> m_acrossLow, m_acrossHigh; ///< scratch: along the rows only
    /// The same map in wider blocks, for wider reaches: built only while queries ask for
    /// them (m_coarserReady), as a world of 5,000 groups of followers, who look no further
    /// than a block, would pay a tenth of a millisecond a step for maps nobody reads.
    CoarserBlocks m_coarser;
    bool m_coarserReady = false;
    /// A query since the last index() reached further than a block: the next index builds
    /// the coarser maps. (Written by the plans' threads; a query that finds no coarser map
    /// reads the blocks, so no answer depends on it.)
    mutable std::atomic<bool> m_wideAsked{false};
    Vec2 m_blockOrigin;
    float m_blockSize = 4.0f;
    int m_blockCols = 0;
    int m_blockRows = 0;
    float m_indexRadius = 0.0f; ///< the largest radius in the index
    BodyGlance m_blocksGlance;  ///< the block map's part of glance(), from the last index()
    /// Per group, per agent id: how long the body has overlapped another without a break, s.
    std::vector<std::vector<float>> m_overlapTime;
    WorkerPool* m_pool = nullptr; ///< see setPool
    /// A group's bodies [begin, end): gatherBodies cuts the groups into spans of at most a
    /// part (cutGroupRanges), and the passes over every body that follow run in them.
    struct BodySpan
    {
        std::uint32_t group, begin, end;
    };
    std::vector<BodySpan> m_spans;
    std::vector<std::size_t> m_spanBlocks; ///< each block's first span; the count last
    std::vector<float> m_spanMove2;        ///< gatherBodies: each span's largest move, squared
    std::uint32_t m_blockBodies = 2048;    ///< see setPool
};

} // namespace shoal
