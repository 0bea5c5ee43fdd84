#include "inspector/agentinspector.h"

#include "document/document.h"
#include "document/qtstrings.h"
#include "inspector/inspectedagent.h"
#include "simulation/simulationcontroller.h"

#include <shoal/world.h>

#include <QCoreApplication>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextDocument>
#include <QVBoxLayout>

#include <cmath>

namespace shoal::ui {

namespace {

const char* const kFields[] = {
    QT_TRANSLATE_NOOP("AgentInspector", "Group"),
    QT_TRANSLATE_NOOP("AgentInspector", "Agent"),
    QT_TRANSLATE_NOOP("AgentInspector", "State"),
    QT_TRANSLATE_NOOP("AgentInspector", "Position"),
    QT_TRANSLATE_NOOP("AgentInspector", "Heading"),
    QT_TRANSLATE_NOOP("AgentInspector", "Speed"),
    QT_TRANSLATE_NOOP("AgentInspector", "Velocity"),
    QT_TRANSLATE_NOOP("AgentInspector", "To its goal"),
    QT_TRANSLATE_NOOP("AgentInspector", "Still for"),
    QT_TRANSLATE_NOOP("AgentInspector", "Flags"),
};

QString flagNames(std::uint8_t flags)
{
    static const std::pair<std::uint8_t, const char*> names[] = {
        {kAgentInSchool, "in school"},
        {kAgentArrived, "arrived"},
        {kAgentBlocked, "blocked"},
        {kAgentAtGoal, "at goal"},
        {kAgentStuck, "stuck"},
        {kAgentReversing, "reversing"},
        {kAgentMakingRoom, "making room"},
        {kAgentClosingUp, "closing up"},
    };
    QStringList out;
    for (const auto& [bit, name] : names)
        if (flags & bit)
            out.append(QString::fromLatin1(name));
    return out.isEmpty() ? QStringLiteral("\u2013") : out.join(QStringLiteral(", "));
}

} // namespace

AgentInspector::AgentInspector(InspectedAgent* agent, SimulationController* simulation,
                               Document* document, QWidget* parent)
    : QWidget(parent), m_agent(agent), m_simulation(simulation), m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    m_hint = new QLabel(tr("Click an agent in the view to inspect it: when paused, or with Ctrl "
                           "held while playing. It stays inspected as the world runs."),
                        this);
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);

    m_details = new QWidget(this);
    m_form = new QFormLayout(m_details);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setLabelAlignment(Qt::AlignLeft);
    for (const char* name : kFields) {
        auto* value = new QLabel(m_details);
        value->setObjectName(QString::fromLatin1(name));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_form->addRow(QCoreApplication::translate("AgentInspector", name), value);
    }
    m_rules = new QLabel(m_details);
    m_rules->setObjectName(QStringLiteral("Rules"));
    m_rules->setTextFormat(Qt::RichText);
    m_rules->setWordWrap(true);
    m_form->addRow(tr("Wants"), m_rules);
    auto* buttons = new QHBoxLayout;
    m_follow = new QPushButton(tr("Follow"), m_details);
    m_follow->setCheckable(true);
    m_follow->setToolTip(tr("Keep the agent in the middle of the view"));
    m_clear = new QPushButton(tr("Stop Inspecting"), m_details);
    buttons->addWidget(m_follow);
    buttons->addWidget(m_clear);
    buttons->addStretch(1);
    m_form->addRow(buttons);
    layout->addWidget(m_details);
    layout->addStretch(1);

    connect(m_follow, &QPushButton::toggled, m_agent, &InspectedAgent::setFollowing);
    connect(m_clear, &QPushButton::clicked, m_agent, &InspectedAgent::clear);
    connect(m_agent, &InspectedAgent::changed, this, &AgentInspector::refresh);
    connect(m_agent, &InspectedAgent::updated, this, [this] {
        if (isVisible())
            refresh();
    });
    refresh();
}

QString AgentInspector::rulesText() const
{
    QTextDocument document;
    document.setHtml(m_rules->text());
    return m_details->isVisible() ? document.toPlainText() : QString();
}

QString AgentInspector::field(const QString& name) const
{
    const auto* label = m_details->findChild<QLabel*>(name);
    return label && m_details->isVisible() ? label->text() : QString();
}

void AgentInspector::setField(const QString& name, const QString& value)
{
    if (auto* label = m_details->findChild<QLabel*>(name))
        label->setText(value);
}

void AgentInspector::refresh()
{
    const World* world = m_simulation->world();
    const std::optional<std::size_t> found =
        world && m_agent->hasAgent() ? m_agent->index(*world) : std::nullopt;
    m_hint->setVisible(!found);
    m_details->setVisible(bool(found));
    if (!found) {
        if (m_agent->hasAgent())
            m_hint->setText(tr("Agent #%1 is not in the running world (it was rebuilt or the "
                               "group removed). Click an agent to inspect it.")
                                .arg(m_agent->id()));
        return;
    }
    const std::size_t i = *found;
    const int g = m_agent->group();
    const GroupState& group = world->group(g);
    const AgentArrays& a = group.agents;
    setField(QStringLiteral("Group"), qs(group.name) + QStringLiteral(" \u00b7 ") +
                                          qs(std::string(behaviourLabel(group.kind))));
    setField(QStringLiteral("Agent"), QStringLiteral("#%1").arg(a.id[i]));
    setField(QStringLiteral("State"), QString::fromUtf8(world->agentState(g, i)));
    setField(QStringLiteral("Position"),
             QStringLiteral("%1, %2 m").arg(a.px[i], 0, 'f', 2).arg(a.py[i], 0, 'f', 2));
    double degrees = a.heading[i] * 180.0 / M_PI;
    degrees = std::fmod(degrees + 360.0, 360.0);
    setField(QStringLiteral("Heading"), QStringLiteral("%1\u00b0").arg(degrees, 0, 'f', 1));
    setField(QStringLiteral("Speed"), QStringLiteral("%1 m/s").arg(a.speed[i], 0, 'f', 2));
    setField(QStringLiteral("Velocity"),
             QStringLiteral("%1, %2 m/s").arg(a.vx[i], 0, 'f', 2).arg(a.vy[i], 0, 'f', 2));
    setField(QStringLiteral("To its goal"),
             world->goal(g) || a.goalDistance[i] > 0.0f
                 ? QStringLiteral("%1 m").arg(a.goalDistance[i], 0, 'f', 2)
                 : QStringLiteral("\u2013"));
    setField(QStringLiteral("Still for"), QStringLiteral("%1 s").arg(a.stuckTime[i], 0, 'f', 1));
    setField(QStringLiteral("Flags"), flagNames(a.flags[i]));
    m_follow->setChecked(m_agent->isFollowing());
    setRules(world->inspection(), g, a.id[i]);
}

void AgentInspector::setRules(const Inspection& seen, int group, std::uint32_t id)
{
    if (!seen.recorded || !seen.wants(group, id)) {
        const World* world = m_simulation->world();
        const bool player = world && world->group(group).playerLed && id == 0;
        // The families report while they plan: picked between steps, it shows after the next.
        m_rules->setText(player ? tr("<i>the player: steered by the mouse</i>")
                                : tr("<i>shown from the next step: press Step (.) or Play</i>"));
        return;
    }
    const auto length = [](Vec2 v) { return std::hypot(double(v.x), double(v.y)); };
    const auto direction = [](Vec2 v) {
        return std::fmod(std::atan2(double(v.y), double(v.x)) * 180.0 / M_PI + 360.0, 360.0);
    };
    const QString unit = seen.unit == "wish" || seen.unit == "heading"
                             ? QString()
                             : QStringLiteral(" ") + QString::fromStdString(seen.unit);
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">");
    const auto row = [&](const QString& name, Vec2 v, const QString& color) {
        html += QStringLiteral(
                    "<tr><td><span style=\"color:%1\">\u25A0</span> %2&nbsp;</td>"
                    "<td align=\"right\">%3%4&nbsp;</td><td align=\"right\">%5\u00b0</td></tr>")
                    .arg(color, name.toHtmlEscaped())
                    .arg(length(v), 0, 'f', 2)
                    .arg(unit)
                    .arg(direction(v), 0, 'f', 0);
    };
    for (std::size_t k = 0; k < seen.rules.size(); ++k)
        row(QString::fromStdString(seen.rules[k].name), seen.rules[k].vector,
            ruleColor(int(k)).name());
    row(seen.unit == "heading" ? tr("turned to") : tr("together"), seen.wanted,
        QStringLiteral("#ffffff"));
    row(tr("planned velocity"), seen.planned, QStringLiteral("#78e6ff"));
    html += QStringLiteral("</table>");
    m_rules->setText(html);
}

} // namespace shoal::ui
