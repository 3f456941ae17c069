#include "ui/panel/method_texts.h"

#include <QCoreApplication>

namespace ui {
namespace {

struct MethodText {
    core::TestMethod method;
    const char *label;
    const char *description;
};

// In the method box's order. The descriptions cite the paper and section each method comes from.
constexpr MethodText kMethodTexts[] = {
    {core::TestMethod::Minibatch, QT_TRANSLATE_NOOP("ui::MethodTexts", "minibatch (corrected)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "The corrected minibatch Barker test (Seita et al. Sec. 4, Algorithm 1).")},
    {core::TestMethod::AustereConservative, QT_TRANSLATE_NOOP("ui::MethodTexts", "austere-c (AustereMH)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "AustereMH with its batch m and error level ε fixed before the run (Korattikara et al.; "
         "Seita et al. Sec. 6.1).")},
    {core::TestMethod::AustereNonConservative, QT_TRANSLATE_NOOP("ui::MethodTexts", "austere-nc (AustereMH, per-step design)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "AustereMH with (m, ε) chosen at every iteration from a full pass over the data "
         "(Seita et al. Sec. 6.1); needs the |ΔP| bound.")},
    {core::TestMethod::SubLhd, QT_TRANSLATE_NOOP("ui::MethodTexts", "sublhd (MHSubLhd)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "MHSubLhd, Bardenet et al.'s adaptive subsampling test (Seita et al. Sec. 6.1).")},
    {core::TestMethod::Scalable, QT_TRANSLATE_NOOP("ui::MethodTexts", "smh (scalable MH, exact)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "SMH, scalable Metropolis–Hastings (Cornish et al. 2019, Sec. 3): exact; Poisson-thinned "
         "factors of the Taylor residuals, second order by default. Logistic data only.")},
    {core::TestMethod::Tuna, QT_TRANSLATE_NOOP("ui::MethodTexts", "tunamh (TunaMH, exact)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "TunaMH (Zhang, Cooper & De Sa 2020, Sec. 4, Algorithm 1): exact; a Poisson minibatch "
         "drawn by Lipschitz bounds. Its batch grows with N (no control variates). Logistic "
         "data only.")},
    {core::TestMethod::Firefly, QT_TRANSLATE_NOOP("ui::MethodTexts", "flymc (Firefly MC, exact)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "FlyMC, Firefly Monte Carlo (Maclaurin & Adams 2014, Sec. 3): exact; only the "
         "'bright' points are read, their brightness resampled each iteration against "
         "Jaakkola–Jordan lower bounds. Logistic data only.")},
    {core::TestMethod::Barker, QT_TRANSLATE_NOOP("ui::MethodTexts", "barker (full data)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "The exact Barker test on all N points (Seita et al. Sec. 3).")},
    {core::TestMethod::Metropolis, QT_TRANSLATE_NOOP("ui::MethodTexts", "mh (full data)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "The exact Metropolis–Hastings test on all N points (Seita et al. Sec. 3).")},
    {core::TestMethod::NaiveBarker, QT_TRANSLATE_NOOP("ui::MethodTexts", "naive-barker (uncorrected)"),
     QT_TRANSLATE_NOOP("ui::MethodTexts", "The minibatch Barker test without the correction, biased by the batch noise "
         "(Seita et al. Sec. 3.3).")},
};

const MethodText *find(core::TestMethod method)
{
    for (const MethodText &text : kMethodTexts)
        if (text.method == method)
            return &text;
    return nullptr;
}

QString translated(const char *text)
{
    return QCoreApplication::translate("ui::MethodTexts", text);
}

} // namespace

QVector<core::TestMethod> allMethods()
{
    QVector<core::TestMethod> methods;
    for (const MethodText &text : kMethodTexts)
        methods.append(text.method);
    return methods;
}

QString methodLabel(core::TestMethod method)
{
    const MethodText *text = find(method);
    return text ? translated(text->label) : QString::fromStdString(core::methodName(method));
}

QString methodDescription(core::TestMethod method)
{
    const MethodText *text = find(method);
    return text ? translated(text->description) : QString();
}

} // namespace ui
