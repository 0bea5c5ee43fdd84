#include "document/groupselection.h"

#include "document/document.h"

namespace shoal::ui {

GroupSelection::GroupSelection(Document* document, QObject* parent)
    : QObject(parent), m_document(document),
      m_groupCount(static_cast<int>(document->scene().groups.size()))
{
    connect(m_document, &Document::changed, this, &GroupSelection::onDocumentChanged);
}

void GroupSelection::setGroups(const QList<int>& groups)
{
    const int count = static_cast<int>(m_document->scene().groups.size());
    QList<int> valid;
    for (int group : groups)
        if (group >= 0 && group < count && !valid.contains(group))
            valid.append(group);
    if (valid == m_groups)
        return;
    m_groups = valid;
    m_names = namesOf(m_groups);
    emit selectionChanged();
}

void GroupSelection::select(int group)
{
    setGroups({group});
}

void GroupSelection::clear()
{
    setGroups({});
}

QStringList GroupSelection::namesOf(const QList<int>& groups) const
{
    QStringList names;
    const auto& sceneGroups = m_document->scene().groups;
    for (int group : groups)
        names.append(QString::fromStdString(sceneGroups[static_cast<std::size_t>(group)].name));
    return names;
}

void GroupSelection::onDocumentChanged(const Change& change)
{
    const auto& groups = m_document->scene().groups;
    const int count = static_cast<int>(groups.size());
    const int oldCount = m_groupCount;
    m_groupCount = count;
    if (change.kind == ChangeKind::SceneReset) {
        if (!m_groups.isEmpty()) {
            m_groups.clear();
            m_names.clear();
            emit selectionChanged();
        }
        return;
    }
    if (change.kind != ChangeKind::Groups)
        return;
    if (change.index >= 0 && count == oldCount) {
        // One group changed in place (perhaps renamed): it keeps its index.
        const int at = m_groups.indexOf(change.index);
        if (at >= 0)
            m_names[at] =
                QString::fromStdString(groups[static_cast<std::size_t>(change.index)].name);
        return;
    }
    // Groups were added, removed or reordered: follow the selected ones by name.
    QList<int> found;
    QStringList foundNames;
    for (const QString& name : std::as_const(m_names)) {
        const int index = m_document->scene().groupIndex(name.toStdString());
        if (index >= 0) {
            found.append(index);
            foundNames.append(name);
        }
    }
    m_names = foundNames;
    if (found != m_groups) {
        m_groups = found;
        emit selectionChanged();
    }
}

} // namespace shoal::ui
