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
    m_checkedScene.reset();
    m_scene = scene;
    m_filePath = filePath;
    m_undoStack.setClean();
    m_checked = false;
    m_sceneError.reset();
    emit changed(Change{ChangeKind::SceneReset, -1, -1});
    emit titleChanged();
}

void Document::resetScene(CheckedScene scene, const QString& filePath)
{
    m_undoStack.clear();
    m_scene = SceneDesc();
    m_checkedScene = std::move(scene); // validated on its way in: not checked again
    m_sceneError.reset();
    m_checked = true;
    m_filePath = filePath;
    m_undoStack.setClean();
    emit changed(Change{ChangeKind::SceneReset, -1, -1});
    emit titleChanged();
}

const std::optional<Error>& Document::sceneError() const
{
    if (!m_checked) {
        m_checked = true;
        m_sceneError = validateScene(m_scene);
        if (!m_sceneError) {
            // It passes: from now on it lives checked, and edits keep the proof one by one.
            // (checkScene() checks it once more: this path follows only a refused edit or a
            // scene that came in unchecked.)
            Expected<CheckedScene> checked = checkScene(std::move(m_scene));
            m_scene = SceneDesc();
            m_checkedScene = std::move(*checked);
        }
    }
    return m_sceneError;
}

const CheckedScene* Document::checkedScene() const
{
    sceneError();
    return m_checkedScene ? &*m_checkedScene : nullptr;
}

SceneDesc& Document::uncheckedScene()
{
    if (m_checkedScene) {
        m_scene = std::move(*m_checkedScene).release();
        m_checkedScene.reset();
    }
    m_checked = false;
    m_sceneError.reset();
    return m_scene;
}

void Document::expectScene(CheckedScene candidate)
{
    m_expected = std::move(candidate);
}

void Document::announce(const Change& change)
{
    if (m_expected) {
        if (!m_checkedScene && m_expected->scene() == m_scene) {
            m_checkedScene = std::move(*m_expected);
            m_scene = SceneDesc();
            m_sceneError.reset();
            m_checked = true;
        }
        m_expected.reset();
    }
    emit changed(change);
}

void Document::setScene(const SceneDesc& scene)
{
    uncheckedScene() = scene;
    announce(Change{ChangeKind::SceneReset, -1, -1});
}

void Document::setBounds(const Rect& bounds)
{
    // The bounds decide where every point may lie: the whole scene is checked again.
    uncheckedScene().bounds = bounds;
    announce(Change{ChangeKind::Bounds, -1, -1});
}

namespace {

template <class T> auto at(std::vector<T>& list, int index)
{
    return list.begin() + static_cast<std::ptrdiff_t>(index);
}

} // namespace

// Each edit goes to the checked scene first, which takes it when the result passes; what it
// refuses is made on the scene by hand, and the scene counts as unchecked from then on.

void Document::insertWall(int index, const WallDesc& wall)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->insertWall(i, wall)) {
        SceneDesc& scene = uncheckedScene();
        scene.walls.insert(at(scene.walls, index), wall);
    }
    announce(Change{ChangeKind::Walls, -1, -1, index, +1});
}

void Document::removeWall(int index)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->removeWall(i)) {
        SceneDesc& scene = uncheckedScene();
        scene.walls.erase(at(scene.walls, index));
    }
    announce(Change{ChangeKind::Walls, -1, -1, index, -1});
}

void Document::setWall(int index, const WallDesc& wall)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->setWall(i, wall))
        uncheckedScene().walls[i] = wall;
    announce(Change{ChangeKind::Walls, index, -1});
}

void Document::insertObstacle(int index, const ObstacleDesc& obstacle)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->insertObstacle(i, obstacle)) {
        SceneDesc& scene = uncheckedScene();
        scene.obstacles.insert(at(scene.obstacles, index), obstacle);
    }
    announce(Change{ChangeKind::Obstacles, -1, -1, index, +1});
}

void Document::removeObstacle(int index)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->removeObstacle(i)) {
        SceneDesc& scene = uncheckedScene();
        scene.obstacles.erase(at(scene.obstacles, index));
    }
    announce(Change{ChangeKind::Obstacles, -1, -1, index, -1});
}

void Document::setObstacle(int index, const ObstacleDesc& obstacle)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->setObstacle(i, obstacle))
        uncheckedScene().obstacles[i] = obstacle;
    announce(Change{ChangeKind::Obstacles, index, -1});
}

void Document::insertPickup(int index, const PickupDesc& pickup)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->insertPickup(i, pickup)) {
        SceneDesc& scene = uncheckedScene();
        scene.pickups.insert(at(scene.pickups, index), pickup);
    }
    announce(Change{ChangeKind::Pickups, -1, -1, index, +1});
}

void Document::removePickup(int index)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->removePickup(i)) {
        SceneDesc& scene = uncheckedScene();
        scene.pickups.erase(at(scene.pickups, index));
    }
    announce(Change{ChangeKind::Pickups, -1, -1, index, -1});
}

void Document::setPickup(int index, const PickupDesc& pickup)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->setPickup(i, pickup))
        uncheckedScene().pickups[i] = pickup;
    announce(Change{ChangeKind::Pickups, index, -1});
}

void Document::insertGroup(int index, const GroupDesc& group)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->insertGroup(i, group)) {
        SceneDesc& scene = uncheckedScene();
        scene.groups.insert(at(scene.groups, index), group);
    }
    announce(Change{ChangeKind::Groups, -1, -1});
}

void Document::removeGroup(int index)
{
    const auto i = static_cast<std::size_t>(index);
    if (!m_checkedScene || !m_checkedScene->removeGroup(i)) {
        SceneDesc& scene = uncheckedScene();
        scene.groups.erase(at(scene.groups, index));
    }
    announce(Change{ChangeKind::Groups, -1, -1});
}

void Document::setGroup(int index, const GroupDesc& group)
{
    const auto i = static_cast<std::size_t>(index);
    GroupDesc edited = group;
    // Parameters have their own command and change kind; keep them as they are (a new
    // family takes the ones given).
    const GroupDesc& current = scene().groups[i];
    if (current.kind == group.kind)
        edited.params = current.params;
    if (!m_checkedScene || !m_checkedScene->setGroup(i, edited))
        uncheckedScene().groups[i] = std::move(edited);
    announce(Change{ChangeKind::Groups, index, -1});
}

void Document::setGroupParam(int group, int paramIndex, double value)
{
    const auto g = static_cast<std::size_t>(group);
    GroupDesc edited = scene().groups[g];
    edited.params[static_cast<std::size_t>(paramIndex)] = value;
    if (!m_checkedScene || !m_checkedScene->setGroup(g, edited))
        uncheckedScene().groups[g] = std::move(edited);
    announce(Change{ChangeKind::GroupParams, group, paramIndex});
}

void Document::setGroupParams(int group, const ParamValues& values)
{
    const auto g = static_cast<std::size_t>(group);
    GroupDesc edited = scene().groups[g];
    edited.params = values;
    if (!m_checkedScene || !m_checkedScene->setGroup(g, edited))
        uncheckedScene().groups[g] = std::move(edited);
    announce(Change{ChangeKind::GroupParams, group, -1});
}

void Document::setPlayer(const PlayerDesc& player)
{
    if (!m_checkedScene || !m_checkedScene->setPlayer(player))
        uncheckedScene().player = player;
    announce(Change{ChangeKind::Player, -1, -1});
}

void Document::setPlayerParam(int paramIndex, double value)
{
    PlayerDesc edited = scene().player;
    edited.params[static_cast<std::size_t>(paramIndex)] = value;
    if (!m_checkedScene || !m_checkedScene->setPlayer(edited))
        uncheckedScene().player = std::move(edited);
    announce(Change{ChangeKind::Player, -1, paramIndex});
}

void Document::setSimulation(const SimulationDesc& simulation)
{
    if (!m_checkedScene || !m_checkedScene->setSimulation(simulation))
        uncheckedScene().simulation = simulation;
    announce(Change{ChangeKind::Simulation, -1, -1});
}

void Document::setChecks(const std::vector<CheckDesc>& checks, int edited)
{
    if (!m_checkedScene || !m_checkedScene->setChecks(checks))
        uncheckedScene().checks = checks;
    announce(Change{ChangeKind::Checks, edited, -1});
}

} // namespace shoal::ui
