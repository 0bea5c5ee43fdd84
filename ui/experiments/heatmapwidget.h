#pragma once
/// The sweep's heatmap, painted: one cell per combination, coloured by its value from the
/// worst (dark blue) to the best (yellow) of the cells, with the values of each axis along its
/// edge in the parameter's units, a legend of the colour scale and the best cell outlined.
/// One axis is a strip. Hovering a cell shows its values; clicking one emits cellClicked().

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace shoal::ui {

/// One edge of the heatmap: a parameter's name (with its unit) and its values.
struct HeatmapAxis
{
    QString title;
    std::vector<double> values;
};

/// The painted heatmap of the Sweep dialog.
class HeatmapWidget : public QWidget
{
    Q_OBJECT

public:
    explicit HeatmapWidget(QWidget* parent = nullptr);

    /// New axes (y empty: a strip) and no values yet.
    void setAxes(const HeatmapAxis& x, const HeatmapAxis& y);
    /// The cells' values in run order (the x axis changes fastest; NaN: none yet), the
    /// measure's name for the legend, which end is best, and the cell to outline.
    void setValues(const std::vector<double>& values, const QString& measure, bool higherIsBetter,
                   std::optional<std::size_t> best);

    int cellCount() const;
    std::optional<std::size_t> bestCell() const { return m_best; }
    /// The centre of cell `cell` in widget coordinates (tests click it).
    QPoint cellCentre(std::size_t cell) const;
    /// The cell under `pos`, or nothing.
    std::optional<std::size_t> cellAt(const QPoint& pos) const;
    /// What hovering cell `cell` shows.
    QString cellText(std::size_t cell) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellClicked(std::size_t cell);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    /// The rectangle the cells fill.
    QRect gridRect() const;
    QRect legendRect() const;
    int columns() const;
    int rows() const;
    QRectF cellRect(std::size_t cell) const;
    /// The colour of `value` on the scale from m_low to m_high (best end yellow).
    QColor colourOf(double value) const;

    HeatmapAxis m_x, m_y;
    std::vector<double> m_values;
    QString m_measure;
    bool m_higherIsBetter = true;
    std::optional<std::size_t> m_best;
    std::optional<std::size_t> m_hover;
    double m_low = 0.0, m_high = 0.0;
};

} // namespace shoal::ui
