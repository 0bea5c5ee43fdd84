#include "panels/toolspanel.h"

#include "tools/abstracttool.h"
#include "viewport/editorscene.h"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace shoal::ui {

namespace {

QLabel* sectionTitle(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    label->setContentsMargins(0, 6, 0, 0);
    return label;
}

} // namespace

ToolsPanel::ToolsPanel(const QList<AbstractTool*>& tools, const QList<QAction*>& actions,
                       EditorScene* scene, QWidget* parent)
    : QWidget(parent), m_tools(tools), m_scene(scene)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->setSpacing(6);

    auto* buttons = new QGridLayout;
    buttons->setSpacing(3);
    for (int i = 0; i < actions.size(); ++i) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(actions[i]);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setIconSize(QSize(22, 22));
        button->setAutoRaise(true);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        button->setObjectName(QStringLiteral("toolButton"));
        buttons->addWidget(button, i / 2, i % 2);
    }
    layout->addLayout(buttons);

    m_optionsTitle = sectionTitle(tr("Options"), this);
    layout->addWidget(m_optionsTitle);
    // Only the active tool's options are shown, so the dock is as tall as they are.
    for (AbstractTool* tool : m_tools) {
        QWidget* options = tool->createOptionsWidget(this);
        if (options) {
            options->hide();
            layout->addWidget(options);
        }
        m_options.append(options);
    }
    // As wide as the widest tool's options from the start: the dock, and so the view beside
    // it, keeps its width whichever tool is chosen.
    int optionsWidth = 0;
    for (QWidget* options : m_options)
        if (options)
            optionsWidth = std::max(optionsWidth, options->minimumSizeHint().width());
    setMinimumWidth(std::max(minimumSizeHint().width(), optionsWidth +
                                                            layout->contentsMargins().left() +
                                                            layout->contentsMargins().right()));
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    m_hint->setObjectName(QStringLiteral("toolHint"));
    m_hint->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    layout->addWidget(m_hint);

    layout->addWidget(sectionTitle(tr("Grid"), this));
    auto* grid = new QFormLayout;
    grid->setContentsMargins(0, 0, 0, 0);
    m_showGrid = new QCheckBox(tr("Show"), this);
    m_snap = new QCheckBox(tr("Snap to grid"), this);
    m_gridSize = new QDoubleSpinBox(this);
    m_gridSize->setRange(0.05, 50.0);
    m_gridSize->setDecimals(2);
    m_gridSize->setSingleStep(0.25);
    m_gridSize->setSuffix(tr(" m"));
    auto* checks = new QHBoxLayout;
    checks->addWidget(m_showGrid);
    checks->addWidget(m_snap);
    checks->addStretch();
    grid->addRow(checks);
    grid->addRow(tr("Spacing"), m_gridSize);
    layout->addLayout(grid);
    layout->addStretch();

    connect(m_showGrid, &QCheckBox::toggled, m_scene, &EditorScene::setGridVisible);
    connect(m_snap, &QCheckBox::toggled, m_scene, &EditorScene::setSnapToGrid);
    connect(m_gridSize, &QDoubleSpinBox::valueChanged, m_scene, &EditorScene::setGridSize);
    connect(m_scene, &EditorScene::gridChanged, this, &ToolsPanel::refreshGrid);
    refreshGrid();
    for (AbstractTool* tool : m_tools)
        connect(tool, &AbstractTool::statusInfoChanged, this, [this, tool](const QString& info) {
            if (tool == m_current)
                m_hint->setText(info);
        });
}

void ToolsPanel::setCurrentTool(AbstractTool* tool)
{
    m_current = tool;
    const int index = int(m_tools.indexOf(tool));
    for (int i = 0; i < m_options.size(); ++i)
        if (m_options[i])
            m_options[i]->setVisible(i == index);
    m_optionsTitle->setText(tool ? tool->name() : tr("Options"));
    m_optionsTitle->setVisible(tool != nullptr);
    m_hint->setText(tool ? tool->statusInfo() : QString());
}

void ToolsPanel::refreshGrid()
{
    const QSignalBlocker a(m_showGrid);
    const QSignalBlocker b(m_snap);
    const QSignalBlocker c(m_gridSize);
    m_showGrid->setChecked(m_scene->isGridVisible());
    m_snap->setChecked(m_scene->snapToGrid());
    m_gridSize->setValue(m_scene->gridSize());
}

} // namespace shoal::ui
