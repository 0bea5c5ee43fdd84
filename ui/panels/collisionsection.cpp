#include "panels/collisionsection.h"

#include "document/document.h"
#include "document/groupcommands.h"
#include "document/qtstrings.h"
#include "panels/layergrid.h"
#include "panels/paramrow.h"

#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>

#include <algorithm>

namespace shoal::ui {

namespace {

/// One side of a meeting of bodies, as the body pass sees it.
struct Body
{
    std::uint32_t layers = 1;
    std::uint32_t mask = 1;
    int priority = 1;
    bool fixed = false; ///< never moved: the player, worm heads
};

Body bodyOf(const GroupDesc& group)
{
    // A worm's body is the path its head took: nobody pushes it (the core's keepsOwnBodies).
    return {group.collision.layers, group.collision.mask, group.collision.priority,
            group.kind == BehaviourKind::Worm};
}

/// Whether `a` gives way to `b` where they overlap: its mask has b's layer and b does not
/// have a lower priority, or b is never moved (core/src/world/bodypass.cpp, giveWay()).
bool givesWay(const Body& a, const Body& b)
{
    if (a.fixed || !(a.mask & b.layers))
        return false;
    return b.fixed || b.priority >= a.priority;
}

QString rowToolTip(const QString& label, const QString& key, const QString& text,
                   const QString& range)
{
    return QStringLiteral(
               "<p><b>%1</b> <span style=\"color:gray\">%2</span></p><p>%3</p><p><i>%4</i></p>")
        .arg(label.toHtmlEscaped(), key.toHtmlEscaped(), text, range.toHtmlEscaped());
}

QString layersToolTip()
{
    return rowToolTip(
        CollisionSection::tr("Layers"), QStringLiteral("collision.layers"),
        CollisionSection::tr(
            "The layers this group's bodies are on. A layer is only a name, numbered 1 to "
            "32: it means something through the masks that name it. A group's bodies push "
            "those of every group whose mask has one of these layers. Put groups on layers "
            "of their own to choose which of them meet."),
        CollisionSection::tr("Layers 1 to 32, any number of them; default 1"));
}

QString maskToolTip()
{
    return rowToolTip(
        CollisionSection::tr("Mask"), QStringLiteral("collision.mask"),
        CollisionSection::tr(
            "The layers whose bodies this group's bodies give way to: where one of its "
            "bodies overlaps a body on a layer of its mask, it is pushed out, unless that "
            "body has a lower priority. Two groups meet when either one's mask has a layer "
            "of the other; when neither does, they pass through each other. No layers: "
            "nobody pushes this group (the worms' default: they crawl over each other)."),
        CollisionSection::tr("Layers 1 to 32; default 1, none for worms"));
}

QString priorityToolTip()
{
    return rowToolTip(
        CollisionSection::tr("Priority"), QStringLiteral("collision.priority"),
        CollisionSection::tr(
            "Who gives way where two bodies meet. A body never gives way to one of lower "
            "priority: the higher one pushes the lower aside and is not moved itself. Equal "
            "priorities share the overlap, both moving half of it. The player and worms "
            "never give way, and every body whose mask has their layer gives way to them, "
            "whatever the priorities."),
        CollisionSection::tr("Range 0 to %1; default 2 for tank squads, 1 for the others")
            .arg(kMaxCollisionPriority));
}

QString resetToolTip(const QList<int>& groups, const SceneDesc& scene, const char* field)
{
    QStringList defaults;
    for (int g : groups) {
        const GroupDesc& group = scene.groups[static_cast<std::size_t>(g)];
        const CollisionDesc d = defaultCollision(group.kind);
        QString text;
        if (qstrcmp(field, "layers") == 0)
            text = layerListText(d.layers);
        else if (qstrcmp(field, "mask") == 0)
            text = layerListText(d.mask);
        else
            text = QString::number(d.priority);
        if (!defaults.contains(text))
            defaults.append(text);
    }
    if (defaults.size() == 1)
        return CollisionSection::tr("Reset to the default (%1)").arg(defaults.first());
    return CollisionSection::tr("Reset each group to its family's default");
}

} // namespace

CollisionSection::CollisionSection(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(6);
    m_grid->setVerticalSpacing(4);

    m_layersLabel = addLabel(tr("Layers"), layersToolTip(), 0);
    m_layers = new LayerGrid(this);
    m_layers->setDescription(layersToolTip());
    m_grid->addWidget(m_layers, 0, 1, 1, 3);
    m_layersReset = addReset(Field::Layers, 0);
    connect(m_layers, &LayerGrid::edited, this, [this](std::uint32_t set, std::uint32_t cleared) {
        editLayers(Field::Layers, set, cleared);
    });

    m_maskLabel = addLabel(tr("Mask"), maskToolTip(), 1);
    m_mask = new LayerGrid(this);
    m_mask->setDescription(maskToolTip());
    m_grid->addWidget(m_mask, 1, 1, 1, 3);
    m_maskReset = addReset(Field::Mask, 1);
    connect(m_mask, &LayerGrid::edited, this, [this](std::uint32_t set, std::uint32_t cleared) {
        editLayers(Field::Mask, set, cleared);
    });

    m_priorityLabel = addLabel(tr("Priority"), priorityToolTip(), 2);
    m_priority = new FocusWheel<QSpinBox>(this);
    m_priority->setRange(0, kMaxCollisionPriority);
    // One undo step per finished entry, not per keystroke (as the parameters' spin boxes).
    m_priority->setKeyboardTracking(false);
    m_priority->setFocusPolicy(Qt::StrongFocus);
    m_priority->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_priority->setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("8888.888")) + 30);
    m_priority->setToolTip(priorityToolTip());
    m_grid->addWidget(m_priority, 2, 2);
    // The grids reach into the unit column (as the seed's line edit does); the spin box
    // keeps the spin boxes' column.
    auto* unitSpace = new QWidget(this);
    m_grid->addWidget(unitSpace, 2, 3);
    m_unitSpaces.append(unitSpace);
    m_priorityReset = addReset(Field::Priority, 2);
    connect(m_priority, &QSpinBox::valueChanged, this, &CollisionSection::editPriority);

    // What the rule means for this group against every other body of the level.
    const QString tips[] = {
        tr("Groups whose bodies push this group's aside: its mask has their layer and their "
           "priority is not lower (the player and worms always push)."),
        tr("Groups this group's bodies push aside: their mask has its layer, and their "
           "priority is lower."),
        tr("Groups that meet this one at the same priority: both give way, each moving half "
           "of an overlap."),
        tr("Groups that neither push nor are pushed by this one: no mask of the two has the "
           "other's layer."),
    };
    const QString titles[] = {tr("Gives way to"), tr("Pushes aside"), tr("Both give way"),
                              tr("Passes through")};
    QPalette subtle = palette();
    subtle.setColor(QPalette::WindowText, subtle.color(QPalette::PlaceholderText));
    for (int i = 0; i < 4; ++i) {
        SummaryRow row;
        row.title = new QLabel(titles[i], this);
        row.title->setPalette(subtle);
        row.title->setToolTip(tips[i]);
        row.title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        row.names = new QLabel(this);
        row.names->setWordWrap(true);
        row.names->setTextFormat(Qt::PlainText);
        row.names->setToolTip(tips[i]);
        row.names->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        row.names->setMinimumWidth(1);
        m_grid->addWidget(row.title, 4 + i, 0);
        m_grid->addWidget(row.names, 4 + i, 1, 1, 4);
        m_summary.append(row);
    }
    // A little air between the rows and what they mean (an empty row).
    m_grid->setRowMinimumHeight(3, 2);
    m_grid->setColumnStretch(1, 1);
}

QLabel* CollisionSection::addLabel(const QString& text, const QString& tooltip, int row)
{
    auto* label = new QLabel(text, this);
    label->setToolTip(tooltip);
    // The grids are taller than a line: their label sits by the first row of cells.
    m_grid->addWidget(label, row, 0, row < 2 ? Qt::AlignTop : Qt::AlignVCenter);
    return label;
}

QToolButton* CollisionSection::addReset(Field field, int row)
{
    auto* button = new QToolButton(this);
    button->setAutoRaise(true);
    button->setIcon(resetIcon(palette().color(QPalette::ButtonText)));
    button->setIconSize(QSize(12, 12));
    button->setFocusPolicy(Qt::NoFocus);
    m_grid->addWidget(button, row, 4, row < 2 ? Qt::AlignTop : Qt::AlignVCenter);
    connect(button, &QToolButton::clicked, this, [this, field] { reset(field); });
    return button;
}

void CollisionSection::setColumnWidths(int labelWidth, int unitWidth)
{
    for (QLabel* label : {m_layersLabel, m_maskLabel, m_priorityLabel})
        label->setFixedWidth(labelWidth);
    for (const SummaryRow& row : std::as_const(m_summary))
        row.title->setFixedWidth(labelWidth);
    for (QWidget* space : std::as_const(m_unitSpaces))
        space->setFixedWidth(unitWidth);
}

int CollisionSection::labelWidthHint() const
{
    int width = 0;
    QFont italic = m_layersLabel->font();
    italic.setItalic(true);
    for (const QString& text : {tr("Layers"), tr("Mask"), tr("Priority")})
        width = std::max(width,
                         QFontMetrics(italic).horizontalAdvance(text + QStringLiteral(" *")) + 4);
    for (const SummaryRow& row : m_summary)
        width = std::max(width, row.title->fontMetrics().horizontalAdvance(row.title->text()) + 4);
    return width;
}

void CollisionSection::setGroups(const QList<int>& groups)
{
    m_groups = groups;
    refresh();
}

void CollisionSection::setMixed(QLabel* label, const QString& text, const QString& tooltip,
                                bool mixed)
{
    QFont font = label->font();
    font.setItalic(mixed);
    label->setFont(font);
    label->setText(mixed ? text + QStringLiteral(" *") : text);
    label->setToolTip(mixed ? tooltip +
                                  tr("<p>* The selected groups have different values; an edit sets "
                                     "them all.</p>")
                            : tooltip);
}

void CollisionSection::refresh()
{
    const SceneDesc& scene = m_document->scene();
    const auto count = static_cast<int>(scene.groups.size());
    m_groups.erase(std::remove_if(m_groups.begin(), m_groups.end(),
                                  [count](int g) { return g < 0 || g >= count; }),
                   m_groups.end());
    if (m_groups.isEmpty())
        return;
    std::uint32_t layersAll = ~0u, layersAny = 0, maskAll = ~0u, maskAny = 0;
    bool layersChanged = false, maskChanged = false, priorityChanged = false;
    const int priority =
        scene.groups[static_cast<std::size_t>(m_groups.first())].collision.priority;
    bool priorityMixed = false;
    for (int g : std::as_const(m_groups)) {
        const GroupDesc& group = scene.groups[static_cast<std::size_t>(g)];
        const CollisionDesc& c = group.collision;
        const CollisionDesc d = defaultCollision(group.kind);
        layersAll &= c.layers;
        layersAny |= c.layers;
        maskAll &= c.mask;
        maskAny |= c.mask;
        priorityMixed = priorityMixed || c.priority != priority;
        layersChanged = layersChanged || c.layers != d.layers;
        maskChanged = maskChanged || c.mask != d.mask;
        priorityChanged = priorityChanged || c.priority != d.priority;
    }
    m_layers->setLayers(layersAll, layersAny & ~layersAll);
    m_mask->setLayers(maskAll, maskAny & ~maskAll);
    {
        const QSignalBlocker blocker(m_priority);
        m_priority->setValue(priority);
    }
    setMixed(m_layersLabel, tr("Layers"), layersToolTip(), layersAll != layersAny);
    setMixed(m_maskLabel, tr("Mask"), maskToolTip(), maskAll != maskAny);
    setMixed(m_priorityLabel, tr("Priority"), priorityToolTip(), priorityMixed);
    m_layersReset->setEnabled(layersChanged);
    m_maskReset->setEnabled(maskChanged);
    m_priorityReset->setEnabled(priorityChanged);
    m_layersReset->setToolTip(resetToolTip(m_groups, scene, "layers"));
    m_maskReset->setToolTip(resetToolTip(m_groups, scene, "mask"));
    m_priorityReset->setToolTip(resetToolTip(m_groups, scene, "priority"));
    refreshSummary();
}

void CollisionSection::refreshSummary()
{
    const SceneDesc& scene = m_document->scene();
    QStringList names[4];
    if (m_groups.size() == 1) {
        const int self = m_groups.first();
        const Body own = bodyOf(scene.groups[static_cast<std::size_t>(self)]);
        auto sort = [&](const Body& other, const QString& name) {
            const bool ownGives = givesWay(own, other);
            const bool otherGives = givesWay(other, own);
            const int bucket = ownGives && otherGives ? 2 : ownGives ? 0 : otherGives ? 1 : 3;
            names[bucket].append(name);
        };
        for (std::size_t g = 0; g < scene.groups.size(); ++g)
            sort(bodyOf(scene.groups[g]),
                 static_cast<int>(g) == self ? tr("its own bodies") : qs(scene.groups[g].name));
        if (scene.player.enabled) {
            // The player is a body nobody moves; when it leads a group it is that group's
            // agent 0, on the group's layers; alone it is on layer 1.
            const int led = scene.player.group.empty() ? -1 : scene.groupIndex(scene.player.group);
            Body player{1u, 0u, kMaxCollisionPriority + 1, true};
            if (led >= 0)
                player.layers = scene.groups[static_cast<std::size_t>(led)].collision.layers;
            sort(player, tr("the player"));
        }
    }
    bool relayout = false;
    for (int i = 0; i < m_summary.size(); ++i) {
        const bool shown = !names[i].isEmpty();
        m_summary[i].names->setText(names[i].join(QStringLiteral(", ")));
        relayout = relayout || m_summary[i].title->isHidden() == shown;
        m_summary[i].title->setVisible(shown);
        m_summary[i].names->setVisible(shown);
    }
    if (relayout)
        updateGeometry(); // the panel's layout makes room, or takes it back
}

QStringList CollisionSection::summary() const
{
    QStringList lines;
    for (const SummaryRow& row : m_summary)
        if (!row.names->isHidden())
            lines.append(row.title->text() + QStringLiteral(": ") + row.names->text());
    return lines;
}

template <class Edit> void CollisionSection::apply(const char* text, Edit edit)
{
    const SceneDesc& scene = m_document->scene();
    std::vector<CollisionDesc> collisions;
    for (int g : std::as_const(m_groups)) {
        const GroupDesc& group = scene.groups[static_cast<std::size_t>(g)];
        collisions.push_back(edit(group));
    }
    if (QUndoCommand* command = makeSetCollisionCommand(
            m_document, m_groups, collisions, QCoreApplication::translate("UndoCommands", text)))
        m_document->undoStack()->push(command);
    else
        refresh(); // nothing changes: show the document's values again
}

void CollisionSection::editLayers(Field field, std::uint32_t set, std::uint32_t cleared)
{
    const bool mask = field == Field::Mask;
    apply(mask ? QT_TRANSLATE_NOOP("UndoCommands", "Change Collision Mask")
               : QT_TRANSLATE_NOOP("UndoCommands", "Change Collision Layers"),
          [&](const GroupDesc& group) {
              CollisionDesc c = group.collision;
              std::uint32_t& bits = mask ? c.mask : c.layers;
              bits = (bits | set) & ~cleared;
              return c;
          });
}

void CollisionSection::editPriority(int value)
{
    apply(QT_TRANSLATE_NOOP("UndoCommands", "Change Collision Priority"),
          [value](const GroupDesc& group) {
              CollisionDesc c = group.collision;
              c.priority = value;
              return c;
          });
}

void CollisionSection::reset(Field field)
{
    const char* text =
        field == Field::Layers ? QT_TRANSLATE_NOOP("UndoCommands", "Reset Collision Layers")
        : field == Field::Mask ? QT_TRANSLATE_NOOP("UndoCommands", "Reset Collision Mask")
                               : QT_TRANSLATE_NOOP("UndoCommands", "Reset Collision Priority");
    apply(text, [field](const GroupDesc& group) {
        CollisionDesc c = group.collision;
        const CollisionDesc d = defaultCollision(group.kind);
        if (field == Field::Layers)
            c.layers = d.layers;
        else if (field == Field::Mask)
            c.mask = d.mask;
        else
            c.priority = d.priority;
        return c;
    });
}

} // namespace shoal::ui
