//! Code-size accounting for the firmware: section sizes from `size -A` and a per-crate split of
//! `.text` and `.rodata` from `nm -S -C`, attributing each symbol to a crate by the first
//! segment of its demangled path. Works with GNU binutils (`arm-none-eabi-*`) and LLVM's tools,
//! whose output formats agree for these options.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;

/// One ELF section as listed by `size -A`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Section {
    pub(crate) name: String,
    pub(crate) size: u64,
    pub(crate) addr: u64,
}

/// One sized symbol as listed by `nm -S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Symbol {
    pub(crate) addr: u64,
    pub(crate) size: u64,
    pub(crate) name: String,
}

/// The bucket for symbols that name no crate.
pub(crate) const OTHER: &str = "(other)";
/// The bucket for section bytes no symbol covers: literal pools, padding, anonymous data.
pub(crate) const UNNAMED: &str = "(no symbol)";

/// Sections from `size -A` output (`name size addr` rows, decimal).
pub(crate) fn parse_sections(text: &str) -> Vec<Section> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (name, size, addr) = (fields.next()?, fields.next()?, fields.next()?);
            if !name.starts_with('.') || fields.next().is_some() {
                return None;
            }
            Some(Section {
                name: name.to_owned(),
                size: size.parse().ok()?,
                addr: addr.parse().ok()?,
            })
        })
        .collect()
}

/// Sized symbols from `nm -S -C` output (`addr size type name`, hexadecimal; the demangled
/// name may contain spaces).
pub(crate) fn parse_symbols(text: &str) -> Vec<Symbol> {
    text.lines()
        .filter_map(|line| {
            let (addr, rest) = line.trim_start().split_once(' ')?;
            let (size, rest) = rest.split_once(' ')?;
            let (_kind, name) = rest.split_once(' ')?;
            Some(Symbol {
                addr: u64::from_str_radix(addr, 16).ok()?,
                size: u64::from_str_radix(size, 16).ok()?,
                name: name.to_owned(),
            })
        })
        .collect()
}

/// Unmangled runtime symbols and the crate that defines them on `thumbv6m-none-eabi`.
const KNOWN_SYMBOLS: &[(&str, &str)] = &[
    ("Reset", "cortex_m_rt"),
    ("DefaultHandler", "cortex_m_rt"),
    ("DefaultHandler_", "cortex_m_rt"),
    ("DefaultPreInit", "cortex_m_rt"),
    ("HardFaultTrampoline", "cortex_m_rt"),
    ("HardFault_", "cortex_m_rt"),
    ("__pre_init", "cortex_m_rt"),
    ("__RESET_VECTOR", "cortex_m_rt"),
    ("__EXCEPTIONS", "cortex_m_rt"),
    ("__INTERRUPTS", "cortex_m_rt"),
    // `#[entry]` and `#[exception]` expand to these exported wrappers in the firmware crate.
    ("main", "m0_kat"),
    ("HardFault", "m0_kat"),
    ("memcpy", "compiler_builtins"),
    ("memmove", "compiler_builtins"),
    ("memset", "compiler_builtins"),
    ("memcmp", "compiler_builtins"),
    ("bcmp", "compiler_builtins"),
    ("strlen", "compiler_builtins"),
];

/// Primitive types whose inherent methods (`<str>::len`, `<[T]>::iter`) live in `core`.
const PRIMITIVES: &[&str] = &[
    "str", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64",
];

/// The crate a demangled symbol belongs to, or [`OTHER`].
///
/// `a::b::c` belongs to `a`; `<T as Trait>::f` to `T`'s crate when `T` is a path, otherwise
/// (`<&T as core::fmt::Display>::fmt`, a blanket impl) to `Trait`'s; `<str>::f` to `core`.
/// Generic code is counted where it is defined, not where it is instantiated.
pub(crate) fn crate_of(symbol: &str) -> &str {
    if let Some(qualified) = symbol.strip_prefix('<') {
        let self_type = qualified.trim_start_matches(['<', '&', '*', '[', '(']);
        let self_type = ["mut ", "const ", "dyn "]
            .iter()
            .fold(self_type, |t, p| t.strip_prefix(p).unwrap_or(t));
        if let Some(krate) = path_crate(self_type) {
            return krate;
        }
        if let Some((_, rest)) = qualified.split_once(" as ")
            && let Some(krate) = path_crate(rest)
        {
            return krate;
        }
        let ident = leading_ident(self_type);
        if qualified.starts_with('[') || PRIMITIVES.contains(&ident) {
            return "core";
        }
        return OTHER;
    }
    if let Some(krate) = path_crate(symbol) {
        return krate;
    }
    if let Some(&(_, krate)) = KNOWN_SYMBOLS.iter().find(|(name, _)| *name == symbol) {
        return krate;
    }
    if is_builtin_helper(symbol) {
        return "compiler_builtins";
    }
    OTHER
}

/// The identifier at the start of `text`.
fn leading_ident(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// The crate of a path `krate::…` at the start of `text`; names starting with `__` (rustc's
/// `__rustc::` shims) are not crates.
fn path_crate(text: &str) -> Option<&str> {
    let ident = leading_ident(text);
    let is_crate = !ident.is_empty()
        && !ident.starts_with("__")
        && !ident.starts_with(|c: char| c.is_ascii_digit())
        && text[ident.len()..].starts_with("::");
    is_crate.then_some(ident)
}

/// `__aeabi_*` and libgcc-style integer/float helpers (`__udivsi3`, `__aeabi_uldivmod`,
/// `__addsf3`…), which `compiler_builtins` provides.
fn is_builtin_helper(symbol: &str) -> bool {
    let Some(body) = symbol.strip_prefix("__") else {
        return false;
    };
    body.starts_with("aeabi_")
        || (body.len() > 3
            && body.ends_with(|c: char| c.is_ascii_digit())
            && ["si", "di", "ti", "sf", "df"].iter().any(|m| body[..body.len() - 1].ends_with(m)))
}

/// Bytes of `.text` and `.rodata` attributed to one crate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CrateSize {
    pub(crate) name: String,
    pub(crate) text: u64,
    pub(crate) rodata: u64,
}

/// The sections a per-crate split covers.
const SPLIT: [&str; 2] = [".text", ".rodata"];

/// Which of [`SPLIT`] holds `addr`, if either does.
fn split_slot(sections: &[Section], addr: u64) -> Option<usize> {
    SPLIT.iter().position(|name| {
        sections.iter().any(|s| s.name == *name && s.addr <= addr && addr < s.addr + s.size)
    })
}

/// Splits `.text` and `.rodata` by crate, largest first, then [`OTHER`] and [`UNNAMED`]; the
/// rows add up to the two sections' sizes. Symbols are placed by address, so sections other
/// than those two (the vector table, `.data`) are left out; aliases are counted once.
pub(crate) fn by_crate(sections: &[Section], symbols: &[Symbol]) -> Vec<CrateSize> {
    let mut sizes: BTreeMap<&str, [u64; 2]> = BTreeMap::new();
    let mut covered = [0u64; 2];
    let mut seen = HashSet::new();
    for symbol in symbols {
        // Thumb function symbols may carry the interworking bit.
        let addr = symbol.addr & !1;
        if symbol.size == 0 || !seen.insert(addr) {
            continue;
        }
        if let Some(slot) = split_slot(sections, addr) {
            sizes.entry(crate_of(&symbol.name)).or_default()[slot] += symbol.size;
            covered[slot] += symbol.size;
        }
    }
    let row =
        |name: &str, [text, rodata]: [u64; 2]| CrateSize { name: name.to_owned(), text, rodata };
    let other = sizes.remove(OTHER);
    let mut rows: Vec<CrateSize> =
        sizes.into_iter().map(|(name, split)| row(name, split)).collect();
    rows.sort_by(|a, b| (b.text + b.rodata).cmp(&(a.text + a.rodata)).then(a.name.cmp(&b.name)));
    rows.extend(other.map(|split| row(OTHER, split)));
    let section_size =
        |name: &str| sections.iter().filter(|s| s.name == name).map(|s| s.size).sum::<u64>();
    let unnamed = [0, 1].map(|slot| section_size(SPLIT[slot]).saturating_sub(covered[slot]));
    if unnamed != [0, 0] {
        rows.push(row(UNNAMED, unnamed));
    }
    rows
}

/// The section table: each allocated section, then flash and RAM totals.
pub(crate) fn render_sections(sections: &[Section]) -> String {
    let size = |name: &str| sections.iter().filter(|s| s.name == name).map(|s| s.size).sum::<u64>();
    let mut out = String::new();
    let _ = writeln!(out, "  {:<16} {:>8}", "section", "bytes");
    for name in [".vector_table", ".text", ".rodata", ".data", ".bss"] {
        let _ = writeln!(out, "  {name:<16} {:>8}", size(name));
    }
    let flash = size(".vector_table") + size(".text") + size(".rodata") + size(".data");
    let ram = size(".data") + size(".bss") + size(".uninit");
    let _ =
        writeln!(out, "  {:<16} {flash:>8}   (.vector_table + .text + .rodata + .data)", "flash");
    let _ = writeln!(
        out,
        "  {:<16} {ram:>8}   (.data + .bss + .uninit; stack not counted)",
        "RAM (static)"
    );
    out
}

/// The per-crate table with a total row.
pub(crate) fn render_crates(rows: &[CrateSize]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  {:<20} {:>8} {:>8} {:>8}", "crate", ".text", ".rodata", "total");
    for row in rows {
        let _ = writeln!(
            out,
            "  {:<20} {:>8} {:>8} {:>8}",
            row.name,
            row.text,
            row.rodata,
            row.text + row.rodata
        );
    }
    let text: u64 = rows.iter().map(|r| r.text).sum();
    let rodata: u64 = rows.iter().map(|r| r.rodata).sum();
    let _ = writeln!(out, "  {:<20} {text:>8} {rodata:>8} {:>8}", "total", text + rodata);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE_A: &str = "\
/t/m0-kat  :
section            size        addr
.vector_table       192           0
.text              1000         192
.rodata             100        1192
.data                 4   536870912
.bss                 12   536870916
.comment            139           0
Total              1447
";

    const NM: &str = "\
00000008 00000038 R __EXCEPTIONS
000000c1 00000064 T core_cpu::features
00000100 00000010 t __aeabi_lmul
00000100 00000010 t __aeabi_lmul_alias
00000200 00000100 t <core::fmt::Formatter>::pad
00000300 00000050 t <&T as core::fmt::Display>::fmt
00000350 00000020 t main
00000370 00000010 t __rustc::rust_begin_unwind
000004a8 00000020 r core_hash::sha256::K
000004c8 00000010 r anon.1234
20000000 00000004 d m0_kat::checks::harness::DATA
";

    #[test]
    fn parses_size_output() {
        let sections = parse_sections(SIZE_A);
        assert_eq!(sections.len(), 6);
        assert_eq!(sections[1], Section { name: ".text".into(), size: 1000, addr: 192 });
    }

    #[test]
    fn parses_nm_output() {
        let symbols = parse_symbols(NM);
        assert_eq!(symbols.len(), 11);
        assert_eq!(symbols[5].name, "<&T as core::fmt::Display>::fmt");
        assert_eq!((symbols[1].addr, symbols[1].size), (0xc1, 0x64));
    }

    #[test]
    fn attributes_symbols_to_crates() {
        let cases = [
            ("core_cpu::features", "core_cpu"),
            ("core_hash::sha256::compress", "core_hash"),
            ("<core_cpu::Features as core::fmt::Display>::fmt", "core_cpu"),
            (
                "<semihosting::io::Write::write_fmt::Adapter<T> as core::fmt::Write>::write_str",
                "semihosting",
            ),
            ("<&T as core::fmt::Display>::fmt", "core"),
            ("<F as core::str::pattern::MultiCharEq>::matches", "core"),
            ("<u32 as core::fmt::LowerHex>::fmt", "core"),
            ("<str>::eq_ignore_ascii_case", "core"),
            ("<[T]>::iter", "core"),
            ("<core::fmt::Formatter>::pad", "core"),
            ("compiler_builtins::int::specialized_div_rem::u64_div_rem", "compiler_builtins"),
            ("__aeabi_uldivmod", "compiler_builtins"),
            ("__udivsi3", "compiler_builtins"),
            ("__addsf3", "compiler_builtins"),
            ("memcpy", "compiler_builtins"),
            ("m0_kat::run_all", "m0_kat"),
            ("main", "m0_kat"),
            ("Reset", "cortex_m_rt"),
            ("__rustc::rust_begin_unwind", OTHER),
            ("anon.1234", OTHER),
            ("__stack", OTHER),
        ];
        for (symbol, krate) in cases {
            assert_eq!(crate_of(symbol), krate, "{symbol}");
        }
    }

    #[test]
    fn crate_rows_add_up_to_the_sections() {
        let rows = by_crate(&parse_sections(SIZE_A), &parse_symbols(NM));
        let row = |name: &str| rows.iter().find(|r| r.name == name).cloned().unwrap_or_default();
        assert_eq!(row("core"), CrateSize { name: "core".into(), text: 0x150, rodata: 0 });
        assert_eq!(row("core_cpu").text, 0x64);
        assert_eq!(row("compiler_builtins").text, 0x10, "alias counted once");
        assert_eq!(row("core_hash").rodata, 0x20);
        assert_eq!(row(OTHER), CrateSize { name: OTHER.into(), text: 0x10, rodata: 0x10 });
        assert_eq!(row("cortex_m_rt"), CrateSize::default(), "vector table is not .text/.rodata");
        assert_eq!(row("m0_kat").text, 0x20, ".data symbol left out");
        let text: u64 = rows.iter().map(|r| r.text).sum();
        let rodata: u64 = rows.iter().map(|r| r.rodata).sum();
        assert_eq!((text, rodata), (1000, 100));
        assert_eq!(rows.last().map(|r| r.name.as_str()), Some(UNNAMED));
        assert_eq!(rows[0].name, "core", "largest first");
    }

    #[test]
    fn renders_tables() {
        let sections = parse_sections(SIZE_A);
        let table = render_sections(&sections);
        assert!(table.contains("  .text                1000"), "{table}");
        assert!(table.contains("  flash                1296"), "{table}");
        let crates = render_crates(&by_crate(&sections, &parse_symbols(NM)));
        assert!(crates.lines().last().unwrap().ends_with("1000      100     1100"), "{crates}");
    }
}
