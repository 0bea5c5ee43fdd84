#include "panels/paramlabels.h"

#include <QRegularExpression>

#include <algorithm>

namespace shoal::ui {

QString withLabels(const std::string& message, const std::vector<ParamSpec>& specs)
{
    QString text = QString::fromStdString(message);
    std::vector<const ParamSpec*> byLength;
    for (const ParamSpec& spec : specs)
        byLength.push_back(&spec);
    std::sort(byLength.begin(), byLength.end(),
              [](const ParamSpec* a, const ParamSpec* b) { return a->key.size() > b->key.size(); });
    for (const ParamSpec* spec : byLength) {
        const QRegularExpression key(
            QStringLiteral("\\b%1\\b")
                .arg(QRegularExpression::escape(QString::fromStdString(spec->key))));
        text.replace(key, QString::fromStdString(spec->label));
    }
    return text;
}

} // namespace shoal::ui
