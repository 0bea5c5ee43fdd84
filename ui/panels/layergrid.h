#pragma once
/// The 32 collision layers of a group as one compact grid (after Godot's layer grid): four
/// rows of eight numbered cells, in blocks of four. A click toggles a layer; a drag paints
/// the state of the first cell over the others; Space toggles the focused cell (arrow keys
/// move it); the context menu sets all, none or only one. It owns no value: a finished
/// gesture emits edited() once (one undo step) and the panel decides; setLayers() shows the
/// model's value without emitting. Several groups with different layers show a cell that
/// only some have as mixed; an edit sets or clears only the cells it touched.

#include <QWidget>

#include <cstdint>

namespace shoal::ui {

class LayerGrid : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kLayers = 32;
    static constexpr int kColumns = 8;
    static constexpr int kRows = kLayers / kColumns;

    explicit LayerGrid(QWidget* parent = nullptr);

    /// Shows bit k of `on` as layer k + 1 on; bits of `mixed` (several groups, only some on
    /// that layer) as mixed. Emits nothing.
    void setLayers(std::uint32_t on, std::uint32_t mixed = 0);
    std::uint32_t layers() const { return m_on; }
    std::uint32_t mixedLayers() const { return m_mixed; }

    /// What the cells' tooltip says before the cell's own line (the row's explanation).
    void setDescription(const QString& html) { m_description = html; }

    /// The cell of layer `layer` (1..32), in widget coordinates; the layer under `point`
    /// (0: none).
    QRect cellRect(int layer) const;
    int layerAt(const QPoint& point) const;
    /// The layer the keyboard acts on (1..32).
    int focusLayer() const { return m_focus; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user finished an edit: the layers in `set` are now on, those in `cleared` off
    /// (on every edited group); other layers are as they were.
    void edited(std::uint32_t set, std::uint32_t cleared);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// Cell size and gaps for the current width.
    struct Metrics
    {
        int cellWidth = 0;
        int cellHeight = 0;
    };
    Metrics metrics() const;
    int naturalCellWidth() const;
    int cellHeight() const;
    QFont numberFont() const;
    /// Shows the drag's painted cells (not yet emitted) over the model's state.
    bool shownOn(int layer) const;
    bool shownMixed(int layer) const;
    void paintCell(int layer);
    void finishDrag();
    void emitEdit(std::uint32_t set, std::uint32_t cleared);

    std::uint32_t m_on = 0;
    std::uint32_t m_mixed = 0;
    QString m_description;
    int m_hover = 0;
    int m_focus = 1;
    bool m_dragging = false;
    bool m_dragState = false;      ///< what the drag paints: on or off
    std::uint32_t m_dragCells = 0; ///< the cells the drag went over
};

/// "1, 3, 5–8", or "none" / "all": a set of layers (bit k = layer k + 1) in words.
QString layerListText(std::uint32_t layers);

} // namespace shoal::ui
