//! The sm90 preset against hardware: every row of tests/golden/sm90_shared_measured.tsv is one
//! warp's single `LDS`/`STS`/`ATOMS.ADD` on an NVIDIA H200, with the shared-memory
//! instructions, wavefronts and bank conflicts Nsight Compute counted for it
//! (tools/nvidia_banks/measure.sh wrote the counters, tools/nvidia_banks/collect.py the table).
//! The model must give the same three numbers for every row
//! (docs/rules/banks.md#merged-transactions-can-conflict).

use gpumemsim::banks::{Access, AccessKind, AccessShape, BankModel, CostUnits, WaveSize};

const TABLE: &str = include_str!("golden/sm90_shared_measured.tsv");

struct Row<'a> {
    name: &'a str,
    width: u32,
    kind: AccessKind,
    active: u64,
    addrs: Vec<u32>,
    measured: [u64; 3],
}

fn rows() -> Vec<Row<'static>> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 7, "{line}");
            let (dir, bits) = f[1].split_once('.').expect("op like lds.64");
            let kind = match dir {
                "lds" => AccessKind::Load,
                "sts" => AccessKind::Store,
                "atoms" => AccessKind::Atomic,
                other => panic!("{}: op {other}", f[0]),
            };
            let num = |s: &str| s.parse::<u64>().expect("a number");
            Row {
                name: f[0],
                width: bits.parse::<u32>().expect("bits") / 8,
                kind,
                active: u64::from_str_radix(f[2], 16).expect("hex mask"),
                addrs: f[3].split(',').map(|a| num(a) as u32).collect(),
                measured: [num(f[4]), num(f[5]), num(f[6])],
            }
        })
        .collect()
}

fn model(row: &Row) -> [u64; 3] {
    let shape = AccessShape::new(row.width, row.kind, WaveSize::Wave32).with_active(row.active);
    let cost = BankModel::sm90()
        .cost(&Access::new(shape, &row.addrs))
        .unwrap_or_else(|e| panic!("{}: {e}", row.name));
    let entries = cost.counters(CostUnits::Wavefronts).entries();
    let get = |name: &str| entries.iter().find(|e| e.0 == name).expect(name).1;
    [get("requests"), get("wavefronts"), get("bank_conflicts")]
}

#[test]
fn sm90_matches_every_measured_access() {
    assert!(TABLE.contains("# NVIDIA H200"), "the table names its GPU");
    let rows = rows();
    // Every pattern of tools/nvidia_banks/patterns.txt, each once.
    assert_eq!(rows.len(), 809);
    let names: std::collections::HashSet<&str> = rows.iter().map(|r| r.name).collect();
    assert_eq!(names.len(), rows.len());
    let mismatches: Vec<String> = rows
        .iter()
        .filter_map(|row| {
            let got = model(row);
            (got != row.measured).then(|| {
                format!(
                    "{}: model requests/wavefronts/conflicts {got:?}, measured {:?}",
                    row.name, row.measured
                )
            })
        })
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// The table measured exactly the patterns tools/nvidia_banks/patterns.py writes: its name,
/// operation, mask and addresses columns are tools/nvidia_banks/patterns.txt, line for line
/// (a changed pattern set needs a new measurement).
#[test]
fn the_measured_table_is_the_committed_pattern_set() {
    let patterns = include_str!("../../../tools/nvidia_banks/patterns.txt");
    let measured: Vec<String> = TABLE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').take(4).collect::<Vec<_>>().join(" "))
        .collect();
    let listed: Vec<&str> = patterns.lines().collect();
    assert_eq!(measured.len(), listed.len());
    for (m, p) in measured.iter().zip(&listed) {
        assert_eq!(m, p);
    }
}

/// The table is not trivially satisfied: it holds conflicts and merges of every width, and
/// wavefronts from 1 to 32.
#[test]
fn the_measured_table_covers_conflicts_and_merges() {
    let rows = rows();
    for width in [4, 8, 16] {
        let of_width = || rows.iter().filter(move |r| r.width == width);
        assert!(
            of_width().any(|r| r.measured[2] > 0),
            "conflicts at {width}"
        );
        assert!(
            of_width().any(|r| r.measured[1] == 1),
            "one wavefront at {width}"
        );
    }
    let most = rows.iter().map(|r| r.measured[1]).max();
    assert_eq!(most, Some(32));
    // A merged 64-bit load: fewer wavefronts than its two active half-warps.
    let merged = rows
        .iter()
        .find(|r| r.name == "lds64_bank0_2words")
        .expect("row");
    assert_eq!(merged.measured, [1, 2, 1]);
}
