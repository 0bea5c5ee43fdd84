#include "window/editortheme.h"

#include <QApplication>
#include <QPalette>
#include <QStyleFactory>

namespace shoal::ui {

void applyEditorTheme(QApplication& app)
{
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));

    const QColor window(0x25, 0x27, 0x2b);
    const QColor base(0x1c, 0x1e, 0x22);
    const QColor alternate(0x22, 0x25, 0x29);
    const QColor text(0xdf, 0xe3, 0xe8);
    const QColor dimText(0x80, 0x87, 0x90);
    const QColor button(0x2e, 0x31, 0x36);
    const QColor highlight(0x2f, 0x7d, 0xc9);

    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, alternate);
    palette.setColor(QPalette::ToolTipBase, QColor(0x32, 0x35, 0x3b));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::PlaceholderText, dimText);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, button);
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    palette.setColor(QPalette::Light, QColor(0x3a, 0x3e, 0x44));
    palette.setColor(QPalette::Midlight, QColor(0x33, 0x36, 0x3c));
    palette.setColor(QPalette::Mid, QColor(0x26, 0x28, 0x2c));
    palette.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1c));
    palette.setColor(QPalette::Shadow, QColor(0x0c, 0x0d, 0x0f));
    palette.setColor(QPalette::Highlight, highlight);
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, QColor(0x5c, 0xb8, 0xff));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        palette.setColor(QPalette::Disabled, role, dimText);
    palette.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x3a, 0x3e, 0x44));
    app.setPalette(palette);

    app.setStyleSheet(QStringLiteral(
        "QMainWindow::separator { background: #1b1d21; width: 3px; height: 3px; }"
        "QDockWidget { titlebar-close-icon: none; }"
        "QDockWidget::title { background: #2c2f34; padding: 5px 8px; border-bottom: 1px solid "
        "#1b1d21; }"
        "QToolButton#toolButton { padding: 4px 6px; border-radius: 4px; text-align: left; }"
        "QToolButton#toolButton:checked { background: #2f5f8f; }"
        "QToolButton#toolButton:hover:!checked { background: #34383e; }"
        "QLabel#toolHint { color: #9aa2ab; }"
        "QStatusBar { background: #1f2125; border-top: 1px solid #16181b; }"
        "QStatusBar QLabel { color: #aeb5bd; padding: 0 8px; border-left: 1px solid #2e3136; }"
        "QMenuBar { background: #25272b; }"
        "QUndoView { border: none; }"));
}

} // namespace shoal::ui
