//! The runner's command line: BoringSSL's shim flags (`ssl/test/test_config.cc`), each a
//! name with or without one value, optionally scoped to the first connection
//! (`-on-initial-…`) or to the resumptions (`-on-resume-…`). A flag the shim does not
//! implement is reported by name so that the shim exits with 89, the runner's
//! "unimplemented" status, rather than run a test it cannot honour.

/// Which connections a flag applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    All,
    Initial,
    Resume,
    /// `-on-retry-…`: the 0-RTT retry handshake, which this shim never makes.
    Retry,
}

/// One flag as given.
#[derive(Clone, Debug)]
pub(crate) struct Flag {
    scope: Scope,
    name: String,
    value: Option<String>,
}

/// The flags of BoringSSL's shim that carry a value (all others are booleans).
const WITH_VALUE: &[&str] = &[
    "-port",
    "-shim-id",
    "-resume-count",
    "-write-settings",
    "-verify-prefs",
    "-expect-peer-verify-pref",
    "-curves",
    "-curves-flags",
    "-key-shares",
    "-server-supported-groups-hint",
    "-trust-cert",
    "-expect-server-name",
    "-ech-server-config",
    "-ech-server-key",
    "-ech-is-retry-config",
    "-expect-ech-name-override",
    "-expect-ech-retry-configs",
    "-ech-config-list",
    "-expect-certificate-types",
    "-advertise-npn",
    "-expect-next-proto",
    "-select-next-proto",
    "-expect-channel-id",
    "-send-channel-id",
    "-shim-initial-write",
    "-repeat-shim-initial-write",
    "-host-name",
    "-advertise-alpn",
    "-expect-alpn",
    "-expect-advertised-alpn",
    "-select-alpn",
    "-application-settings",
    "-expect-peer-application-settings",
    "-alps-use-new-codepoint",
    "-quic-transport-params",
    "-expect-quic-transport-params",
    "-quic-use-legacy-codepoint",
    "-psk",
    "-psk-identity",
    "-srtp-profiles",
    "-min-version",
    "-max-version",
    "-expect-version",
    "-mtu",
    "-cipher",
    "-export-keying-material",
    "-export-label",
    "-export-context",
    "-expect-ocsp-response",
    "-expect-signed-cert-timestamps",
    "-expect-total-renegotiations",
    "-expect-peer-signature-algorithm",
    "-expect-curve-id",
    "-initial-timeout-duration-ms",
    "-use-client-ca-list",
    "-expect-client-ca-list",
    "-max-cert-list",
    "-ticket-key",
    "-expect-cipher-aes",
    "-expect-cipher-no-aes",
    "-expect-cipher",
    "-expect-peer-cert-file",
    "-resumption-delay",
    "-max-send-fragment",
    "-read-size",
    "-expect-ticket-age-skew",
    "-expect-msg-callback",
    "-install-one-cert-compression-alg",
    "-handshaker-path",
    "-expect-early-data-reason",
    "-quic-early-data-context",
    "-early-write-after-message",
    "-expect-peer-available-trust-anchors",
    "-requested-trust-anchors",
    "-available-trust-anchors",
    "-expect-selected-credential",
    "-cert-file",
    "-key-file",
    "-signing-prefs",
    "-delegated-credential",
    "-ocsp-response",
    "-signed-cert-timestamps",
    "-pake-context",
    "-pake-client-id",
    "-pake-server-id",
    "-pake-password",
    "-psk-importer-key",
    "-psk-importer-identity",
    "-psk-importer-context",
    "-cert-properties",
    "-private-key-delay-ms",
    "-accepted-peer-cert-types",
    "-available-client-cert-types",
    "-expect-peer-certificate-type",
    "-expect-peer-rpk-sha256",
    "-trust-anchor-id",
];

/// Splits the command line into flags; `Err` holds an argument that is not a flag: the value
/// of a flag the shim does not know, so unimplemented too.
pub(crate) fn parse(args: &[String]) -> Result<Vec<Flag>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        // `-on-shim-…` applies to the shim, `-on-handshaker-…` to BoringSSL's split-handshake
        // helper, which this shim does not have.
        let (arg, handshaker) = if let Some(rest) = arg.strip_prefix("-on-shim") {
            (rest, false)
        } else if let Some(rest) = arg.strip_prefix("-on-handshaker") {
            (rest, true)
        } else {
            (arg.as_str(), false)
        };
        let (scope, name) = if let Some(rest) = arg.strip_prefix("-on-initial") {
            (Scope::Initial, rest)
        } else if let Some(rest) = arg.strip_prefix("-on-resume") {
            (Scope::Resume, rest)
        } else if let Some(rest) = arg.strip_prefix("-on-retry") {
            (Scope::Retry, rest)
        } else {
            (Scope::All, arg)
        };
        if !name.starts_with('-') {
            // A value after a flag this shim does not know to take one.
            return Err(arg.to_owned());
        }
        let value = if WITH_VALUE.contains(&name) {
            Some(it.next().ok_or_else(|| format!("{arg} needs a value"))?.clone())
        } else {
            None
        };
        if !handshaker {
            out.push(Flag { scope, name: name.to_owned(), value });
        }
    }
    Ok(out)
}

/// The settings of one connection, from the flags that apply to it.
#[derive(Clone, Debug)]
#[allow(clippy::struct_excessive_bools)] // one per runner flag
pub(crate) struct Options {
    pub(crate) server: bool,
    pub(crate) ipv6: bool,
    pub(crate) port: u16,
    pub(crate) shim_id: u64,
    pub(crate) resume_count: u32,
    /// The certificates and keys: the first from the flags before any
    /// `-new-x509-credential`, then one per such flag.
    pub(crate) credentials: Vec<Credential>,
    /// `-min-version` at TLS 1.3 or above: the test itself asks for TLS 1.3 only, so a
    /// peer without it is a failure the test expects rather than a feature we lack.
    pub(crate) tls13_required: bool,
    /// `-min-version`/`-max-version` (BoringSSL's defaults: TLS 1.0 to TLS 1.3).
    pub(crate) min_version: u16,
    pub(crate) max_version: u16,
    /// `-no-tls13`, `-no-tls12`: those versions are left out.
    pub(crate) no_tls13: bool,
    pub(crate) no_tls12: bool,
    /// `-cipher`: BoringSSL's cipher string (TLS 1.2 suites only).
    pub(crate) cipher: Option<String>,
    /// `-use-export-context`: the exporter takes the context (RFC 5705 §4; TLS 1.2
    /// distinguishes an empty context from none).
    pub(crate) use_export_context: bool,
    pub(crate) expect_version: Option<u16>,
    pub(crate) curves: Vec<u16>,
    pub(crate) expect_curve_id: Option<u16>,
    pub(crate) expect_peer_signature_algorithm: Option<u16>,
    pub(crate) expect_cipher: Option<u16>,
    pub(crate) host_name: Option<String>,
    pub(crate) expect_server_name: Option<String>,
    pub(crate) expect_no_server_name: bool,
    pub(crate) require_any_client_certificate: bool,
    pub(crate) verify_peer: bool,
    pub(crate) expect_no_peer_cert: bool,
    /// `-advertise-alpn`, in the wire's length-prefixed form.
    pub(crate) advertise_alpn: Vec<u8>,
    pub(crate) select_alpn: Option<String>,
    pub(crate) decline_alpn: bool,
    pub(crate) expect_alpn: Option<String>,
    pub(crate) shim_writes_first: bool,
    pub(crate) shim_initial_write: String,
    pub(crate) repeat_shim_initial_write: u32,
    pub(crate) shim_shuts_down: bool,
    pub(crate) check_close_notify: bool,
    pub(crate) key_update: bool,
    pub(crate) key_update_before_read: bool,
    pub(crate) expect_hrr: bool,
    pub(crate) expect_no_hrr: bool,
    pub(crate) expect_session_miss: bool,
    pub(crate) no_ticket: bool,
    pub(crate) expect_no_session: bool,
    pub(crate) read_size: usize,
    pub(crate) resumption_delay: u64,
    /// `-export-keying-material N`: export N bytes after the handshake and send them.
    pub(crate) export_keying_material: usize,
    pub(crate) export_label: String,
    pub(crate) export_context: String,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            server: false,
            ipv6: false,
            port: 0,
            shim_id: 0,
            resume_count: 0,
            credentials: vec![Credential::default()],
            tls13_required: false,
            min_version: 0x0301,
            max_version: 0x0304,
            no_tls13: false,
            no_tls12: false,
            cipher: None,
            use_export_context: false,
            expect_version: None,
            curves: Vec::new(),
            expect_curve_id: None,
            expect_peer_signature_algorithm: None,
            expect_cipher: None,
            host_name: None,
            expect_server_name: None,
            expect_no_server_name: false,
            require_any_client_certificate: false,
            verify_peer: false,
            expect_no_peer_cert: false,
            advertise_alpn: Vec::new(),
            select_alpn: None,
            decline_alpn: false,
            expect_alpn: None,
            shim_writes_first: false,
            shim_initial_write: "hello".to_owned(),
            repeat_shim_initial_write: 1,
            shim_shuts_down: false,
            check_close_notify: false,
            key_update: false,
            key_update_before_read: false,
            expect_hrr: false,
            expect_no_hrr: false,
            expect_session_miss: false,
            no_ticket: false,
            expect_no_session: false,
            read_size: 512,
            resumption_delay: 0,
            export_keying_material: 0,
            export_label: String::new(),
            export_context: String::new(),
        }
    }
}

/// One certificate credential: a chain, its key, and the schemes it may sign with
/// (`-signing-prefs`; empty: all the key can).
#[derive(Clone, Debug, Default)]
pub(crate) struct Credential {
    pub(crate) cert_file: Option<String>,
    pub(crate) key_file: Option<String>,
    pub(crate) signing_prefs: Vec<u16>,
}

/// Why a flag cannot be honoured: the shim exits with 89.
#[derive(Debug)]
pub(crate) struct Unimplemented(pub(crate) String);

fn num<T: std::str::FromStr>(flag: &Flag) -> Result<T, Unimplemented> {
    flag.value
        .as_deref()
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Unimplemented(format!("{}: bad number", flag.name)))
}

impl Options {
    /// The credential the certificate flags now apply to.
    fn credential(&mut self) -> &mut Credential {
        if self.credentials.is_empty() {
            self.credentials.push(Credential::default());
        }
        let last = self.credentials.len() - 1;
        &mut self.credentials[last]
    }

    /// The options of the first connection (`resume == false`) or of a resumption.
    pub(crate) fn build(flags: &[Flag], resume: bool) -> Result<Self, Unimplemented> {
        let mut o = Self::default();
        for f in flags {
            let applies = match f.scope {
                Scope::All => true,
                Scope::Initial => !resume,
                Scope::Resume => resume,
                // There is no 0-RTT retry: early data is not offered.
                Scope::Retry => continue,
            };
            let value = || f.value.clone().unwrap_or_default();
            // Every flag is checked for both connections, so that one this shim lacks is
            // reported before any connection is made.
            let mut scratch = Self::default();
            let o = if applies { &mut o } else { &mut scratch };
            match f.name.as_str() {
                "-server" => o.server = true,
                "-ipv6" => o.ipv6 = true,
                "-port" => o.port = num(f)?,
                "-shim-id" => o.shim_id = num(f)?,
                "-resume-count" => o.resume_count = num(f)?,
                "-new-x509-credential" => o.credentials.push(Credential::default()),
                "-cert-file" => o.credential().cert_file = Some(value()),
                "-key-file" => o.credential().key_file = Some(value()),
                "-min-version" => {
                    o.min_version = num(f)?;
                    o.tls13_required = o.min_version >= 0x0304;
                }
                "-max-version" => {
                    o.max_version = num(f)?;
                    if o.max_version < 0x0303 {
                        return Err(Unimplemented("TLS 1.1 and below".into()));
                    }
                }
                "-no-tls13" => o.no_tls13 = true,
                "-no-tls12" => o.no_tls12 = true,
                "-cipher" => o.cipher = Some(value()),
                "-use-export-context" => o.use_export_context = true,
                "-expect-version" => o.expect_version = Some(num(f)?),
                "-curves" => o.curves.push(num(f)?),
                "-expect-curve-id" => o.expect_curve_id = Some(num(f)?),
                "-signing-prefs" => o.credential().signing_prefs.push(num(f)?),
                "-expect-peer-signature-algorithm" => {
                    o.expect_peer_signature_algorithm = Some(num(f)?);
                }
                "-expect-cipher" => o.expect_cipher = Some(num(f)?),
                "-host-name" => o.host_name = Some(value()),
                "-expect-server-name" => o.expect_server_name = Some(value()),
                "-expect-no-server-name" => o.expect_no_server_name = true,
                "-require-any-client-certificate" => o.require_any_client_certificate = true,
                "-verify-peer" => o.verify_peer = true,
                "-expect-no-peer-cert" => o.expect_no_peer_cert = true,
                "-advertise-alpn" => o.advertise_alpn = value().into_bytes(),
                "-select-alpn" => o.select_alpn = Some(value()),
                "-decline-alpn" => o.decline_alpn = true,
                "-expect-alpn" => o.expect_alpn = Some(value()),
                "-shim-writes-first" => o.shim_writes_first = true,
                "-shim-initial-write" => o.shim_initial_write = value(),
                "-repeat-shim-initial-write" => o.repeat_shim_initial_write = num(f)?,
                "-shim-shuts-down" => o.shim_shuts_down = true,
                "-check-close-notify" => o.check_close_notify = true,
                "-key-update" => o.key_update = true,
                "-key-update-before-read" => o.key_update_before_read = true,
                "-expect-hrr" => o.expect_hrr = true,
                "-expect-no-hrr" => o.expect_no_hrr = true,
                "-expect-session-miss" => o.expect_session_miss = true,
                "-no-ticket" => o.no_ticket = true,
                "-expect-no-session" => o.expect_no_session = true,
                "-read-size" => o.read_size = num::<usize>(f)?.max(1),
                "-resumption-delay" => o.resumption_delay = num(f)?,
                "-export-keying-material" => o.export_keying_material = num(f)?,
                "-export-label" => o.export_label = value(),
                "-export-context" => o.export_context = value(),
                "-expect-total-renegotiations" if num::<u32>(f)? == 0 => {}
                // No effect on what this shim does, or true of it: it speaks TLS 1.3 and 1.2
                // only (the exclusions below TLS 1.2 do not apply), the extended master
                // secret is always in force (Halite's TLS 1.2 requires it), blocking I/O
                // already finishes the handshake before data moves, and 0-RTT is never
                // offered.
                "-async"
                | "-implicit-handshake"
                | "-no-op-extra-handshake"
                | "-no-tls1"
                | "-no-tls11"
                | "-expect-extended-master-secret"
                | "-expect-no-offer-early-data"
                // A finished handshake has had its peer's chain verified (Halite always
                // verifies): the result is success.
                | "-expect-verify-result"
                | "-write-settings"
                // BoringSSL's shim accepts every chain through its verify callback (as this
                // shim's verifier does), whatever roots -trust-cert names.
                | "-trust-cert"
                | "-handshaker-path" => {}
                _ => return Err(Unimplemented(f.name.clone())),
            }
        }
        Ok(o)
    }
}
