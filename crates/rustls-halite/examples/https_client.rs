//! A TLS client on rustls with Halite's cryptography: fetches `/` over HTTPS and prints the
//! response head and what was negotiated.
//!
//! ```text
//! cargo run -p rustls-halite --example https_client -- HOST [PORT] [CA_BUNDLE_PEM]
//! ```
//!
//! The roots default to the system bundle at `/etc/ssl/certs/ca-certificates.crt`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use pki_types::pem::PemObject;
use pki_types::{CertificateDer, ServerName};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let host = args.next().ok_or("usage: client HOST [PORT] [CA_BUNDLE_PEM]")?;
    let port: u16 = args.next().map_or(Ok(443), |p| p.parse())?;
    let bundle = args.next().unwrap_or_else(|| "/etc/ssl/certs/ca-certificates.crt".into());

    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(&bundle)? {
        // A bundle may hold roots webpki cannot parse; skip those rather than give up.
        let _ = roots.add(cert?);
    }

    // The three lines that make rustls use Halite: pass this provider to the builder.
    let provider = Arc::new(rustls_halite::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();

    let name = ServerName::try_from(host.clone())?;
    let conn = rustls::ClientConnection::new(Arc::new(config), name)?;
    let sock = TcpStream::connect((host.as_str(), port))?;
    let mut tls = rustls::StreamOwned::new(conn, sock);
    write!(tls, "GET / HTTP/1.0\r\nHost: {host}\r\nConnection: close\r\n\r\n")?;
    let mut response = Vec::new();
    // Servers often close without close_notify after an HTTP/1.0 response; keep what came.
    if let Err(e) = tls.read_to_end(&mut response)
        && response.is_empty()
    {
        return Err(e.into());
    }
    let text = String::from_utf8_lossy(&response);
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    println!("{head}\n");
    println!("version: {:?}", tls.conn.protocol_version());
    println!("suite:   {:?}", tls.conn.negotiated_cipher_suite().map(|s| s.suite()));
    println!(
        "group:   {:?}",
        tls.conn.negotiated_key_exchange_group().map(rustls::crypto::SupportedKxGroup::name)
    );
    Ok(())
}
