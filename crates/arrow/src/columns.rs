//! Column buffers the moves table fills a game's rows at a time: [`Values`] (a primitive column,
//! nulls allowed), [`Flags`] (a boolean column without nulls) and [`ByteLists`] (a list of
//! bytes per row, the `nags` column). Each append is a push onto a `Vec`, inlined into
//! the column's loop (arrow's builders made a call of 30 to 70 instructions of each
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

    /// Appends `values`, none null.
    #[inline(always)]
    pub(crate) fn extend(&mut self, values: impl Iterator<Item = T::Native>) {
        let start = self.values.len();
        self.values.extend(values);
        self.nulls.append_n_non_nulls(self.values.len() - start);
    }

    /// Appends `values` as [`push_option`](Values::push_option) does one by one: the
    /// values in one loop, then the validity in one step when all are valid or all null
    /// (the second walk only for a mix).
    #[inline(always)]
    pub(crate) fn extend_options<I>(&mut self, values: I)
    where
        I: Iterator<Item = Option<T::Native>> + Clone,
    {
        let start = self.values.len();
        let mut nulls = 0;
        self.values.extend(values.clone().map(|value| {
            nulls += usize::from(value.is_none());
            value.unwrap_or_default()
        }));
        let rows = self.values.len() - start;
        append_validity(&mut self.nulls, rows, nulls, values.map(|v| v.is_some()));
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

/// Marks `rows` rows valid or null, `nulls` of them null: in one step when all are
/// valid or all null, else one by one as `valid` tells (the bits come out the same).
#[inline(always)]
pub(crate) fn append_validity(
    builder: &mut NullBufferBuilder,
    rows: usize,
    nulls: usize,
    valid: impl Iterator<Item = bool>,
) {
    if nulls == 0 {
        builder.append_n_non_nulls(rows);
    } else if nulls == rows {
        builder.append_n_nulls(rows);
    } else {
        for valid in valid {
            builder.append(valid);
        }
    }
}

/// A boolean column without nulls.
#[derive(Debug, Default)]
pub(crate) struct Flags {
    values: Vec<bool>,
}

impl Flags {
    /// Appends `values`.
    #[inline(always)]
    pub(crate) fn extend(&mut self, values: impl Iterator<Item = bool>) {
        self.values.extend(values);
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
            let column = [Some(1), None, Some(-3)].into_iter().skip(round);
            values.extend_options(column.clone());
            for v in column {
                theirs.append_option(v);
            }
            let (mine, theirs) = (values.finish(), Arc::new(theirs.finish()) as ArrayRef);
            assert_eq!(mine.to_data(), theirs.to_data());

            let mut flags = Flags::default();
            let mut theirs = BooleanBuilder::new();
            flags.extend([true, false, true].into_iter().skip(round));
            for v in [true, false, true].into_iter().skip(round) {
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
        // All valid, all null, none, and a mix after each: the validity counted in one
        // step comes out as arrow's builder sets it bit by bit.
        let mut values = Values::<Int32Type>::new();
        let mut theirs = Int32Builder::new();
        let columns: [&[Option<i32>]; 5] = [
            &[Some(4), Some(5)],
            &[None, None],
            &[],
            &[Some(1), None],
            &[None],
        ];
        for column in columns {
            values.extend_options(column.iter().copied());
            for v in column {
                theirs.append_option(*v);
            }
            let (mine, theirs) = (values.finish(), Arc::new(theirs.finish()) as ArrayRef);
            assert_eq!(mine.to_data(), theirs.to_data(), "{column:?}");
        }
        // A finished column leaves the next batch empty.
        let mut lists = ByteLists::new();
        lists.push(&[1]);
        lists.finish();
        assert_eq!(lists.finish().len(), 0);
    }
}
