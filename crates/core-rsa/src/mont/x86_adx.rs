//! Montgomery multiplication on 64-bit limbs with MULX/ADCX/ADOX (BMI2 and ADX): two
//! independent carry chains per row, so the `a·b[i]` and `m·n` products of CIOS interleave.
//! Placeholder until the assembly lands: runs the portable code.

use super::Engine;

/// The ADX engine; holding the token proves the CPU has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct X86Adx(pub(crate) core_cpu::Adx);

impl Engine for X86Adx {
    type W = u64;
    const SQR_SCRATCH: bool = true;

    #[inline]
    fn mul(self, r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) {
        super::portable64::mont_mul(r, a, b, n, n0);
    }

    #[inline]
    fn sqr(self, r: &mut [u64], a: &[u64], n: &[u64], n0: u64, scratch: &mut [u64]) {
        super::portable64::mont_sqr(r, a, n, n0, scratch);
    }
}
