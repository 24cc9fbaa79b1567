//! What Parquet encoding alone costs: reads each Parquet file named on the
//! command line into memory (batches of `ROWS` rows, about what `convert`
//! hands its writers: 256 games or 20,000 moves) and writes it again, to
//! nowhere, with `convert`'s writer settings ([`pgnkit_arrow::parquet_properties`]),
//! three times on this thread; prints the least CPU time of the three. Used
//! by `cargo xtask bench --convert` for the floor under `convert`: the
//! encoding (arrow-rs and zstd) that no change of ours can make cheaper.
//!
//! ```text
//! cargo run --release -p pgnkit-arrow --example parquet_encode -- games.parquet:256 moves.parquet:20000
//! ```

use std::fs::File;
use std::time::Instant;

use arrow_array::RecordBatchReader;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// This thread's CPU time in seconds (user + system), from Linux's
/// `/proc/thread-self/stat`; `None` elsewhere.
fn thread_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command's `)`: state is the first, utime the 12th, stime the 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for arg in std::env::args().skip(1) {
        let (path, rows) = match arg.rsplit_once(':') {
            Some((path, rows)) => (path.to_string(), rows.parse()?),
            None => (arg.clone(), 8192),
        };
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&path)?)?
            .with_batch_size(rows)
            .build()?;
        let schema = reader.schema();
        let batches = reader.collect::<Result<Vec<_>, _>>()?;
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let (started, cpu) = (Instant::now(), thread_cpu());
            let mut writer = ArrowWriter::try_new(
                std::io::sink(),
                schema.clone(),
                Some(pgnkit_arrow::parquet_properties()?),
            )?;
            for batch in &batches {
                writer.write(batch)?;
            }
            writer.close()?;
            let seconds = match (cpu, thread_cpu()) {
                (Some(before), Some(after)) => after - before,
                _ => started.elapsed().as_secs_f64(),
            };
            best = best.min(seconds);
        }
        println!("{path}\t{best:.3}");
    }
    Ok(())
}
