//! The games table's `errors` column: a list of structs per game (`line`,
//! `column`, `severity`, `message`), one per error of a game kept broken
//! ([`RecordError`]), so that a reader filters on a line or a message without
//! parsing text.

use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, ListBuilder, StringBuilder, StructBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{Array, ArrayRef, ListArray, StructArray, UInt64Array};
use arrow_schema::{ArrowError, DataType, Field, Fields};

use crate::error::Error;
use crate::record::RecordError;

/// The fields of one error, in column order.
fn error_fields() -> Fields {
    Fields::from(vec![
        Field::new("line", DataType::UInt64, false),
        Field::new("column", DataType::UInt32, false),
        Field::new("severity", DataType::Utf8, false),
        Field::new("message", DataType::Utf8, false),
    ])
}

/// Builds the `errors` column.
#[derive(Debug)]
pub(crate) struct ErrorsBuilder {
    list: ListBuilder<StructBuilder>,
}

impl Default for ErrorsBuilder {
    fn default() -> ErrorsBuilder {
        let builders: Vec<Box<dyn ArrayBuilder>> = vec![
            Box::new(UInt64Builder::new()),
            Box::new(UInt32Builder::new()),
            Box::new(StringBuilder::new()),
            Box::new(StringBuilder::new()),
        ];
        ErrorsBuilder {
            list: ListBuilder::new(StructBuilder::new(error_fields(), builders)),
        }
    }
}

/// A field builder of the struct, by its place and type.
fn field<T: ArrayBuilder>(row: &mut StructBuilder, i: usize) -> Result<&mut T, Error> {
    row.field_builder::<T>(i).ok_or_else(|| {
        ArrowError::SchemaError(format!("errors: field {i} has another type")).into()
    })
}

impl ErrorsBuilder {
    /// Appends one game's errors; returns the bytes of text they hold.
    pub(crate) fn push(&mut self, errors: &[RecordError]) -> Result<usize, Error> {
        let mut bytes = 0;
        let row = self.list.values();
        for error in errors {
            field::<UInt64Builder>(row, 0)?.append_value(error.line);
            let column = u32::try_from(error.column).unwrap_or(u32::MAX);
            field::<UInt32Builder>(row, 1)?.append_value(column);
            field::<StringBuilder>(row, 2)?.append_value(error.severity);
            field::<StringBuilder>(row, 3)?.append_value(&error.message);
            row.append(true);
            bytes += error.severity.len() + error.message.len();
        }
        self.list.append(true);
        Ok(bytes)
    }

    /// The games' lists as a column; the builder starts again empty.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        Arc::new(self.list.finish())
    }
}

/// An `errors` column with `lines` added to every error's line; a column of another shape
/// is returned as it is.
pub(crate) fn shift_lines(column: &ArrayRef, lines: u64) -> Result<ArrayRef, Error> {
    let Some(lists) = column.as_list_opt::<i32>() else {
        return Ok(column.clone());
    };
    let Some(errors) = lists.values().as_struct_opt() else {
        return Ok(column.clone());
    };
    let Some(line) = errors
        .column_by_name("line")
        .and_then(|c| c.as_primitive_opt::<UInt64Type>())
    else {
        return Ok(column.clone());
    };
    let shifted: UInt64Array = line.unary(|l| l + lines);
    let mut fields = errors.columns().to_vec();
    if let Some(i) = errors.fields().iter().position(|f| f.name() == "line") {
        fields[i] = Arc::new(shifted);
    }
    let errors = StructArray::try_new(errors.fields().clone(), fields, errors.nulls().cloned())?;
    let field = match lists.data_type() {
        DataType::List(field) => field.clone(),
        _ => return Ok(column.clone()),
    };
    Ok(Arc::new(ListArray::try_new(
        field,
        lists.offsets().clone(),
        Arc::new(errors),
        lists.nulls().cloned(),
    )?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::types::UInt32Type;

    #[test]
    fn each_game_gets_its_list_of_errors() {
        let mut builder = ErrorsBuilder::default();
        let error = |line, message: &str| RecordError {
            line,
            column: 7,
            severity: "error",
            message: message.to_owned(),
        };
        builder.push(&[error(3, "illegal move")]).unwrap();
        builder.push(&[]).unwrap();
        builder.push(&[error(9, "a"), error(10, "b")]).unwrap();
        let column = builder.finish();
        let lists = column.as_list::<i32>();
        assert_eq!(lists.len(), 3);
        assert_eq!(lists.value_length(1), 0);
        let last = lists.value(2);
        let last = last.as_struct();
        let lines = last.column(0).as_primitive::<UInt64Type>();
        assert_eq!(lines.values(), &[9, 10]);
        assert_eq!(last.column(1).as_primitive::<UInt32Type>().value(0), 7);
        assert_eq!(last.column(3).as_string::<i32>().value(1), "b");
        assert_eq!(builder.finish().len(), 0, "the builder starts again empty");
        let shifted = shift_lines(&column, 100).unwrap();
        let last = shifted.as_list::<i32>().value(2);
        let lines = last.as_struct().column(0).as_primitive::<UInt64Type>();
        assert_eq!(lines.values(), &[109, 110]);
        assert_eq!(shifted.as_list::<i32>().value_length(1), 0);
    }
}
