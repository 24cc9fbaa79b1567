//! CSV has no nested values: the `tags` map, the `nags` list and the
//! `errors` list are written as JSON text (`{"FEN":"..."}`, `[1,3]`,
//! `[{"line":3,"column":5,"severity":"error","message":"..."}]`).

use std::fmt::Write as _;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt8Type, UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};

use crate::error::Error;

/// The batch with each nested column replaced by its JSON text.
pub(crate) fn flatten(batch: &RecordBatch) -> Result<RecordBatch, Error> {
    let schema = batch.schema();
    if !schema.fields().iter().any(|f| f.data_type().is_nested()) {
        return Ok(batch.clone());
    }
    let mut fields = Vec::with_capacity(schema.fields().len());
    let mut columns = Vec::with_capacity(schema.fields().len());
    for (field, column) in schema.fields().iter().zip(batch.columns()) {
        if field.data_type().is_nested() {
            fields.push(Field::new(field.name(), DataType::Utf8, true));
            columns.push(Arc::new(json_column(column.as_ref())) as ArrayRef);
        } else {
            fields.push(field.as_ref().clone());
            columns.push(column.clone());
        }
    }
    Ok(RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        columns,
    )?)
}

fn json_column(column: &dyn Array) -> StringArray {
    let mut out = String::new();
    (0..column.len())
        .map(|row| {
            if column.is_null(row) {
                return None;
            }
            out.clear();
            json_value(column, row, &mut out);
            Some(out.clone())
        })
        .collect()
}

fn json_value(column: &dyn Array, row: usize, out: &mut String) {
    match column.data_type() {
        DataType::Map(..) => {
            let entries = column.as_map().value(row);
            let keys = entries.column(0).as_string::<i32>();
            let values = entries.column(1).as_string::<i32>();
            out.push('{');
            for i in 0..keys.len() {
                if i > 0 {
                    out.push(',');
                }
                string(keys.value(i), out);
                out.push(':');
                string(values.value(i), out);
            }
            out.push('}');
        }
        DataType::List(_) => {
            let values = column.as_list::<i32>().value(row);
            out.push('[');
            for i in 0..values.len() {
                if i > 0 {
                    out.push(',');
                }
                json_item(values.as_ref(), i, out);
            }
            out.push(']');
        }
        _ => json_item(column, row, out),
    }
}

/// A list's item or a struct's field: a number, a string or a struct (an object).
fn json_item(values: &dyn Array, i: usize, out: &mut String) {
    if values.is_null(i) {
        out.push_str("null");
        return;
    }
    match values.data_type() {
        DataType::UInt8 => {
            let _ = write!(out, "{}", values.as_primitive::<UInt8Type>().value(i));
        }
        DataType::UInt32 => {
            let _ = write!(out, "{}", values.as_primitive::<UInt32Type>().value(i));
        }
        DataType::UInt64 => {
            let _ = write!(out, "{}", values.as_primitive::<UInt64Type>().value(i));
        }
        DataType::Utf8 => string(values.as_string::<i32>().value(i), out),
        DataType::Struct(fields) => {
            let row = values.as_struct();
            out.push('{');
            for (k, (field, column)) in fields.iter().zip(row.columns()).enumerate() {
                if k > 0 {
                    out.push(',');
                }
                string(field.name(), out);
                out.push(':');
                json_item(column.as_ref(), i, out);
            }
            out.push('}');
        }
        DataType::Map(..) | DataType::List(_) => json_value(values, i, out),
        _ => out.push_str("null"),
    }
}

fn string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
