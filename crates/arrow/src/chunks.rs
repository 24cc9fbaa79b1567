//! Parquet encoded in parallel, a row group at a time: an [`EncoderPool`]'s
//! threads encode whole row groups into column chunks (arrow-rs's
//! `ArrowColumnWriter`, one per leaf column), and each table's
//! [`ParquetThreads`] gathers the batches it is given into row groups of
//! bounded size on the calling thread, hands each to the pool, and has a
//! writer thread of its own append the finished chunks to the file in
//! order. The writer thread only copies bytes: no encoder lives on it, and
//! the row groups' metadata kept until the footer is copied there from the
//! encoders, so that the encoders' threads keep nothing from one row group
//! to the next.
//!
//! Memory stays bounded: a table gathers at most one row group
//! ([`ROW_GROUP_ROWS`] rows, [`ROW_GROUP_ARROW_BYTES`] of Arrow memory), the
//! pool encodes one row group per thread (a table that hands over a row
//! group while every thread is busy waits), and finished row groups wait for
//! their writer only while an earlier one is still being encoded. But a
//! row group waits whole, in Arrow form, where `ArrowWriter` (and so
//! [`TableWriter`](crate::TableWriter)) encodes each batch as it comes and
//! keeps only encoded pages: for the same memory the row groups are
//! smaller, so more of them, and each keeps some 10 KB of metadata until
//! the footer. `pgnkit convert` was measured with it (docs/performance.md,
//! session 11: same CPU time and peak RSS on the bench file, no less growth
//! with the input) and still writes through `TableWriter`; this writer is
//! for machines where one encoding thread per table is the bottleneck.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowColumnChunk, ArrowRowGroupWriterFactory, compute_leaves};
use parquet::file::writer::SerializedFileWriter;

use crate::error::Error;
use crate::writer::{ROW_GROUP_ROWS, parquet_batch, parquet_properties, parquet_schema};

/// A row group is handed to the pool when its batches hold this many bytes of
/// Arrow memory (or [`ROW_GROUP_ROWS`] rows), spare capacity of the
/// builders' buffers included. A whole row group waits in Arrow form before
/// an encoder takes it: with 6 MiB the peak RSS of `convert --threads 2`
/// written through it on the bench file was 4 MB higher (one encoder). On
/// the bench file `convert`'s row groups were 67 to 4,053 games (median 164:
/// its long annotated games) and 8,849 to 57,829 moves (median 33,645).
pub const ROW_GROUP_ARROW_BYTES: usize = 4 << 20;

/// A row group's column chunks, or why they could not be made, with the
/// row group's place in its file.
type Encoded = (usize, Result<Vec<ArrowColumnChunk>, Error>);

/// One row group to encode.
struct Job {
    factory: Arc<ArrowRowGroupWriterFactory>,
    /// The Parquet-side Arrow schema (`time32[ms]` for `time32[s]`).
    schema: SchemaRef,
    /// The row group's place in its file.
    index: usize,
    batches: Vec<RecordBatch>,
    done: SyncSender<Encoded>,
}

impl Job {
    fn encode(self) {
        let Job {
            factory,
            schema,
            index,
            batches,
            done,
        } = self;
        let chunks = encode(&factory, &schema, index, batches);
        // The table's writer has stopped (an error it reports itself).
        let _ = done.send((index, chunks));
    }
}

/// Encodes `batches` as one row group: a column writer per leaf column, fed
/// every batch in order, each batch dropped once written.
fn encode(
    factory: &ArrowRowGroupWriterFactory,
    schema: &SchemaRef,
    index: usize,
    batches: Vec<RecordBatch>,
) -> Result<Vec<ArrowColumnChunk>, Error> {
    let mut writers = factory.create_column_writers(index)?;
    for batch in batches {
        let batch = parquet_batch(&batch, schema)?;
        let mut leaves = writers.iter_mut();
        for (field, column) in schema.fields().iter().zip(batch.columns()) {
            for leaf in compute_leaves(field, column)? {
                let writer = leaves.next().ok_or_else(|| {
                    Error::Io(std::io::Error::other(
                        "a column without a Parquet column writer",
                    ))
                })?;
                writer.write(&leaf)?;
            }
        }
    }
    Ok(writers
        .into_iter()
        .map(|writer| writer.close())
        .collect::<Result<_, _>>()?)
}

/// Threads that encode Parquet row groups for any number of
/// [`ParquetThreads`] (the games and the moves table share one pool).
#[derive(Debug)]
pub struct EncoderPool {
    jobs: Option<SyncSender<Job>>,
    threads: Vec<JoinHandle<()>>,
}

impl EncoderPool {
    /// A pool of `threads` encoding threads (at least one).
    pub fn new(threads: usize) -> Result<Arc<EncoderPool>, Error> {
        // A row group is handed over only when a thread is free to take it.
        let (jobs, received) = mpsc::sync_channel::<Job>(0);
        let received = Arc::new(Mutex::new(received));
        let threads = (0..threads.max(1))
            .map(|_| {
                let received = Arc::clone(&received);
                thread::Builder::new()
                    .name("pgnkit-parquet-encoder".to_owned())
                    .spawn(move || {
                        while let Some(job) = next_job(&received) {
                            job.encode();
                        }
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Arc::new(EncoderPool {
            jobs: Some(jobs),
            threads,
        }))
    }

    /// Hands `job` to a free thread (waiting for one).
    fn encode(&self, job: Job) -> Result<(), Error> {
        match &self.jobs {
            Some(jobs) if jobs.send(job).is_ok() => Ok(()),
            _ => Err(Error::Io(std::io::Error::other(
                "the Parquet encoders have stopped",
            ))),
        }
    }
}

/// The next job of the pool, or `None` once the pool is dropped.
fn next_job(received: &Mutex<Receiver<Job>>) -> Option<Job> {
    // A thread that panicked holding the lock leaves the jobs to the others.
    let received = received.lock().ok()?;
    received.recv().ok()
}

impl Drop for EncoderPool {
    fn drop(&mut self) {
        self.jobs = None;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// One Parquet file written with an [`EncoderPool`]: batches are gathered
/// into row groups on the calling thread, encoded by the pool and appended
/// to the file by a writer thread in order. The file is what
/// [`TableWriter`](crate::TableWriter) writes in Parquet (same schema,
/// properties and row-group limits by rows), with row groups also cut at
/// [`ROW_GROUP_ARROW_BYTES`] of Arrow data.
///
/// ```
/// use pgnkit_arrow::{BatchLimits, EncoderPool, GamesBuilder, ParquetThreads, TableOptions};
///
/// let pool = EncoderPool::new(2)?;
/// let schema = GamesBuilder::schema(TableOptions::default());
/// let mut file = ParquetThreads::spawn(Vec::new(), schema, pool)?;
/// let mut games = GamesBuilder::new(TableOptions::default(), BatchLimits::GAMES);
/// file.write(games.finish()?)?;
/// let bytes: Vec<u8> = file.finish()?;
/// assert_eq!(&bytes[..4], b"PAR1");
/// # Ok::<(), pgnkit_arrow::Error>(())
/// ```
#[derive(Debug)]
pub struct ParquetThreads<W: Write + Send + 'static> {
    pool: Arc<EncoderPool>,
    factory: Arc<ArrowRowGroupWriterFactory>,
    schema: SchemaRef,
    /// The row group being gathered, its rows and its Arrow bytes.
    gathered: Vec<RecordBatch>,
    rows: usize,
    bytes: usize,
    /// Row groups handed to the pool.
    sent: usize,
    done: Option<SyncSender<Encoded>>,
    thread: Option<JoinHandle<Result<(W, usize), Error>>>,
}

impl<W: Write + Send + 'static> ParquetThreads<W> {
    /// Starts the writer thread of a Parquet file of batches with `schema`
    /// to `out`, encoded by `pool`.
    pub fn spawn(
        out: W,
        schema: SchemaRef,
        pool: Arc<EncoderPool>,
    ) -> Result<ParquetThreads<W>, Error> {
        let schema = parquet_schema(&schema);
        // The writer sets up what `TableWriter` writes: the Parquet schema
        // and the Arrow schema in the footer's metadata.
        let writer = ArrowWriter::try_new(out, schema.clone(), Some(parquet_properties()?))?;
        let (file, factory) = writer.into_serialized_writer()?;
        // Every encoder may have a row group done while an earlier one is
        // still being encoded.
        let (done, received) = mpsc::sync_channel::<Encoded>(pool.threads.len());
        let thread = thread::Builder::new()
            .name("pgnkit-parquet-writer".to_owned())
            .spawn(move || append(file, received))?;
        Ok(ParquetThreads {
            pool,
            factory: Arc::new(factory),
            schema,
            gathered: Vec::new(),
            rows: 0,
            bytes: 0,
            sent: 0,
            done: Some(done),
            thread: Some(thread),
        })
    }

    /// Adds `batch` to the row groups, handing each full one to the pool
    /// (waiting for a free encoder). An error of an earlier row group is
    /// returned here, or by [`finish`](ParquetThreads::finish).
    pub fn write(&mut self, batch: RecordBatch) -> Result<(), Error> {
        if self.thread.as_ref().is_some_and(JoinHandle::is_finished) {
            // The writer stopped early: its error says why.
            self.done = None;
            return match self.join() {
                Err(e) => Err(e),
                Ok(_) => Err(ended()),
            };
        }
        let rows = batch.num_rows();
        if rows == 0 {
            return Ok(());
        }
        // The memory the batch holds, spare capacity of its buffers included: counting
        // the data alone (about half of it for the builders' batches) let twice as much
        // wait, 8 MB more at the peak on the bench file.
        let row_bytes = batch.get_array_memory_size().div_ceil(rows).max(1);
        let mut rest = Some(batch);
        while let Some(batch) = rest.take() {
            let room_rows = ROW_GROUP_ROWS - self.rows;
            let room_bytes = ROW_GROUP_ARROW_BYTES.saturating_sub(self.bytes) / row_bytes;
            // A row group takes at least one row.
            let take = batch.num_rows().min(room_rows).min(room_bytes.max(1));
            let left = batch.num_rows() - take;
            let piece = if left == 0 {
                batch
            } else {
                rest = Some(batch.slice(take, left));
                batch.slice(0, take)
            };
            self.gathered.push(piece);
            self.rows += take;
            self.bytes += take * row_bytes;
            if self.rows >= ROW_GROUP_ROWS || self.bytes >= ROW_GROUP_ARROW_BYTES {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Hands the row group gathered so far to the pool.
    fn flush(&mut self) -> Result<(), Error> {
        if self.gathered.is_empty() {
            return Ok(());
        }
        let done = self.done.clone().ok_or_else(ended)?;
        let job = Job {
            factory: Arc::clone(&self.factory),
            schema: self.schema.clone(),
            index: self.sent,
            batches: std::mem::take(&mut self.gathered),
            done,
        };
        self.rows = 0;
        self.bytes = 0;
        self.sent += 1;
        self.pool.encode(job)
    }

    /// Hands over the last row group, waits for every row group to be
    /// written, ends the file (footer) and returns the output.
    pub fn finish(mut self) -> Result<W, Error> {
        let flushed = self.flush();
        self.done = None;
        let (out, written) = self.join()?;
        flushed?;
        if written != self.sent {
            return Err(Error::Io(std::io::Error::other(format!(
                "{} of {} Parquet row groups were written",
                written, self.sent
            ))));
        }
        Ok(out)
    }

    fn join(&mut self) -> Result<(W, usize), Error> {
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(Error::Io(std::io::Error::other(
                "the Parquet writer's thread panicked",
            ))),
            None => Err(ended()),
        }
    }
}

impl<W: Write + Send + 'static> Drop for ParquetThreads<W> {
    /// Waits for the writer thread, so that the output it holds is dropped
    /// (a temporary file removed) before the caller goes on.
    fn drop(&mut self) {
        self.done = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The writer thread: appends the row groups in order as they come, then
/// the footer; returns the output and the number of row groups written.
fn append<W: Write + Send>(
    mut file: SerializedFileWriter<W>,
    received: Receiver<Encoded>,
) -> Result<(W, usize), Error> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    for (index, chunks) in received {
        waiting.insert(index, chunks);
        while let Some(chunks) = waiting.remove(&next) {
            let mut row_group = file.next_row_group()?;
            for mut chunk in chunks? {
                // The chunk's metadata stays until the footer: a copy made
                // here keeps it out of the encoder's memory.
                let close = chunk.close().clone();
                *chunk.close_mut() = close;
                chunk.append_to_row_group(&mut row_group)?;
            }
            row_group.close()?;
            next += 1;
        }
    }
    Ok((file.into_inner()?, next))
}

fn ended() -> Error {
    Error::Io(std::io::Error::other(
        "the Parquet writer's thread has ended",
    ))
}
