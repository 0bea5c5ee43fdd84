#include "simulation/overlayoptions.h"

namespace shoal::ui {

OverlayOptions::OverlayOptions(QObject* parent) : QObject(parent) {}

const QList<OverlayOptions::Entry>& OverlayOptions::entries()
{
    static const QList<Entry> list = {
        {Overlay::FishBand, QStringLiteral("fishBand"),
         tr("Neighbour Radius and Keep Band (Fish)"),
         tr("Around the player fish: the neighbour radius and the keep band. Around every "
            "school fish: half the keep distance, orange while it makes room, blue while it "
            "closes up."),
         BehaviourKind::FishSchool},
        {Overlay::SquadRanges, QStringLiteral("squadRanges"),
         tr("Keep Distance and Target Radius (Squad)"),
         tr("The squad target with its arrive radius and close-distance circle; half the keep "
            "distance around every tank (touching circles are within keep distance)."),
         BehaviourKind::TankSquad},
        {Overlay::SwarmScatter, QStringLiteral("swarmScatter"), tr("Scatter Radius (Swarm)"),
         tr("Half the scatter radius around every enemy: overlapping circles push apart "
            "(drawn orange). The goal with its stop distance."),
         BehaviourKind::Swarm},
        {Overlay::LeaderPoints, QStringLiteral("leaderPoints"),
         tr("Wander Circle, Behind Point and Evade Zone (Leader)"),
         tr("The leader's wander circle and target, the point followers arrive at behind it, "
            "and the zone ahead of it they get out of."),
         BehaviourKind::LeaderFollow},
        {Overlay::WormJoints, QStringLiteral("wormJoints"), tr("Worm Joints and Segment Ends"),
         tr("Each worm's centre line with its joints, the head and tail ends, and where it is "
            "heading."),
         BehaviourKind::Worm},
        {Overlay::Feelers, QStringLiteral("feelers"), tr("Feeler Rays and Hit Points"),
         tr("The three wall feelers of up to 300 agents on screen; hits are marked with the "
            "surface normal."),
         std::nullopt},
        {Overlay::Velocity, QStringLiteral("velocity"), tr("Velocity Vectors"),
         tr("Where each agent will be in half a second at its current velocity."), std::nullopt},
        {Overlay::Grid, QStringLiteral("grid"), tr("Spatial Grid"),
         tr("The neighbour grid's cells over the box the group occupies; occupied cells are "
            "shaded."),
         std::nullopt},
    };
    return list;
}

const OverlayOptions::Entry& OverlayOptions::entry(Overlay overlay)
{
    for (const Entry& e : entries())
        if (e.overlay == overlay)
            return e;
    return entries().first();
}

std::optional<OverlayOptions::Overlay> OverlayOptions::fromKey(const QString& key)
{
    for (const Entry& e : entries())
        if (e.key == key)
            return e.overlay;
    return std::nullopt;
}

bool OverlayOptions::isEnabled(Overlay overlay) const
{
    return (m_enabled >> static_cast<unsigned>(overlay)) & 1u;
}

QStringList OverlayOptions::enabledKeys() const
{
    QStringList keys;
    for (const Entry& e : entries())
        if (isEnabled(e.overlay))
            keys << e.key;
    return keys;
}

void OverlayOptions::setEnabled(Overlay overlay, bool enabled)
{
    if (isEnabled(overlay) == enabled)
        return;
    const unsigned bit = 1u << static_cast<unsigned>(overlay);
    m_enabled = enabled ? (m_enabled | bit) : (m_enabled & ~bit);
    emit overlayToggled(overlay, enabled);
    emit changed();
}

void OverlayOptions::setEnabledKeys(const QStringList& keys)
{
    for (const Entry& e : entries())
        setEnabled(e.overlay, keys.contains(e.key));
}

void OverlayOptions::setScope(Scope scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    emit scopeChanged(scope);
    emit changed();
}

} // namespace shoal::ui
