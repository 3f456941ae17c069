#include "ui/files/session.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>
#include <variant>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

#include "core/experiment/settings/settings_table.h"

namespace ui {
namespace {

const QString kFormat = QStringLiteral("mh-explorer-session");
// 3: the chart tab by its key ("traces"), not its position. 2: the run's settings under
// "settings", keyed as core::settingsTable() names them (the keys of samples-file headers).
// 1: a nested "config" object of the session's own. Older versions are still read.
constexpr int kVersion = 3;
// Versions 1 and 2 stored the tab's position; these were the tabs, in their order then.
const QStringList kPositionalTabs = {QStringLiteral("posterior"),   QStringLiteral("sizes"),
                                     QStringLiteral("correction"),  QStringLiteral("traces"),
                                     QStringLiteral("diagnostics"), QStringLiteral("accuracy"),
                                     QStringLiteral("tradeoffs")};
constexpr int kMaxExportSide = 8000;

[[noreturn]] void badValue(const QString &key, const QString &expected)
{
    throw std::invalid_argument(QStringLiteral("session key '%1' must be %2").arg(key, expected).toStdString());
}

// Readers: leave `target` alone when the key is absent, throw when its type is wrong.
// `convert` turns a value of the type `has` accepts into the target's.
template <typename Target, typename Convert>
void readTyped(const QJsonObject &json, const QString &key, Target &target, bool (QJsonValue::*has)() const,
               const char *expected, Convert convert)
{
    if (!json.contains(key))
        return;
    const QJsonValue value = json[key];
    if (!(value.*has)())
        badValue(key, QString::fromLatin1(expected));
    target = convert(value);
}

// Integers may be JSON numbers or decimal strings (seeds above 2^53); either way the value must
// fit the setting's type, so that no value silently wraps around.
// `lowest`/`highest` narrow the range further where the program has a limit of its own.
template <typename Integer>
void readInteger(const QJsonObject &json, const QString &key, Integer &target,
                 Integer lowest = std::numeric_limits<Integer>::min(), Integer highest = std::numeric_limits<Integer>::max())
{
    if (!json.contains(key))
        return;
    const QJsonValue value = json[key];
    const auto outOfRange = [&key, lowest, highest] {
        badValue(key, QStringLiteral("an integer from %1 to %2").arg(lowest).arg(highest));
    };
    if (value.isString()) {
        const QString text = value.toString().trimmed();
        bool ok = false;
        if (text.startsWith(QLatin1Char('-'))) {
            const qlonglong parsed = text.toLongLong(&ok);
            if (!ok || !std::in_range<Integer>(parsed) || static_cast<Integer>(parsed) < lowest
                || static_cast<Integer>(parsed) > highest)
                outOfRange();
            target = static_cast<Integer>(parsed);
        } else {
            const qulonglong parsed = text.toULongLong(&ok);
            if (!ok || !std::in_range<Integer>(parsed) || static_cast<Integer>(parsed) < lowest
                || static_cast<Integer>(parsed) > highest)
                outOfRange();
            target = static_cast<Integer>(parsed);
        }
        return;
    }
    if (!value.isDouble())
        badValue(key, QStringLiteral("an integer"));
    // 2^63 is exact in a double; toInteger() gives its default for anything not whole or
    // outside qint64.
    const double number = value.toDouble();
    if (!(number == std::trunc(number) && std::abs(number) < 9223372036854775808.0))
        outOfRange();
    const qint64 whole = value.toInteger();
    if (!std::in_range<Integer>(whole) || static_cast<Integer>(whole) < lowest || static_cast<Integer>(whole) > highest)
        outOfRange();
    target = static_cast<Integer>(whole);
}

void read(const QJsonObject &json, const QString &key, bool &target)
{
    readTyped(json, key, target, &QJsonValue::isBool, "true or false", [](const QJsonValue &v) { return v.toBool(); });
}

QJsonObject object(const QJsonObject &json, const QString &key)
{
    QJsonObject target;
    readTyped(json, key, target, &QJsonValue::isObject, "an object", [](const QJsonValue &v) { return v.toObject(); });
    return target;
}

QString seedText(std::uint64_t seed)
{
    return QString::number(static_cast<qulonglong>(seed));
}

QJsonValue toJson(const core::SettingValue &value)
{
    if (const auto *text = std::get_if<std::string>(&value))
        return QString::fromStdString(*text);
    if (const auto *real = std::get_if<double>(&value))
        return *real;
    if (const auto *integer = std::get_if<std::int64_t>(&value))
        return static_cast<qint64>(*integer);
    if (const auto *seed = std::get_if<std::uint64_t>(&value))
        return seedText(*seed); // as text: a double holds integers only up to 2^53
    return std::get<bool>(value);
}

// Every setting of the table by its key (version 2). The logistic-regression ones are kept
// whatever the dataset, so that switching to it later finds them; where the data are searched
// belongs to the machine, not the session.
QJsonObject settingsToJson(const core::RunConfig &c)
{
    QJsonObject json;
    for (const core::SettingSpec &spec : core::settingsTable())
        if (!spec.noteOnly)
            json.insert(QString::fromStdString(spec.key), toJson(spec.get(c)));
    // The table writes what a run resolves "auto" to (a samples file records what ran); a
    // session keeps the form's own choice, so that it comes back as the user left it.
    json.insert(QStringLiteral("control_variates"), QString::fromStdString(core::controlVariatesName(c.controlVariates)));
    return json;
}

// The text the table's reader takes for a JSON value of the setting's type.
std::string settingTextFromJson(const core::SettingSpec &spec, const QString &key, const QJsonValue &value)
{
    switch (spec.type) {
    case core::SettingType::Flag:
        if (!value.isBool())
            badValue(key, QStringLiteral("true or false"));
        return value.toBool() ? "1" : "0";
    case core::SettingType::Text:
        if (!value.isString())
            badValue(key, QStringLiteral("a string"));
        return value.toString().toStdString();
    case core::SettingType::Real:
        if (!value.isDouble())
            badValue(key, QStringLiteral("a number"));
        return core::settingText(value.toDouble());
    case core::SettingType::Integer:
    case core::SettingType::Seed:
        if (value.isString())
            return value.toString().trimmed().toStdString();
        if (!value.isDouble() || value.toDouble() != std::trunc(value.toDouble())
            || std::abs(value.toDouble()) >= 9223372036854775808.0)
            badValue(key, QStringLiteral("an integer"));
        return std::to_string(value.toInteger());
    }
    return {};
}

// `shownName` gives the name an error message shows for a setting's key: where in the file it was.
core::RunConfig settingsFromJson(const QJsonObject &json, const std::function<QString(const QString &)> &shownName)
{
    for (auto it = json.begin(); it != json.end(); ++it) {
        const core::SettingSpec *spec = core::findSettingByKey(it.key().toStdString());
        if (!spec || spec->noteOnly)
            badValue(shownName(it.key()), QStringLiteral("a setting of this program"));
    }
    core::RunConfig c;
    // In the table's order, not the file's: data_seed before split_seed, batch before
    // austere_batch, as the table defines them.
    for (const core::SettingSpec &spec : core::settingsTable()) {
        const QString key = QString::fromStdString(spec.key);
        if (!json.contains(key) || spec.noteOnly)
            continue;
        const QString name = shownName(key);
        spec.set(c, name.toStdString(), settingTextFromJson(spec, name, json[key]));
    }
    // The run's own limit (core::validate): a session must not ask for 10^12 points.
    if (c.nData < 2 || c.nData > std::numeric_limits<std::int32_t>::max())
        badValue(shownName(QStringLiteral("n_data_requested")), QStringLiteral("an integer from 2 to 2147483647"));
    return c;
}

// Version 1 sessions kept the settings in a nested "config" object of their own, some of them in
// groups and under other names. They are read as the settings they became, through the same
// checks as version 2's; keys that were never settings are passed over, as version 1 did.
core::RunConfig configFromJson(const QJsonObject &config)
{
    // Version 1's path of a setting, where it is not the table's key at the top level.
    static const std::map<QString, QString> kRenamed = {
        {"n_data", "n_data_requested"},         {"trace_stride", "trace_every"},
        {"austere_error_bound", "error_bound"}, {"austere_pilot", "pilot"},
        {"minibatch.initial_batch", "batch"},   {"minibatch.clt_bound", "delta"},
        {"austere.batch", "austere_batch"},     {"sublhd.batch", "sublhd_batch"},
        {"sublhd.p", "sublhd_p"},               {"sublhd.delta", "sublhd_delta"},
        {"sublhd.use_model_bound", "sublhd_model_bound"},
    };
    QJsonObject settings;
    std::map<QString, QString> pathOf; // setting key -> version 1 path
    const auto take = [&](const QString &path, const QString &key, QJsonValue value) {
        const auto renamed = kRenamed.find(path);
        const QString setting = renamed != kRenamed.end() ? renamed->second : key;
        if (!core::findSettingByKey(setting.toStdString()))
            return;
        const QString shown = QStringLiteral("config.") + path;
        // Version 1 wrote the class pair as an array; the table reads "first,second".
        if (setting == QStringLiteral("classes")) {
            const QJsonArray pair = value.toArray();
            // Whole and small enough that toInteger() keeps it; the table checks the range.
            const auto whole = [](const QJsonValue &v) {
                return v.isDouble() && v.toDouble() == std::trunc(v.toDouble()) && std::abs(v.toDouble()) < 2147483648.0;
            };
            if (!value.isArray() || pair.size() != 2 || !whole(pair[0]) || !whole(pair[1]))
                badValue(shown, QStringLiteral("an array of two class numbers"));
            value = QStringLiteral("%1,%2").arg(pair[0].toInteger()).arg(pair[1].toInteger());
        }
        settings.insert(setting, value);
        pathOf[setting] = shown;
    };
    static const QStringList kGroups = {"minibatch", "austere", "sublhd", "correction", "logreg"};
    for (auto it = config.begin(); it != config.end(); ++it) {
        if (!kGroups.contains(it.key())) {
            take(it.key(), it.key(), it.value());
            continue;
        }
        const QJsonObject group = object(config, it.key());
        for (auto member = group.begin(); member != group.end(); ++member)
            take(it.key() + QLatin1Char('.') + member.key(), member.key(), member.value());
    }
    return settingsFromJson(settings, [&pathOf](const QString &key) {
        const auto path = pathOf.find(key);
        return path != pathOf.end() ? path->second : QStringLiteral("config.") + key;
    });
}

} // namespace

QJsonObject sessionToJson(const Session &session)
{
    QJsonArray methods;
    for (core::TestMethod method : session.compareMethods)
        methods.append(QString::fromStdString(core::methodName(method)));
    QJsonObject json{
        {"format", kFormat},
        {"version", kVersion},
        {"settings", settingsToJson(session.config)},
        {"compare", session.compare},
        {"compare_methods", methods},
        {"compare_control_variates", session.compareWithControlVariates},
        {"compare_control_variates_only", session.compareOnlyWithControlVariates},
        {"chains", session.chains},
        {"parallel", session.parallel},
        {"export_width", session.exportSize.width()},
        {"export_height", session.exportSize.height()},
        {"tab", session.tab},
    };
    if (!session.droppedData.isEmpty()) {
        json.insert(QStringLiteral("dropped_data"), session.droppedData);
        json.insert(QStringLiteral("dropped_data_reason"), session.droppedReason);
    }
    return json;
}

Session sessionFromJson(const QJsonObject &json)
{
    if (json.value(QStringLiteral("format")).toString() != kFormat)
        throw std::invalid_argument("not a session file (no \"format\": \"mh-explorer-session\")");
    if (json.value(QStringLiteral("version")).toInt() > kVersion)
        throw std::invalid_argument("the session was written by a newer version of the program");
    Session session;
    session.config = json.contains(QStringLiteral("settings"))
                         ? settingsFromJson(object(json, QStringLiteral("settings")),
                                            [](const QString &key) { return QStringLiteral("settings.") + key; })
                         : configFromJson(object(json, QStringLiteral("config")));
    read(json, QStringLiteral("compare"), session.compare);
    read(json, QStringLiteral("compare_control_variates"), session.compareWithControlVariates);
    read(json, QStringLiteral("compare_control_variates_only"), session.compareOnlyWithControlVariates);
    if (json.contains(QStringLiteral("compare_methods"))) {
        if (!json[QStringLiteral("compare_methods")].isArray())
            badValue(QStringLiteral("compare_methods"), QStringLiteral("an array of method names"));
        for (const QJsonValue &name : json[QStringLiteral("compare_methods")].toArray())
            session.compareMethods.push_back(core::parseMethod(name.toString().toStdString()));
    }
    readInteger(json, QStringLiteral("chains"), session.chains);
    read(json, QStringLiteral("parallel"), session.parallel);
    int width = session.exportSize.width(), height = session.exportSize.height();
    // The export dialog's largest size: a session must not make the next export allocate an
    // image of gigapixels.
    readInteger(json, QStringLiteral("export_width"), width, 1, kMaxExportSide);
    readInteger(json, QStringLiteral("export_height"), height, 1, kMaxExportSide);
    session.exportSize = QSize(width, height);
    if (json.contains(QStringLiteral("tab"))) {
        const QJsonValue tab = json[QStringLiteral("tab")];
        if (tab.isString())
            session.tab = tab.toString();
        else if (tab.isDouble() && tab.toDouble() == std::floor(tab.toDouble()) && tab.toDouble() >= 0
                 && tab.toDouble() < kPositionalTabs.size())
            session.tab = kPositionalTabs[static_cast<int>(tab.toDouble())];
        else
            badValue(QStringLiteral("tab"), QStringLiteral("a tab's name (\"traces\") or, in older sessions, its position 0..6"));
    }
    const auto text = [](const QJsonValue &value) { return value.toString(); };
    readTyped(json, QStringLiteral("dropped_data"), session.droppedData, &QJsonValue::isString, "a string", text);
    readTyped(json, QStringLiteral("dropped_data_reason"), session.droppedReason, &QJsonValue::isString, "a string", text);
    return session;
}

bool saveSession(const Session &session, const QString &path, QString *error)
{
    QSaveFile file(path);
    const QByteArray bytes = QJsonDocument(sessionToJson(session)).toJson(QJsonDocument::Indented);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

std::optional<Session> loadSession(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QObject::tr("Cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return parseSession(file.readAll(), path, error);
}

std::optional<Session> parseSession(const QByteArray &bytes, const QString &name, QString *error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (!document.isObject()) {
        *error = QObject::tr("%1 is not a JSON object: %2").arg(name, parseError.errorString());
        return std::nullopt;
    }
    try {
        return sessionFromJson(document.object());
    } catch (const std::exception &problem) {
        *error = QObject::tr("%1: %2").arg(name, QString::fromStdString(problem.what()));
        return std::nullopt;
    }
}

QString autosaveSessionPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
        .filePath(QStringLiteral("last-session.json"));
}

} // namespace ui
