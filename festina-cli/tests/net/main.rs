//! End-to-end tests of the network facility (issues 13 and 14, §19): Festina
//! servers driven by real clients over 127.0.0.1, one module per area.
#![cfg(unix)]

mod client;
mod common;
mod examples;
mod flagship;
mod robust;
mod server;
mod tls;
mod websocket;
