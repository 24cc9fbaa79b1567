//! [`WriterThread`]: a [`TableWriter`] on a thread of its own, fed batches
//! through a bounded channel, so that encoding and compressing (most of
//! Parquet's cost) runs beside the thread that builds the batches, and one
//! such thread per table lets the two tables be encoded at the same time.
//!
//! Memory stays bounded: at most `depth` batches wait in the channel
//! besides the one being written (with `depth` 0 the sender waits until the
//! thread takes the batch); a sender that gets ahead waits.

use std::io::Write;
use std::sync::mpsc::{self, SyncSender};
use std::thread::{self, JoinHandle};

use arrow_array::RecordBatch;

use crate::error::Error;
use crate::writer::TableWriter;

/// A [`TableWriter`] running on its own thread.
///
/// ```
/// use pgnkit_arrow::{BatchLimits, Format, GamesBuilder, TableOptions, TableWriter, WriterThread};
///
/// let schema = GamesBuilder::schema(TableOptions::default());
/// let writer = TableWriter::new(Vec::new(), Format::Ndjson, schema)?;
/// let mut thread = WriterThread::spawn(writer, 1)?;
/// let mut games = GamesBuilder::new(TableOptions::default(), BatchLimits::GAMES);
/// thread.write(games.finish()?)?;
/// let bytes: Vec<u8> = thread.finish()?;
/// assert!(bytes.is_empty()); // no rows, no lines
/// # Ok::<(), pgnkit_arrow::Error>(())
/// ```
#[derive(Debug)]
pub struct WriterThread<W: Write + Send + 'static> {
    batches: Option<SyncSender<RecordBatch>>,
    thread: Option<JoinHandle<Result<W, Error>>>,
}

impl<W: Write + Send + 'static> WriterThread<W> {
    /// Starts a thread that writes each batch given to [`write`](WriterThread::write)
    /// with `writer`; at most `depth` batches wait for it.
    pub fn spawn(writer: TableWriter<W>, depth: usize) -> Result<WriterThread<W>, Error> {
        WriterThread::spawn_then(writer, depth, Ok)
    }

    /// As [`spawn`](WriterThread::spawn), and once the output is ended (its footer
    /// written) the thread calls `then` on it, before [`finish`](WriterThread::finish)
    /// gets it: work on the output that may run beside the other tables' writing, such
    /// as syncing a file to disk (with two tables, the first one's sync then costs no
    /// wall time: it runs while the second is still being written).
    pub fn spawn_then<F>(
        writer: TableWriter<W>,
        depth: usize,
        then: F,
    ) -> Result<WriterThread<W>, Error>
    where
        F: FnOnce(W) -> std::io::Result<W> + Send + 'static,
    {
        let (batches, received) = mpsc::sync_channel::<RecordBatch>(depth);
        let thread = thread::Builder::new()
            .name("pgnkit-table-writer".to_owned())
            .spawn(move || {
                let mut writer = writer;
                for batch in received {
                    writer.write(&batch)?;
                }
                Ok(then(writer.finish()?)?)
            })?;
        Ok(WriterThread {
            batches: Some(batches),
            thread: Some(thread),
        })
    }

    /// Hands `batch` to the thread (waiting while `depth` batches wait). An
    /// error of an earlier batch is returned here, or by
    /// [`finish`](WriterThread::finish).
    pub fn write(&mut self, batch: RecordBatch) -> Result<(), Error> {
        let sent = match &self.batches {
            Some(batches) => batches.send(batch).is_ok(),
            None => false,
        };
        if sent {
            return Ok(());
        }
        // The thread ended early: its error says why.
        self.batches = None;
        match self.join() {
            Err(e) => Err(e),
            Ok(_) => Err(ended()),
        }
    }

    /// Waits for every batch to be written, ends the output (footer) and
    /// returns it.
    pub fn finish(mut self) -> Result<W, Error> {
        self.batches = None;
        self.join()
    }

    fn join(&mut self) -> Result<W, Error> {
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(Error::Io(std::io::Error::other(
                "the table writer's thread panicked",
            ))),
            None => Err(ended()),
        }
    }
}

impl<W: Write + Send + 'static> Drop for WriterThread<W> {
    /// Waits for the thread, so that the output it holds is dropped (a
    /// temporary file removed) before the caller goes on.
    fn drop(&mut self) {
        self.batches = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn ended() -> Error {
    Error::Io(std::io::Error::other("the table writer's thread has ended"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{BatchLimits, GamesBuilder, RowSource, TableOptions};
    use crate::record::{RecordOptions, RecordVisitor};
    use crate::writer::Format;
    use pgnkit_game::{ReadOptions, visit_games_with};

    /// A writer that fails once it has taken `limit` bytes.
    struct Full {
        taken: usize,
        limit: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.taken + buf.len() > self.limit {
                return Err(std::io::Error::other("disk full"));
            }
            self.taken += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn batch(games: usize) -> RecordBatch {
        let pgn = b"[Event \"E\"]\n\n1. e4 e5 2. Nf3 *\n\n".repeat(games);
        let options = TableOptions::default();
        let mut builder = GamesBuilder::new(options, BatchLimits::GAMES);
        let visitor = RecordVisitor::new(RecordOptions::default());
        for (i, game) in visit_games_with(&pgn, visitor, ReadOptions::new()).enumerate() {
            let source = RowSource {
                game_id: i as u64,
                source: "t.pgn",
            };
            builder.push(source, &game.value).unwrap();
        }
        builder.finish().unwrap()
    }

    #[test]
    fn batches_are_written_in_order_as_by_the_writer_itself() {
        let schema = GamesBuilder::schema(TableOptions::default());
        let batches: Vec<RecordBatch> = (1..6).map(batch).collect();
        let mut direct = TableWriter::new(Vec::new(), Format::Csv, schema.clone()).unwrap();
        let mut threaded = WriterThread::spawn(
            TableWriter::new(Vec::new(), Format::Csv, schema).unwrap(),
            1,
        )
        .unwrap();
        for b in &batches {
            direct.write(b).unwrap();
            threaded.write(b.clone()).unwrap();
        }
        let direct = direct.finish().unwrap();
        assert_eq!(threaded.finish().unwrap(), direct);
        assert_eq!(direct.iter().filter(|&&b| b == b'\n').count(), 1 + 15);
    }

    #[test]
    fn then_runs_on_the_ended_output_and_its_error_comes_back() {
        let schema = GamesBuilder::schema(TableOptions::default());
        let writer = TableWriter::new(Vec::new(), Format::Csv, schema.clone()).unwrap();
        let mut thread = WriterThread::spawn_then(writer, 0, |mut out: Vec<u8>| {
            out.extend_from_slice(b"then");
            Ok(out)
        })
        .unwrap();
        thread.write(batch(2)).unwrap();
        let out = thread.finish().unwrap();
        assert!(
            out.ends_with(b"\nthen"),
            "{}",
            String::from_utf8_lossy(&out)
        );
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1 + 2);

        let writer = TableWriter::new(Vec::new(), Format::Csv, schema).unwrap();
        let thread = WriterThread::spawn_then(writer, 0, |_: Vec<u8>| {
            Err(std::io::Error::other("sync failed"))
        })
        .unwrap();
        let error = thread.finish().unwrap_err();
        assert!(error.to_string().contains("sync failed"), "{error}");
    }

    #[test]
    fn a_write_error_comes_back() {
        let schema = GamesBuilder::schema(TableOptions::default());
        let out = Full {
            taken: 0,
            limit: 300,
        };
        let mut thread =
            WriterThread::spawn(TableWriter::new(out, Format::Csv, schema).unwrap(), 1).unwrap();
        let mut failed = None;
        for _ in 0..100 {
            if let Err(e) = thread.write(batch(50)) {
                failed = Some(e);
                break;
            }
        }
        let error = match failed {
            Some(e) => e,
            None => thread.finish().err().expect("the writer fails"),
        };
        assert!(error.to_string().contains("disk full"), "{error}");
    }
}
