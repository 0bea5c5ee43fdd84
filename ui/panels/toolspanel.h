#pragma once
/// The tools dock: a button per tool, the active tool's options (family and count, shape,
/// pickup kind...), a hint for how to use it, and the grid settings.

#include <QList>
#include <QWidget>

class QAction;
class QCheckBox;
class QDoubleSpinBox;
class QLabel;

namespace shoal::ui {

class AbstractTool;
class EditorScene;

class ToolsPanel : public QWidget
{
    Q_OBJECT

public:
    /// `actions[i]` activates `tools[i]`.
    ToolsPanel(const QList<AbstractTool*>& tools, const QList<QAction*>& actions,
               EditorScene* scene, QWidget* parent = nullptr);

    /// Shows `tool`'s options and hint.
    void setCurrentTool(AbstractTool* tool);

private:
    void refreshGrid();

    QList<AbstractTool*> m_tools;
    EditorScene* m_scene;
    QLabel* m_optionsTitle = nullptr;
    QList<QWidget*> m_options; ///< per tool; null when it has none
    QLabel* m_hint = nullptr;
    QCheckBox* m_showGrid = nullptr;
    QCheckBox* m_snap = nullptr;
    QDoubleSpinBox* m_gridSize = nullptr;
    AbstractTool* m_current = nullptr;
};

} // namespace shoal::ui
