//! Whose listener answers on a port: the tests give a Festina program a
//! port that was free a moment earlier (bound to port 0 and released);
//! another process, or another test of the same run given the same port
//! by the kernel, may listen there first. A connection that succeeds then
//! reaches that other listener, and `openPort` in ours is a silent no-op
//! (§2.3), so "the port accepts and our program is alive" does not prove
//! the program listens. This asks the kernel instead (Linux: the
//! listening sockets of `/proc/net/tcp` and `/proc/net/tcp6` against the
//! socket descriptors of `/proc/PID/fd`).

#![allow(dead_code)]

use std::collections::HashSet;
use std::fs;

/// The socket inodes listening on `port` (IPv4 and IPv6), or `None` where
/// `/proc/net/tcp` cannot be read (not Linux).
fn listening_inodes(port: u16) -> Option<HashSet<u64>> {
    let mut found = HashSet::new();
    let mut read_any = false;
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = fs::read_to_string(table) else {
            continue;
        };
        read_any = true;
        // `sl local_address rem_address st tx:rx tr:when retrnsmt uid
        // timeout inode ...`; the address is `HEX:PORT`, state 0A listens
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            if cols.len() < 10 || cols[3] != "0A" {
                continue;
            }
            let p = cols[1]
                .rsplit(':')
                .next()
                .and_then(|h| u16::from_str_radix(h, 16).ok());
            if p == Some(port) {
                if let Ok(inode) = cols[9].parse() {
                    found.insert(inode);
                }
            }
        }
    }
    read_any.then_some(found)
}

/// Whether process `pid` holds a socket listening on `port`: `None`
/// where the kernel cannot be asked (not Linux), `Some(false)` when no
/// listener on the port is the process's (none yet, or another
/// process's).
pub fn owns_listener(pid: u32, port: u16) -> Option<bool> {
    let inodes = listening_inodes(port)?;
    let fds = fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    Some(fds.flatten().any(|fd| {
        fs::read_link(fd.path()).is_ok_and(|target| {
            let t = target.to_string_lossy();
            t.strip_prefix("socket:[")
                .and_then(|r| r.strip_suffix(']'))
                .and_then(|n| n.parse::<u64>().ok())
                .is_some_and(|n| inodes.contains(&n))
        })
    }))
}
