#pragma once
// Asks where to export charts and at what size: a file (one chart, PNG or SVG by suffix) or a
// folder (all charts, both formats), plus width and height in pixels.
#include <QDialog>
#include <QSize>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace ui {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    enum class Target { File, Folder };

    ExportDialog(Target target, const QString &title, const QString &path, QSize size, QWidget *parent = nullptr);

    QString path() const;
    QSize size() const;

private:
    void browse();

    Target m_target;
    QLineEdit *m_path = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
};

} // namespace ui
