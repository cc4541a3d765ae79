//! Prints the CPU features Halite detected: `cargo run -p core-cpu --example features`.
//! Try `HALITE_CPU_DISABLE=avx512f,vaes` to see a mask applied.

fn main() {
    println!("detected: {}", core_cpu::features());
}
