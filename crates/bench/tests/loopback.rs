//! `tls-loopback --check`: every client and server pair of the loopback benchmark completes two
//! handshakes and 1 MiB each way over real loopback TCP, with the negotiated parameters and
//! every byte checked (skipped with a message when the `openssl` command is missing).

use std::process::Command;

#[test]
fn every_pair_handshakes_and_moves_checked_data() {
    if Command::new("openssl").arg("version").output().is_err() {
        eprintln!("skipped: no `openssl` command for s_server");
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tls-loopback"))
        .args(["--check", "--markdown"])
        .output()
        .expect("tls-loopback runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "tls-loopback --check failed:\n{stdout}\n{stderr}");
    // Two versions × three certificates × four client and server pairs, none failed.
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| TLS 1.")).collect();
    assert_eq!(rows.len(), 24, "{stdout}");
    assert!(rows.iter().all(|r| !r.contains("failed")), "{stdout}");
}
