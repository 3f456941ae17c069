#include "ui/files/export_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ui {
namespace {

QSpinBox *pixelBox(int value)
{
    auto *box = new QSpinBox;
    box->setRange(200, 8000);
    box->setSingleStep(100);
    box->setSuffix(QObject::tr(" px"));
    box->setValue(value);
    return box;
}

} // namespace

ExportDialog::ExportDialog(Target target, const QString &title, const QString &path, QSize size, QWidget *parent)
    : QDialog(parent), m_target(target)
{
    setWindowTitle(title);
    m_path = new QLineEdit(path);
    m_path->setMinimumWidth(360);
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    m_width = pixelBox(size.width());
    m_height = pixelBox(size.height());
    auto *sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("×")));
    sizeRow->addWidget(m_height);
    sizeRow->addStretch(1);

    auto *form = new QFormLayout;
    // A row holding a layout gets a label without a buddy, which would show "&" literally:
    // these labels name the field that takes the focus.
    auto *pathLabel = new QLabel(target == Target::File ? tr("&File (.png or .svg)") : tr("&Folder"));
    pathLabel->setBuddy(m_path);
    auto *sizeLabel = new QLabel(tr("&Size"));
    sizeLabel->setBuddy(m_width);
    form->addRow(pathLabel, pathRow);
    form->addRow(sizeLabel, sizeRow);
    auto *note = new QLabel(target == Target::File
                                ? tr("The suffix chooses the format. The chart is laid out again at this size.")
                                : tr("Every chart is written as PNG and SVG, named after the chart."));
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

QString ExportDialog::path() const
{
    return m_path->text().trimmed();
}

QSize ExportDialog::size() const
{
    return QSize(m_width->value(), m_height->value());
}

void ExportDialog::browse()
{
    const QString chosen =
        m_target == Target::File
            ? QFileDialog::getSaveFileName(this, windowTitle(), path(), tr("PNG image (*.png);;SVG drawing (*.svg)"))
            : QFileDialog::getExistingDirectory(this, windowTitle(), path());
    if (!chosen.isEmpty())
        m_path->setText(chosen);
}

} // namespace ui
