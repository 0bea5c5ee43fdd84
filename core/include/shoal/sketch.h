#pragma once
/// What a behaviour family shows a viewer, without the viewer knowing the family: debug
/// shapes in world coordinates (radii, bands, goal points, feeler rays, labels), the bodies
/// of agents longer than a disc (a worm's centre line and ribbon), and per-agent state
/// names. World::sketch() fills a Sketch for one group; the editor only maps tones to
/// colours and draws. A new family describes itself here and no editor code changes.

#include <shoal/behaviourkind.h>
#include <shoal/export.h>
#include <shoal/vec2.h>

#include <cstdint>
#include <string>
#include <vector>

namespace shoal {

/// How a sketched shape should read; the viewer picks a colour per tone.
enum class SketchTone : std::uint8_t
{
    Faint,     ///< a radius that is fine
    Reference, ///< lines of reference
    Warm,      ///< too close, a hit
    Cool,      ///< closing up
    Goal,      ///< targets and goals
    Good,      ///< where an agent wants to be, at rest
    Danger,    ///< a zone to keep out of
    Shade,     ///< dark lines over light bodies
    Light,     ///< light marks over dark lines
};

enum class SketchStroke : std::uint8_t
{
    Solid,
    Dashed,
    Dotted,
    None
};

/// Pen and fill of a shape. Widths are screen pixels, opacities 0-255.
struct SHOAL_API SketchStyle
{
    SketchTone tone = SketchTone::Faint;
    SketchStroke stroke = SketchStroke::Solid;
    float width = 1.0f;         ///< pen width, px
    std::uint8_t alpha = 0;     ///< pen opacity; 0 = the tone's own
    bool filled = false;        ///< filled with the tone
    std::uint8_t fillAlpha = 0; ///< fill opacity; 0 = the tone's own
};

/// A circle of `radius` metres.
struct SHOAL_API SketchCircle
{
    Vec2 centre;
    float radius = 0.0f;
    SketchStyle style;
};

/// The band between two radii, filled, with both edges stroked.
struct SHOAL_API SketchRing
{
    Vec2 centre;
    float inner = 0.0f;
    float outer = 0.0f;
    SketchStyle style;
};

struct SHOAL_API SketchLine
{
    Vec2 from;
    Vec2 to;
    SketchStyle style;
};

/// A mark of a fixed size on screen, centred on a point.
struct SHOAL_API SketchMark
{
    enum class Shape : std::uint8_t
    {
        Dot,    ///< a disc
        Cross,  ///< an x
        Square, ///< a square, axis-aligned on screen
        Circle, ///< a circle
    };
    Vec2 at;
    Shape shape = Shape::Dot;
    float pixels = 3.0f; ///< radius or half side, px
    SketchStyle style;
};

/// A short text beside a point, drawn at a fixed size on screen.
struct SHOAL_API SketchLabel
{
    Vec2 at;
    std::string text;
    SketchTone tone = SketchTone::Reference;
};

/// A polyline: `count` points of Sketch::points from `first`.
struct SHOAL_API SketchPath
{
    std::size_t first = 0;
    std::size_t count = 0;
    SketchStyle style;
};

/// What the viewer shows, so the family can leave out what would not read: the part of the
/// level on screen and the zoom.
struct SHOAL_API SketchRequest
{
    Vec2 viewMin; ///< lower-left corner of the view, m
    Vec2 viewMax; ///< upper-right corner of the view, m
    float pixelsPerMetre = 50.0f;
    /// Per-agent circles are left out when more agents than this are on screen: they would
    /// only be a grey fog.
    int maxAgentCircles = 1500;

    bool visible(Vec2 p, float pad = 0.0f) const
    {
        return p.x >= viewMin.x - pad && p.x <= viewMax.x + pad && p.y >= viewMin.y - pad &&
               p.y <= viewMax.y + pad;
    }
    /// Metres that show as `pixels` on screen.
    float metres(float pixels) const { return pixels / pixelsPerMetre; }
};

/// One group's debug drawing. Drawn in this order: rings, circles, paths, lines, marks (in
/// the order given), labels. Cleared and refilled per frame; its vectors keep their memory.
struct SHOAL_API Sketch
{
    std::vector<SketchRing> rings;
    std::vector<SketchCircle> circles;
    std::vector<Vec2> points; ///< the paths' points
    std::vector<SketchPath> paths;
    std::vector<SketchLine> lines;
    std::vector<SketchMark> marks;
    std::vector<SketchLabel> labels;

    void clear()
    {
        rings.clear();
        circles.clear();
        points.clear();
        paths.clear();
        lines.clear();
        marks.clear();
        labels.clear();
    }
    bool empty() const
    {
        return rings.empty() && circles.empty() && paths.empty() && lines.empty() &&
               marks.empty() && labels.empty();
    }
};

/// How a viewer presents a family: the menu entry of its own overlay, how its agents are
/// drawn and told apart, and what a new group of it starts as. Registered with the family,
/// so a new family brings its own and no editor code changes.
struct SHOAL_API FamilyView
{
    /// The shape an agent is drawn as close up.
    enum class Glyph : std::uint8_t
    {
        Fish,
        Tank,
        Dart,
        Chevron,
        Ribbon
    };

    std::string overlayKey;     ///< stable, for settings: "fishBand", "squadRanges", ...
    std::string overlayLabel;   ///< menu text of the family's overlay
    std::string overlayToolTip; ///< what the overlay draws
    Glyph glyph = Glyph::Dart;
    std::uint8_t dimUnlessFlag = 0; ///< agents without this AgentFlag are drawn dimmed (free fish)
    std::uint8_t restingFlag = 0;   ///< agents with this AgentFlag are drawn at rest (parked)
    bool leaderFirst = false;       ///< agent 0 is drawn as the group's leader
    bool takesTarget = false;       ///< the group heads for a target the designer places
    std::string groupName;          ///< stem of a new group's name ("school")
    int usualCount = 10;            ///< agents in a new group placed in one click
    int paintedCount = 10;          ///< agents in a spawn area painted by hand
};

/// How a viewer presents `kind`.
SHOAL_API const FamilyView& familyView(BehaviourKind kind);

/// Agents whose bodies are longer than a disc (a worm): each body a centre line, head first,
/// drawn as a ribbon of bodyWidth(). Indices are the group's agent indices.
class SHOAL_API AgentBodies
{
public:
    virtual ~AgentBodies() = default;
    virtual int bodyCount() const = 0;
    /// Ribbon width, m.
    virtual float bodyWidth() const = 0;
    /// Shortest segment between two joints, m (a viewer's level of detail).
    virtual float segmentLength() const = 0;
    /// Points of the centre line, head first, tail last (at least 2).
    virtual int pointCount(int body) const = 0;
    virtual Vec2 point(int body, int k) const = 0;
    /// Length of the centre line now, m.
    virtual float centreLineLength(int body) const = 0;
    /// The ribbon's left and right edges, one point per centre-line point, head first.
    virtual void outline(int body, std::vector<Vec2>& left, std::vector<Vec2>& right) const = 0;
};

/// The neighbour grid of a group as a viewer draws it.
struct SHOAL_API GridSketch
{
    Vec2 origin; ///< lower-left corner of cell 0, m
    float columnWidth = 0.0f;
    float rowHeight = 0.0f;
    int columns = 0;
    int rows = 0;
};

} // namespace shoal
