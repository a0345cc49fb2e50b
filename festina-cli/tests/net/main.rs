//! End-to-end tests of the network facility (issue 13, §19): Festina
//! servers driven by real clients over 127.0.0.1, one module per area.
#![cfg(unix)]

mod common;
mod examples;
mod flagship;
mod robust;
mod server;
mod tls;
mod websocket;
