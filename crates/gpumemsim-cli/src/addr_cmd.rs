//! `gpumemsim addr flat ADDR`: which aperture a flat address is in and what it resolves to;
//! `gpumemsim addr buffer --desc ...`: a buffer access's address through a V#.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use gpumemsim::addr::{Aperture, Apertures, BufferDescriptor, ScratchLayout};
use gpumemsim::exec::DEFAULT_SCRATCH_BASE;
use serde_json::json;

/// Options of `gpumemsim addr`.
#[derive(Args, Debug)]
pub struct AddrArgs {
    #[command(subcommand)]
    what: AddrCommand,
}

#[derive(Subcommand, Debug)]
enum AddrCommand {
    /// Resolve a flat address: the shared aperture gives an LDS offset, the private aperture
    /// the global address of the lane's swizzled scratch, anything else is global.
    Flat(FlatArgs),
    /// Resolve a buffer access through a V#: the byte address, or "out of range".
    Buffer(BufferArgs),
}

/// Options of `gpumemsim addr buffer`.
#[derive(Args, Debug)]
pub struct BufferArgs {
    /// The V#'s four dwords, `W0,W1,W2,W3` (decimal or 0x-hex).
    #[arg(long)]
    desc: String,
    /// The record index from the VGPR (idxen).
    #[arg(long, default_value = "0", value_parser = parse_u32)]
    index: u32,
    /// The byte offset: the VGPR offset (offen) plus the instruction's offset.
    #[arg(long, default_value = "0", value_parser = parse_u32)]
    offset: u32,
    /// The SGPR offset (soffset), added outside the range check.
    #[arg(long, default_value = "0", value_parser = parse_u32)]
    soffset: u32,
    /// The lane (added to the index when the V# has add_tid_enable).
    #[arg(long, default_value_t = 0)]
    lane: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Options of `gpumemsim addr flat`.
#[derive(Args, Debug)]
pub struct FlatArgs {
    /// The flat address (decimal or 0x-hex).
    addr: String,
    /// Lane within the wave.
    #[arg(long, default_value_t = 0)]
    lane: u32,
    /// The wave's id (its scratch region is wave_id × wave_size × scratch_size in).
    #[arg(long, default_value_t = 0)]
    wave_id: u32,
    /// Waves of 64 lanes (default 32).
    #[arg(long)]
    wave64: bool,
    /// Private bytes per lane (the kernel's scratch_size).
    #[arg(long, default_value_t = 0)]
    scratch_size: u32,
    /// private_segment_buffer.base: where wave 0's scratch region starts.
    #[arg(long, default_value_t = DEFAULT_SCRATCH_BASE, value_parser = parse_addr)]
    scratch_base: u64,
    /// Base of the shared (LDS) aperture (4 GiB).
    #[arg(long, default_value_t = gpumemsim::addr::SHARED_BASE, value_parser = parse_addr)]
    shared_base: u64,
    /// Base of the private (scratch) aperture (4 GiB).
    #[arg(long, default_value_t = gpumemsim::addr::PRIVATE_BASE, value_parser = parse_addr)]
    private_base: u64,
    /// The workgroup's LDS allocation in bytes (for the shared aperture's range check).
    #[arg(long, default_value_t = 65536)]
    lds_size: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// A 64-bit address in decimal or 0x-hex (for clap).
fn parse_addr(text: &str) -> Result<u64, String> {
    parse_u64(text)
}

/// A 32-bit value in decimal or 0x-hex (for clap).
fn parse_u32(text: &str) -> Result<u32, String> {
    parse_u64(text)
        .ok()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| format!("`{text}` is not a 32-bit value"))
}

fn parse_u64(text: &str) -> Result<u64, String> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    }
    .map_err(|_| format!("`{text}` is not a 64-bit address"))
}

/// `gpumemsim addr`.
pub fn addr(args: &AddrArgs) -> Result<ExitCode, String> {
    match &args.what {
        AddrCommand::Flat(a) => flat(a),
        AddrCommand::Buffer(b) => buffer(b),
    }
}

fn buffer(a: &BufferArgs) -> Result<ExitCode, String> {
    let words: Vec<u32> = a
        .desc
        .split(',')
        .map(|w| {
            parse_u64(w)
                .ok()
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| format!("--desc: `{}` is not a 32-bit word", w.trim()))
        })
        .collect::<Result<_, _>>()?;
    let Ok(words) = <[u32; 4]>::try_from(words) else {
        return Err("--desc takes exactly four dwords W0,W1,W2,W3".into());
    };
    if a.lane >= 64 {
        return Err(format!("--lane {} is not a lane (0-63)", a.lane));
    }
    let d = BufferDescriptor::from_words(words);
    let index = d.index(a.index, a.lane);
    let address = d.address(index, a.offset, a.soffset);
    let in_range = d.in_range(index, a.offset);
    if a.json {
        outln!(
            "{}",
            json!({
                "address": address,
                "in_range": in_range,
                "buffer_offset": d.buffer_offset(index, a.offset),
                "index": index,
                "swizzled": d.swizzle_element != 0,
            })
        );
    } else if in_range {
        outln!("{address:#x}");
    } else {
        outln!("out of range");
    }
    Ok(ExitCode::SUCCESS)
}

fn flat(a: &FlatArgs) -> Result<ExitCode, String> {
    let flat = parse_u64(&a.addr)?;
    let wave_size = if a.wave64 { 64 } else { 32 };
    if a.lane >= wave_size {
        return Err(format!(
            "--lane {} is not a lane of a wave{wave_size}",
            a.lane
        ));
    }
    let apertures = Apertures::with_bases(a.shared_base, a.private_base);
    let (aperture, offset) = apertures.resolve(flat);
    let layout = ScratchLayout {
        base: a.scratch_base,
        wave_size,
        scratch_size: a.scratch_size,
    };
    let (address, in_range) = match aperture {
        Aperture::Shared => (offset, offset < a.lds_size as u64),
        Aperture::Private => (
            layout.lane_address(a.wave_id, a.lane, offset as u32),
            layout.in_range(offset as u32, 1),
        ),
        Aperture::Global => (flat, true),
    };
    if a.json {
        let mut j = json!({
            "aperture": aperture.name(),
            "address": address,
            "offset": offset,
            "in_range": in_range,
        });
        if aperture == Aperture::Private {
            j["flat_scratch"] = json!(layout.flat_scratch(a.wave_id));
        }
        outln!("{j}");
        return Ok(ExitCode::SUCCESS);
    }
    match aperture {
        Aperture::Shared => outln!(
            "shared aperture: LDS offset {offset:#x}{}",
            if in_range {
                String::new()
            } else {
                format!(" (outside the {}-byte allocation)", a.lds_size)
            }
        ),
        Aperture::Private => outln!(
            "private aperture: offset {offset:#x} of lane {} in wave {} -> global {address:#x} (flat_scratch {:#x}){}",
            a.lane,
            a.wave_id,
            layout.flat_scratch(a.wave_id),
            if in_range {
                String::new()
            } else {
                format!(" (outside the {}-byte scratch of a lane)", a.scratch_size)
            }
        ),
        Aperture::Global => outln!("global: {address:#x}"),
    }
    Ok(ExitCode::SUCCESS)
}
