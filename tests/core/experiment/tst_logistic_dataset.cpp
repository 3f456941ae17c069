// The logistic-regression experiment's data step (CSV and IDX sources, split, augmentation
// flag) and the accuracy trace of a chain.
#include <QtTest>

#include "core/acceptance/full_data_tests.h"
#include "core/data/idx_reader.h"
#include "core/experiment/logistic_dataset.h"

using namespace core;

class tst_LogisticDataset : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void csvSourceAndTrace()
    {
        // Two separable blobs; labels "no"/"yes" map to 0/1 by text order.
        QFile file(m_dir.filePath("blobs.csv"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        Rng rng(4);
        file.write("label,x,y\n");
        for (int i = 0; i < 300; ++i) {
            const double sign = i % 2 ? 1.0 : -1.0;
            file.write(QString("%1,%2,%3\n")
                           .arg(i % 2 ? "yes" : "no")
                           .arg(2.0 * sign + 0.5 * rng.normal())
                           .arg(sign + 0.5 * rng.normal())
                           .toUtf8());
        }
        file.close();

        LogisticDataSpec spec;
        spec.csv = file.fileName().toStdString();
        spec.testSize = 100;
        spec.model = {true, 5.0};
        const LogisticDataset dataset = makeLogisticDataset(spec);
        QCOMPARE(dataset.train->size(), 200);
        QCOMPARE(dataset.test->size(), 100);
        QCOMPARE(dataset.model->dimension(), 3);
        QVERIFY(!dataset.augmented);
        QVERIFY2(dataset.description.find("'no' (0) vs 'yes' (1)") != std::string::npos, dataset.description.c_str());

        MetropolisTest test;
        const RandomWalkProposal proposal(0.2);
        ChainSettings settings;
        settings.samples = 1000;
        const ChainResult chain = runChain(*dataset.model, proposal, test, settings);
        const ClassifierTrace trace = classifierTrace(*dataset.model, chain, *dataset.test, 100);
        QCOMPARE(trace.iteration.size(), std::size_t{10});
        QCOMPARE(trace.iteration.back(), std::int64_t{999});
        QCOMPARE(trace.dataUsed.back(), std::int64_t{1000} * 200); // full-data MH reads N per step
        QVERIFY2(trace.accuracy.back() > 0.95, qPrintable(QString::number(trace.accuracy.back())));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, classifierTrace(*dataset.model, chain, *dataset.test, 0));
    }

    void idxFilesWithAugmentation()
    {
        std::vector<std::uint8_t> pixels(40 * 6 * 6, 0), labels(40);
        for (int i = 0; i < 40; ++i) {
            labels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i % 2 ? 3 : 8);
            for (int r = 1; r < 5; ++r)
                pixels[static_cast<std::size_t>(i * 36 + r * 6 + (i % 2 ? 1 : 4))] = 255;
        }
        const std::string images = m_dir.filePath("i.gz").toStdString(), labelFile = m_dir.filePath("l").toStdString();
        writeIdxImages(images, pixels, 40, 6, 6, true);
        writeIdxLabels(labelFile, labels, false);
        LogisticDataSpec spec;
        spec.images = images;
        spec.labels = labelFile;
        spec.classes = {8, 3};
        spec.testSize = 10;
        spec.augmentTo = 90;
        const LogisticDataset dataset = makeLogisticDataset(spec);
        QCOMPARE(dataset.train->size(), 90);
        QCOMPARE(dataset.test->size(), 10);
        QVERIFY(dataset.augmented && !dataset.test->augmented);
        QVERIFY(dataset.description.find("AUGMENTED") != std::string::npos);

        spec.labels.clear();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeLogisticDataset(spec));
        spec = {};
        spec.source = "no-such-source";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeLogisticDataset(spec));
    }
};

QTEST_APPLESS_MAIN(tst_LogisticDataset)
#include "tst_logistic_dataset.moc"
