//! `gpumemsim addr flat ADDR`: which aperture a flat address is in and what it resolves to.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use gpumemsim::addr::{Aperture, Apertures, ScratchLayout};
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
    #[arg(long, default_value_t = DEFAULT_SCRATCH_BASE)]
    scratch_base: u64,
    /// The workgroup's LDS allocation in bytes (for the shared aperture's range check).
    #[arg(long, default_value_t = 65536)]
    lds_size: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
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
    let AddrCommand::Flat(a) = &args.what;
    let flat = parse_u64(&a.addr)?;
    let wave_size = if a.wave64 { 64 } else { 32 };
    if a.lane >= wave_size {
        return Err(format!(
            "--lane {} is not a lane of a wave{wave_size}",
            a.lane
        ));
    }
    let apertures = Apertures::default();
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
        println!("{j}");
        return Ok(ExitCode::SUCCESS);
    }
    match aperture {
        Aperture::Shared => println!(
            "shared aperture: LDS offset {offset:#x}{}",
            if in_range {
                String::new()
            } else {
                format!(" (outside the {}-byte allocation)", a.lds_size)
            }
        ),
        Aperture::Private => println!(
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
        Aperture::Global => println!("global: {address:#x}"),
    }
    Ok(ExitCode::SUCCESS)
}
