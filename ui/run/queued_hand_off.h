#pragma once
// Makes Qt's cross-thread hand-offs visible to ThreadSanitizer. Compiled in only when the
// build is instrumented with TSan (MHX_SANITIZE=thread); in every other build the scope below
// is empty, emitQueued() is a plain emit and HandOffApplication is QApplication.
//
// Why this is needed: results cross threads by value over queued signals, never by pointer into the chain.
// A queued emit copies the arguments into an event and posts it under the receiving thread's
// posted-event mutex; the receiving thread takes the event under the same mutex and calls the
// slot. That mutex really orders the sender's writes before the receiver's reads, but it lives
// in libQt6Core, which Debian does not instrument, and Qt 6's QMutex waits on futexes directly
// rather than through pthread, so TSan intercepts nothing: every queued hand-off looks like a
// race on the copied arguments, on the event Qt allocated, and on any data they share.
//
// What is annotated, and why each annotation states only an ordering Qt enforces:
// - The sender, just before an emit whose receivers live on other threads, releases a token
//   (QueuedHandOff). Everything the sender wrote before that point precedes the post, which
//   precedes the delivery.
// - Inside that emit Qt allocates the event and the argument copies and fills them, then
//   posts. No hook exists between those writes and the post (the receiving dispatcher's
//   wakeUp() runs after the mutex is released, so a release there could come after the
//   delivery). Those writes go only into memory that Qt has just allocated and that only the
//   posted event can reach, so the scope tells TSan not to record the emit's own accesses:
//   fresh blocks then start with no history instead of an "allocated by another thread"
//   write. Because slots connected directly would also run unrecorded, the scope is for
//   signals whose receivers are all queued (the worker's results, the request to the worker).
// - The receiving thread acquires the token in HandOffApplication::notify() before a queued
//   call is delivered. notify() runs on the receiver's thread for every event on every thread
//   (QCoreApplication::notifyInternal2 calls it whenever the thread requires the application,
//   which is QThread's default), so this covers the GUI thread and QThread workers alike.
//   One token for all threads orders a little more than Qt does (every earlier hand-off
//   before each delivery, not only the delivered one), never less.
#include <tuple>
#include <utility>

#include <QApplication>
#include <QtConcurrent/QtConcurrentRun>
#include <QThread>

#if defined(__SANITIZE_THREAD__)
#define MHX_ANNOTATE_HAND_OFFS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MHX_ANNOTATE_HAND_OFFS 1
#endif
#endif

namespace ui {

#ifdef MHX_ANNOTATE_HAND_OFFS

/// Scope around one emit whose receivers all live on other threads (see above).
class QueuedHandOff {
public:
    QueuedHandOff();
    ~QueuedHandOff();
    QueuedHandOff(const QueuedHandOff &) = delete;
    QueuedHandOff &operator=(const QueuedHandOff &) = delete;
};

/// The application the GUI test suites run under a TSan build: acquires the hand-off token
/// before each queued call and each posted event is delivered.
class HandOffApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject *receiver, QEvent *event) override;
};

/// Called first by a task handed to Qt's thread pool (runOnPool): the pool's queue, like the
/// posted-event queue, orders the submission before the task but is invisible to TSan.
void acquireHandOffs();

/// Starts `thread` and returns once it runs its event loop's dispatcher, with that start
/// ordered before the caller's next hand-off to it (see queued_hand_off.cpp).
void startThreadForHandOffs(QThread &thread);

#else

class QueuedHandOff {};
inline void acquireHandOffs() {}
using HandOffApplication = QApplication;
inline void startThreadForHandOffs(QThread &thread) { thread.start(); }

#endif

/// `emit (sender.*signal)(args...)` for a signal whose receivers all live on other threads.
/// The arguments are evaluated by the caller, outside the hand-off scope. Arguments passed as
/// rvalues are moved in and released inside the scope: a receiver that shares their data (an
/// implicitly shared QString, QImage, ...) may finish with it first, and its release of its
/// reference then happens inside Qt, unseen, so the sender's free of the last reference must
/// not be recorded either. Lvalue arguments stay the caller's.
template <typename Sender, typename... Params, typename... Args>
void emitQueued(Sender &sender, void (Sender::*signal)(Params...), Args &&...args)
{
    [[maybe_unused]] const QueuedHandOff handOff;
    std::tuple<Args...> values(std::forward<Args>(args)...);
    std::apply([&](auto &...value) { emit(sender.*signal)(value...); }, values);
}

/// QtConcurrent::run(task) on the global thread pool, with the hand-off to the pool thread
/// annotated like a queued emit: the submitting thread releases and does not record the
/// pool's own bookkeeping (the QRunnable, the queue's pages, the copied task), which the pool
/// thread later frees; the task acquires before it runs.
template <typename Task>
auto runOnPool(Task &&task)
{
    [[maybe_unused]] const QueuedHandOff handOff;
    return QtConcurrent::run([task = std::forward<Task>(task)]() mutable {
        acquireHandOffs();
        return task();
    });
}

} // namespace ui
