#pragma once
/// The spawn-area tool: drag a rectangle inside the level; a new group of the chosen family,
/// with that family's default parameters and colours, spawns the chosen number of agents in
/// it. One undo step; the new group becomes the selection.

#include "tools/abstracttool.h"

#include <QPointF>

namespace shoal::ui {

class PreviewItem;

class SpawnAreaTool : public AbstractTool
{
    Q_OBJECT

public:
    explicit SpawnAreaTool(QObject* parent = nullptr);

    BehaviourKind family() const { return m_family; }
    /// Also sets the count to the family's usual number.
    void setFamily(BehaviourKind family);
    int count() const { return m_count; }
    void setCount(int count);

    /// The name a new group of `family` starts from ("school", "squad", ...).
    static std::string baseName(BehaviourKind family);
    /// A count that shows the family well.
    static int defaultCount(BehaviourKind family);

    void activate(EditorScene* scene) override;
    void mousePressed(QGraphicsSceneMouseEvent* event) override;
    void mouseMoved(QGraphicsSceneMouseEvent* event) override;
    void mouseReleased(QGraphicsSceneMouseEvent* event) override;
    void cancel() override;
    bool isBusy() const override { return m_dragging; }
    QWidget* createOptionsWidget(QWidget* parent) override;

private:
    Rect dragRect(QPointF scenePos) const;

    BehaviourKind m_family = BehaviourKind::FishSchool;
    int m_count = defaultCount(BehaviourKind::FishSchool);
    bool m_dragging = false;
    QPointF m_start;
    PreviewItem* m_preview = nullptr;
};

} // namespace shoal::ui
