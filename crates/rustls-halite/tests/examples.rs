//! The `https_server` and `https_client` examples against each other over loopback: the
//! client fetches a page from the server, both on this provider, and the page and the client
//! agree on what was negotiated. The binaries are the ones `cargo test` builds beside this
//! test.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// The example binary `name`, built by `cargo test` in `target/<profile>/examples`.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().parent().unwrap().join("examples").join(name);
    assert!(
        path.exists(),
        "{} is not built: run `cargo build -p rustls-halite --examples`",
        path.display()
    );
    path
}

/// A file of the TLS crate's test PKI.
fn data(name: &str) -> String {
    format!("{}/../tls/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The server, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_example_client_fetches_a_page_from_the_example_server() {
    let mut server = Server(
        Command::new(example("https_server"))
            .args([data("server-p256.pem"), data("server-p256.key"), "0".into()])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap(),
    );
    // "listening on 127.0.0.1:PORT" once it is.
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line.trim().rsplit(':').next().unwrap().to_owned();
    assert!(line.starts_with("listening on 127.0.0.1:"), "server said {line:?}");

    let out = Command::new(example("https_client"))
        .args(["localhost", &port, &data("ca-p256.pem")])
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(out.starts_with("HTTP/1.0 200 OK\r\n"), "client printed {out:?}");
    assert!(out.contains("version: Some(TLSv1_3)"), "client printed {out:?}");
    assert!(
        out.contains("suite:   Some(TLS13_AES_256_GCM_SHA384)")
            || out.contains("suite:   Some(TLS13_AES_128_GCM_SHA256)"),
        "client printed {out:?}"
    );
    assert!(out.contains("group:   Some(X25519MLKEM768)"), "client printed {out:?}");
}
