#pragma once
/// The editor's icons, drawn in code (one consistent line style, crisp at any size, no image
/// files to keep in step).

#include <QIcon>

namespace shoal::ui {

enum class ToolIcon
{
    Select,
    Wall,
    Obstacle,
    SpawnArea,
    Pickup,
    Target,
    ObstacleRectangle,
    ObstacleCircle,
    ObstaclePolygon,
    Play,
    Pause,
    Step,
    StepBack,
    Restart,
    Undo,
    Redo,
    Fit,
};

QIcon toolIcon(ToolIcon icon);

} // namespace shoal::ui
