//! [`rotr`]: a 32-bit rotation by a constant that stays cheap on the Cortex-M0.

pub use core_asm::ct::rotr;
