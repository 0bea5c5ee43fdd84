#include "document/itemnames.h"

#include <QCoreApplication>

namespace shoal::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("UndoCommands", text);
}

/// The plural of a name from itemName() ("Free Fish" stays as it is).
QString pluralOf(const QString& name)
{
    if (name == tr("Free Fish"))
        return name;
    return name + QLatin1Char('s');
}

} // namespace

QString pickupName(PickupKind kind)
{
    return kind == PickupKind::Fish ? tr("Free Fish") : tr("Coin");
}

QString kindName(ItemKind kind)
{
    switch (kind) {
    case ItemKind::Wall:
        return tr("Wall");
    case ItemKind::Obstacle:
        return tr("Obstacle");
    case ItemKind::Pickup:
        return tr("Pickup");
    case ItemKind::SpawnArea:
        return tr("Spawn Area");
    case ItemKind::SquadTarget:
        return tr("Squad Target");
    case ItemKind::PlayerStart:
        return tr("Player Start");
    }
    return tr("Item");
}

QString itemName(const SceneDesc& scene, const ItemRef& ref)
{
    if (ref.kind == ItemKind::Pickup && ref.index >= 0 &&
        std::size_t(ref.index) < scene.pickups.size())
        return pickupName(scene.pickups[std::size_t(ref.index)].kind);
    return kindName(ref.kind);
}

QString itemsName(const SceneDesc& scene, const ItemRefs& refs)
{
    if (refs.isEmpty())
        return tr("Nothing");
    const QString first = itemName(scene, refs.first());
    for (const ItemRef& ref : refs)
        if (itemName(scene, ref) != first)
            return tr("%1 Items").arg(refs.size());
    if (refs.size() == 1)
        return first;
    return QStringLiteral("%1 %2").arg(refs.size()).arg(pluralOf(first));
}

QString addText(const QString& name)
{
    return tr("Add %1").arg(name);
}

} // namespace shoal::ui
