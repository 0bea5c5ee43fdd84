#pragma once
/// Puts the running simulation into the editor's scene: one AgentLayerItem per group of the
/// SimulationController's world (plus the world layer for the player and the pickups) and the
/// debug OverlayItem, rebuilt when the world is rebuilt, synced after every step, coloured
/// from the document's groups and hidden for the groups the group list hides. While the world
/// has left its first step, the authored pickups and player start fade (they show where
/// things start, and the world layer shows where they are now), the spawn areas' labels
/// count the running groups' agents, and a squad's target moved in play shows where it is.

#include "viewport/editorscene.h"

#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>

namespace shoal {
class World;
struct WorldFrame;
} // namespace shoal

namespace shoal::ui {

class AgentLayerItem;
class Document;
class GroupSelection;
class OverlayItem;
class LiveTargetItem;
class OverlayOptions;
class SimulationController;
struct Change;

class SimulationLayers : public QObject
{
    Q_OBJECT

public:
    SimulationLayers(EditorScene* scene, SimulationController* controller, OverlayOptions* overlays,
                     GroupSelection* selection, QObject* parent = nullptr);
    ~SimulationLayers() override;

    const QList<AgentLayerItem*>& layers() const { return m_layers; }
    /// While an A/B compare runs: one layer per group of world B, drawn as a ghost (see
    /// kGhostOpacity) over A's.
    const QList<AgentLayerItem*>& ghosts() const { return m_ghosts; }
    static constexpr double kGhostOpacity = 0.45;
    OverlayItem* overlay() const { return m_overlay; }
    /// One per tank squad of the running world, shown where play moved its target.
    const QList<LiveTargetItem*>& liveTargets() const { return m_liveTargets; }

    /// Asks whether a group's agents are shown (the group list's visibility boxes), when the
    /// layers are rebuilt. All are shown without one.
    void setVisibilityQuery(std::function<bool(int group)> query)
    {
        m_isVisible = std::move(query);
    }

public slots:
    /// Shows or hides a group's agents.
    void setGroupVisible(int group, bool visible);

private:
    void rebuild();
    void rebuildGhosts();
    void sync();
    void recolor();
    /// Shows each squad's live target where play moved it off the level's.
    void syncLiveTargets(const World* world);
    void onDocumentChanged(const Change& change);
    void updateOverlaySelection();
    /// Lets the controller step beside the view's paint unless the overlays draw something
    /// (they read the live world).
    void updateStepping();
    /// Tells the controller whether its frames need the worms' ribbon edges (a view near
    /// enough to draw ribbons).
    void askForOutlines(const WorldFrame* frame);

    QPointer<EditorScene> m_scene; ///< may go first: its items go with it
    QPointer<SimulationController> m_controller;
    QPointer<GroupSelection> m_selection;
    QList<AgentLayerItem*> m_layers;
    QList<AgentLayerItem*> m_ghosts;
    OverlayItem* m_overlay = nullptr;
    QList<LiveTargetItem*> m_liveTargets; ///< one per tank squad of the running world
    std::function<bool(int)> m_isVisible;
};

} // namespace shoal::ui
