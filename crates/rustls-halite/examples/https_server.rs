//! An HTTPS server on rustls with Halite's cryptography: answers every request with a short
//! page naming the negotiated version, suite and group, one thread per connection.
//!
//! ```text
//! cargo run -p rustls-halite --example https_server -- CERT_CHAIN_PEM KEY_PEM [PORT]
//! ```
//!
//! It listens on 127.0.0.1 (port 8443 by default) and prints the address once it does.
//! The key may be PKCS#8, SEC1 or PKCS#1 PEM (ECDSA, Ed25519, RSA).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

use pki_types::pem::PemObject;
use pki_types::{CertificateDer, PrivateKeyDer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: https_server CERT_CHAIN_PEM KEY_PEM [PORT]";
    let chain_file = args.next().ok_or(usage)?;
    let key_file = args.next().ok_or(usage)?;
    let port: u16 = args.next().map_or(Ok(8443), |p| p.parse())?;

    let chain = CertificateDer::pem_file_iter(&chain_file)?.collect::<Result<Vec<_>, _>>()?;
    let key = PrivateKeyDer::from_pem_file(&key_file)?;

    // The lines that make rustls use Halite: pass this provider to the builder.
    let provider = Arc::new(rustls_halite::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    let config = Arc::new(config);

    let listener = TcpListener::bind(("127.0.0.1", port))?;
    println!("listening on {}", listener.local_addr()?);
    for sock in listener.incoming() {
        let config = Arc::clone(&config);
        std::thread::spawn(move || {
            if let Err(e) = sock.map_err(Into::into).and_then(|s| serve(config, s)) {
                eprintln!("connection failed: {e}");
            }
        });
    }
    Ok(())
}

/// One connection: read the request head, answer it, close.
fn serve(
    config: Arc<rustls::ServerConfig>,
    sock: TcpStream,
) -> Result<(), Box<dyn std::error::Error>> {
    sock.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let conn = rustls::ServerConnection::new(config)?;
    let mut tls = BufReader::new(rustls::StreamOwned::new(conn, sock));
    let mut line = String::new();
    while tls.read_line(&mut line)? > 2 {
        line.clear(); // the request head, up to its blank line, is not looked at
    }
    let tls = tls.get_mut();
    let body = format!(
        "Hello from rustls-halite: {:?}, {:?}, {:?}\n",
        tls.conn.protocol_version(),
        tls.conn.negotiated_cipher_suite().map(|s| s.suite()),
        tls.conn.negotiated_key_exchange_group().map(rustls::crypto::SupportedKxGroup::name),
    );
    write!(
        tls,
        "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    tls.conn.send_close_notify();
    tls.flush()?;
    Ok(())
}
