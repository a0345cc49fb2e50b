//! One [`Table`](crate::Table) per area, each in its own file, each
//! naming the [`Facility`](crate::Facility) its natives belong to.
//!
//! | file | area | facility | natives in `festina-stdlib` |
//! |---|---|---|---|
//! | [`core`] | output, failure, exit, `argv`, the scalars' inline conversions | core | `core.rs` |
//! | [`text`] | `text`, `ascii`, `int.toChar()`, `environment` | core | `text.rs` |
//! | [`collections`] | `arr[T]`, `amor arr[T]`, `map[T]` | core | `collections.rs` |
//! | [`math`] | the `Math` namespace | core | `math.rs` |
//! | [`json`] | `toStruct`, `toArr` | core | `json.rs` |
//! | [`regex`] | `regex` values and the text methods that take one | core | `regexp.rs` |
//! | [`blob`] | `blob` values and their files | core | `blob.rs` |
//! | [`process`] | processes, directories, time, structured logging | core | `process.rs` |
//! | [`timers`] | `setTimeout` and friends | core | `timers.rs` |
//! | [`testing`] | `test` groups and assertions (`festina test`) | core | `testing.rs` |
//! | [`database`] | tables and `sqlite()` | database | `db.rs` |
//! | [`http`] | HTTP servers and clients, `http` and `url` values, TLS (§19) | net | `net/` |
//! | [`websocket`] | WebSocket, `socket` values (§19.4) | net | `net/` |
//! | [`threads`] | threads and messages (§20) | core | to come |
//! | [`canvas`] | drawing, images, fonts, the canvas size (§17) | canvas | `canvas/` |
//! | [`window`] | the window and its events (§17) | window | to come |
//! | [`audio`] | `aud` clips and the channel pool (§8.13, §18) | audio | `audio/` |
//!
//! [`http::CANVAS`] and [`http::AUDIO`], last in [`TABLES`](crate::TABLES),
//! hold the natives that join `http` bodies with `img` images (facility
//! canvas) and `aud` clips (facility audio).
//!
//! The tables of the areas still to come hold only the global names they
//! reserve (Annex B); their batteries fill them in. The order of
//! [`TABLES`](crate::TABLES) is the order of this list.

pub mod audio;
pub mod blob;
pub mod canvas;
pub mod collections;
pub mod core;
pub mod database;
pub mod http;
pub mod json;
pub mod math;
pub mod process;
pub mod regex;
pub mod testing;
pub mod text;
pub mod threads;
pub mod timers;
pub mod websocket;
pub mod window;
