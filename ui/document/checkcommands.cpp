#include "document/checkcommands.h"

#include <QCoreApplication>

#include <algorithm>

namespace shoal::ui {

namespace {

QString checkTitle(const CheckDesc& check)
{
    return QString::fromStdString(check.name.empty() ? check.metric : check.name);
}

std::string renamedMetric(const std::string& metric, const std::string& from, const std::string& to)
{
    if (metric.empty() || checkMetricGroup(metric) != from)
        return metric;
    return checkMetricName(to, metric.substr(from.size() + 1));
}

} // namespace

std::string checkMetricGroup(const std::string& metric)
{
    const std::size_t dot = metric.rfind('.');
    return dot == std::string::npos ? std::string() : metric.substr(0, dot);
}

std::string checkMetricName(const std::string& group, const std::string& key)
{
    return group + "." + key;
}

std::vector<CheckDesc> checksWithGroupRenamed(std::vector<CheckDesc> checks,
                                              const std::string& from, const std::string& to)
{
    for (CheckDesc& check : checks) {
        check.metric = renamedMetric(check.metric, from, to);
        check.valueMetric = renamedMetric(check.valueMetric, from, to);
    }
    return checks;
}

std::vector<CheckDesc> checksWithoutGroups(std::vector<CheckDesc> checks,
                                           const std::vector<std::string>& groups)
{
    auto names = [&](const std::string& metric) {
        return !metric.empty() &&
               std::find(groups.begin(), groups.end(), checkMetricGroup(metric)) != groups.end();
    };
    checks.erase(std::remove_if(checks.begin(), checks.end(),
                                [&](const CheckDesc& check) {
                                    return names(check.metric) || names(check.valueMetric);
                                }),
                 checks.end());
    return checks;
}

std::optional<Error> checkRefusal(const SceneDesc& scene, int index, const CheckDesc& check)
{
    std::vector<CheckDesc> checks = scene.checks;
    if (index < 0 || static_cast<std::size_t>(index) >= checks.size())
        checks.push_back(check);
    else
        checks[static_cast<std::size_t>(index)] = check;
    return validateChecks(checks);
}

QUndoCommand* makeAddCheckCommand(Document* document, const CheckDesc& check)
{
    const SceneDesc& scene = document->scene();
    if (checkRefusal(scene, static_cast<int>(scene.checks.size()), check))
        return nullptr;
    std::vector<CheckDesc> checks = scene.checks;
    checks.push_back(check);
    auto* command =
        new SetChecksCommand(document, static_cast<int>(checks.size()) - 1, std::move(checks));
    command->setText(
        QCoreApplication::translate("UndoCommands", "Add Check '%1'").arg(checkTitle(check)));
    return command;
}

QUndoCommand* makeEditCheckCommand(Document* document, int index, const CheckDesc& check)
{
    const SceneDesc& scene = document->scene();
    if (index < 0 || static_cast<std::size_t>(index) >= scene.checks.size() ||
        scene.checks[static_cast<std::size_t>(index)] == check || checkRefusal(scene, index, check))
        return nullptr;
    std::vector<CheckDesc> checks = scene.checks;
    checks[static_cast<std::size_t>(index)] = check;
    auto* command = new SetChecksCommand(document, index, std::move(checks));
    command->setText(
        QCoreApplication::translate("UndoCommands", "Change Check '%1'").arg(checkTitle(check)));
    return command;
}

QUndoCommand* makeRemoveCheckCommand(Document* document, int index)
{
    const SceneDesc& scene = document->scene();
    if (index < 0 || static_cast<std::size_t>(index) >= scene.checks.size())
        return nullptr;
    std::vector<CheckDesc> checks = scene.checks;
    const CheckDesc removed = checks[static_cast<std::size_t>(index)];
    checks.erase(checks.begin() + index);
    auto* command = new SetChecksCommand(document, -1, std::move(checks));
    command->setText(
        QCoreApplication::translate("UndoCommands", "Delete Check '%1'").arg(checkTitle(removed)));
    return command;
}

} // namespace shoal::ui
