#pragma once
/// The wall painter: clicks add polyline points, a double-click, right-click or Enter
/// finishes an open wall, a click on the first point closes a loop. One undo step per wall.

#include "tools/chaintool.h"

namespace shoal::ui {

class WallTool : public ChainTool
{
    Q_OBJECT

public:
    explicit WallTool(QObject* parent = nullptr);

protected:
    void commitChain(const std::vector<Point2>& points, bool closed) override;
};

} // namespace shoal::ui
