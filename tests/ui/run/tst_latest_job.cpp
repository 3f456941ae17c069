// LatestJob: only the newest ticket's result is wanted, whatever order jobs finish in.
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "ui/run/latest_job.h"

class tst_LatestJob : public QObject {
    Q_OBJECT

private slots:
    void onlyTheNewestTicketIsLatest()
    {
        ui::LatestJob jobs;
        const auto first = jobs.begin();
        QVERIFY(jobs.isLatest(first));
        const auto second = jobs.begin();
        QVERIFY(second != first);
        QVERIFY(!jobs.isLatest(first));
        QVERIFY(jobs.isLatest(second));
    }

    void finishingOrderDoesNotMatter()
    {
        ui::LatestJob jobs;
        const auto a = jobs.begin();
        const auto b = jobs.begin();
        const auto c = jobs.begin();
        // Finishing in any order: only c's answer is used, and checking does not change that.
        QVERIFY(jobs.isLatest(c));
        QVERIFY(!jobs.isLatest(a));
        QVERIFY(!jobs.isLatest(b));
        QVERIFY(jobs.isLatest(c));
    }

    void invalidateMakesEveryTicketStale()
    {
        ui::LatestJob jobs;
        const auto ticket = jobs.begin();
        jobs.invalidate();
        QVERIFY(!jobs.isLatest(ticket));
        const auto next = jobs.begin();
        QVERIFY(jobs.isLatest(next));
        QVERIFY(!jobs.isLatest(ticket));
    }

    void aFreshHelperHasNoLatestJob()
    {
        ui::LatestJob jobs;
        ui::LatestJob other;
        // A ticket from another helper's first job is not this one's until this one begins.
        QVERIFY(!jobs.isLatest(other.begin()));
        QVERIFY(jobs.isLatest(jobs.begin()));
    }
};

MHX_GUI_TEST_MAIN(tst_LatestJob)
#include "tst_latest_job.moc"
