#pragma once
// The mouse wheel over the settings form scrolls the form. Spin boxes, combo boxes and sliders
// take the wheel only once they have the focus (a click or Tab): otherwise scrolling past them
// changed whichever setting passed under the pointer (m 100 → 10 while scrolling).
#include <QObject>

namespace ui {

class WheelGuard : public QObject {
    Q_OBJECT
public:
    explicit WheelGuard(QObject *parent = nullptr);

    /// Guards every spin box, combo box and slider under `root` (and `root` itself): strong
    /// focus, so the wheel does not give them the focus, and wheel events passed on to the
    /// scroll area around them while they have none. The guard is a child of `root`.
    static void guardChildren(QWidget *root);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace ui
