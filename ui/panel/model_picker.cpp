#include "ui/panel/model_picker.h"

#include <stdexcept>

#include <QFileDialog>
#include <QFileInfo>
#include <QTimer>

#include "core/models/model_registry.h"
#include "core/models/plugin/plugin_family.h"

namespace ui {
namespace {

const QString kLoadKey = QStringLiteral("load-plugin");
const QString kPluginPrefix = QStringLiteral("plugin:");

} // namespace

ModelPicker::ModelPicker(QWidget *parent) : QComboBox(parent)
{
    for (const std::string &name : core::glmFamilyNames()) {
        const core::ModelEntry &entry = core::modelEntry(name);
        QString label = QString::fromUtf8(entry.label.data(), static_cast<qsizetype>(entry.label.size()));
        label[0] = label[0].toUpper();
        addItem(label, QString::fromStdString(name));
    }
    addItem(tr("Load a model..."), kLoadKey);
    setItemData(count() - 1,
                tr("A model of your own: a shared library built against mhx_model_plugin.h (docs/models.md, "
                   "examples/cloglog-plugin). The methods its declared bounds allow stay available."),
                Qt::ToolTipRole);
    setToolTip(tr("The regression model the tall data are drawn from and sampled with: probit (binary y), "
                  "Poisson with the log link (counts), linear with Gaussian noise, robust linear with "
                  "Student-t noise (nu = 4), or a plugin of your own (Load a model...). Methods whose bounds the "
                  "model lacks (SMH's bounds on the Taylor remainders, Cornish et al. 2019 Sec. 3.2; TunaMH's "
                  "Lipschitz constants, Zhang, Cooper & De Sa 2020 Sec. 4) are greyed out, with the reason in "
                  "their tooltip."));
    selectQuietly(std::max(findData(QString::fromStdString(m_spec.name)), 0));
    connect(this, &QComboBox::currentIndexChanged, this, &ModelPicker::onIndexChanged);
}

void ModelPicker::selectQuietly(int index)
{
    m_quiet = true;
    setCurrentIndex(index);
    m_shown = index;
    m_quiet = false;
}

int ModelPicker::pluginItem(const QString &path, const QString &label)
{
    const int found = findData(kPluginPrefix + path);
    if (found >= 0) {
        setItemText(found, label);
        return found;
    }
    const int at = findData(kLoadKey);
    insertItem(at, label, kPluginPrefix + path);
    setItemData(at, path, Qt::ToolTipRole);
    return at;
}

void ModelPicker::setSpec(const core::GlmFamilySpec &spec)
{
    m_spec = spec;
    if (spec.plugin.empty()) {
        selectQuietly(std::max(findData(QString::fromStdString(spec.name)), 0));
        return;
    }
    const QString path = QString::fromStdString(spec.plugin);
    QString label = tr("Plugin: %1 (cannot be loaded)").arg(QFileInfo(path).fileName());
    try {
        label = tr("%1 (plugin)").arg(QString::fromStdString(std::string(core::loadModelPlugin(spec.plugin)->name())));
    } catch (const std::invalid_argument &) {
        // Kept as given: the run refuses it with the loader's message.
    }
    selectQuietly(pluginItem(path, label));
}

bool ModelPicker::loadPlugin(const QString &path)
{
    std::string name;
    try {
        name = std::string(core::loadModelPlugin(path.toStdString())->name());
    } catch (const std::invalid_argument &error) {
        selectQuietly(m_shown);
        emit pluginRefused(QString::fromStdString(error.what()));
        return false;
    }
    m_spec.plugin = path.toStdString();
    selectQuietly(pluginItem(path, tr("%1 (plugin)").arg(QString::fromStdString(name))));
    emit picked();
    return true;
}

void ModelPicker::onIndexChanged(int index)
{
    if (m_quiet || index < 0)
        return;
    const QString key = itemData(index).toString();
    if (key == kLoadKey) {
        // Back to the model shown until a plugin is loaded; the dialog opens after this change.
        selectQuietly(m_shown);
        if (m_interactive)
            QTimer::singleShot(0, this, [this] {
                const QString path = QFileDialog::getOpenFileName(this, tr("Load a model plugin"), QString(),
                                                                  tr("Model plugins (*.so);;All files (*)"));
                if (!path.isEmpty())
                    loadPlugin(path);
            });
        return;
    }
    if (key.startsWith(kPluginPrefix)) {
        m_spec.plugin = key.mid(kPluginPrefix.size()).toStdString();
    } else {
        m_spec.plugin.clear();
        m_spec.name = key.toStdString();
    }
    m_shown = index;
    emit picked();
}

} // namespace ui
