#include "ui/panel/compare_box.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>

#include "ui/panel/method_texts.h"

namespace ui {

CompareBox::CompareBox(QWidget *parent) : QGroupBox(tr("Compare methods"), parent)
{
    setCheckable(true);
    setChecked(false);
    setToolTip(tr("Run 2–8 acceptance tests on the same data and seeds and show them side by side, as in "
                  "Seita et al. Sec. 6.1 (Table 1, Figure 4)."));
    auto *grid = new QGridLayout(this);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(2);
    const QVector<core::TestMethod> offered = offeredMethods();
    for (int k = 0; k < offered.size(); ++k) {
        auto *box = new QCheckBox(QString::fromStdString(core::methodName(offered[k])));
        box->setToolTip(methodDescription(offered[k]));
        m_boxes.insert(offered[k], box);
        grid->addWidget(box, k / 2, k % 2);
        connect(box, &QCheckBox::toggled, this, [this] {
            updateHint();
            emit selectionChanged();
        });
    }
    m_controlVariates = new QComboBox;
    m_controlVariates->setObjectName(QStringLiteral("compareControlVariates"));
    m_controlVariates->addItem(tr("minibatch tests as the form says"));
    m_controlVariates->addItem(tr("minibatch tests with taylor2 only"));
    m_controlVariates->addItem(tr("each minibatch test without and with taylor2"));
    m_controlVariates->setToolTip(
        tr("Control variates for the ticked tests that take them (%1): "
           "as the form's Control variates box says; Taylor proxies of second order around the posterior mode "
           "(Bardenet, Doucet & Holmes 2017; Cornish et al. 2019), whose sum over all N points is exact; or each "
           "such test twice, without and with them. Swept over N on tall data, the plain minibatch test reads more "
           "as the posterior narrows while the one with proxies stays near its first batch (Seita et al. Sec. 4's "
           "variance condition on the whole estimate). Always with proxies: %2; never: %3.")
            .arg(QString::fromStdString(core::methodNames("and", [](const core::MethodEntry &row) {
                return row.controlVariates == core::ControlVariatePolicy::Optional;
            })))
            .arg(QString::fromStdString(core::methodNames("and", core::controlVariatesOnByDefault)))
            .arg(QString::fromStdString(core::methodNames("and", [](const core::MethodEntry &row) {
                return row.controlVariates == core::ControlVariatePolicy::Never && !row.needs.empty();
            }))));
    grid->addWidget(m_controlVariates, static_cast<int>((offered.size() + 1) / 2), 0, 1, 2);
    connect(m_controlVariates, &QComboBox::currentIndexChanged, this, [this] {
        updateHint();
        emit selectionChanged();
    });
    m_hint = new QLabel;
    m_hint->setWordWrap(true);
    grid->addWidget(m_hint, static_cast<int>((offered.size() + 1) / 2) + 1, 0, 1, 2);
    connect(this, &QGroupBox::toggled, this, [this] {
        updateHint();
        emit selectionChanged();
    });
    setMethods({core::TestMethod::Minibatch, core::TestMethod::AustereConservative, core::TestMethod::SubLhd});
}

QVector<core::TestMethod> CompareBox::offeredMethods()
{
    // The method table's order, but the tests that cost a full-data pass per iteration (AustereMH(nc):
    // it needs the design grid and a bound too) last.
    QVector<core::TestMethod> offered, last;
    for (const core::MethodEntry &row : core::methodTable())
        (row.costsAPassPerIteration ? last : offered).append(row.method);
    return offered + last;
}

std::vector<core::TestMethod> CompareBox::methods() const
{
    std::vector<core::TestMethod> ticked;
    for (core::TestMethod method : offeredMethods())
        if (m_boxes.value(method)->isChecked())
            ticked.push_back(method);
    return ticked;
}

void CompareBox::setMethods(const std::vector<core::TestMethod> &methods)
{
    for (auto it = m_boxes.begin(); it != m_boxes.end(); ++it)
        it.value()->setChecked(std::find(methods.begin(), methods.end(), it.key()) != methods.end());
    updateHint();
}

CompareBox::Variants CompareBox::variants() const
{
    return static_cast<Variants>(m_controlVariates->currentIndex()); // the items are in the enum's order
}

void CompareBox::setVariants(Variants variants)
{
    m_controlVariates->setCurrentIndex(static_cast<int>(variants));
}

namespace {

// The tests that run once without and once with proxies. SMH always has them and TunaMH never
// does: each runs once, with its own default.
bool twinnedWithControlVariates(core::TestMethod method)
{
    return core::methodRow(method).controlVariates == core::ControlVariatePolicy::Optional;
}

} // namespace

std::vector<core::TestMethod> CompareBox::entryMethods() const
{
    std::vector<core::TestMethod> entries;
    for (core::TestMethod method : methods()) {
        entries.push_back(method);
        if (variants() == Variants::WithAndWithout && twinnedWithControlVariates(method))
            entries.push_back(method);
    }
    return entries;
}

std::vector<core::ControlVariates> CompareBox::entryControlVariates() const
{
    std::vector<core::ControlVariates> entries;
    if (variants() == Variants::AsTheForm)
        return entries; // every entry takes the form's setting
    for (core::TestMethod method : methods()) {
        const bool takes = twinnedWithControlVariates(method);
        if (variants() == Variants::Taylor2)
            entries.push_back(takes ? core::ControlVariates::Taylor2 : core::ControlVariates::Auto);
        else {
            entries.push_back(core::isExactMinibatchMethod(method) ? core::ControlVariates::Auto
                                                                   : core::ControlVariates::None);
            if (takes)
                entries.push_back(core::ControlVariates::Taylor2);
        }
    }
    return entries;
}

bool CompareBox::isValidSelection() const
{
    const auto count = entryMethods().size();
    return isChecked() && count >= kMinMethods && count <= kMaxMethods;
}

void CompareBox::updateHint()
{
    const auto count = entryMethods().size();
    if (!isChecked())
        m_hint->setText(tr("Off: the method above runs alone."));
    else if (count < kMinMethods || count > kMaxMethods)
        m_hint->setText(variants() == Variants::WithAndWithout ? tr("Tick methods for 2 to %1 runs (%2 with the control-variate twins).")
                                                    .arg(kMaxMethods)
                                                    .arg(count)
                                              : tr("Tick 2 to %1 methods (%2 ticked).").arg(kMaxMethods).arg(count));
    else
        m_hint->setText(tr("%1 runs, same data and seeds.").arg(count));
}

} // namespace ui
