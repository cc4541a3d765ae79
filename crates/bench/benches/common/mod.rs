//! What every criterion group does: for each operation of the group in the registry and each
//! size, Halite's default (`OP/halite`), every Halite implementation this CPU can run
//! (`OP/NAME`) and each peer that can run here (`OP/ring`…), with throughput set so the
//! report shows bytes/s (operations/s for ops counted one by one).

use std::hint::black_box;
use std::time::Duration;

use bench::ops::{Runner, Unit, message};
use bench::{Library, registry};
use criterion::{BenchmarkId, Criterion, Throughput};

/// Bulk sizes: a small message, a TLS record of a typical MTU, a full 16 KiB TLS record.
const SIZES: &[usize] = &[64, 1350, 16384];

/// Short runs: on a 2-core shared machine a whole group takes minutes; pass
/// `--measurement-time` for steadier numbers.
pub(crate) fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30)
}

fn run(b: &mut criterion::Bencher<'_>, runner: &mut Runner, input: &[u8]) {
    let mut out = Vec::with_capacity(input.len() + 128);
    b.iter(|| {
        out.clear();
        runner(black_box(input), &mut out);
        black_box(&out);
    });
}

/// Benchmarks every operation of criterion group `name`.
pub(crate) fn group(c: &mut Criterion, name: &str) {
    let usable: Vec<Library> = Library::ALL
        .into_iter()
        .filter(|l| *l != Library::OpenSsl)
        .filter(|l| match l.availability() {
            Ok(()) => true,
            Err(why) => {
                eprintln!("bench: {l} not measured: {why}");
                false
            }
        })
        .collect();
    let mut group = c.benchmark_group(name);
    for op in registry().into_iter().filter(|op| op.group == name) {
        // Bulk ops at each size; operations counted one by one (HKDF) once, on a 32-byte input.
        let sizes: &[usize] = match op.unit {
            Unit::Bytes => op.sizes.unwrap_or(SIZES),
            Unit::Ops => &[32],
        };
        for &size in sizes {
            let input = message(size);
            group.throughput(match op.unit {
                Unit::Bytes => Throughput::Bytes(size as u64),
                Unit::Ops => Throughput::Elements(1),
            });
            let halite = (op.halite)();
            let mut entries: Vec<(String, Runner)> =
                vec![(format!("{}/halite", op.id), halite.default)];
            entries
                .extend(halite.impls.into_iter().map(|(name, r)| (format!("{}/{name}", op.id), r)));
            for peer in op.peers.iter().filter(|p| usable.contains(&p.library)) {
                entries.push((format!("{}/{}", op.id, peer.library), (peer.make)()));
            }
            for (id, mut runner) in entries {
                group.bench_function(BenchmarkId::new(id, size), |b| {
                    run(b, &mut runner, &input);
                });
            }
        }
    }
    group.finish();
}
