#pragma once
/// Which groups the user has selected (in the group list, or by clicking a group's spawn area
/// or agents). The property panel edits these; overlays draw for them. Indices into
/// SceneDesc::groups; kept valid when groups are added or removed.

#include <QList>
#include <QObject>
#include <QStringList>

namespace shoal::ui {

class Document;
struct Change;

class GroupSelection : public QObject
{
    Q_OBJECT

public:
    explicit GroupSelection(Document* document, QObject* parent = nullptr);

    const QList<int>& groups() const { return m_groups; }
    /// The first selected group, or -1.
    int current() const { return m_groups.isEmpty() ? -1 : m_groups.first(); }
    bool contains(int group) const { return m_groups.contains(group); }

public slots:
    void setGroups(const QList<int>& groups);
    void select(int group);
    void clear();

signals:
    void selectionChanged();

private:
    void onDocumentChanged(const Change& change);
    QStringList namesOf(const QList<int>& groups) const;

    Document* m_document;
    QList<int> m_groups;
    /// The selected groups' names, to find them again when groups are added or removed
    /// before them (names are unique in a scene).
    QStringList m_names;
    int m_groupCount = 0;
};

} // namespace shoal::ui
