#pragma once
/// Which debug overlays are on (View > Overlays) and whether they draw for the selected
/// groups or for all of them. The main window builds its menu from entries() and toggles
/// through setEnabled(); OverlayItem reads these and repaints on changed().

#include <shoal/behaviourkind.h>

#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace shoal::ui {

class OverlayOptions : public QObject
{
    Q_OBJECT

public:
    /// An overlay. Each behaviour family has one of its own (familyOverlay(kind): what the
    /// family sketches, see <shoal/sketch.h>), numbered by the family; then the generic ones.
    enum class Overlay : int
    {
        Feelers = 16, ///< feeler rays with hit points
        Velocity,     ///< velocity vectors
        Grid,         ///< the neighbour grid's cells
    };
    static constexpr Overlay familyOverlay(BehaviourKind kind)
    {
        return static_cast<Overlay>(static_cast<int>(kind));
    }
    /// The family whose own overlay this is, if it is one.
    static std::optional<BehaviourKind> familyOf(Overlay overlay);

    enum class Scope
    {
        SelectedGroups, ///< only the groups GroupSelection holds
        AllGroups,
    };

    /// One overlay as the menu shows it.
    struct Entry
    {
        Overlay overlay;
        QString key;                         ///< stable, for settings: "fishBand", "feelers", ...
        QString label;                       ///< menu text
        QString toolTip;                     ///< what is drawn, for the status tip
        std::optional<BehaviourKind> family; ///< the family it is about; none = every family
    };

    explicit OverlayOptions(QObject* parent = nullptr);

    /// Every overlay in menu order.
    static const QList<Entry>& entries();
    static const Entry& entry(Overlay overlay);
    static std::optional<Overlay> fromKey(const QString& key);

    bool isEnabled(Overlay overlay) const;
    bool anyEnabled() const { return m_enabled != 0; }
    /// Keys of the overlays that are on (menu order), for settings.
    QStringList enabledKeys() const;
    Scope scope() const { return m_scope; }

public slots:
    void setEnabled(shoal::ui::OverlayOptions::Overlay overlay, bool enabled);
    /// Turns on exactly the overlays named (unknown keys are ignored), e.g. from settings.
    void setEnabledKeys(const QStringList& keys);
    void setScope(shoal::ui::OverlayOptions::Scope scope);

signals:
    void overlayToggled(shoal::ui::OverlayOptions::Overlay overlay, bool enabled);
    void scopeChanged(shoal::ui::OverlayOptions::Scope scope);
    /// Any of the above: repaint the overlays.
    void changed();

private:
    unsigned m_enabled = 0; ///< bit per Overlay
    Scope m_scope = Scope::SelectedGroups;
};

} // namespace shoal::ui
