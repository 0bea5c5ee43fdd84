#pragma once
/// The Inspector dock: what the inspected agent (InspectedAgent) is doing now: its group,
/// stable id, state in the family's words, position, heading, speed, velocity, distance to its
/// goal, how long it has been still away from it, and its flags; a Follow toggle keeps it in
/// the middle of the view. Refreshed after every step while shown.

#include <QWidget>

class QFormLayout;
class QLabel;
class QPushButton;

namespace shoal::ui {

class Document;
class InspectedAgent;
class SimulationController;

class AgentInspector : public QWidget
{
    Q_OBJECT

public:
    AgentInspector(InspectedAgent* agent, SimulationController* simulation, Document* document,
                   QWidget* parent = nullptr);

    /// The value shown for `field` ("State", "Speed", ...), empty when there is none.
    QString field(const QString& name) const;
    QPushButton* followButton() const { return m_follow; }

    /// Reads the inspected agent again.
    void refresh();

private:
    void setField(const QString& name, const QString& value);

    InspectedAgent* m_agent;
    SimulationController* m_simulation;
    Document* m_document;
    QLabel* m_hint = nullptr;
    QWidget* m_details = nullptr;
    QFormLayout* m_form = nullptr;
    QPushButton* m_follow = nullptr;
    QPushButton* m_clear = nullptr;
};

} // namespace shoal::ui
