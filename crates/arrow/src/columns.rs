//! Column buffers the moves table fills a row at a time: [`Values`] (a primitive column,
//! nulls allowed), [`Flags`] (a boolean column without nulls) and [`ByteLists`] (a list of
//! bytes per row, the `nags` column). Each append is a push onto a `Vec`, inlined into
//! the row loop (arrow's builders made a call of 30 to 70 instructions of each
//! `append_value`/`append_null`: a seventh of the moves table's cost), and each batch
//! starts with the room the last one took. The arrays they finish are the arrow builders'
//! to the bit: same types, same list field, no null buffer where no value is null.

use std::sync::Arc;

use arrow_array::builder::{NullBufferBuilder, OffsetBufferBuilder};
use arrow_array::types::{ArrowPrimitiveType, UInt8Type};
use arrow_array::{ArrayRef, BooleanArray, ListArray, PrimitiveArray};
use arrow_schema::{DataType, Field};

/// A primitive column of `T`, nulls allowed.
#[derive(Debug)]
pub(crate) struct Values<T: ArrowPrimitiveType> {
    values: Vec<T::Native>,
    nulls: NullBufferBuilder,
}

impl<T: ArrowPrimitiveType> Values<T> {
    pub(crate) fn new() -> Values<T> {
        Values {
            values: Vec::new(),
            nulls: NullBufferBuilder::new(0),
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, value: T::Native) {
        self.values.push(value);
        self.nulls.append_non_null();
    }

    #[inline(always)]
    pub(crate) fn push_option(&mut self, value: Option<T::Native>) {
        match value {
            Some(value) => self.push(value),
            None => {
                self.values.push(T::Native::default());
                self.nulls.append_null();
            }
        }
    }

    /// The gathered values as a column; the next batch starts with as much room.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let rows = self.values.len();
        let values = std::mem::replace(&mut self.values, Vec::with_capacity(rows));
        let nulls = self.nulls.finish();
        self.nulls = NullBufferBuilder::new(rows);
        Arc::new(PrimitiveArray::<T>::new(values.into(), nulls))
    }
}

/// A boolean column without nulls.
#[derive(Debug, Default)]
pub(crate) struct Flags {
    values: Vec<bool>,
}

impl Flags {
    #[inline]
    pub(crate) fn push(&mut self, value: bool) {
        self.values.push(value);
    }

    /// The gathered flags as a column; the next batch starts with as much room.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let rows = self.values.len();
        let values = std::mem::replace(&mut self.values, Vec::with_capacity(rows));
        Arc::new(BooleanArray::from(values))
    }
}

/// A column of byte lists without nulls (`list<uint8>`, its items nullable as
/// `ListBuilder<UInt8Builder>` makes them).
#[derive(Debug)]
pub(crate) struct ByteLists {
    offsets: OffsetBufferBuilder<i32>,
    values: Vec<u8>,
    rows: usize,
}

impl ByteLists {
    pub(crate) fn new() -> ByteLists {
        ByteLists {
            offsets: OffsetBufferBuilder::new(0),
            values: Vec::new(),
            rows: 0,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, items: &[u8]) {
        self.values.extend_from_slice(items);
        self.offsets.push_length(items.len());
        self.rows += 1;
    }

    /// The gathered lists as a column; the next batch starts with as much room.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let rows = std::mem::take(&mut self.rows);
        let offsets = std::mem::replace(&mut self.offsets, OffsetBufferBuilder::new(rows));
        let values = std::mem::take(&mut self.values);
        let items = PrimitiveArray::<UInt8Type>::new(values.into(), None);
        Arc::new(ListArray::new(
            Arc::new(Field::new_list_field(DataType::UInt8, true)),
            offsets.finish(),
            Arc::new(items),
            None,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::builder::{BooleanBuilder, Int32Builder, ListBuilder, UInt8Builder};
    use arrow_array::types::Int32Type;

    #[test]
    fn the_columns_equal_arrows_builders() {
        for round in 0..2 {
            let mut values = Values::<Int32Type>::new();
            let mut theirs = Int32Builder::new();
            for v in [Some(1), None, Some(-3)].into_iter().skip(round) {
                values.push_option(v);
                theirs.append_option(v);
            }
            let (mine, theirs) = (values.finish(), Arc::new(theirs.finish()) as ArrayRef);
            assert_eq!(mine.to_data(), theirs.to_data());

            let mut flags = Flags::default();
            let mut theirs = BooleanBuilder::new();
            for v in [true, false, true].into_iter().skip(round) {
                flags.push(v);
                theirs.append_value(v);
            }
            assert_eq!(flags.finish().to_data(), theirs.finish().to_data());

            let mut lists = ByteLists::new();
            let mut theirs = ListBuilder::new(UInt8Builder::new());
            for items in [&[1u8, 2][..], &[], &[7]].into_iter().skip(round) {
                lists.push(items);
                theirs.values().append_slice(items);
                theirs.append(true);
            }
            let mine = lists.finish();
            assert_eq!(mine.data_type(), theirs.finish().data_type());
            let mut theirs = ListBuilder::new(UInt8Builder::new());
            for items in [&[1u8, 2][..], &[], &[7]].into_iter().skip(round) {
                theirs.values().append_slice(items);
                theirs.append(true);
            }
            assert_eq!(mine.to_data(), theirs.finish().to_data());
        }
        // A finished column leaves the next batch empty.
        let mut lists = ByteLists::new();
        lists.push(&[1]);
        lists.finish();
        assert_eq!(lists.finish().len(), 0);
    }
}
