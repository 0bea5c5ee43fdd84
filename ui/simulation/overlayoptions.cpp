#include "simulation/overlayoptions.h"

#include <shoal/sketch.h>

namespace shoal::ui {

OverlayOptions::OverlayOptions(QObject* parent) : QObject(parent) {}

static_assert(kAllBehaviourKinds.size() <=
                  static_cast<std::size_t>(OverlayOptions::Overlay::Feelers),
              "family overlays are numbered below the generic ones");

const QList<OverlayOptions::Entry>& OverlayOptions::entries()
{
    static const QList<Entry> list = [] {
        QList<Entry> out;
        // The families' own overlays, as each family describes itself.
        for (BehaviourKind kind : kAllBehaviourKinds) {
            const FamilyView& view = familyView(kind);
            out.append({familyOverlay(kind), QString::fromStdString(view.overlayKey),
                        QString::fromStdString(view.overlayLabel),
                        QString::fromStdString(view.overlayToolTip), kind});
        }
        out.append({Overlay::Feelers, QStringLiteral("feelers"), tr("Feeler Rays and Hit Points"),
                    tr("The three wall feelers of up to 300 agents on screen; hits are marked "
                       "with the surface normal."),
                    std::nullopt});
        out.append({Overlay::Velocity, QStringLiteral("velocity"), tr("Velocity Vectors"),
                    tr("Where each agent will be in half a second at its current velocity."),
                    std::nullopt});
        out.append({Overlay::Grid, QStringLiteral("grid"), tr("Spatial Grid"),
                    tr("The neighbour grid's cells over the box the group occupies; occupied "
                       "cells are shaded."),
                    std::nullopt});
        return out;
    }();
    return list;
}

std::optional<BehaviourKind> OverlayOptions::familyOf(Overlay overlay)
{
    for (BehaviourKind kind : kAllBehaviourKinds)
        if (familyOverlay(kind) == overlay)
            return kind;
    return std::nullopt;
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
