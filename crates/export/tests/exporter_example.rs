//! Runs the `exporter_snapshot` example's checks as a test, so that the
//! example in docs/testing-your-exporter.md keeps working.

#[allow(dead_code)]
#[path = "../examples/exporter_snapshot.rs"]
mod example;

#[test]
fn the_exporter_example_holds() {
    example::check();
}
