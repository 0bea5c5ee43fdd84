#pragma once
/// The Inspector dock: what the inspected agent (InspectedAgent) is doing now: its group,
/// stable id, state in the family's words, position, heading, speed, velocity, distance to its
/// goal, how long it has been still away from it, and its flags; a Follow toggle keeps it in
/// the middle of the view; what it wants, rule by rule, as its family weighed it (the same
/// colours as the arrows drawn on it in the view). Refreshed after every step while shown.

#include <shoal/inspection.h>

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

    /// The rules' table as shown ("band 0.42 ..."), as plain text.
    QString rulesText() const;

private:
    void setField(const QString& name, const QString& value);
    /// The inspected agent's shares as a table: name, size and direction, in the colours of
    /// the view's arrows.
    void setRules(const Inspection& seen, int group, std::uint32_t id);

    InspectedAgent* m_agent;
    SimulationController* m_simulation;
    Document* m_document;
    QLabel* m_hint = nullptr;
    QLabel* m_rules = nullptr;
    QWidget* m_details = nullptr;
    QFormLayout* m_form = nullptr;
    QPushButton* m_follow = nullptr;
    QPushButton* m_clear = nullptr;
};

} // namespace shoal::ui
