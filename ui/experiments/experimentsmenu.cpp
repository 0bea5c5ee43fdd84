#include "experiments/experimentsmenu.h"

#include "experiments/sweepdialog.h"
#include "experiments/tunedialog.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>

#include <memory>

namespace shoal::ui {

namespace {

/// Shows the dialog `slot` holds, or a new one made by `make` (deleted when closed).
template <class Dialog, class Make> void showDialog(QPointer<Dialog>& slot, Make make)
{
    if (!slot) {
        slot = make();
        slot->setAttribute(Qt::WA_DeleteOnClose);
    }
    slot->show();
    slot->raise();
    slot->activateWindow();
}

QString menuText(const char* text)
{
    return QCoreApplication::translate("ExperimentsMenu", text);
}

} // namespace

void addExperimentsMenu(QMenuBar* bar, Document* document, QWidget* window)
{
    QMenu* menu = bar->addMenu(menuText("E&xperiments"));
    menu->setObjectName(QStringLiteral("experimentsMenu"));
    // The open dialogs live as long as the menu's window; the pointers with the actions.
    auto sweep = std::make_shared<QPointer<SweepDialog>>();
    auto tune = std::make_shared<QPointer<TuneDialog>>();
    QAction* sweepAction = menu->addAction(menuText("&Sweep Parameters..."), window, [=]() {
        showDialog(*sweep, [=]() { return new SweepDialog(document, window); });
    });
    sweepAction->setObjectName(QStringLiteral("sweepAction"));
    sweepAction->setStatusTip(menuText("Run the scene over a grid of one or two parameters of a "
                                       "group and see the results as a heatmap"));
    QAction* tuneAction = menu->addAction(menuText("&Tune Parameters..."), window, [=]() {
        showDialog(*tune, [=]() { return new TuneDialog(document, window); });
    });
    tuneAction->setObjectName(QStringLiteral("tuneAction"));
    tuneAction->setStatusTip(menuText("Search a group's parameters for the values that make the "
                                      "checks pass or a metric small"));
}

} // namespace shoal::ui
