// Session files (ui/files/session.h): any bytes give a session or an error message, and a session
// that loads saves and loads again to the same JSON.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <QByteArray>
#include <QJsonDocument>

#include "ui/files/session.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    QString error;
    const auto session = ui::parseSession(bytes, QStringLiteral("fuzz-session.json"), &error);
    if (!session) {
        if (error.isEmpty())
            std::abort();
        return 0;
    }
    const QByteArray saved = QJsonDocument(ui::sessionToJson(*session)).toJson();
    const auto again = ui::parseSession(saved, QStringLiteral("saved"), &error);
    if (!again || ui::sessionToJson(*again) != ui::sessionToJson(*session))
        std::abort();
    return 0;
}
