//! Festina's native intrinsics: the functions the VM binds the names in
//! `Program::natives` to (see `Interpreter::new`), grouped by facility.
//!
//! Their signatures (what the checker resolves calls against, and the
//! facility each native belongs to) are in the dependency-free crate
//! `festina-signatures`, so that the compiler never links this crate.
//!
//! # The registry
//! Each module implements the natives of one area and returns them from
//! its `natives()`; this file is the one place that gathers them, by
//! [`Facility`]:
//!
//! | facility | cargo feature | modules |
//! |---|---|---|
//! | core | always compiled | [`core`], [`text`], [`text_methods`], [`collections`], [`math`], [`json`], [`regexp`], [`blob`], [`process`], [`timers`], [`testing`] |
//! | database | `database` | `db` (links SQLite) |
//! | net | `net` | [`net`] (HTTP/1.1, WebSocket, TLS, URLs) |
//! | canvas | `canvas` | `canvas` (links cairo), [`net_canvas`] (`http` bodies as images) |
//! | window | `window` | `window` (minifb's X11 backend; libX11 loaded at run time, needs `canvas`) |
//! | audio | `audio` | [`audio`] (links ALSA through rodio), [`net_audio`] (`http` bodies as clips) |
//!
//! A facility's natives are reached only through its [`FacilityNatives`]
//! constant ([`CORE`], `DATABASE`, `NET`, `CANVAS`, `WINDOW`, `AUDIO`).
//! What decides what an executable links is which of these constants its
//! `main` names: a runtime (`festina-cli/src/runtime/`) passes the list of
//! its facilities to [`registry`], and the facilities it does not name,
//! with their libraries, are left out by the linker even when their
//! features are compiled (cargo gives every binary of one package the
//! same features). `festina` itself registers [`natives`]: every facility
//! compiled into the build ([`compiled`]). The features decide what can
//! be compiled at all: a build without `canvas` needs no cairo headers.
//!
//! Every native runs on the thread of the interpreter that calls it, and
//! reaches per-interpreter state (the event loop, call-site caches) only
//! through the `Interpreter` it is given.

pub mod blob;
pub mod collections;
pub mod core;
pub mod json;
pub mod math;
pub mod process;
pub mod regexp;
pub mod testing;
pub mod text;
pub mod text_methods;
pub mod threads;
pub mod timers;

#[cfg(feature = "audio")]
pub mod audio;
#[cfg(feature = "canvas")]
pub mod canvas;
#[cfg(feature = "database")]
pub mod db;
#[cfg(feature = "net")]
pub mod net;
#[cfg(feature = "audio")]
pub mod net_audio;
#[cfg(feature = "canvas")]
pub mod net_canvas;
#[cfg(feature = "window")]
pub mod window;

pub use festina_signatures::{facilities_of, Facility, FacilitySet};
use festina_vm::native::NativeEntry;

/// The natives of one facility: what a runtime registers when it has the
/// facility.
#[derive(Clone, Copy, Debug)]
pub struct FacilityNatives {
    /// The facility.
    pub facility: Facility,
    /// Its natives (every native `festina-signatures` places in it).
    pub natives: fn() -> Vec<NativeEntry>,
}

/// The core facility: everything every runtime has.
pub const CORE: FacilityNatives = FacilityNatives {
    facility: Facility::Core,
    natives: core_natives,
};

/// The built-in database (§15), with SQLite.
#[cfg(feature = "database")]
pub const DATABASE: FacilityNatives = FacilityNatives {
    facility: Facility::Database,
    natives: db::natives,
};

/// HTTP, WebSocket and TLS (§19).
#[cfg(feature = "net")]
pub const NET: FacilityNatives = FacilityNatives {
    facility: Facility::Net,
    natives: net::natives,
};

/// The canvas (§17), with the natives joining `http` bodies and `img`
/// values.
#[cfg(feature = "canvas")]
pub const CANVAS: FacilityNatives = FacilityNatives {
    facility: Facility::Canvas,
    natives: canvas_natives,
};

/// The canvas facility's natives.
#[cfg(feature = "canvas")]
fn canvas_natives() -> Vec<NativeEntry> {
    let mut all = canvas::natives();
    all.extend(net_canvas::natives());
    all
}

/// The window (§17).
#[cfg(feature = "window")]
pub const WINDOW: FacilityNatives = FacilityNatives {
    facility: Facility::Window,
    natives: window::natives,
};

/// Audio (§18), with the natives joining `http` bodies and `aud` clips.
#[cfg(feature = "audio")]
pub const AUDIO: FacilityNatives = FacilityNatives {
    facility: Facility::Audio,
    natives: audio_natives,
};

/// The audio facility's natives.
#[cfg(feature = "audio")]
fn audio_natives() -> Vec<NativeEntry> {
    let mut all = audio::natives();
    all.extend(net_audio::natives());
    all
}

/// Every facility compiled into this build (core, then each optional
/// facility whose cargo feature is on, in [`Facility::ALL`] order).
pub fn compiled() -> Vec<FacilityNatives> {
    #[allow(unused_mut)] // with no optional feature, nothing is pushed
    let mut all = vec![CORE];
    #[cfg(feature = "database")]
    all.push(DATABASE);
    #[cfg(feature = "net")]
    all.push(NET);
    #[cfg(feature = "canvas")]
    all.push(CANVAS);
    #[cfg(feature = "window")]
    all.push(WINDOW);
    #[cfg(feature = "audio")]
    all.push(AUDIO);
    all
}

/// The set of `facilities`.
pub fn facility_set(facilities: &[FacilityNatives]) -> FacilitySet {
    facilities
        .iter()
        .fold(FacilitySet::EMPTY, |set, f| set.with(f.facility))
}

/// The registry for `Interpreter::new` of a runtime with `facilities`:
/// their natives, in order.
pub fn registry(facilities: &[FacilityNatives]) -> Vec<NativeEntry> {
    facilities.iter().flat_map(|f| (f.natives)()).collect()
}

/// Every native of this build: [`registry`] of [`compiled`].
pub fn natives() -> Vec<NativeEntry> {
    registry(&compiled())
}

/// The core facility's natives.
fn core_natives() -> Vec<NativeEntry> {
    [
        core::natives,
        text::natives,
        text_methods::natives,
        collections::natives,
        json::natives,
        regexp::natives,
        math::natives,
        process::natives,
        blob::natives,
        timers::natives,
        threads::natives,
        testing::natives,
    ]
    .iter()
    .flat_map(|natives| natives())
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use festina_signatures::{facility_of, TABLES};
    use std::collections::HashSet;

    /// Both sides agree: every native a table names is registered in the
    /// table's facility, and every registered native is named by a table
    /// of its facility, once.
    #[test]
    fn registry_matches_the_signature_tables() {
        let mut registered = HashSet::new();
        for group in compiled() {
            for entry in (group.natives)() {
                assert!(
                    registered.insert(entry.name),
                    "native {} is registered twice",
                    entry.name
                );
                assert_eq!(
                    facility_of(entry.name),
                    Some(group.facility),
                    "native {} is registered in the {} facility",
                    entry.name,
                    group.facility.name()
                );
            }
        }
        let built = facility_set(&compiled());
        for table in TABLES.iter().filter(|t| built.contains(t.facility)) {
            for name in table.all_natives() {
                assert!(
                    registered.contains(name),
                    "{} names native {name}, which is not registered",
                    table.area
                );
            }
        }
    }

    #[test]
    fn registries_by_facility() {
        let core: HashSet<_> = registry(&[CORE]).iter().map(|e| e.name).collect();
        assert!(core.contains("log") && core.contains("blob_load"));
        assert!(!core.contains("db_open"));
        assert_eq!(facility_set(&[CORE]), FacilitySet::CORE);
        #[cfg(feature = "database")]
        {
            let db: HashSet<_> = registry(&[CORE, DATABASE]).iter().map(|e| e.name).collect();
            assert!(db.contains("db_open") && db.contains("log"));
            assert_eq!(
                facility_set(&[CORE, DATABASE]),
                FacilitySet::CORE.with(Facility::Database)
            );
        }
    }
}
