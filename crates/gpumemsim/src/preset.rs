//! Device presets: the parts the simulator models, by name (`--device rx7900xtx`), each
//! figure with its source. A preset gives the device's WGPs (how many workgroups run side by
//! side, and how many host threads a grid can use) and its clock (to give kernel time in
//! microseconds as well as cycles). The chip's instruction set, register files, LDS, banks
//! and timing come from its target ([`crate::target::Target`]); a preset names the target
//! its code must be built for.
//!
//! Sources: AMD's product specification pages (compute units, boost or peak engine clock)
//! and ROCm's "GPU hardware specifications" table (compute units per part). An RDNA3 WGP is
//! two compute units (AMD's RDNA3 whitepaper); on CDNA3, which has no WGPs, the model's unit
//! is one compute unit (four SIMDs, its own LDS).

/// One device the simulator can stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DevicePreset {
    /// The name `--device` takes.
    pub name: &'static str,
    /// The product.
    pub product: &'static str,
    /// The target its code is built for (`gfx1100`, `gfx942`).
    pub arch: &'static str,
    /// Compute units.
    pub compute_units: u32,
    /// The model's placement units: WGPs on RDNA3 (two compute units each), compute units
    /// on CDNA3.
    pub wgps: u32,
    /// What the report calls one of [`DevicePreset::wgps`]: "WGP", or "CU" on CDNA3.
    pub unit: &'static str,
    /// Clock in MHz used to give kernel time in microseconds: the boost (peak engine) clock.
    pub clock_mhz: u32,
    /// Where the figures come from.
    pub source: &'static str,
    /// What the preset does not model of the part, if anything (the text report and the
    /// JSON's `"device"` say it).
    pub caveat: &'static str,
    /// Its vector caches (`None`: vector memory takes `vmem_latency`, hit or miss).
    pub vcache: Option<crate::vcache::VcacheConfig>,
}

impl DevicePreset {
    /// `cycles` at the preset's clock, in microseconds.
    pub fn micros(&self, cycles: u64) -> f64 {
        cycles as f64 / f64::from(self.clock_mhz)
    }

    /// The preset named `name`; the error lists the names.
    pub fn named(name: &str) -> Result<&'static DevicePreset, String> {
        PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            format!("unknown device `{name}`: one of {}", names.join(", "))
        })
    }

    /// The default device for code built for `arch`: the RX 7900 XTX for gfx1100, the
    /// MI300X for gfx942.
    pub fn default_for(arch: &str) -> &'static DevicePreset {
        PRESETS
            .iter()
            .find(|p| p.arch == arch)
            .unwrap_or(&PRESETS[0])
    }

    /// The device and WGP count a launch runs on: `name` (else the default for `arch`),
    /// with `wgps` overriding its WGPs; an error when the device is not an `arch` part.
    pub fn resolve(
        name: Option<&str>,
        wgps: Option<u32>,
        arch: &str,
    ) -> Result<(&'static DevicePreset, u32), String> {
        let preset = match name {
            Some(n) => DevicePreset::named(n)?,
            None => DevicePreset::default_for(arch),
        };
        if preset.arch != arch {
            let fits: Vec<&str> = PRESETS
                .iter()
                .filter(|p| p.arch == arch)
                .map(|p| p.name)
                .collect();
            return Err(format!(
                "device `{}` ({}) runs {} code, and this code is {arch}: choose {}",
                preset.name,
                preset.product,
                preset.arch,
                fits.join(" or ")
            ));
        }
        Ok((preset, wgps.unwrap_or(preset.wgps)))
    }
}

/// The presets; the first of each target is its default.
pub const PRESETS: [DevicePreset; 4] = [
    DevicePreset {
        name: "rx7900xtx",
        product: "AMD Radeon RX 7900 XTX",
        arch: "gfx1100",
        compute_units: 96,
        wgps: 48,
        unit: "WGP",
        clock_mhz: 2500,
        source: "AMD product page: 96 compute units, boost clock 2500 MHz (game clock 2300 MHz)",
        caveat: "",
        vcache: Some(crate::vcache::NAVI31),
    },
    DevicePreset {
        name: "w7900",
        product: "AMD Radeon PRO W7900",
        arch: "gfx1100",
        compute_units: 96,
        wgps: 48,
        unit: "WGP",
        clock_mhz: 2495,
        source: "AMD product page: 96 compute units, boost clock 2495 MHz",
        caveat: "",
        vcache: Some(crate::vcache::NAVI31),
    },
    DevicePreset {
        name: "rx7600",
        product: "AMD Radeon RX 7600",
        arch: "gfx1100",
        compute_units: 32,
        wgps: 16,
        unit: "WGP",
        clock_mhz: 2655,
        source: "AMD product page: 32 compute units, boost clock 2655 MHz (game clock 2250 MHz)",
        caveat: "the part is gfx1102 (Navi 33), whose VGPR file is two thirds of gfx1100's; \
                 it runs gfx1100 code here with gfx1100's occupancy rule",
        vcache: Some(crate::vcache::NAVI33),
    },
    DevicePreset {
        name: "mi300x",
        product: "AMD Instinct MI300X",
        arch: "gfx942",
        compute_units: 304,
        wgps: 304,
        unit: "CU",
        clock_mhz: 2100,
        source: "AMD product page: 304 compute units (38 per XCD, ROCm's GPU hardware \
                 specifications), peak engine clock 2100 MHz",
        caveat: "",
        vcache: Some(crate::vcache::MI300X),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Each target's default runs its code; a device of another target is refused naming
    /// the ones that fit; `wgps` overrides; an unknown name lists the names.
    #[test]
    fn devices_resolve_by_target() {
        let (p, w) = DevicePreset::resolve(None, None, "gfx1100").unwrap();
        assert_eq!((p.name, w), ("rx7900xtx", 48));
        let (p, w) = DevicePreset::resolve(None, Some(2), "gfx942").unwrap();
        assert_eq!((p.name, w), ("mi300x", 2));
        let e = DevicePreset::resolve(Some("mi300x"), None, "gfx1100").unwrap_err();
        assert!(e.contains("rx7900xtx or w7900 or rx7600"), "{e}");
        let e = DevicePreset::named("h100").unwrap_err();
        assert!(e.contains("rx7900xtx, w7900, rx7600, mi300x"), "{e}");
        assert!((PRESETS[0].micros(2500) - 1.0).abs() < 1e-12);
        // RDNA3 parts count WGPs of two CUs; CDNA3 counts CUs.
        for p in PRESETS {
            let per_unit = if p.unit == "WGP" { 2 } else { 1 };
            assert_eq!(p.compute_units, p.wgps * per_unit, "{}", p.name);
            assert_eq!(p.unit == "CU", p.arch == "gfx942", "{}", p.name);
        }
    }
}
