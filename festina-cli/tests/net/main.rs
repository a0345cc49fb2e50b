//! End-to-end tests of the network facility (issues 13 and 14, §19): Festina
//! servers driven by real clients over 127.0.0.1, one module per area.
#![cfg(unix)]

mod client;
mod common;
mod examples;
mod flagship;
#[path = "../support/listener.rs"]
mod listener;
// Images and clips as bodies need the canvas and audio facilities (and
// the full runtime for the CAPTCHA bundle).
#[cfg(all(feature = "canvas", feature = "window", feature = "audio"))]
mod media;
mod park;
mod robust;
mod server;
mod threads;
mod tls;
mod websocket;
