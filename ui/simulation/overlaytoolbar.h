#pragma once
/// The overlays one click away: a compact toolbar with a toggle per overlay (the family's
/// name for its own overlay, then Feelers, Velocity, Grid; the full description in each
/// tooltip) and a toggle between the selected groups and all of them. It and View ▸
/// Overlays show the same OverlayOptions, so either follows the other.

#include "simulation/overlayoptions.h"

#include <QToolBar>

class QAction;

namespace shoal::ui {

class OverlayToolBar : public QToolBar
{
    Q_OBJECT

public:
    explicit OverlayToolBar(OverlayOptions* options, QWidget* parent = nullptr);

    /// The toggle of `overlay`.
    QAction* toggleFor(OverlayOptions::Overlay overlay) const;
    /// Checked: the overlays draw for all groups; unchecked: for the selected ones.
    QAction* allGroupsToggle() const { return m_allGroups; }

private:
    OverlayOptions* m_options;
    QList<QPair<OverlayOptions::Overlay, QAction*>> m_toggles;
    QAction* m_allGroups = nullptr;
};

} // namespace shoal::ui
