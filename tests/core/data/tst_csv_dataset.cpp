// The CSV loader for a user's own binary classification data: what it accepts, how it maps
// labels, and the line-numbered errors for every kind of bad row.
#include <QtTest>

#include <sstream>
#include <stdexcept>
#include <string>

#include "core/data/csv_dataset.h"

using namespace core;

class tst_CsvDataset : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string writeCsv(const char *name, const QByteArray &content)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        file.write(content);
        return path.toStdString();
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void headerWithNamedLabel()
    {
        const std::string path = writeCsv("named.csv", "# comment line\n"
                                                       "x1, label ,x2\r\n"
                                                       "0.5,7,1e-3\r\n"
                                                       "\r\n"
                                                       "-2,1,+4\r\n"
                                                       "3.25,7.0,1e-400\r\n");
        const ClassificationData data = readCsvDataset(path);
        QCOMPARE(data.size(), 3);
        QCOMPARE(data.featureCount(), 2);
        // Numeric labels: the smaller (1) is label 0; "7" and "7.0" are the same value.
        QCOMPARE(data.labels, (std::vector<std::uint8_t>{1, 0, 1}));
        QCOMPARE(data.classNames.first, std::string("'1'"));
        QCOMPARE(data.classNames.second, std::string("'7'"));
        QVERIFY(data.description.find("label 0 = '1', label 1 = '7'") != std::string::npos);
        QCOMPARE(data.features(0, 0), 0.5f);
        QCOMPARE(data.features(0, 1), 1e-3f);
        QCOMPARE(data.features(1, 1), 4.0f);
        QCOMPARE(data.features(2, 0), 3.25f);
        QCOMPARE(data.features(2, 1), 0.0f); // underflow rounds to zero; it is not an error
        validate(data);
    }

    void noHeaderTextLabels()
    {
        const std::string path = writeCsv("words.csv", "dog,1,2\ncat,3,4\ndog,5,6\n");
        const ClassificationData data = readCsvDataset(path);
        QCOMPARE(data.size(), 3);
        QCOMPARE(data.labels, (std::vector<std::uint8_t>{1, 0, 1}));
        QCOMPARE(data.classNames.first, std::string("'cat'"));
        QCOMPARE(data.features(1, 1), 4.0f);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("NaN") << QByteArray("y,a,b\n0,1,2\n1,nan,2\n") << "line 3: column 2: NaN or infinite value 'nan'";
        QTest::newRow("inf") << QByteArray("0,1,2\n1,2,-inf\n") << "line 2: column 3: NaN or infinite value '-inf'";
        QTest::newRow("overflow") << QByteArray("0,1,2\n1,2,1e999\n") << "line 2: column 3: value '1e999' is out of range";
        QTest::newRow("beyond float") << QByteArray("0,1,2\n1,2,1e300\n") << "line 2: column 3: value '1e300' exceeds";
        QTest::newRow("ragged") << QByteArray("0,1,2\n1,2,3\n0,1\n") << "line 3: ragged row: 2 fields, but line 1 has 3";
        QTest::newRow("text field") << QByteArray("label,a\n0,1\n1,two\n") << "line 3: column 2: non-numeric field 'two'";
        QTest::newRow("empty field") << QByteArray("0,1,2\n1,,3\n") << "line 2: column 2: empty field";
        QTest::newRow("three labels") << QByteArray("0,1\n1,2\n2,3\n") << "line 3: a third label value '2' (line 1 has '0', line 2 has '1')";
        QTest::newRow("one label") << QByteArray("1,1\n1,2\n") << "every row has the label '1'";
        QTest::newRow("NaN label") << QByteArray("nan,1\n1,2\n") << "line 1: column 1: label 'nan' is NaN or infinite";
        QTest::newRow("no features") << QByteArray("0\n1\n") << "line 1: only one field";
        QTest::newRow("header only") << QByteArray("label,a,b\n") << "no data rows";
    }

    void errors()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, fragment);
        const std::string path = writeCsv("bad.csv", content);
        try {
            readCsvDataset(path);
            QFAIL("no error");
        } catch (const std::runtime_error &error) {
            const QString message = error.what();
            QVERIFY2(message.startsWith(QString::fromStdString(path) + ": "), qPrintable(message));
            QVERIFY2(message.contains(fragment), qPrintable(message));
        }
        // The stream parser behind readCsvDataset() gives the same error under the given name.
        std::istringstream in(content.toStdString(), std::ios::binary);
        try {
            parseCsvDataset(in, "in-memory.csv");
            QFAIL("no error from the stream parser");
        } catch (const std::runtime_error &error) {
            const QString message = error.what();
            QVERIFY2(message.startsWith("in-memory.csv: ") && message.contains(fragment), qPrintable(message));
        }
    }

    void missingFile()
    {
        const std::string path = m_dir.filePath("absent.csv").toStdString();
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, readCsvDataset(path));
    }
};

QTEST_APPLESS_MAIN(tst_CsvDataset)
#include "tst_csv_dataset.moc"
