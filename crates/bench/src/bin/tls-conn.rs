//! `tls-conn`: what a TLS connection costs besides CPU time, Halite's `tls` crate against
//! rustls on aws-lc-rs, on ring and on Halite's primitives (`rustls-halite`) — the two parts
//! of the `tls` group that `speed` cannot show.
//!
//! - Memory per connection: for each library, certificate and side, the connection object's
//!   size, the buffers the caller lends it (Halite) and the heap it allocates (rustls; Halite's
//!   is counted too), at its peak over a full handshake plus one 16 KiB record each way, and
//!   once the handshake has settled. Heap is counted by this binary's global allocator, per
//!   thread and per side: the bench marks which connection it is calling into, and each
//!   connection's blocks are allocated and freed inside its own calls, so after both are
//!   dropped every side's count must be back at zero (checked). Shared configuration (the
//!   `Arc<ClientConfig>`, roots, keys) is built beforehand and not counted.
//! - Scaling: handshakes per wall-clock second with one thread, then with two threads running
//!   at once (one client and server pair each, each thread with its own configuration), as the
//!   registry's `tls-*` runners do them; `2T/1T` near 2 means it scales with the cores. The
//!   machine is shared, so other load shows in the wall-clock columns (the load average is
//!   printed); the CPU-time columns show whether the two threads slow each other down.
//!
//! `cargo run --release -p bench --bin tls-conn` (`--quick` for a first look).

// Heap byte counts (signed, so a side's frees can be told apart) stay far below `isize::MAX`;
// rates are floating point.
#![allow(clippy::cast_possible_wrap, clippy::cast_precision_loss)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::process::ExitCode;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use bench::measure::thread_cpu_time;
use bench::ops::{
    Cert, HaliteBuffers, HaliteSetup, Provider, Runner, RustlsSetup, claimed, halite_handshake,
    registry, rustls_handshake,
};
use bench::report::{self, Table};
use bench::stats::Summary;
use bench::{Library, system};
use clap::Parser;
use rustls::ConnectionCommon;

#[derive(Parser, Debug)]
#[command(name = "tls-conn", about = "TLS memory per connection and two-thread scaling")]
struct Cli {
    /// A first look: 3 rounds of 100 ms per cell.
    #[arg(long)]
    quick: bool,
    /// Rounds per scaling cell (default 5, or 3 with --quick).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    rounds: Option<u16>,
    /// Wall-clock time of one scaling round, in milliseconds (default 300, 100 with --quick).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(10..))]
    millis: Option<u64>,
    /// Print the tables as Markdown.
    #[arg(long)]
    markdown: bool,
}

// --- Counting heap, per thread and per side ------------------------------------------------

/// Which connection the bench is calling into: nothing (not counted), client or server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Client = 1,
    Server = 2,
}

thread_local! {
    /// The side being counted (0: none).
    static SIDE: Cell<usize> = const { Cell::new(0) };
    /// Live heap bytes per side (index 0 unused).
    static LIVE: [Cell<isize>; 3] = const { [Cell::new(0), Cell::new(0), Cell::new(0)] };
    /// The highest `LIVE` reached per side.
    static PEAK: [Cell<isize>; 3] = const { [Cell::new(0), Cell::new(0), Cell::new(0)] };
}

/// Adds `delta` bytes to the live count of the side being counted, if any. Thread-locals
/// with `const` initialisers and no destructor never allocate, so this is safe to call from
/// the allocator; `try_with` covers thread teardown.
fn note(delta: isize) {
    let side = SIDE.try_with(Cell::get).unwrap_or(0);
    if side == 0 {
        return;
    }
    let _ = LIVE.try_with(|live| {
        let v = live[side].get() + delta;
        live[side].set(v);
        let _ = PEAK.try_with(|peak| {
            if v > peak[side].get() {
                peak[side].set(v);
            }
        });
    });
}

/// The system allocator, counting bytes per side.
struct Counting;

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract holds as it does for `System`; the counting touches only
// thread-locals that never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract (non-zero size), passed on unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            note(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            note(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller passes a block this allocator (that is, `System`) gave out, with
        // its layout.
        unsafe { System.dealloc(ptr, layout) };
        note(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller passes a block `System` gave out, its layout and a valid size.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            note(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f` counting its heap use against `side`.
fn on<T>(side: Side, f: impl FnOnce() -> T) -> T {
    SIDE.set(side as usize);
    let r = f();
    SIDE.set(0);
    r
}

fn reset_counts() {
    LIVE.with(|l| l.iter().for_each(|c| c.set(0)));
    PEAK.with(|p| p.iter().for_each(|c| c.set(0)));
}

fn live(side: Side) -> isize {
    LIVE.with(|l| l[side as usize].get())
}

fn peak(side: Side) -> isize {
    PEAK.with(|p| p[side as usize].get())
}

// --- Memory per connection -----------------------------------------------------------------

/// One library's footprint for one certificate, client and server.
struct Footprint {
    library: &'static str,
    cert: Cert,
    /// Per side: the connection object, caller buffers, heap at peak, heap once settled.
    sides: [(Side, usize, usize, isize, isize); 2],
}

const RECORD: usize = 16 * 1024;

fn halite_footprint(cert: Cert) -> Result<Footprint, String> {
    let setup = HaliteSetup::new(cert, false);
    let mut bufs: [HaliteBuffers; 2] = Default::default();
    let buffer_len = bufs[0].len();
    let mut wire = Vec::with_capacity(4 * RECORD);
    let mut data = vec![0x5a; RECORD];
    reset_counts();
    let [cb, sb] = &mut bufs;
    let mut client = on(Side::Client, || setup.client(cb.lend()));
    let mut server = on(Side::Server, || setup.server(sb.lend()));
    // The registry's driver, counted against the client: Halite's connections allocate
    // nothing, so any heap seen at all is a finding, whichever side it is charged to.
    let got = on(Side::Client, || halite_handshake(&mut client, &mut server, &mut wire))
        .map_err(|e| format!("Halite's handshake: {e}"))?;
    if got != claimed(cert, false) {
        return Err(format!("Halite negotiated {got:?}"));
    }
    let settled = (live(Side::Client), live(Side::Server));
    on(Side::Client, || halite_record(&mut client, &mut server, &mut wire, &mut data))?;
    on(Side::Server, || halite_record(&mut server, &mut client, &mut wire, &mut data))?;
    let object = size_of_val(&client);
    on(Side::Client, || drop(client));
    on(Side::Server, || drop(server));
    let sides = [Side::Client, Side::Server].map(|s| {
        let idle = if s == Side::Client { settled.0 } else { settled.1 };
        (s, object, buffer_len, peak(s), idle)
    });
    check_released("halite")?;
    Ok(Footprint { library: "halite", cert, sides })
}

/// Sends `data` (16 KiB) as one record from `from` to `to` and reads it back into `data`.
fn halite_record(
    from: &mut tls::Connection<'_, '_>,
    to: &mut tls::Connection<'_, '_>,
    wire: &mut Vec<u8>,
    data: &mut [u8],
) -> Result<(), String> {
    let n = from.write(data).map_err(|e| format!("{e:?}"))?;
    if n != data.len() {
        return Err(format!("one 16 KiB write took {n} bytes"));
    }
    bench::ops::halite_move(from, to, wire).map_err(|e| format!("{e:?}"))?;
    let mut got = 0;
    while got < data.len() {
        let k = to.read(&mut data[got..]).map_err(|e| format!("{e:?}"))?;
        if k == 0 {
            return Err("the record did not arrive whole".into());
        }
        got += k;
    }
    Ok(())
}

/// Drains everything `conn` has to send into `wire`.
fn rustls_out<T>(conn: &mut ConnectionCommon<T>, wire: &mut Vec<u8>) -> Result<(), String> {
    wire.clear();
    while conn.wants_write() {
        conn.write_tls(wire).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Feeds `wire` into `conn`.
fn rustls_in<T>(conn: &mut ConnectionCommon<T>, wire: &[u8]) -> Result<(), String> {
    let mut rd = wire;
    while !rd.is_empty() {
        conn.read_tls(&mut rd).map_err(|e| e.to_string())?;
        conn.process_new_packets().map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn rustls_footprint(which: Provider, cert: Cert) -> Result<Footprint, String> {
    let library = match which {
        Provider::AwsLc => Library::RustlsAwsLc.name(),
        Provider::Ring => Library::RustlsRing.name(),
        Provider::Halite => Library::RustlsHalite.name(),
    };
    let setup = RustlsSetup::new(which, cert, false);
    let mut wire = Vec::with_capacity(4 * RECORD);
    let mut data = vec![0x5a; RECORD];
    reset_counts();
    let mut client = on(Side::Client, || setup.client());
    let mut server = on(Side::Server, || setup.server());
    for _ in 0..16 {
        on(Side::Client, || rustls_out(&mut client, &mut wire))?;
        let a = !wire.is_empty();
        on(Side::Server, || rustls_in(&mut server, &wire))?;
        on(Side::Server, || rustls_out(&mut server, &mut wire))?;
        let b = !wire.is_empty();
        on(Side::Client, || rustls_in(&mut client, &wire))?;
        if !a && !b {
            break;
        }
    }
    // Nothing moves any more, so this only reads what was negotiated.
    let got = rustls_handshake(&mut client, &mut server, cert, &mut wire)
        .map_err(|e| format!("{library}'s handshake: {e}"))?;
    if got != claimed(cert, false) {
        return Err(format!("{library} negotiated {got:?}"));
    }
    let settled = (live(Side::Client), live(Side::Server));
    on(Side::Client, || client.writer().write_all(&data)).map_err(|e| e.to_string())?;
    on(Side::Client, || rustls_out(&mut client, &mut wire))?;
    on(Side::Server, || -> Result<(), String> {
        rustls_in(&mut server, &wire)?;
        server.reader().read_exact(&mut data).map_err(|e| e.to_string())
    })?;
    on(Side::Server, || server.writer().write_all(&data)).map_err(|e| e.to_string())?;
    on(Side::Server, || rustls_out(&mut server, &mut wire))?;
    on(Side::Client, || -> Result<(), String> {
        rustls_in(&mut client, &wire)?;
        client.reader().read_exact(&mut data).map_err(|e| e.to_string())
    })?;
    let objects = (size_of_val(&client), size_of_val(&server));
    on(Side::Client, || drop(client));
    on(Side::Server, || drop(server));
    check_released(library)?;
    Ok(Footprint {
        library,
        cert,
        sides: [
            (Side::Client, objects.0, 0, peak(Side::Client), settled.0),
            (Side::Server, objects.1, 0, peak(Side::Server), settled.1),
        ],
    })
}

/// After both connections are dropped, each side's count must be zero, or blocks were
/// charged to the wrong side and the figures cannot be trusted.
fn check_released(library: &str) -> Result<(), String> {
    let left = (live(Side::Client), live(Side::Server));
    if left == (0, 0) {
        Ok(())
    } else {
        Err(format!("{library}: heap left after dropping both connections: {left:?}"))
    }
}

fn memory_table() -> Result<Table, String> {
    let mut rows = Vec::new();
    for cert in [Cert::EcdsaP256, Cert::Rsa2048] {
        let mut all = vec![halite_footprint(cert)?];
        for which in [Provider::AwsLc, Provider::Ring, Provider::Halite] {
            all.push(rustls_footprint(which, cert)?);
        }
        for f in all {
            for (side, object, buffers, heap_peak, heap_idle) in f.sides {
                let cert = match f.cert {
                    Cert::EcdsaP256 => "ECDSA P-256",
                    Cert::Rsa2048 => "RSA-2048",
                };
                let side = if side == Side::Client { "client" } else { "server" };
                rows.push(vec![
                    f.library.to_owned(),
                    cert.to_owned(),
                    side.to_owned(),
                    object.to_string(),
                    buffers.to_string(),
                    heap_peak.to_string(),
                    heap_idle.to_string(),
                    (object as isize + buffers as isize + heap_peak).to_string(),
                ]);
            }
        }
    }
    let headers = ["library", "certificate", "side", "object", "buffers", "heap peak", "heap idle"]
        .into_iter()
        .chain(["total peak"])
        .map(str::to_owned)
        .collect();
    Ok(Table { headers, rows })
}

// --- Scaling -------------------------------------------------------------------------------

/// How a thread builds its runner: `fn` pointers, so each thread makes its own.
#[derive(Clone, Copy)]
enum Maker {
    Halite(fn() -> bench::ops::Halite),
    Peer(fn() -> Runner),
}

impl Maker {
    fn make(self) -> Runner {
        match self {
            Maker::Halite(f) => f().default,
            Maker::Peer(f) => f(),
        }
    }
}

/// With `threads` threads each running its own pair for about `time`: handshakes per
/// wall-clock second, all threads together, and the sum over threads of each one's handshakes
/// per second of its own CPU time (what the threads would do with a core each to themselves).
fn rate(maker: Maker, threads: usize, time: Duration) -> (f64, f64) {
    let barrier = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut runner = maker.make();
                let mut out = Vec::new();
                runner(&[], &mut out);
                barrier.wait();
                let (start, cpu) = (Instant::now(), thread_cpu_time());
                let mut n = 0u64;
                while start.elapsed() < time {
                    out.clear();
                    runner(&[], &mut out);
                    n += 1;
                }
                (n, start.elapsed(), thread_cpu_time().saturating_sub(cpu))
            })
        })
        .collect();
    let results: Vec<(u64, Duration, Duration)> =
        handles.into_iter().map(|h| h.join().expect("a scaling thread")).collect();
    let longest = results.iter().map(|r| r.1).max().unwrap_or_default();
    let wall = results.iter().map(|r| r.0).sum::<u64>() as f64 / longest.as_secs_f64().max(1e-9);
    let cpu = results.iter().map(|r| r.0 as f64 / r.2.as_secs_f64().max(1e-9)).sum();
    (wall, cpu)
}

fn scaling_table(rounds: usize, time: Duration) -> Table {
    let mut rows = Vec::new();
    for op in registry().into_iter().filter(|op| op.group == "tls" && op.sizes.is_none()) {
        let mut entries = vec![(Library::Halite, Maker::Halite(op.halite))];
        entries.extend(op.peers.iter().map(|p| (p.library, Maker::Peer(p.make))));
        let mut one = vec![Vec::new(); entries.len()];
        let mut two = vec![Vec::new(); entries.len()];
        for round in 0..rounds {
            eprintln!("tls-conn: {} round {}/{rounds}", op.id, round + 1);
            for (i, (_, maker)) in entries.iter().enumerate() {
                one[i].push(rate(*maker, 1, time));
                two[i].push(rate(*maker, 2, time));
            }
        }
        for (i, (library, _)) in entries.iter().enumerate() {
            let show = |v: Vec<f64>| {
                Summary::of(&v).map_or_else(
                    || "-".to_owned(),
                    |s| format!("{} ±{:.0}%", report::short_number(s.median), s.spread_percent()),
                )
            };
            let ratio = |pick: fn(&(f64, f64)) -> f64| {
                let r: Vec<f64> =
                    two[i].iter().zip(&one[i]).map(|(t, o)| pick(t) / pick(o)).collect();
                Summary::of(&r).map_or_else(|| "-".to_owned(), |s| format!("{:.2}", s.median))
            };
            rows.push(vec![
                op.id.to_owned(),
                library.name().to_owned(),
                show(one[i].iter().map(|r| r.0).collect()),
                show(two[i].iter().map(|r| r.0).collect()),
                ratio(|r| r.0),
                show(one[i].iter().map(|r| r.1).collect()),
                show(two[i].iter().map(|r| r.1).collect()),
                ratio(|r| r.1),
            ]);
        }
    }
    let headers = [
        "op",
        "library",
        "1T wall",
        "2T wall",
        "2T/1T wall",
        "1T per CPU-s",
        "2T per CPU-s",
        "2T/1T CPU",
    ]
    .map(str::to_owned)
    .to_vec();
    Table { headers, rows }
}

fn run(cli: &Cli) -> Result<(), String> {
    let rounds = usize::from(cli.rounds.unwrap_or(if cli.quick { 3 } else { 5 }));
    let time = Duration::from_millis(cli.millis.unwrap_or(if cli.quick { 100 } else { 300 }));
    let render = |t: &Table| {
        if cli.markdown { report::render_markdown(t) } else { report::render_text(t) }
    };
    let mut out = system::preamble();
    let _ = writeln!(
        out,
        "peers         rustls {} on aws-lc-rs {}, on ring {} and on Halite (rustls-halite)",
        bench::libs::peer_version("rustls").unwrap_or("?"),
        bench::libs::peer_version("aws-lc-rs").unwrap_or("?"),
        bench::libs::peer_version("ring").unwrap_or("?"),
    );
    let _ = writeln!(
        out,
        "\nMemory per connection in bytes: a full handshake (TLS 1.3, X25519, AES-128-GCM) and\n\
         one 16 KiB record each way. object = size_of the connection value; buffers = what the\n\
         caller lends it (Halite: received {} + send {} + handshake {}); heap = allocated by the\n\
         connection (counted per side by this binary's allocator), at its peak and once the\n\
         handshake settled; total peak = object + buffers + heap peak.\n",
        bench::ops::HALITE_RECEIVED,
        bench::ops::HALITE_SEND,
        bench::ops::HALITE_HANDSHAKE,
    );
    out.push_str(&render(&memory_table()?));
    let _ = writeln!(
        out,
        "\nHandshakes per wall-clock second, one client and server pair per thread: median of {rounds}\n\
         rounds of {} ms, 1 thread then 2 threads at once; 2T/1T is the median ratio per round.\n\
         The wall columns count handshakes per wall-clock second, all threads together: they show\n\
         scaling only when two cores are free (see the load average). The CPU columns add up each\n\
         thread's handshakes per second of its own CPU time: what two threads would do with a\n\
         core each, so 2T/1T CPU below 2 means the threads slow each other down (locks, shared\n\
         caches, the allocator), whatever else runs on the machine.\n",
        time.as_millis()
    );
    out.push_str(&render(&scaling_table(rounds, time)));
    std::io::stdout().write_all(out.as_bytes()).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tls-conn: {e}");
            ExitCode::from(2)
        }
    }
}
