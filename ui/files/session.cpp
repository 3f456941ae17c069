#include "ui/files/session.h"

#include <algorithm>
#include <cmath>
#include <limits>
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
// 2: the run's settings under "settings", keyed as core::settingsTable() names them (the keys of
// samples-file headers). 1: a nested "config" object of the session's own, still read.
constexpr int kVersion = 2;
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

void read(const QJsonObject &json, const QString &key, double &target)
{
    readTyped(json, key, target, &QJsonValue::isDouble, "a number", [](const QJsonValue &v) { return v.toDouble(); });
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

void read(const QJsonObject &json, const QString &key, std::string &target)
{
    readTyped(json, key, target, &QJsonValue::isString, "a string",
              [](const QJsonValue &v) { return v.toString().toStdString(); });
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

void readLogreg(const QJsonObject &json, core::LogisticDataSpec &spec)
{
    read(json, QStringLiteral("source"), spec.source);
    read(json, QStringLiteral("images"), spec.images);
    read(json, QStringLiteral("labels"), spec.labels);
    read(json, QStringLiteral("csv"), spec.csv);
    if (json.contains(QStringLiteral("classes"))) {
        const QJsonArray classes = json[QStringLiteral("classes")].toArray();
        if (!json[QStringLiteral("classes")].isArray() || classes.size() != 2 || !classes[0].isDouble()
            || !classes[1].isDouble())
            badValue(QStringLiteral("logreg.classes"), QStringLiteral("an array of two class numbers"));
        spec.classes = {classes[0].toInt(-1), classes[1].toInt(-1)};
        // The rule the settings table holds version 2 files to, so that every session this
        // reader accepts is saved in a form it reads back.
        const auto [first, second] = spec.classes;
        if (first == second || std::min(first, second) < 0 || std::max(first, second) > 255)
            badValue(QStringLiteral("logreg.classes"), QStringLiteral("two different class numbers in [0, 255]"));
    }
    readInteger(json, QStringLiteral("test_size"), spec.testSize);
    read(json, QStringLiteral("test_fraction"), spec.testFraction);
    readInteger(json, QStringLiteral("split_seed"), spec.splitSeed);
    readInteger(json, QStringLiteral("augment_to"), spec.augmentTo);
    readInteger(json, QStringLiteral("augment_seed"), spec.augmentSeed);
    read(json, QStringLiteral("bias"), spec.model.bias);
    read(json, QStringLiteral("prior_sd"), spec.model.priorSd);
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

core::RunConfig settingsFromJson(const QJsonObject &json)
{
    for (auto it = json.begin(); it != json.end(); ++it) {
        const core::SettingSpec *spec = core::findSettingByKey(it.key().toStdString());
        if (!spec || spec->noteOnly)
            badValue(QStringLiteral("settings.") + it.key(), QStringLiteral("a setting of this program"));
    }
    core::RunConfig c;
    // In the table's order, not the file's: data_seed before split_seed, batch before
    // austere_batch, as the table defines them.
    for (const core::SettingSpec &spec : core::settingsTable()) {
        const QString key = QString::fromStdString(spec.key);
        if (!json.contains(key) || spec.noteOnly)
            continue;
        const QString name = QStringLiteral("settings.") + key;
        spec.set(c, name.toStdString(), settingTextFromJson(spec, name, json[key]));
    }
    // The run's own limit (core::validate): a session must not ask for 10^12 points.
    if (c.nData < 2 || c.nData > std::numeric_limits<std::int32_t>::max())
        badValue(QStringLiteral("settings.n_data_requested"), QStringLiteral("an integer from 2 to 2147483647"));
    return c;
}

// Version 1 sessions kept the settings in a nested "config" object of their own.
core::RunConfig configFromJson(const QJsonObject &json)
{
    core::RunConfig c;
    read(json, QStringLiteral("dataset"), c.dataset);
    std::string method = core::methodName(c.method), solver = core::solverName(c.correction.solver);
    read(json, QStringLiteral("method"), method);
    // The run's own limit (core::validate): a session must not ask for 10^12 points.
    readInteger(json, QStringLiteral("n_data"), c.nData, std::int64_t{2},
                std::int64_t{std::numeric_limits<std::int32_t>::max()});
    readInteger(json, QStringLiteral("samples"), c.samples);
    readInteger(json, QStringLiteral("seed"), c.seed);
    readInteger(json, QStringLiteral("data_seed"), c.dataSeed);
    read(json, QStringLiteral("temperature"), c.temperature);
    read(json, QStringLiteral("step"), c.step);
    readInteger(json, QStringLiteral("burn_in"), c.burnIn);
    read(json, QStringLiteral("anneal_from"), c.annealFrom);
    read(json, QStringLiteral("burn_in_step"), c.burnInStep);
    readInteger(json, QStringLiteral("trace_stride"), c.traceStride);
    readLogreg(object(json, QStringLiteral("logreg")), c.logreg);
    const QJsonObject mb = object(json, QStringLiteral("minibatch"));
    readInteger(mb, QStringLiteral("initial_batch"), c.minibatch.initialBatch);
    readInteger(mb, QStringLiteral("batch_growth"), c.minibatch.batchGrowth);
    read(mb, QStringLiteral("clt_bound"), c.minibatch.cltBound);
    read(mb, QStringLiteral("finite_population_correction"), c.minibatch.finitePopulationCorrection);
    const QJsonObject austere = object(json, QStringLiteral("austere"));
    readInteger(austere, QStringLiteral("batch"), c.austere.batch);
    read(austere, QStringLiteral("epsilon"), c.austere.epsilon);
    read(json, QStringLiteral("austere_error_bound"), c.austereErrorBound);
    readInteger(json, QStringLiteral("austere_pilot"), c.austerePilot);
    const QJsonObject sublhd = object(json, QStringLiteral("sublhd"));
    readInteger(sublhd, QStringLiteral("batch"), c.sublhd.batch);
    read(sublhd, QStringLiteral("gamma"), c.sublhd.gamma);
    read(sublhd, QStringLiteral("p"), c.sublhd.p);
    read(sublhd, QStringLiteral("delta"), c.sublhd.delta);
    read(sublhd, QStringLiteral("use_model_bound"), c.sublhd.useModelBound);
    const QJsonObject correction = object(json, QStringLiteral("correction"));
    readInteger(correction, QStringLiteral("grid"), c.correction.grid);
    read(correction, QStringLiteral("range"), c.correction.range);
    read(correction, QStringLiteral("sigma"), c.correction.sigma);
    read(correction, QStringLiteral("lambda"), c.correction.lambda);
    read(correction, QStringLiteral("solver"), solver);
    // The parsers throw std::invalid_argument listing the allowed names.
    c.method = core::parseMethod(method);
    c.correction.solver = core::parseSolver(solver);
    return c;
}

} // namespace

QJsonObject sessionToJson(const Session &session)
{
    QJsonArray methods;
    for (core::TestMethod method : session.compareMethods)
        methods.append(QString::fromStdString(core::methodName(method)));
    return {
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
}

Session sessionFromJson(const QJsonObject &json)
{
    if (json.value(QStringLiteral("format")).toString() != kFormat)
        throw std::invalid_argument("not a session file (no \"format\": \"mh-explorer-session\")");
    if (json.value(QStringLiteral("version")).toInt() > kVersion)
        throw std::invalid_argument("the session was written by a newer version of the program");
    Session session;
    session.config = json.contains(QStringLiteral("settings")) ? settingsFromJson(object(json, QStringLiteral("settings")))
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
    readInteger(json, QStringLiteral("tab"), session.tab);
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
