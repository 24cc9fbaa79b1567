//! [`Feed`]: the batches waiting for a thread, taken in the order they were
//! cut by the workers and by the calling thread alike, each put on its lines
//! as it is taken ([`Batch::place_lines`]).

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use super::batch::Batch;

/// A queue of numbered batches, closed when no more will come.
#[derive(Default)]
pub(super) struct Feed {
    queue: Mutex<Queue>,
    /// Signalled when a batch is put in, or the feed is closed.
    ready: Condvar,
}

#[derive(Default)]
struct Queue {
    batches: VecDeque<(usize, Batch)>,
    /// The line ends of the batches taken so far that the reader did not
    /// count (see [`Batch::place_lines`]).
    lines: u64,
    closed: bool,
}

impl Feed {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Puts batch number `seq` in, for the first thread that waits or looks.
    pub(super) fn send(&self, seq: usize, batch: Batch) {
        self.lock().batches.push_back((seq, batch));
        self.ready.notify_one();
    }

    /// No more batches will come: the threads that wait for one return
    /// once the batches in the feed are taken.
    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    /// The next batch, its games on their lines. With `wait`, waits for one
    /// while the feed is open; `None` when there is none (and, with `wait`,
    /// the feed is closed).
    pub(super) fn take(&self, wait: bool) -> Option<(usize, Batch)> {
        let mut guard = self.lock();
        loop {
            let queue = &mut *guard;
            if let Some((seq, mut batch)) = queue.batches.pop_front() {
                batch.place_lines(&mut queue.lines);
                return Some((seq, batch));
            }
            if queue.closed || !wait {
                return None;
            }
            guard = self
                .ready
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}
