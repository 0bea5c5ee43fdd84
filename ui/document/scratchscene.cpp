#include "document/scratchscene.h"

namespace shoal::ui {

namespace {

bool sameShape(const SceneDesc& a, const SceneDesc& b)
{
    return a.walls.size() == b.walls.size() && a.obstacles.size() == b.obstacles.size() &&
           a.pickups.size() == b.pickups.size() && a.groups.size() == b.groups.size();
}

/// Copies the element `ref` names (its group for spawn areas and targets) from `from`.
void restore(SceneDesc& to, const SceneDesc& from, const ItemRef& ref)
{
    const auto i = static_cast<std::size_t>(ref.index);
    switch (ref.kind) {
    case ItemKind::Wall:
        if (i < from.walls.size())
            to.walls[i] = from.walls[i];
        break;
    case ItemKind::Obstacle:
        if (i < from.obstacles.size())
            to.obstacles[i] = from.obstacles[i];
        break;
    case ItemKind::Pickup:
        if (i < from.pickups.size())
            to.pickups[i] = from.pickups[i];
        break;
    case ItemKind::SpawnArea:
    case ItemKind::SquadTarget:
        if (i < from.groups.size())
            to.groups[i] = from.groups[i];
        break;
    case ItemKind::PlayerStart:
        to.player = from.player;
        break;
    }
}

} // namespace

SceneDesc& ScratchScene::reset(const SceneDesc& document, const ItemRefs& touched)
{
    if (!m_scene || !sameShape(*m_scene, document)) {
        m_scene = document;
        m_touched = touched;
        return *m_scene;
    }
    for (const ItemRef& ref : m_touched)
        restore(*m_scene, document, ref);
    for (const ItemRef& ref : touched) {
        restore(*m_scene, document, ref);
        if (!m_touched.contains(ref))
            m_touched.append(ref);
    }
    return *m_scene;
}

void ScratchScene::clear()
{
    m_scene.reset();
    m_touched.clear();
}

} // namespace shoal::ui
