#include "problems/problemkinds.h"

#include <QCoreApplication>

namespace shoal::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("Problems", text);
}

} // namespace

QString problemKindName(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::Stuck:
        return tr("Stuck");
    case ProblemKind::Oscillating:
        return tr("Oscillating");
    case ProblemKind::Overlap:
        return tr("Overlapping");
    case ProblemKind::InWall:
        return tr("In a wall");
    case ProblemKind::GoalNotReached:
        return tr("No progress");
    }
    return {};
}

QColor problemKindColor(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::Stuck:
        return QColor(0xf2, 0xa7, 0x2e);
    case ProblemKind::Oscillating:
        return QColor(0xb3, 0x7d, 0xff);
    case ProblemKind::Overlap:
        return QColor(0xff, 0x4d, 0x4d);
    case ProblemKind::InWall:
        return QColor(0xff, 0x7a, 0x33);
    case ProblemKind::GoalNotReached:
        return QColor(0x3c, 0xc8, 0xe6);
    }
    return Qt::white;
}

QString problemDetail(const Problem& problem)
{
    const double v = problem.value;
    switch (problem.kind) {
    case ProblemKind::Stuck:
        return tr("going nowhere for %1 s").arg(v, 0, 'f', 1);
    case ProblemKind::Oscillating:
        return tr("%1 reversals in a second").arg(v, 0, 'f', 0);
    case ProblemKind::Overlap:
        return tr("%1 cm into another body").arg(v * 100.0, 0, 'f', 0);
    case ProblemKind::InWall:
        return tr("%1 cm into a wall").arg(v * 100.0, 0, 'f', 0);
    case ProblemKind::GoalNotReached:
        return tr("no closer to its goal for %1 s").arg(v, 0, 'f', 0);
    }
    return {};
}

} // namespace shoal::ui
