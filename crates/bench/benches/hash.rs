//! Criterion group `hash`: for each hash, HMAC and HKDF operation in the registry and each
//! size (64 B, 1350 B, 16 KiB; HKDF once), every Halite implementation this CPU can run
//! (`sha256/portable`, `sha256/x86_shani`…), Halite's default (`sha256/halite`) and each peer
//! (`sha256/ring`…), with throughput set so the report shows bytes/s (HKDF: operations/s).
//! `cargo bench -p bench`; the HTML report lands in `target/criterion/report/index.html`.

use std::hint::black_box;
use std::time::Duration;

use bench::ops::{Runner, Unit, message};
use bench::{Library, registry};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const SIZES: &[usize] = &[64, 1350, 16384];

fn run(b: &mut criterion::Bencher<'_>, runner: &mut Runner, input: &[u8]) {
    let mut out = Vec::with_capacity(128);
    b.iter(|| {
        out.clear();
        runner(black_box(input), &mut out);
        black_box(&out);
    });
}

fn hash(c: &mut Criterion) {
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
    let mut group = c.benchmark_group("hash");
    for op in registry().into_iter().filter(|op| op.group == "hash") {
        // Bulk ops at each size; operations counted one by one (HKDF) once, on a 32-byte input.
        let sizes: &[usize] = if op.unit == Unit::Bytes { SIZES } else { &[32] };
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
            for (name, mut runner) in entries {
                group.bench_function(BenchmarkId::new(name, size), |b| {
                    run(b, &mut runner, &input);
                });
            }
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Short runs: on a 2-core shared machine the whole group takes a few minutes; pass
    // `--measurement-time` for steadier numbers.
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30);
    targets = hash
}
criterion_main!(benches);
