//! Per-interpreter state of the standard library's facilities: a small
//! map from a Rust type to one value of it.
//!
//! # Design
//!
//! Each facility (the database connection, §15.1; later the HTTP server's
//! listeners and connection table, the HTTP client's connection pool,
//! the thread mailboxes, the window, the audio device) keeps its state in
//! one value of a type of its own, stored in the [`Interpreter`] of its
//! thread through [`Interpreter::ext_mut`] / [`Interpreter::set_ext`] /
//! [`Interpreter::ext_or_insert_with`]. The type is the key, so
//! facilities never see each other's state, no facility needs a field on
//! the interpreter, and a facility compiled out of a slim runtime leaves
//! nothing behind. Nothing is global: a second interpreter on another
//! thread has its own values.
//!
//! The store is a vector of `(TypeId, Box<dyn Any>)`, searched linearly:
//! a program uses a handful of facilities, for which a scan of a few
//! type ids is faster than hashing. Values are dropped at teardown, after
//! every Festina value (a value may still use a facility's resource while
//! it is released: a database row needs the connection), in the order
//! they were first stored.
//!
//! [`Interpreter`]: super::Interpreter
//! [`Interpreter::ext_mut`]: super::Interpreter::ext_mut
//! [`Interpreter::set_ext`]: super::Interpreter::set_ext
//! [`Interpreter::ext_or_insert_with`]: super::Interpreter::ext_or_insert_with

use std::any::{Any, TypeId};

/// One value per Rust type; see the module documentation.
#[derive(Default)]
pub struct Extensions {
    slots: Vec<(TypeId, Box<dyn Any>)>,
}

impl std::fmt::Debug for Extensions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extensions")
            .field("values", &self.slots.len())
            .finish()
    }
}

impl Extensions {
    /// The value of type `T`, if one is stored.
    pub fn get<T: Any>(&self) -> Option<&T> {
        let id = TypeId::of::<T>();
        let (_, b) = self.slots.iter().find(|(t, _)| *t == id)?;
        b.downcast_ref::<T>()
    }

    /// The value of type `T`, mutably, if one is stored.
    pub fn get_mut<T: Any>(&mut self) -> Option<&mut T> {
        let id = TypeId::of::<T>();
        let (_, b) = self.slots.iter_mut().find(|(t, _)| *t == id)?;
        b.downcast_mut::<T>()
    }

    /// Store `v` as the value of type `T`, replacing (and dropping) any
    /// earlier one; a replaced value keeps its place in the drop order.
    pub fn insert<T: Any>(&mut self, v: T) {
        match self.get_mut::<T>() {
            Some(slot) => *slot = v,
            None => self.slots.push((TypeId::of::<T>(), Box::new(v))),
        }
    }

    /// The value of type `T`, stored first from `make()` if there is none.
    pub fn get_or_insert_with<T: Any>(&mut self, make: impl FnOnce() -> T) -> &mut T {
        let id = TypeId::of::<T>();
        let i = match self.slots.iter().position(|(t, _)| *t == id) {
            Some(i) => i,
            None => {
                self.slots.push((id, Box::new(make())));
                self.slots.len() - 1
            }
        };
        match self.slots[i].1.downcast_mut::<T>() {
            Some(v) => v,
            // The slot was stored under `TypeId::of::<T>()`, so it holds a `T`.
            None => unreachable!("an extension slot holds a value of another type"),
        }
    }

    /// Take the value of type `T` out of the store.
    pub fn remove<T: Any>(&mut self) -> Option<T> {
        let id = TypeId::of::<T>();
        let i = self.slots.iter().position(|(t, _)| *t == id)?;
        let (_, b) = self.slots.remove(i);
        b.downcast::<T>().ok().map(|b| *b)
    }

    /// Number of values stored.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Drop every value, in the order they were first stored.
    pub fn clear(&mut self) {
        for slot in self.slots.drain(..) {
            drop(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    struct Noisy(&'static str, Rc<RefCell<Vec<&'static str>>>);
    impl Drop for Noisy {
        fn drop(&mut self) {
            self.1.borrow_mut().push(self.0);
        }
    }
    /// A second type holding the same kind of value: a separate slot.
    struct Other(#[allow(dead_code)] Noisy);

    #[test]
    fn one_value_per_type_dropped_in_first_insertion_order() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut x = Extensions::default();
        assert!(x.get::<u32>().is_none());
        x.insert(7u32);
        x.insert(Noisy("a", Rc::clone(&log)));
        x.insert(Other(Noisy("b", Rc::clone(&log))));
        *x.get_mut::<u32>().expect("stored") += 1;
        assert_eq!(x.get::<u32>(), Some(&8));
        // Replacing drops the old value and keeps the slot's place.
        x.insert(Noisy("c", Rc::clone(&log)));
        assert_eq!(*log.borrow(), vec!["a"]);
        assert_eq!(*x.get_or_insert_with(|| 1u64), 1);
        *x.get_or_insert_with(|| 5u64) += 1;
        assert_eq!(x.get::<u64>(), Some(&2));
        assert_eq!(x.remove::<u32>(), Some(8));
        assert_eq!(x.len(), 3);
        x.clear();
        assert!(x.is_empty());
        assert_eq!(*log.borrow(), vec!["a", "c", "b"]);
    }
}
