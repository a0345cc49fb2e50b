//! TLS (§19.8): `openSecurePort` with a certificate chain the test makes
//! with the `openssl` tool (a CA and a leaf for `localhost`), reached
//! with a rustls client; WebSocket over TLS; unusable keys fail.

use crate::common::*;
use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::CertificateDer;
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use tungstenite::Message;

pub const TLS_APP: &str = r#"
blob key = argv[2]
on request(req:http) {
    url u = parseURL(req.url)
    if u.pathname == '/ws' {
        req.upgrade()
        return
    }
    req.send({'body': `hello over ${u.protocol} ${req.toText()}`})
}
on socketMessage(s:socket, msg:blob) {
    s.send(`secure ${msg.toText()}`)
}
openSecurePort(argv[1].toInt(), key)
"#;

/// The files of a test PKI, made by `openssl` in `dir`.
pub struct Pki {
    /// The CA certificate (what the client trusts).
    pub ca: Vec<u8>,
    /// The key blob: leaf certificate, CA certificate, leaf key.
    pub bundle: Vec<u8>,
    /// The leaf certificate with the CA's key: a mismatch.
    pub mismatched: Vec<u8>,
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run openssl (scripts/setup.sh installs it)");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn make_pki(dir: &TempDir) -> Pki {
    let d = dir.path();
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509"];
    ca.extend_from_slice(&ec);
    ca.extend_from_slice(&[
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Festina Test CA",
    ]);
    openssl(d, &ca);
    let mut csr = vec!["req"];
    csr.extend_from_slice(&ec);
    csr.extend_from_slice(&[
        "-keyout",
        "leaf.key",
        "-out",
        "leaf.csr",
        "-subj",
        "/CN=localhost",
    ]);
    openssl(d, &csr);
    dir.write(
        "ext.cnf",
        "basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n",
    );
    openssl(
        d,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "leaf.pem",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
        ],
    );
    let read = |n: &str| std::fs::read(d.join(n)).expect("read pki file");
    let mut bundle = read("leaf.pem");
    bundle.extend(read("ca.pem"));
    bundle.extend(read("leaf.key"));
    let mut mismatched = read("leaf.pem");
    mismatched.extend(read("ca.key"));
    Pki {
        ca: read("ca.pem"),
        bundle,
        mismatched,
    }
}

pub fn tls_client(port: u16, ca: &[u8]) -> StreamOwned<ClientConnection, TcpStream> {
    let mut roots = RootCertStore::empty();
    for c in CertificateDer::pem_slice_iter(ca) {
        roots.add(c.unwrap()).unwrap();
    }
    let config =
        ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
    let conn = ClientConnection::new(Arc::new(config), ServerName::try_from("localhost").unwrap())
        .unwrap();
    StreamOwned::new(conn, connect(port))
}

fn start(pem: &[u8]) -> Server {
    Server::start_with(
        TLS_APP,
        Options {
            args: &["key.pem"],
            files: &[("key.pem", pem)],
            ..Options::default()
        },
    )
}

#[test]
fn https_and_wss() {
    let dir = TempDir::new("pki");
    let pki = make_pki(&dir);
    let s = start(&pki.bundle);
    let mut c = tls_client(s.port, &pki.ca);
    for i in 0..3 {
        let body = format!("n{i}");
        c.write_all(
            format!(
                "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .unwrap();
        let r = read_response(&mut BufReader::new(&mut c), false).unwrap();
        assert_eq!(r.text(), format!("hello over https: {body}"));
    }
    // WebSocket over TLS.
    let stream = tls_client(s.port, &pki.ca);
    let (mut ws, _) = tungstenite::client("wss://localhost/ws", stream).expect("handshake");
    ws.send(Message::text("ping")).unwrap();
    assert_eq!(ws.read().unwrap(), Message::text("secure ping"));
    ws.close(None).unwrap();
    // A plain-HTTP client on the TLS port is refused, the server lives on.
    let mut plain = connect(s.port);
    plain
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let _ = read_until_closed(&mut plain);
    let mut c = tls_client(s.port, &pki.ca);
    c.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let r = read_response(&mut BufReader::new(&mut c), false).unwrap();
    assert_eq!(r.status, 200);
}

#[test]
fn unusable_keys_fail_the_program() {
    let dir = TempDir::new("pki-bad");
    let pki = make_pki(&dir);
    for (what, pem) in [
        ("garbage", &b"not a pem at all"[..]),
        ("no key", &pki.ca[..]),
        ("mismatched", &pki.mismatched[..]),
    ] {
        let d = TempDir::new("bad-key");
        d.write("main.f", TLS_APP);
        d.write("key.pem", pem);
        let out = Command::new(festina())
            .args(["main.f", &free_port().to_string(), "key.pem"])
            .current_dir(d.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(err.starts_with("fail: openSecurePort: "), "{what}: {err}");
    }
}
