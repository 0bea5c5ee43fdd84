#include "document/document.h"

#include <QFileInfo>

namespace shoal::ui {

Document::Document(QObject* parent) : QObject(parent)
{
    connect(&m_undoStack, &QUndoStack::cleanChanged, this, &Document::titleChanged);
}

Document::~Document()
{
    m_undoStack.clear();
}

void Document::setFilePath(const QString& path)
{
    if (m_filePath == path)
        return;
    m_filePath = path;
    emit titleChanged();
}

QString Document::displayName() const
{
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).fileName();
    if (!m_scene.name.empty())
        return QString::fromStdString(m_scene.name);
    return tr("Untitled");
}

void Document::resetScene(const SceneDesc& scene, const QString& filePath)
{
    m_undoStack.clear();
    m_scene = scene;
    m_filePath = filePath;
    m_undoStack.setClean();
    m_checked = false;
    m_checkedScene.reset();
    m_sceneError.reset();
    emit changed(Change{ChangeKind::SceneReset, -1, -1});
    emit titleChanged();
}

void Document::resetScene(CheckedScene scene, const QString& filePath)
{
    m_undoStack.clear();
    m_scene = scene.scene();
    m_filePath = filePath;
    m_undoStack.setClean();
    adoptCheck(std::move(scene)); // validated on its way in: not checked again
    emit changed(Change{ChangeKind::SceneReset, -1, -1});
    emit titleChanged();
}

void Document::adoptCheck(CheckedScene checked) const
{
    m_checkedScene = std::move(checked);
    m_sceneError.reset();
    m_checked = true;
}

const std::optional<Error>& Document::sceneError() const
{
    if (!m_checked) {
        Expected<CheckedScene> checked = checkScene(m_scene);
        if (checked) {
            adoptCheck(std::move(*checked));
        } else {
            m_checkedScene.reset();
            m_sceneError = checked.error();
            m_checked = true;
        }
    }
    return m_sceneError;
}

const CheckedScene* Document::checkedScene() const
{
    sceneError();
    return m_checkedScene ? &*m_checkedScene : nullptr;
}

void Document::expectScene(CheckedScene candidate)
{
    m_expected = std::move(candidate);
}

void Document::announce(const Change& change)
{
    m_checked = false;
    m_checkedScene.reset();
    if (m_expected) {
        if (m_expected->scene() == m_scene)
            adoptCheck(std::move(*m_expected));
        m_expected.reset();
    }
    emit changed(change);
}

void Document::setScene(const SceneDesc& scene)
{
    m_scene = scene;
    announce(Change{ChangeKind::SceneReset, -1, -1});
}

void Document::setBounds(const Rect& bounds)
{
    m_scene.bounds = bounds;
    announce(Change{ChangeKind::Bounds, -1, -1});
}

void Document::insertWall(int index, const WallDesc& wall)
{
    m_scene.walls.insert(m_scene.walls.begin() + index, wall);
    announce(Change{ChangeKind::Walls, -1, -1});
}

void Document::removeWall(int index)
{
    m_scene.walls.erase(m_scene.walls.begin() + index);
    announce(Change{ChangeKind::Walls, -1, -1});
}

void Document::setWall(int index, const WallDesc& wall)
{
    m_scene.walls[static_cast<std::size_t>(index)] = wall;
    announce(Change{ChangeKind::Walls, index, -1});
}

void Document::insertObstacle(int index, const ObstacleDesc& obstacle)
{
    m_scene.obstacles.insert(m_scene.obstacles.begin() + index, obstacle);
    announce(Change{ChangeKind::Obstacles, -1, -1});
}

void Document::removeObstacle(int index)
{
    m_scene.obstacles.erase(m_scene.obstacles.begin() + index);
    announce(Change{ChangeKind::Obstacles, -1, -1});
}

void Document::setObstacle(int index, const ObstacleDesc& obstacle)
{
    m_scene.obstacles[static_cast<std::size_t>(index)] = obstacle;
    announce(Change{ChangeKind::Obstacles, index, -1});
}

void Document::insertPickup(int index, const PickupDesc& pickup)
{
    m_scene.pickups.insert(m_scene.pickups.begin() + index, pickup);
    announce(Change{ChangeKind::Pickups, -1, -1});
}

void Document::removePickup(int index)
{
    m_scene.pickups.erase(m_scene.pickups.begin() + index);
    announce(Change{ChangeKind::Pickups, -1, -1});
}

void Document::setPickup(int index, const PickupDesc& pickup)
{
    m_scene.pickups[static_cast<std::size_t>(index)] = pickup;
    announce(Change{ChangeKind::Pickups, index, -1});
}

void Document::insertGroup(int index, const GroupDesc& group)
{
    m_scene.groups.insert(m_scene.groups.begin() + index, group);
    announce(Change{ChangeKind::Groups, -1, -1});
}

void Document::removeGroup(int index)
{
    m_scene.groups.erase(m_scene.groups.begin() + index);
    announce(Change{ChangeKind::Groups, -1, -1});
}

void Document::setGroup(int index, const GroupDesc& group)
{
    GroupDesc& target = m_scene.groups[static_cast<std::size_t>(index)];
    // Parameters have their own command and change kind; keep them as they are.
    ParamValues params = target.params;
    const bool kindChanged = target.kind != group.kind;
    target = group;
    if (!kindChanged)
        target.params = std::move(params);
    announce(Change{ChangeKind::Groups, index, -1});
}

void Document::setGroupParam(int group, int paramIndex, double value)
{
    m_scene.groups[static_cast<std::size_t>(group)].params[static_cast<std::size_t>(paramIndex)] =
        value;
    announce(Change{ChangeKind::GroupParams, group, paramIndex});
}

void Document::setPlayer(const PlayerDesc& player)
{
    m_scene.player = player;
    announce(Change{ChangeKind::Player, -1, -1});
}

void Document::setPlayerParam(int paramIndex, double value)
{
    m_scene.player.params[static_cast<std::size_t>(paramIndex)] = value;
    announce(Change{ChangeKind::Player, -1, paramIndex});
}

void Document::setSimulation(const SimulationDesc& simulation)
{
    m_scene.simulation = simulation;
    announce(Change{ChangeKind::Simulation, -1, -1});
}

} // namespace shoal::ui
