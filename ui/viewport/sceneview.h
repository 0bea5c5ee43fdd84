#pragma once
/// The viewport: a QGraphicsView over the EditorScene. Scene coordinates are metres with y up;
/// the view's transform is scale(ppm, -ppm), so items (and the agent layer) draw in world
/// coordinates directly. Wheel zooms anchored under the mouse; the middle button or Space+drag
/// pans; a tap of Space (no drag) asks to toggle play. Every other mouse event goes to the
/// scene, and through it to the tools (the play tool steers while the simulation plays).

#include <QGraphicsView>

namespace shoal::ui {

class EditorScene;

class SceneView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit SceneView(EditorScene* scene, QWidget* parent = nullptr);

    EditorScene* editorScene() const { return m_scene; }

    /// Pixels per metre (the zoom). 50 px = 1 m is "100 %".
    double pixelsPerMetre() const { return m_pixelsPerMetre; }
    void setPixelsPerMetre(double ppm);
    static constexpr double kMinPixelsPerMetre = 0.03;
    static constexpr double kMaxPixelsPerMetre = 2000.0;
    static constexpr double kNominalPixelsPerMetre = 50.0;

public slots:
    void zoomIn();
    void zoomOut();
    /// Zoom and centre so the level's bounds fill the viewport. The view keeps it fitted as it
    /// is resized (a dock dragged wider) until the user zooms or pans.
    void fitToLevel();
    /// The cursor for the current state (pan, Space held, the active tool's).
    void refreshCursor();

signals:
    /// Space pressed and released without a drag: toggle play.
    void playToggleRequested();
    /// The mouse is over `scenePos` (m), for the status bar.
    void cursorMoved(QPointF scenePos);
    void zoomChanged(double pixelsPerMetre);

protected:
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void zoomBy(double factor, QPoint anchor);
    void panBy(QPoint delta);

    EditorScene* m_scene;
    double m_pixelsPerMetre = kNominalPixelsPerMetre;
    bool m_panning = false;
    QPoint m_panLast;
    bool m_spaceHeld = false;
    bool m_spaceUsedForPan = false;
    bool m_fitted = false;     ///< fitted once on first show
    bool m_keepFitted = false; ///< fitted, and not zoomed or panned since: refit on resize
};

} // namespace shoal::ui
