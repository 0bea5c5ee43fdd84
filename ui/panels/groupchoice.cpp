#include "panels/groupchoice.h"

#include "document/qtstrings.h"

#include <QComboBox>
#include <QSignalBlocker>
#include <QStringList>

#include <algorithm>

namespace shoal::ui {

bool refillGroupChoice(QComboBox* box, const SceneDesc& scene)
{
    const QString shown = box->currentText();
    QStringList names;
    for (const GroupDesc& group : scene.groups)
        names << qs(group.name);
    QStringList listed;
    for (int i = 0; i < box->count(); ++i)
        listed << box->itemText(i);
    if (names == listed)
        return false;
    const QSignalBlocker blocker(box);
    box->clear();
    box->addItems(names);
    box->setCurrentIndex(std::max(0, static_cast<int>(names.indexOf(shown))));
    return true;
}

} // namespace shoal::ui
