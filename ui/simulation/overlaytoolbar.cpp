#include "simulation/overlaytoolbar.h"

#include "viewport/viewportstyle.h"

#include <QAction>
#include <QLabel>
#include <QSignalBlocker>

namespace shoal::ui {

namespace {

/// The button's text: short, as the toolbar must stay one row at 1440 px.
QString shortLabel(const OverlayOptions::Entry& entry)
{
    if (entry.family)
        return style::kindLabel(*entry.family);
    switch (entry.overlay) {
    case OverlayOptions::Overlay::Feelers:
        return OverlayToolBar::tr("Feelers");
    case OverlayOptions::Overlay::Velocity:
        return OverlayToolBar::tr("Velocity");
    case OverlayOptions::Overlay::Grid:
        return OverlayToolBar::tr("Grid");
    }
    return entry.label;
}

} // namespace

OverlayToolBar::OverlayToolBar(OverlayOptions* options, QWidget* parent)
    : QToolBar(tr("Overlays"), parent), m_options(options)
{
    setObjectName(QStringLiteral("overlayToolBar"));
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* title = new QLabel(tr("Overlays:"), this);
    title->setContentsMargins(4, 0, 4, 0);
    addWidget(title);
    for (const OverlayOptions::Entry& entry : OverlayOptions::entries()) {
        QAction* toggle = addAction(shortLabel(entry));
        toggle->setCheckable(true);
        toggle->setChecked(options->isEnabled(entry.overlay));
        toggle->setToolTip(QStringLiteral("<b>%1</b><br>%2")
                               .arg(entry.label.toHtmlEscaped(), entry.toolTip.toHtmlEscaped()));
        toggle->setStatusTip(entry.toolTip);
        toggle->setObjectName(QStringLiteral("overlay_") + entry.key);
        const OverlayOptions::Overlay overlay = entry.overlay;
        connect(toggle, &QAction::toggled, options,
                [options, overlay](bool on) { options->setEnabled(overlay, on); });
        m_toggles.append({overlay, toggle});
    }
    addSeparator();
    m_allGroups = addAction(tr("All Groups"));
    m_allGroups->setCheckable(true);
    m_allGroups->setObjectName(QStringLiteral("overlayAllGroups"));
    m_allGroups->setToolTip(
        tr("Draw the overlays for every group; off: only for the selected groups"));
    m_allGroups->setChecked(options->scope() == OverlayOptions::Scope::AllGroups);
    connect(m_allGroups, &QAction::toggled, options, [options](bool all) {
        options->setScope(all ? OverlayOptions::Scope::AllGroups
                              : OverlayOptions::Scope::SelectedGroups);
    });

    // Changed elsewhere (the View menu, settings): shown here without toggling back.
    connect(options, &OverlayOptions::overlayToggled, this,
            [this](OverlayOptions::Overlay overlay, bool on) {
                if (QAction* toggle = toggleFor(overlay)) {
                    const QSignalBlocker blocker(toggle);
                    toggle->setChecked(on);
                }
            });
    connect(options, &OverlayOptions::scopeChanged, this, [this](OverlayOptions::Scope scope) {
        const QSignalBlocker blocker(m_allGroups);
        m_allGroups->setChecked(scope == OverlayOptions::Scope::AllGroups);
    });
}

QAction* OverlayToolBar::toggleFor(OverlayOptions::Overlay overlay) const
{
    for (const auto& [which, toggle] : m_toggles)
        if (which == overlay)
            return toggle;
    return nullptr;
}

} // namespace shoal::ui
