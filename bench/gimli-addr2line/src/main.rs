//! An addr2line front end over the gimli-rs `addr2line` crate, for
//! sanitrace's benchmark: `gimli-addr2line -e BIN [-f] [-i] [-C]` reads
//! addresses (hex, with or without 0x) from stdin and answers each as GNU
//! addr2line does, flushing after every answer as interactive tools do.
//! Debian does not package the crate's own example's dependencies.

use std::borrow::Cow;
use std::io::{self, BufRead, Write};

use addr2line::Context;
use gimli::{EndianSlice, RunTimeEndian};
use object::{Object, ObjectSection, SymbolMap, SymbolMapName};

type Slice = EndianSlice<'static, RunTimeEndian>;

struct Opts {
    exe: String,
    functions: bool,
    inlines: bool,
    demangle: bool,
}

fn parse_args() -> Opts {
    let mut o = Opts { exe: "a.out".into(), functions: false, inlines: false, demangle: false };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-e" | "--exe" => o.exe = args.next().unwrap_or_else(|| usage()),
            "-f" | "--functions" => o.functions = true,
            "-i" | "--inlines" => o.inlines = true,
            "-C" | "--demangle" => o.demangle = true,
            _ => match a.strip_prefix("--exe=") {
                Some(p) => o.exe = p.into(),
                None => usage(),
            },
        }
    }
    o
}

fn usage() -> ! {
    eprintln!("usage: gimli-addr2line -e BIN [-f] [-i] [-C] < addresses");
    std::process::exit(2)
}

/// The binary's bytes and every section it needs live as long as the
/// process: leaking them lets gimli read borrowed slices, the fast reader
/// the crate recommends, without a lifetime to thread through.
fn load(path: &str) -> Result<(Context<Slice>, SymbolMap<SymbolMapName<'static>>), String> {
    let data: &'static [u8] = Box::leak(std::fs::read(path).map_err(|e| format!("{path}: {e}"))?.into_boxed_slice());
    let obj: &'static object::File<'static> =
        Box::leak(Box::new(object::File::parse(data).map_err(|e| format!("{path}: {e}"))?));
    let endian = if obj.is_little_endian() { RunTimeEndian::Little } else { RunTimeEndian::Big };
    let section = |id: gimli::SectionId| -> Result<Slice, gimli::Error> {
        let bytes: &'static [u8] = match obj.section_by_name(id.name()).map(|s| s.uncompressed_data()) {
            Some(Ok(Cow::Borrowed(b))) => b,
            Some(Ok(Cow::Owned(v))) => Box::leak(v.into_boxed_slice()),
            _ => &[],
        };
        Ok(EndianSlice::new(bytes, endian))
    };
    let dwarf = gimli::Dwarf::load(section).map_err(|e| format!("{path}: {e}"))?;
    let ctx = Context::from_dwarf(dwarf).map_err(|e| format!("{path}: {e}"))?;
    Ok((ctx, obj.symbol_map()))
}

fn name(raw: &str, lang: Option<gimli::DwLang>, demangle: bool) -> String {
    if demangle {
        addr2line::demangle_auto(Cow::Borrowed(raw), lang).into_owned()
    } else {
        raw.to_string()
    }
}

fn location(loc: Option<addr2line::Location>) -> String {
    match loc {
        Some(addr2line::Location { file: Some(f), line, .. }) => format!("{}:{}", f, line.unwrap_or(0)),
        _ => "??:0".to_string(),
    }
}

fn answer(out: &mut impl Write, o: &Opts, ctx: &Context<Slice>, syms: &SymbolMap<SymbolMapName>, addr: u64) -> io::Result<()> {
    let symbol = || syms.get(addr).map(|s| name(s.name(), None, o.demangle)).unwrap_or_else(|| "??".into());
    let mut printed = false;
    if let Ok(mut frames) = ctx.find_frames(addr) {
        while let Ok(Some(frame)) = frames.next() {
            if o.functions {
                let f = match &frame.function {
                    Some(func) => match func.raw_name() {
                        Ok(raw) => name(&raw, func.language, o.demangle),
                        Err(_) => symbol(),
                    },
                    None => symbol(),
                };
                writeln!(out, "{f}")?;
            }
            writeln!(out, "{}", location(frame.location))?;
            printed = true;
            if !o.inlines {
                break;
            }
        }
    }
    if !printed {
        if o.functions {
            writeln!(out, "{}", symbol())?;
        }
        writeln!(out, "??:0")?;
    }
    Ok(())
}

fn main() {
    let o = parse_args();
    let (ctx, syms) = load(&o.exe).unwrap_or_else(|e| {
        eprintln!("gimli-addr2line: {e}");
        std::process::exit(1)
    });
    let stdin = io::stdin();
    let mut out = io::BufWriter::new(io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        let t = line.trim();
        let hex = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
        let addr = u64::from_str_radix(hex, 16).unwrap_or(0);
        if answer(&mut out, &o, &ctx, &syms, addr).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
