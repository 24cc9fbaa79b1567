//! Column buffers the moves table fills a game's rows at a time: [`Values`] (a primitive column,
//! nulls allowed), [`Flags`] (a boolean column without nulls) and [`ByteLists`] (a list of
//! bytes per row, the `nags` column). Each append is a push onto a `Vec`, inlined into
//! the column's loop (arrow's builders made a call of 30 to 70 instructions of each
//! `append_value`/`append_null`: a seventh of the moves table's cost), and each batch
//! starts with the room the last one took. The arrays they finish are the arrow builders'
//! to the bit: same types, same list field, no null buffer where no value is null.
//! The text columns: [`ShortTexts`] (SAN, UCI, squares: checked as UTF-8 once a batch)
//! and [`LongTexts`] (comments, movetext, FENs), both starting each batch with the room
//! the last one took.

use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, BooleanBufferBuilder, NullBufferBuilder, OffsetBufferBuilder, StringBuilder,
};
use arrow_array::types::{ArrowPrimitiveType, UInt8Type};
use arrow_array::{
    ArrayRef, BooleanArray, ListArray, MapArray, PrimitiveArray, StringArray, StructArray,
};
use arrow_schema::{DataType, Field, Fields};

use crate::error::Error;
use crate::move_text::MoveText;

/// The room a column's next batch starts with, for `n` rows (or bytes) in the last one:
/// as many and an eighth more, so that a batch a little longer than the last, or the
/// game that overflows it, does not grow the buffer (each growth copies the whole batch
/// gathered so far: 9 M instructions of `convert` on the guard's sample, in the moves
/// table's columns and the games table's texts).
#[inline]
pub(crate) fn room(n: usize) -> usize {
    if n == 0 { 0 } else { n + n / 8 + 64 }
}

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

    /// Appends `values` (a value or a null per row): the
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

    /// Appends `value` (or a null): a row of the games table's columns.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: Option<T::Native>) {
        self.values.push(value.unwrap_or_default());
        self.nulls.append(value.is_some());
    }

    /// The gathered values as a column; the next batch starts with as much room.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let rows = room(self.values.len());
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

/// A boolean column without nulls, packed into bits as it is appended (a `Vec<bool>`
/// made a column by `BooleanArray::from` went over the batch again, a bit at a time).
#[derive(Debug, Default)]
pub(crate) struct Flags {
    /// The full words of 64 flags so far, as little-endian bytes.
    bytes: Vec<u8>,
    /// The flags after them (the low `len % 64` bits).
    word: u64,
    len: usize,
}

impl Flags {
    /// Appends `values`.
    #[inline(always)]
    pub(crate) fn extend(&mut self, values: impl Iterator<Item = bool>) {
        let (mut word, mut len) = (self.word, self.len);
        for value in values {
            word |= u64::from(value) << (len % 64);
            len += 1;
            if len % 64 == 0 {
                self.bytes.extend_from_slice(&word.to_le_bytes());
                word = 0;
            }
        }
        (self.word, self.len) = (word, len);
    }

    /// The gathered flags as a column; the next batch starts with as much room.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let len = std::mem::take(&mut self.len);
        let word = std::mem::take(&mut self.word);
        let mut bytes = std::mem::replace(&mut self.bytes, Vec::with_capacity(room(len / 8)));
        bytes.extend_from_slice(&word.to_le_bytes()[..(len % 64).div_ceil(8)]);
        let mut bits = BooleanBufferBuilder::new(len);
        bits.append_packed_range(0..len, &bytes);
        Arc::new(BooleanArray::new(bits.finish(), None))
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
        let rows = room(std::mem::take(&mut self.rows));
        let offsets = std::mem::replace(&mut self.offsets, OffsetBufferBuilder::new(rows));
        let room = room(self.values.len());
        let values = std::mem::replace(&mut self.values, Vec::with_capacity(room));
        let items = PrimitiveArray::<UInt8Type>::new(values.into(), None);
        Arc::new(ListArray::new(
            Arc::new(Field::new_list_field(DataType::UInt8, true)),
            offsets.finish(),
            Arc::new(items),
            None,
        ))
    }
}

/// A column of short ASCII texts gathered as bytes (no UTF-8 check per value), made a
/// string column by one check of the whole batch's bytes.
pub(crate) fn utf8(builder: &mut BinaryBuilder) -> Result<ArrayRef, Error> {
    let (offsets, values, nulls) = builder.finish().into_parts();
    Ok(Arc::new(StringArray::try_new(offsets, values, nulls)?))
}

/// A string column of short ASCII texts (SAN, UCI, squares, piece letters): the moves
/// table's five text columns of every row. Appends are inlined here (arrow's
/// `BinaryBuilder::append_value` was a call of about 70 instructions a value), and each
/// batch starts with the room the last one took (an arrow builder starts again from
/// nothing after `finish`, so every batch grew each column a dozen times); the batch is
/// checked as UTF-8 once, as [`utf8`].
#[derive(Debug)]
pub(crate) struct ShortTexts {
    values: Vec<u8>,
    offsets: OffsetBufferBuilder<i32>,
    nulls: NullBufferBuilder,
}

impl ShortTexts {
    pub(crate) fn new() -> ShortTexts {
        ShortTexts {
            values: Vec::new(),
            offsets: OffsetBufferBuilder::new(0),
            nulls: NullBufferBuilder::new(0),
        }
    }

    /// Appends the text of each of `rows` (or a null), one value a row: room for 8
    /// bytes a text made once, each text copied whole (its padding cut by the next), the
    /// validity in one step when every row has a text. Returns the bytes appended.
    #[inline(always)]
    pub(crate) fn extend_texts<R>(
        &mut self,
        rows: &[R],
        text: impl Fn(&R) -> Option<&MoveText>,
    ) -> usize {
        let start = self.values.len();
        self.values.resize(start + 8 * rows.len() + 8, 0);
        self.offsets.reserve(rows.len());
        let mut end = start;
        let mut nulls = 0;
        for row in rows {
            match text(row) {
                Some(text) => {
                    let (bytes, len) = text.padded();
                    self.values[end..end + 8].copy_from_slice(bytes);
                    end += len;
                    self.offsets.push_length(len);
                }
                None => {
                    nulls += 1;
                    self.offsets.push_length(0);
                }
            }
        }
        self.values.truncate(end);
        let valid = rows.iter().map(|row| text(row).is_some());
        append_validity(&mut self.nulls, rows.len(), nulls, valid);
        end - start
    }

    /// Appends `letters` (a piece or promotion letter per row, or a null) one by one,
    /// the validity in one step when all are letters or all null.
    #[inline(always)]
    pub(crate) fn extend_letters<I>(&mut self, letters: I)
    where
        I: Iterator<Item = Option<char>> + Clone,
    {
        let mut rows = 0;
        let mut nulls = 0;
        for letter in letters.clone() {
            rows += 1;
            match letter {
                Some(letter) if letter.is_ascii() => {
                    self.values.push(letter as u8);
                    self.offsets.push_length(1);
                }
                Some(letter) => {
                    let text = letter.encode_utf8(&mut [0; 4]).as_bytes().to_owned();
                    self.values.extend_from_slice(&text);
                    self.offsets.push_length(text.len());
                }
                None => {
                    nulls += 1;
                    self.offsets.push_length(0);
                }
            }
        }
        let valid = letters.map(|letter| letter.is_some());
        append_validity(&mut self.nulls, rows, nulls, valid);
    }

    /// The gathered texts as a string column; the next batch starts with as much room.
    pub(crate) fn finish(&mut self) -> Result<ArrayRef, Error> {
        // The bytes' room as the rows': `extend_texts` makes room for 8 bytes a row of the
        // game it appends.
        let rows = room(self.nulls.len());
        let room = room(self.values.len()) + 8 * (rows - self.nulls.len());
        let values = std::mem::replace(&mut self.values, Vec::with_capacity(room));
        let offsets = std::mem::replace(&mut self.offsets, OffsetBufferBuilder::new(rows));
        let nulls = self.nulls.finish();
        self.nulls = NullBufferBuilder::new(rows);
        Ok(Arc::new(StringArray::try_new(
            offsets.finish(),
            values.into(),
            nulls,
        )?))
    }
}

/// A string column of the games table's tags (and `source`, `variant`, `outcome`): a
/// value or a null a game, appended inline (arrow's `StringBuilder::append_option` was a
/// call of about 130 instructions a value, 16 a game), checked as UTF-8 once a batch as
/// [`ShortTexts`]. Each batch takes the room the batch before it took (and an eighth more)
/// at [`start`](Texts::start), before its first row, as [`LongTexts`] does: an idle column
/// holds no room.
#[derive(Debug)]
pub(crate) struct Texts {
    values: Vec<u8>,
    offsets: OffsetBufferBuilder<i32>,
    nulls: NullBufferBuilder,
    /// Rows and bytes of the last batch, until the next one starts.
    room: Option<(usize, usize)>,
}

impl Texts {
    pub(crate) fn new() -> Texts {
        Texts {
            values: Vec::new(),
            offsets: OffsetBufferBuilder::new(0),
            nulls: NullBufferBuilder::new(0),
            room: None,
        }
    }

    /// Makes the room of the last batch, before a batch's first row (growing each
    /// batch's texts from nothing copied them a dozen times: 2 M instructions on the
    /// guard's sample).
    #[inline]
    pub(crate) fn start(&mut self) {
        if let Some((rows, bytes)) = self.room.take() {
            self.values = Vec::with_capacity(room(bytes));
            self.offsets = OffsetBufferBuilder::new(room(rows));
            self.nulls = NullBufferBuilder::new(room(rows));
        }
    }

    /// Appends `value` (or a null), counting its bytes.
    #[inline(always)]
    pub(crate) fn push(&mut self, value: Option<&str>, bytes: &mut usize) {
        match value {
            Some(value) => {
                *bytes += value.len();
                self.values.extend_from_slice(value.as_bytes());
                self.offsets.push_length(value.len());
                self.nulls.append_non_null();
            }
            None => {
                self.offsets.push_length(0);
                self.nulls.append_null();
            }
        }
    }

    /// The gathered texts as a string column; the next batch starts empty, its room
    /// made at its [`start`](Texts::start).
    pub(crate) fn finish(&mut self) -> Result<ArrayRef, Error> {
        let rows = self.nulls.len();
        self.room = (rows > 0).then_some((rows, self.values.len()));
        let values = std::mem::take(&mut self.values);
        let offsets = std::mem::replace(&mut self.offsets, OffsetBufferBuilder::new(0));
        let nulls = self.nulls.finish();
        self.nulls = NullBufferBuilder::new(0);
        Ok(Arc::new(StringArray::try_new(
            offsets.finish(),
            values.into(),
            nulls,
        )?))
    }
}

/// The games table's `tags` column (`map<string, string>`: the tags without a column of
/// their own, a list of name-value entries a game), its names and values appended inline
/// as [`Texts`] (arrow's `MapBuilder` made a call of about 60 instructions of each name and
/// value) and made a map column as `MapBuilder` makes it: entries `keys` (not null) and
/// `values`, no nulls.
#[derive(Debug)]
pub(crate) struct TagMap {
    keys: Texts,
    values: Texts,
    offsets: OffsetBufferBuilder<i32>,
    /// Games of the last batch, until the next one starts.
    room: Option<usize>,
}

impl TagMap {
    pub(crate) fn new() -> TagMap {
        TagMap {
            keys: Texts::new(),
            values: Texts::new(),
            offsets: OffsetBufferBuilder::new(0),
            room: None,
        }
    }

    /// Makes the room of the last batch, before a batch's first game (as [`Texts::start`]).
    #[inline]
    pub(crate) fn start(&mut self) {
        self.keys.start();
        self.values.start();
        if let Some(games) = self.room.take() {
            self.offsets = OffsetBufferBuilder::new(room(games));
        }
    }

    /// Appends a game's tags, counting their bytes.
    #[inline]
    pub(crate) fn push(&mut self, tags: &[(String, String)], bytes: &mut usize) {
        for (name, value) in tags {
            self.keys.push(Some(name), bytes);
            self.values.push(Some(value), bytes);
        }
        self.offsets.push_length(tags.len());
    }

    /// The gathered games' tags as a map column; the next batch starts empty, its room
    /// made at its [`start`](TagMap::start).
    pub(crate) fn finish(&mut self) -> Result<ArrayRef, Error> {
        let offsets = std::mem::replace(&mut self.offsets, OffsetBufferBuilder::new(0)).finish();
        let games = offsets.len() - 1;
        self.room = (games > 0).then_some(games);
        let (keys, values) = (self.keys.finish()?, self.values.finish()?);
        let fields = Fields::from(vec![
            Field::new("keys", keys.data_type().clone(), false),
            Field::new("values", values.data_type().clone(), true),
        ]);
        let entries = StructArray::try_new(fields.clone(), vec![keys, values], None)?;
        let entry = Field::new("entries", DataType::Struct(fields), false);
        Ok(Arc::new(MapArray::try_new(
            Arc::new(entry),
            offsets,
            entries,
            None,
            false,
        )?))
    }
}

/// A column of long texts (movetext, FENs, comments) whose batch, at its first value, takes
/// the room the batch before it took: an arrow builder starts again from nothing after
/// `finish` and grew each batch's text by doubling, copying it each time (on the comment-heavy
/// games of the bench file, 2% of `convert`'s instructions). The room is taken at the first
/// value, not at `finish`, so that an idle builder holds no memory.
#[derive(Debug, Default)]
pub(crate) struct LongTexts {
    builder: StringBuilder,
    /// Values and bytes of the last batch, until the next one starts.
    room: Option<(usize, usize)>,
}

impl LongTexts {
    #[inline]
    fn start(&mut self) {
        if let Some((rows, bytes)) = self.room.take() {
            self.builder = StringBuilder::with_capacity(room(rows), room(bytes));
        }
    }

    /// Appends `value` (or a null), counting its bytes.
    pub(crate) fn push(&mut self, value: Option<&str>, bytes: &mut usize) {
        self.start();
        text(&mut self.builder, value, bytes);
    }

    /// Appends each of `values` as [`push`](LongTexts::push) does; a game's rows that are
    /// all null (the comments of most games, their clocks taken out) in one step.
    pub(crate) fn extend<'a, I>(&mut self, values: I, bytes: &mut usize)
    where
        I: ExactSizeIterator<Item = Option<&'a str>> + Clone,
    {
        let rows = values.len();
        if rows == 0 {
            return;
        }
        self.start();
        if values.clone().all(|value| value.is_none()) {
            self.builder.append_nulls(rows);
            return;
        }
        for value in values {
            text(&mut self.builder, value, bytes);
        }
    }

    /// The gathered texts as a column.
    pub(crate) fn finish(&mut self) -> ArrayRef {
        let rows = self.builder.offsets_slice().len() - 1;
        let len = self.builder.values_slice().len();
        self.room = (rows > 0).then_some((rows, len));
        Arc::new(self.builder.finish())
    }
}

pub(crate) fn text(builder: &mut StringBuilder, value: Option<&str>, bytes: &mut usize) {
    if let Some(value) = value {
        *bytes += value.len();
    }
    builder.append_option(value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::builder::{BooleanBuilder, Int32Builder, ListBuilder, UInt8Builder};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, UInt64Type};

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

    /// The games table's map of other tags and its primitive columns, a game at a time, are
    /// arrow's `MapBuilder` and `PrimitiveBuilder` columns of the same values, batch after
    /// batch (a game with no other tags, a batch with none, one with no games).
    #[test]
    fn tag_maps_and_values_a_game_at_a_time_equal_arrows_builders() {
        use arrow_array::builder::{Date32Builder, MapBuilder};
        use arrow_array::types::Date32Type;
        let tags = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect()
        };
        let batches: [Vec<Vec<(String, String)>>; 4] = [
            vec![
                tags(&[("Annotator", "Ljubojević"), ("PlyCount", "")]),
                tags(&[]),
            ],
            vec![tags(&[]), tags(&[])],
            vec![],
            vec![
                tags(&[("FEN", "8/8/8/8/8/8/8/K6k w - - 0 1")]),
                tags(&[("A", "b")]),
            ],
        ];
        let mut map = TagMap::new();
        let mut dates = Values::<Date32Type>::new();
        for games in &batches {
            map.start();
            let mut theirs = MapBuilder::new(None, StringBuilder::new(), StringBuilder::new());
            let mut their_dates = Date32Builder::new();
            let mut bytes = 0;
            for (i, game) in games.iter().enumerate() {
                map.push(game, &mut bytes);
                for (name, value) in game {
                    theirs.keys().append_value(name);
                    theirs.values().append_value(value);
                }
                theirs.append(true).unwrap();
                let date = (i % 2 == 0).then_some(19_000 + i as i32);
                dates.push(date);
                their_dates.append_option(date);
            }
            let expected: usize = games.iter().flatten().map(|(n, v)| n.len() + v.len()).sum();
            assert_eq!(bytes, expected);
            let mine = map.finish().unwrap();
            assert_eq!(mine.data_type(), theirs.finish().data_type());
            let mut theirs = MapBuilder::new(None, StringBuilder::new(), StringBuilder::new());
            for game in games {
                for (name, value) in game {
                    theirs.keys().append_value(name);
                    theirs.values().append_value(value);
                }
                theirs.append(true).unwrap();
            }
            assert_eq!(mine.to_data(), theirs.finish().to_data(), "{games:?}");
            assert_eq!(dates.finish().to_data(), their_dates.finish().to_data());
        }
    }

    /// Flags packed a word at a time, in games of any length and batches that end inside a
    /// word or on its edge, are arrow's `BooleanArray` of the same values.
    #[test]
    fn flags_packed_in_words_equal_arrows_array() {
        let mut flags = Flags::default();
        for games in [&[3usize, 61, 1][..], &[64], &[], &[200, 7, 64, 129], &[1]] {
            let mut all = Vec::new();
            for (g, &len) in games.iter().enumerate() {
                let game: Vec<bool> = (0..len).map(|i| (i * 7 + g) % 3 == 0).collect();
                flags.extend(game.iter().copied());
                all.extend(game);
            }
            let column = flags.finish();
            assert_eq!(
                column.to_data(),
                BooleanArray::from(all).to_data(),
                "{games:?}"
            );
            assert_eq!(column.null_count(), 0);
        }
    }

    #[test]
    fn short_texts_a_game_at_a_time_equal_arrows_builder() {
        let mut texts = ShortTexts::new();
        let mut letters = ShortTexts::new();
        let games: [&[Option<&str>]; 5] = [
            &[Some("e4"), Some("Nxf3+"), Some("exd8=Q#")],
            &[None, None],
            &[],
            &[Some("O-O"), None, Some("a1")],
            &[None, Some("Kh1")],
        ];
        let chars: [&[Option<char>]; 4] = [
            &[Some('N'), Some('Q')],
            &[None],
            &[Some('é'), None, Some('K')],
            &[],
        ];
        for round in 0..2 {
            let mut theirs = StringBuilder::new();
            for game in games.iter().skip(round) {
                let rows: Vec<Option<MoveText>> =
                    game.iter().map(|t| t.map(MoveText::new)).collect();
                texts.extend_texts(&rows, |row| row.as_ref());
                for text in game.iter() {
                    theirs.append_option(*text);
                }
            }
            let mine = texts.finish().unwrap();
            assert_eq!(mine.to_data(), theirs.finish().to_data());
            let mut theirs = StringBuilder::new();
            for game in chars.iter().skip(round) {
                letters.extend_letters(game.iter().copied());
                for letter in game.iter() {
                    theirs.append_option(letter.map(String::from));
                }
            }
            assert_eq!(
                letters.finish().unwrap().to_data(),
                theirs.finish().to_data()
            );
        }
    }

    #[test]
    fn texts_equal_arrows_builder() {
        let mut texts = Texts::new();
        let batches: [&[Option<&str>]; 4] = [
            &[Some("Lichess"), None, Some(""), Some("Fischer, Robert J.")],
            &[None, None],
            &[],
            &[Some("Ljubojević"), Some("1-0")],
        ];
        for batch in batches {
            let mut theirs = StringBuilder::new();
            let mut bytes = 0;
            for value in batch {
                texts.push(*value, &mut bytes);
                theirs.append_option(*value);
            }
            let expected: usize = batch.iter().flatten().map(|v| v.len()).sum();
            assert_eq!(bytes, expected);
            let mine = texts.finish().unwrap();
            assert_eq!(mine.to_data(), theirs.finish().to_data(), "{batch:?}");
        }
        // An idle column holds no room.
        assert_eq!(texts.values.capacity(), 0);
    }

    /// A batch an eighth longer than the last (in games of 100 moves) is gathered in the
    /// room the last one left, never grown: growing copies the batch gathered so far.
    #[test]
    fn a_batch_an_eighth_longer_than_the_last_fits_its_room() {
        let game = vec![MoveText::new("Nbxd7=Q#"); 100];
        let mut san = ShortTexts::new();
        let mut ids = Values::<UInt64Type>::new();
        let mut texts = Texts::new();
        let mut bytes = 0;
        for batch in [8, 9] {
            if batch == 9 {
                texts.start();
            }
            let room = (san.values.capacity(), ids.values.capacity());
            let tags = texts.values.capacity();
            for _ in 0..batch {
                san.extend_texts(&game, |text| Some(text));
                ids.extend(game.iter().map(|_| 7));
                texts.push(Some("Lichess"), &mut bytes);
            }
            if batch == 9 {
                assert_eq!((san.values.capacity(), ids.values.capacity()), room);
                assert_eq!(texts.values.capacity(), tags);
            }
            assert_eq!(san.finish().unwrap().len(), batch * 100);
            assert_eq!(ids.finish().len(), batch * 100);
            texts.finish().unwrap();
            // The games table's texts take their room at the next batch's start only.
            assert_eq!(texts.values.capacity(), 0);
        }
    }

    #[test]
    fn long_texts_start_a_batch_with_the_last_ones_room_at_its_first_value() {
        let mut texts = LongTexts::default();
        let mut bytes = 0;
        for _ in 0..1000 {
            texts.push(Some("1. e4 e5 2. Nf3"), &mut bytes);
        }
        texts.push(None, &mut bytes);
        texts.extend([None, None].into_iter(), &mut bytes);
        texts.extend([None, Some("e4")].into_iter(), &mut bytes);
        assert_eq!(bytes, 15_002);
        let column = texts.finish();
        assert_eq!((column.len(), column.null_count()), (1005, 4));
        assert_eq!(column.as_string::<i32>().value(1004), "e4");
        assert_eq!(column.as_string::<i32>().value(999), "1. e4 e5 2. Nf3");
        // Idle: no room held.
        assert_eq!(texts.builder.values_capacity(), 0);
        texts.push(Some("e4"), &mut bytes);
        assert!(texts.builder.values_capacity() >= 15_000);
        assert!(texts.builder.offsets_capacity() >= 1001);
        let column = texts.finish();
        assert_eq!(column.len(), 1);
        assert_eq!(column.as_string::<i32>().value(0), "e4");
    }
}
