#pragma once
/// The open level: the one QObject that owns the authored SceneDesc, its undo stack and its
/// file path, and announces every change. Views and panels subscribe to changed(); they never
/// hold the truth. Everything a user does goes through an undo command (commands.h),
/// which calls the raw mutators below; nothing else calls them.

#include <shoal/scenedesc.h>

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <optional>

namespace shoal::ui {

/// What a change touched, so a view refreshes only that.
enum class ChangeKind
{
    SceneReset, ///< a new scene (New, Open, recovery): everything
    Bounds,
    Walls, ///< index = the wall, or -1 for several
    Obstacles,
    Pickups,
    Groups,      ///< a group was added, removed or reordered (index = -1) or its
                 ///< name/colours/spawn/agents/target/chase changed (index = the group)
    GroupParams, ///< index = the group; paramIndex = the parameter
    Player,      ///< paramIndex = the parameter, or -1: anything of the player
    Simulation,
    Checks, ///< the scene's checks (the whole list; index = the check edited, or -1)
};

struct Change
{
    ChangeKind kind = ChangeKind::SceneReset;
    int index = -1;
    int paramIndex = -1;
    /// Walls, obstacles, pickups: one element inserted (+1) or removed (-1) at `at`, so a
    /// view shifts its items instead of rebuilding them; 0 for anything else.
    int at = -1;
    int inserted = 0;
};

class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(QObject* parent = nullptr);
    /// Clears the undo history first, while the document is whole: clearing a history with
    /// unsaved changes announces "clean" (cleanChanged, titleChanged), and whoever listens
    /// may read the document. Left to the undo stack's own destructor, it would come after
    /// the file path is destroyed.
    ~Document() override;

    const SceneDesc& scene() const { return m_checkedScene ? m_checkedScene->scene() : m_scene; }
    QUndoStack* undoStack() { return &m_undoStack; }
    const QUndoStack* undoStack() const { return &m_undoStack; }

    /// The file the scene was opened from or saved to; empty for a new or embedded scene.
    QString filePath() const { return m_filePath; }
    void setFilePath(const QString& path);
    /// A name for the title bar: the file name, or "Untitled" / the demo's name.
    QString displayName() const;
    /// Unsaved changes, derived from the undo stack's clean state.
    bool isModified() const { return !m_undoStack.isClean(); }

    /// Replaces the whole scene (New, Open, recovery) and clears the undo history.
    void resetScene(const SceneDesc& scene, const QString& filePath);
    /// Same for a scene checked on its way in (a loader's result): it is not checked again.
    void resetScene(CheckedScene scene, const QString& filePath);

    /// What validateScene() says of the scene (a reference from scene() taken before this
    /// call may not outlive it: a scene found to pass moves in with its proof). A scene that passed
    /// stays checked through every edit that keeps it valid: each edit is checked alone
    /// (CheckedScene's edits), never the whole level again; only after a change that fails (or a
    /// whole new scene) is the whole scene checked, at most once per change, when someone asks.
    const std::optional<Error>& sceneError() const;
    /// The scene with its proof of that check, or null when it does not pass: the running
    /// world is built from this without checking again.
    const CheckedScene* checkedScene() const;
    /// Someone has checked the scene the next change will produce (a recovered autosave):
    /// when that change leaves the document with exactly that scene, its check is taken
    /// over instead of made again. Forgotten after the next change either way.
    void expectScene(CheckedScene candidate);

    // Raw mutators: called by undo commands only. Each emits changed().
    /// The whole scene, keeping the undo history (emits a SceneReset change).
    void setScene(const SceneDesc& scene);
    void setBounds(const Rect& bounds);
    void insertWall(int index, const WallDesc& wall);
    void removeWall(int index);
    void setWall(int index, const WallDesc& wall);
    void insertObstacle(int index, const ObstacleDesc& obstacle);
    void removeObstacle(int index);
    void setObstacle(int index, const ObstacleDesc& obstacle);
    void insertPickup(int index, const PickupDesc& pickup);
    void removePickup(int index);
    void setPickup(int index, const PickupDesc& pickup);
    void insertGroup(int index, const GroupDesc& group);
    void removeGroup(int index);
    /// Everything of a group except its parameters (name, colours, spawn, agents, target...).
    void setGroup(int index, const GroupDesc& group);
    void setGroupParam(int group, int paramIndex, double value);
    /// Every parameter of `group` at once (a preset, a reset): one Change with paramIndex -1.
    void setGroupParams(int group, const ParamValues& values);
    void setPlayer(const PlayerDesc& player);
    void setPlayerParam(int paramIndex, double value);
    void setSimulation(const SimulationDesc& simulation);
    /// The scene's whole list of checks; `edited` is the check an edit touched (-1: several).
    void setChecks(const std::vector<CheckDesc>& checks, int edited = -1);

signals:
    void changed(const shoal::ui::Change& change);
    /// A title-bar relevant state changed (modified flag or file path).
    void titleChanged();

private:
    /// Emits changed() for an edit already made.
    void announce(const Change& change);
    /// The scene to edit by hand, for an edit CheckedScene refused or cannot make: the
    /// scene leaves the checked one, and is checked whole again when someone asks.
    SceneDesc& uncheckedScene();

    // The scene lives in exactly one of the two: in m_checkedScene while it is known to pass
    // (no second copy of a big level), else in m_scene.
    mutable SceneDesc m_scene;
    mutable std::optional<CheckedScene> m_checkedScene;
    mutable bool m_checked = false; ///< m_sceneError / m_checkedScene are the current verdict
    mutable std::optional<Error> m_sceneError;
    std::optional<CheckedScene> m_expected; ///< see expectScene()
    QUndoStack m_undoStack;
    QString m_filePath;
};

} // namespace shoal::ui
