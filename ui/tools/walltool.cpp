#include "tools/walltool.h"

#include "document/commands.h"
#include "viewport/editorscene.h"
#include "window/toolicons.h"

namespace shoal::ui {

WallTool::WallTool(QObject* parent)
    : ChainTool(tr("Wall"), toolIcon(ToolIcon::Wall), QKeySequence(Qt::Key_W), parent)
{
    setStatusInfo(tr("Click to add wall points; double-click, right-click or Enter finishes; "
                     "click the first point to close a loop; Backspace removes the last point; "
                     "Escape cancels"));
}

void WallTool::commitChain(const std::vector<Point2>& points, bool closed)
{
    const std::size_t needed = closed ? 3 : 2;
    if (points.size() < needed) {
        emit scene()->statusMessage(tr("A wall needs at least two points"));
        return;
    }
    const WallDesc wall{points, closed};
    pushChecked(new AddWallCommand(document(), -1, wall));
}

} // namespace shoal::ui
