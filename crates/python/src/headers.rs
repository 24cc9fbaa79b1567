//! `pgnkit.Headers`: a game's tag pairs as python-chess's `Headers`, a
//! mutable mapping that keeps order. The Seven Tag Roster comes first, in
//! roster order, each with its export default (`?`, `????.??.??`, the
//! result) when the game lacks it; the other tags follow in file order.

use std::sync::{Arc, RwLock};

use pgnkit::game::{Game as CoreGame, Tags};
use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::shared::{Shared, read_lock, write_lock};

/// The Seven Tag Roster, in order, with its defaults (python-chess's too): the library's list.
pub use pgnkit::game::SEVEN_TAG_ROSTER as ROSTER;

fn roster_default(name: &str) -> Option<&'static str> {
    ROSTER.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// Where the tags live: in a game (a live view: changes show in the game),
/// or on their own (from `read_headers`).
pub enum Store {
    /// A game's tags.
    Game(Shared),
    /// Tags read alone.
    Own(Arc<RwLock<Tags>>),
}

/// A game's tag pairs: a mutable mapping from names to values that keeps
/// order, as python-chess's `chess.pgn.Headers`.
///
/// The seven roster tags (Event, Site, Date, Round, White, Black, Result)
/// are always present, first and in that order; a game without one shows
/// python-chess's default (`?`, `????.??.??`, and for Result the game's
/// result marker). Other tags follow in the order of the file. Changes
/// made here show in the game (and in `str(game)`).
#[pyclass(module = "pgnkit", frozen, mapping)]
pub struct Headers {
    store: Store,
}

impl Headers {
    /// A view of `game`'s tags.
    pub fn of_game(game: Shared) -> Headers {
        Headers {
            store: Store::Game(game),
        }
    }

    /// Tags of their own.
    pub fn own(tags: Tags) -> Headers {
        Headers {
            store: Store::Own(Arc::new(RwLock::new(tags))),
        }
    }

    fn read<T>(&self, f: impl FnOnce(&Tags, &'static str) -> T) -> T {
        match &self.store {
            Store::Game(game) => {
                let game = read_lock(game);
                f(game.tags(), result_default(&game))
            }
            Store::Own(tags) => f(&tags.read().unwrap_or_else(|e| e.into_inner()), "*"),
        }
    }

    fn write<T>(&self, f: impl FnOnce(&mut Tags) -> T) -> T {
        match &self.store {
            Store::Game(game) => f(write_lock(game).tags_mut()),
            Store::Own(tags) => f(&mut tags.write().unwrap_or_else(|e| e.into_inner())),
        }
    }

    /// Every pair in mapping order.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.read(|tags, result| {
            let mut pairs: Vec<(String, String)> = ROSTER
                .iter()
                .map(|&(name, default)| {
                    let default = if name == "Result" { result } else { default };
                    (
                        name.to_string(),
                        tags.get(name).unwrap_or(default).to_string(),
                    )
                })
                .collect();
            pairs.extend(
                tags.iter()
                    .filter(|(n, _)| roster_default(n).is_none())
                    .map(|(n, v)| (n.to_string(), v.to_string())),
            );
            pairs
        })
    }
}

/// The Result default of a game: its termination marker.
fn result_default(game: &CoreGame) -> &'static str {
    game.termination().as_str()
}

#[pymethods]
impl Headers {
    /// Headers(mapping=None, **tags): tags of their own, roster first.
    #[new]
    #[pyo3(signature = (data=None, **kwargs))]
    fn new(
        data: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Headers> {
        let headers = Headers::own(Tags::new());
        if let Some(data) = data {
            headers.update(Some(data), None)?;
        }
        if let Some(kwargs) = kwargs {
            headers.update(Some(kwargs.as_any()), None)?;
        }
        Ok(headers)
    }

    fn __getitem__(&self, name: &str) -> PyResult<String> {
        self.read(|tags, result| {
            tags.get(name)
                .map(str::to_string)
                .or_else(|| {
                    roster_default(name)
                        .map(|d| if name == "Result" { result } else { d }.to_string())
                })
                .ok_or_else(|| PyKeyError::new_err(name.to_string()))
        })
    }

    fn __setitem__(&self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value: String = value.extract().map_err(|_| {
            PyTypeError::new_err(format!("a tag value is a str; got {}", value.get_type()))
        })?;
        if name.is_empty()
            || name
                .bytes()
                .any(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unsupported tag name: {name:?}"
            )));
        }
        self.write(|tags| tags.set(name, &value));
        Ok(())
    }

    /// Removes a tag; a roster tag goes back to its default.
    fn __delitem__(&self, name: &str) -> PyResult<()> {
        let removed = self.write(|tags| tags.remove(name));
        if removed.is_none() && roster_default(name).is_none() {
            return Err(PyKeyError::new_err(name.to_string()));
        }
        Ok(())
    }

    fn __contains__(&self, name: &Bound<'_, PyAny>) -> bool {
        let Ok(name) = name.extract::<String>() else {
            return false;
        };
        roster_default(&name).is_some() || self.read(|tags, _| tags.contains(&name))
    }

    fn __len__(&self) -> usize {
        self.read(|tags, _| {
            ROSTER.len()
                + tags
                    .iter()
                    .filter(|(n, _)| roster_default(n).is_none())
                    .count()
        })
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let names: Vec<String> = self.pairs().into_iter().map(|(n, _)| n).collect();
        Ok(PyList::new(py, names)?.try_iter()?.into_any().unbind())
    }

    /// The value of `name`, or `default`.
    #[pyo3(signature = (name, default=None))]
    fn get(&self, py: Python<'_>, name: &str, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        match self.__getitem__(name) {
            Ok(value) => Ok(value.into_pyobject(py)?.into_any().unbind()),
            Err(_) => Ok(default.unwrap_or_else(|| py.None())),
        }
    }

    /// The names, in order.
    fn keys(&self) -> Vec<String> {
        self.pairs().into_iter().map(|(n, _)| n).collect()
    }

    /// The values, in order.
    fn values(&self) -> Vec<String> {
        self.pairs().into_iter().map(|(_, v)| v).collect()
    }

    /// The (name, value) pairs, in order.
    fn items(&self) -> Vec<(String, String)> {
        self.pairs()
    }

    /// Sets every pair of a mapping (or an iterable of pairs), and of `**tags`.
    #[pyo3(signature = (other=None, **kwargs))]
    fn update(
        &self,
        other: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        if let Some(other) = other {
            let pairs = if other.hasattr("keys")? {
                let mut pairs = Vec::new();
                for key in other.call_method0("keys")?.try_iter()? {
                    let key = key?;
                    let value = other.get_item(&key)?;
                    pairs.push((key, value));
                }
                pairs
            } else {
                let mut pairs = Vec::new();
                for item in other.try_iter()? {
                    let item = item?;
                    let tuple = item.cast::<PyTuple>()?;
                    pairs.push((tuple.get_item(0)?, tuple.get_item(1)?));
                }
                pairs
            };
            for (key, value) in pairs {
                self.__setitem__(&key.extract::<String>()?, &value)?;
            }
        }
        if let Some(kwargs) = kwargs {
            for (key, value) in kwargs.iter() {
                self.__setitem__(&key.extract::<String>()?, &value)?;
            }
        }
        Ok(())
    }

    /// Removes `name` and returns its value (or `default`).
    #[pyo3(signature = (name, *default))]
    fn pop(&self, py: Python<'_>, name: &str, default: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        match self.__getitem__(name) {
            Ok(value) => {
                self.__delitem__(name)?;
                Ok(value.into_pyobject(py)?.into_any().unbind())
            }
            Err(e) => match default.len() {
                0 => Err(e),
                _ => Ok(default.get_item(0)?.unbind()),
            },
        }
    }

    /// A copy, with tags of its own.
    fn copy(&self) -> Headers {
        Headers::own(self.read(|tags, _| tags.clone()))
    }

    /// Whether the tags say Chess960 (`Variant` is Chess960, Fischerandom, ...).
    fn is_chess960(&self) -> bool {
        self.read(|tags, _| {
            tags.get("Variant").is_some_and(|v| {
                let v = v.to_ascii_lowercase();
                [
                    "chess960",
                    "chess 960",
                    "fischerandom",
                    "fischerrandom",
                    "fischer random",
                ]
                .contains(&v.trim())
            })
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let py = other.py();
        let mine = PyDict::new(py);
        for (n, v) in self.pairs() {
            mine.set_item(n, v)?;
        }
        let theirs = PyDict::new(py);
        theirs.call_method1("update", (other,)).ok();
        if theirs.is_empty()
            && !other.is_instance_of::<PyDict>()
            && !other.is_instance_of::<Headers>()
        {
            return Ok(false);
        }
        mine.eq(theirs)
    }

    fn __repr__(&self) -> String {
        let inner: Vec<String> = self
            .pairs()
            .into_iter()
            .map(|(n, v)| format!("{n}={v:?}"))
            .collect();
        format!("Headers({})", inner.join(", "))
    }
}
