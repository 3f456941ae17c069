#pragma once
// The Model box of the data box, for a dataset whose model the user chooses (tall-glm): the
// built-in regression models by their table's labels, then "Load a model...", which opens a
// model plugin (core/models/plugin/mhx_model_plugin.h). A plugin that loads is listed by its
// own name and chosen; one that does not leaves the choice as it was and says why, naming the
// file and the function (pluginRefused).
#include <QComboBox>
#include <QString>

#include "core/models/glm/glm_family.h"

namespace ui {

class ModelPicker : public QComboBox {
    Q_OBJECT
public:
    explicit ModelPicker(QWidget *parent = nullptr);

    /// The chosen family: a built-in name, or a plugin's file (with the built-in name kept).
    const core::GlmFamilySpec &spec() const { return m_spec; }
    /// Shows `spec` without emitting picked(). A plugin that cannot be loaded (a session from
    /// another machine) is still listed, by its file, and kept: the run then says why.
    void setSpec(const core::GlmFamilySpec &spec);
    /// Loads the plugin at `path` and chooses it, as "Load a model..." does after its dialog.
    /// Emits picked() on success and pluginRefused() with the loader's message otherwise.
    bool loadPlugin(const QString &path);
    /// "Load a model..." opens its file dialog only when interactive (tests turn it off).
    void setInteractive(bool interactive) { m_interactive = interactive; }

signals:
    /// The user chose another model, or loaded a plugin (not emitted by setSpec()).
    void picked();
    /// A plugin could not be loaded: the loader's message.
    void pluginRefused(const QString &message);

private:
    void onIndexChanged(int index);
    /// The item of the plugin at `path`, added (before "Load a model...") when not listed yet.
    int pluginItem(const QString &path, const QString &label);
    void selectQuietly(int index);

    core::GlmFamilySpec m_spec;
    int m_shown = 0; // the item shown before the last change, to return to after a refusal
    bool m_quiet = false;
    bool m_interactive = true;
};

} // namespace ui
