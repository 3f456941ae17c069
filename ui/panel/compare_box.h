#pragma once
// The compare-mode switch of the control panel: when checked, the run covers two to
// kMaxMethods methods on the same data and seeds, shown side by side (Seita et al. Sec. 6.1,
// Table 1).
#include <QGroupBox>
#include <QMap>
#include <QVector>

#include <vector>

#include "core/experiment/settings/run_config.h"
#include "core/experiment/settings/run_request.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace ui {

class CompareBox : public QGroupBox {
    Q_OBJECT
public:
    static constexpr int kMinMethods = 2;
    static constexpr int kMaxMethods = core::RunRequest::kMaxMethods;

    explicit CompareBox(QWidget *parent = nullptr);

    /// The methods the box offers (every method the desktop app runs), in table order.
    static QVector<core::TestMethod> offeredMethods();

    /// The ticked methods in table order.
    std::vector<core::TestMethod> methods() const;
    /// Ticks exactly these (unknown ones are ignored).
    void setMethods(const std::vector<core::TestMethod> &methods);
    /// How the ticked methods that take control variates run:
    /// - AsTheForm: with the form's control-variate setting;
    /// - Taylor2: with taylor2 only (the minibatch test with proxies beside SMH, TunaMH, FlyMC);
    /// - WithAndWithout: twice, without and with second-order Taylor proxies (the scaling view's
    ///   minibatch against minibatch+taylor2).
    enum class Variants { AsTheForm = 0, Taylor2 = 1, WithAndWithout = 2 };
    Variants variants() const;
    void setVariants(Variants variants);
    /// The entries to run: each ticked method, twice for those that take control variates with
    /// WithAndWithout (then the control variates of every entry are set; with Taylor2 they are
    /// taylor2 for those, each method's own otherwise).
    std::vector<core::TestMethod> entryMethods() const;
    std::vector<core::ControlVariates> entryControlVariates() const;
    /// Whether compare mode is on and there are 2 to kMaxMethods entries.
    bool isValidSelection() const;
    QCheckBox *checkBox(core::TestMethod method) const { return m_boxes.value(method); }

signals:
    void selectionChanged();

private:
    void updateHint();

    QMap<core::TestMethod, QCheckBox *> m_boxes;
    QComboBox *m_controlVariates = nullptr;
    QLabel *m_hint = nullptr;
};

} // namespace ui
