#pragma once
// The compare-mode switch of the control panel: when checked, the run covers two to four
// methods on the same data and seeds, shown side by side (Seita et al. Sec. 6.1, Table 1).
#include <QGroupBox>
#include <QMap>
#include <QVector>

#include <vector>

#include "core/experiment/settings/run_config.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
QT_END_NAMESPACE

namespace ui {

/// One sentence on what an acceptance test is, with the paper's section.
QString methodDescription(core::TestMethod method);

class CompareBox : public QGroupBox {
    Q_OBJECT
public:
    static constexpr int kMinMethods = 2;
    static constexpr int kMaxMethods = 4;

    explicit CompareBox(QWidget *parent = nullptr);

    /// The methods the box offers (every method the desktop app runs), in table order.
    static QVector<core::TestMethod> offeredMethods();

    /// The ticked methods in table order.
    std::vector<core::TestMethod> methods() const;
    /// Ticks exactly these (unknown ones are ignored).
    void setMethods(const std::vector<core::TestMethod> &methods);
    /// Whether compare mode is on and 2–4 methods are ticked.
    bool isValidSelection() const;
    QCheckBox *checkBox(core::TestMethod method) const { return m_boxes.value(method); }

signals:
    void selectionChanged();

private:
    void updateHint();

    QMap<core::TestMethod, QCheckBox *> m_boxes;
    QLabel *m_hint = nullptr;
};

} // namespace ui
