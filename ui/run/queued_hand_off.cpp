#include "ui/run/queued_hand_off.h"

#ifdef MHX_ANNOTATE_HAND_OFFS

#include <latch>

#include <sanitizer/tsan_interface.h>

// Part of the TSan runtime's interface but not declared by GCC 12's header: while a thread is
// inside such a region its memory accesses are not recorded and blocks it allocates start with
// no access history. Synchronisation (atomics, mutexes, acquire/release) is still tracked.
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();

namespace ui {
namespace {

// The address TSan keys the hand-off ordering on; its value is never read or written.
char g_handOffToken;

} // namespace

QueuedHandOff::QueuedHandOff()
{
    __tsan_release(&g_handOffToken);
    __tsan_ignore_thread_begin();
}

QueuedHandOff::~QueuedHandOff()
{
    __tsan_ignore_thread_end();
}

void acquireHandOffs()
{
    __tsan_acquire(&g_handOffToken);
}

bool HandOffApplication::notify(QObject *receiver, QEvent *event)
{
    // Queued signals and QMetaObject::invokeMethod calls arrive as MetaCall events; the copied
    // arguments and the event itself were written by the sender before the post.
    if (event->type() == QEvent::MetaCall)
        acquireHandOffs();
    return QApplication::notify(receiver, event);
}

void startThreadForHandOffs(QThread &thread)
{
    // A QThread creates its event dispatcher (for GLib, an eventfd) on the new thread and
    // publishes it with Qt's atomics; the first post to the thread then writes to that eventfd
    // from the posting thread. TSan sees the eventfd's creation on one thread and the write on
    // another with nothing between. started() is emitted on the new thread after the
    // dispatcher exists: release there, wait for it here, acquire. The wait is real (a latch),
    // so the annotation only states the order it creates.
    std::latch running(1);
    const QMetaObject::Connection announce = QObject::connect(
        &thread, &QThread::started, &thread,
        [&running] {
            __tsan_release(&g_handOffToken);
            running.count_down();
        },
        Qt::DirectConnection);
    thread.start();
    running.wait();
    __tsan_acquire(&g_handOffToken);
    QObject::disconnect(announce);
}

} // namespace ui

#endif
