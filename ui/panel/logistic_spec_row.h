#pragma once
// A row of the dataset box that edits part of how a file becomes a logistic-regression problem
// (the test split; a table's label column and cleaning). The box shows a spec in every row and
// collects each row's part back the same way, so it handles its rows alike.
#include <QWidget>

#include "core/experiment/inputs/logistic_dataset.h"

namespace ui {

class LogisticSpecRow : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

    /// Shows this row's part of `spec` without emitting edited().
    virtual void apply(const core::LogisticDataSpec &spec) = 0;
    /// Writes this row's part, as shown, into `spec`.
    virtual void fill(core::LogisticDataSpec &spec) const = 0;

signals:
    /// The user changed a setting of this row.
    void edited();

protected:
    /// For the widgets' change signals: edited(), unless apply() is showing a spec.
    void emitUnlessApplying()
    {
        if (!m_applying)
            emit edited();
    }
    /// Set for the length of apply(), so its changes are not taken for the user's.
    bool m_applying = false;
};

} // namespace ui
