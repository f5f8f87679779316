//! The loader against clang-19's own account of the same kernels: every `.amdhsa_*`
//! directive clang prints (examples/kernels/*.kd.txt, written by tools/build_kernels.sh)
//! must match the descriptor decoded from the committed object.

use std::collections::HashMap;

use gpumemsim::loader::{CodeObject, DispatchValues, KernelDescriptor, EF_AMDGPU_MACH_GFX1100};

fn corpus() -> Vec<(String, Vec<u8>, String)> {
    let dir = format!("{}/../../examples/kernels", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).expect("examples/kernels") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "o") {
            let kd = p.with_extension("kd.txt");
            out.push((
                p.display().to_string(),
                std::fs::read(&p).expect("object"),
                std::fs::read_to_string(&kd).expect("kd.txt"),
            ));
        }
    }
    out.sort();
    out
}

fn directive_value(d: &KernelDescriptor, name: &str) -> Option<u64> {
    let b = |x: bool| Some(x as u64);
    let [r32, r64, d32, d64] = d.float_modes();
    match name {
        "group_segment_fixed_size" => Some(d.group_segment_fixed_size as u64),
        "private_segment_fixed_size" => Some(d.private_segment_fixed_size as u64),
        "kernarg_size" => Some(d.kernarg_size as u64),
        "user_sgpr_count" => Some(d.user_sgpr_count() as u64),
        "user_sgpr_dispatch_ptr" => b(d.dispatch_ptr()),
        "user_sgpr_queue_ptr" => b(d.queue_ptr()),
        "user_sgpr_kernarg_segment_ptr" => b(d.kernarg_segment_ptr()),
        "user_sgpr_dispatch_id" => b(d.dispatch_id()),
        "user_sgpr_private_segment_size" => b(d.private_segment_size()),
        "wavefront_size32" => b(d.wave32()),
        "uses_dynamic_stack" => b(d.uses_dynamic_stack()),
        "enable_private_segment" => b(d.enable_private_segment()),
        "system_sgpr_workgroup_id_x" => b(d.workgroup_id()[0]),
        "system_sgpr_workgroup_id_y" => b(d.workgroup_id()[1]),
        "system_sgpr_workgroup_id_z" => b(d.workgroup_id()[2]),
        "system_sgpr_workgroup_info" => b(d.workgroup_info()),
        "system_vgpr_workitem_id" => Some(d.workitem_id() as u64),
        "float_round_mode_32" => Some(r32 as u64),
        "float_round_mode_16_64" => Some(r64 as u64),
        "float_denorm_mode_32" => Some(d32 as u64),
        "float_denorm_mode_16_64" => Some(d64 as u64),
        "dx10_clamp" => b(d.dx10_clamp()),
        "ieee_mode" => b(d.ieee_mode()),
        "workgroup_processor_mode" => b(d.wgp_mode()),
        _ => None,
    }
}

#[test]
fn descriptors_match_what_clang_says() {
    let corpus = corpus();
    assert!(corpus.len() >= 6, "{} objects", corpus.len());
    for (path, bytes, kd_text) in corpus {
        let obj = CodeObject::parse(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(obj.mach, EF_AMDGPU_MACH_GFX1100, "{path}");
        let mut name = None;
        let mut directives = HashMap::new();
        for line in kd_text.lines() {
            let mut it = line.split_whitespace();
            let (Some(d), Some(v)) = (it.next(), it.next()) else {
                continue;
            };
            let d = d.trim_start_matches(".amdhsa_");
            if d == "kernel" {
                name = Some(v.to_string());
            } else if let Ok(v) = v.parse::<u64>() {
                directives.insert(d.to_string(), v);
            }
        }
        let name = name.expect("kernel name");
        let k = obj.kernel(&name).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(
            !k.code.is_empty() && k.code.len().is_multiple_of(4),
            "{path}: code"
        );
        let mut checked = 0;
        for (d, want) in &directives {
            if let Some(got) = directive_value(&k.descriptor, d) {
                assert_eq!(got, *want, "{path}: .amdhsa_{d}");
                checked += 1;
            }
        }
        assert!(checked >= 20, "{path}: only {checked} directives checked");
        // The wave size of the build matches the file name.
        assert_eq!(k.descriptor.wave32(), path.contains(".w32."), "{path}");
    }
}

fn load(name: &str) -> KernelDescriptor {
    let path = format!(
        "{}/../../examples/kernels/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let obj = CodeObject::parse(&std::fs::read(&path).expect("object")).expect("parses");
    obj.kernels[0].descriptor
}

#[test]
fn initial_sgprs_follow_the_abi_order() {
    let d = load("lds_sum.w32.o");
    let v = DispatchValues {
        kernarg_ptr: 0x1234_5678_9abc,
        workgroup_id: [7, 8, 9],
        ..DispatchValues::default()
    };
    // kernarg segment pointer in s[0:1]; workgroup id x in s[user_sgpr_count].
    let sgprs = d.initial_sgprs(&v);
    let n = d.user_sgpr_count();
    assert_eq!(sgprs, vec![(0, 0x5678_9abc), (1, 0x1234), (n, 7)]);
    assert_eq!(d.group_segment_fixed_size, 256);
    // DX10 clamp and IEEE on, denormals allowed (FP_DENORM 0xf).
    assert_eq!(d.initial_mode(), 0xf0 | 1 << 8 | 1 << 9);
}

#[test]
fn work_item_ids_are_packed_in_v0() {
    let d = load("grid3d.w64.o");
    assert_eq!(d.workitem_id(), 2);
    assert_eq!(d.initial_v0([3, 2, 1]), 3 | 2 << 10 | 1 << 20);
    assert_eq!(d.workgroup_id(), [true, true, true]);
    let x_only = load("lds_sum.w64.o");
    assert_eq!(x_only.initial_v0([3, 2, 1]), 3, "only x is enabled");
    let p = load("private_array.w32.o");
    assert!(p.enable_private_segment());
    assert_eq!(p.private_segment_fixed_size, 164);
}

#[test]
fn malformed_files_are_errors_not_panics() {
    let good = std::fs::read(format!(
        "{}/../../examples/kernels/lds_sum.w32.o",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("object");
    assert!(CodeObject::parse(b"not an elf").is_err());
    for cut in [0, 4, 20, 63, 64, 200, good.len() / 2, good.len() - 1] {
        let _ = CodeObject::parse(&good[..cut]);
    }
    let mut bad_machine = good.clone();
    bad_machine[18] = 62; // x86-64
    let e = CodeObject::parse(&bad_machine).expect_err("not AMDGPU");
    assert!(e.to_string().contains("EM_AMDGPU"), "{e}");
    // Another chip's object (e_flags at byte 48; its low byte is EF_AMDGPU_MACH) is refused
    // by name, before any of its words is decoded as gfx1100's.
    for (mach, named) in [(0x3f, "for gfx90a;"), (0xfe, "0xfe")] {
        let mut other = good.clone();
        other[48] = mach;
        let e = CodeObject::parse(&other).expect_err("another chip");
        let e = e.to_string();
        assert!(
            e.contains(named) && e.contains("runs code objects for gfx1100, gfx942"),
            "{e}"
        );
    }
    // A gfx942 one loads as gfx942's (its words are gfx1100's here, so they are not run).
    let mut gfx942 = good.clone();
    gfx942[48] = 0x4c;
    let obj = CodeObject::parse(&gfx942).expect("gfx942 loads");
    assert_eq!(obj.kernels[0].target, "gfx942");
    // Random corruption of every byte position never panics.
    let mut x = 0x9e37_79b9u32;
    for i in 0..good.len() {
        let mut b = good.clone();
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b[i] ^= (x as u8) | 1;
        let _ = CodeObject::parse(&b);
    }
    let obj = CodeObject::parse(&good).expect("parses");
    let e = obj.kernel("nope").expect_err("no such kernel");
    assert!(e.to_string().contains("lds_sum"), "{e}");
}

#[test]
fn every_instruction_of_the_corpus_decodes() {
    use gpumemsim::isa::Instruction;
    for (path, bytes, _) in corpus() {
        let obj = CodeObject::parse(&bytes).expect("parses");
        for k in &obj.kernels {
            let mut at = 0;
            let mut n = 0;
            while at < k.code.len() {
                match Instruction::decode(&k.code[at..]) {
                    Ok((_, size)) => at += size,
                    Err(e) => panic!(
                        "{path}: {} byte {at:#x}: {e:?} ({:02x?})",
                        k.name,
                        &k.code[at..(at + 8).min(k.code.len())]
                    ),
                }
                n += 1;
            }
            assert!(n > 5, "{path}: {n} instructions");
        }
    }
}

/// Every relocation kind the loader applies to a relocatable object, by its formula
/// (AMDGPUUsage, "Relocation Records"; docs/rules/addressing.md#code-object-image), on
/// tests/golden/relocations.o (llvm-mc-19, tools/gen_relocation_objects.sh): PC-relative
/// reads of `var` (`s_getpc_b64` + `rel32@lo/hi`) reach it; two GOT-relative reads share one
/// slot holding its address; absolute halves, 64-bit and 32-bit data hold its address; the
/// relative data hold its distance.
#[test]
fn relocations_put_every_reference_where_its_formula_says() {
    use gpumemsim::loader::Elf;
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/relocations.o"
    ))
    .expect("the object");
    let base = 0x7c00_0000_0000u64;
    let image = Elf::parse(&bytes).expect("elf").image(base).expect("image");
    let u32_at =
        |o: u64| u32::from_le_bytes(image.bytes[o as usize..o as usize + 4].try_into().unwrap());
    let u64_at =
        |o: u64| u64::from_le_bytes(image.bytes[o as usize..o as usize + 8].try_into().unwrap());
    let var = base + image.variable("var").expect("var").offset;
    let f = image
        .functions
        .iter()
        .find(|x| x.name == "f")
        .expect("f")
        .offset;
    // s_getpc_b64 at g (its value g + 4), literals at g + 8 (lo) and g + 16 (hi): the 64-bit
    // sum s_add_u32 + s_addc_u32 make.
    let pc_relative = |g: u64| -> u64 {
        let pc = base + f + g + 4;
        let lo = u64::from(u32_at(f + g + 8));
        let hi = u64::from(u32_at(f + g + 16));
        let low = (pc & 0xffff_ffff) + lo;
        (pc >> 32).wrapping_add(hi).wrapping_add(low >> 32) << 32 | (low & 0xffff_ffff)
    };
    assert_eq!(pc_relative(0), var, "rel32@lo/hi");
    let (slot1, slot2) = (pc_relative(20), pc_relative(40));
    assert_eq!(slot1, slot2, "one GOT slot per symbol");
    assert_eq!(u64_at(slot1 - base), var, "the GOT slot holds the address");
    assert_eq!(u32_at(f + 64), var as u32, "abs32@lo");
    assert_eq!(u32_at(f + 72), (var >> 32) as u32, "abs32@hi");
    let ptrs = image.variable("ptrs").expect("ptrs").offset;
    assert_eq!(u64_at(ptrs), var, "ABS64");
    assert_eq!(u64_at(ptrs + 8), var.wrapping_sub(base + ptrs + 8), "REL64");
    assert_eq!(u32_at(ptrs + 16), var as u32, "ABS32");
    assert_eq!(
        u32_at(ptrs + 20),
        var.wrapping_sub(base + ptrs + 20) as u32,
        "REL32"
    );
}

/// An LDS variable's name and bytes.
type Placed = (String, u32, u32);

/// The LDS variables of a committed build (examples/apps/build, clang-19 -O2 -g): each kernel
/// and its variables' bytes, as `gpumemsim::loader::lds_vars` places them.
fn lds_layout(file: &str) -> Vec<(String, Vec<Placed>)> {
    let path = format!(
        "{}/../../examples/apps/build/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let data = std::fs::read(&path).expect("object");
    let obj = CodeObject::parse(&data).expect("parses");
    obj.kernels
        .iter()
        .map(|k| {
            let vars = k
                .lds_variables
                .iter()
                .map(|v| (v.name.clone(), v.start, v.end))
                .collect();
            (k.display_name(), vars)
        })
        .collect()
}

/// Where the DWARF and LLVM's layout put each kernel's LDS variables: two tiles of one size
/// in the order of their names (the code addresses `Bs` 1024 bytes on), and a HIP kernel's
/// static `__shared__` array. (tools/check_accuracy.py's corpus, clean with the per-variable
/// check on at -O1/-O2/-O3, is the wider test of the layout.)
#[test]
fn lds_variables_are_placed_as_llvm_lays_them_out() {
    let gemm = lds_layout("gemm_tiled.o");
    assert_eq!(
        gemm,
        [(
            "gemm_tiled_16x16".to_string(),
            vec![("As".to_string(), 0, 1024), ("Bs".to_string(), 1024, 2048)]
        )]
    );
    let hist = lds_layout("histogram256.hsaco");
    assert_eq!(hist[0].1, [("bins".to_string(), 0, 1024)]);
}

/// A program-scope variable whose symbol reaches past the image's bytes (a malformed object:
/// a fuzzed one gave `__oclc_ABI_version` a size near 2^63, and reading the variables back
/// after the launch asked for that many bytes) is left out; the launch runs as before.
#[test]
fn a_variable_reaching_past_the_image_is_left_out() {
    use object::{Object, ObjectSection, ObjectSymbol};
    let path = format!(
        "{}/../../examples/kernels/transpose.w32.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut bytes = std::fs::read(&path).expect("the object");
    // The file offset of the variable's st_size: its Elf64_Sym (24 bytes) in .symtab, at
    // byte 16 of it.
    let at = {
        let file = object::File::parse(&*bytes).expect("an ELF file");
        let (start, _) = file
            .section_by_name(".symtab")
            .and_then(|s| s.file_range())
            .expect("a symbol table");
        let sym = file
            .symbols()
            .find(|s| s.name() == Ok("__oclc_ABI_version"))
            .expect("the variable");
        (start + 24 * sym.index().0 as u64 + 16) as usize
    };
    let run = |bytes: &[u8]| {
        let obj = CodeObject::parse(bytes).expect("parses");
        let k = obj.kernel("transpose_naive").expect("the kernel");
        let input: Vec<u8> = (0..1024u32)
            .flat_map(|i| (i as f32).to_le_bytes())
            .collect();
        let done = gpumemsim::launch::launch(&gpumemsim::launch::Launch {
            block: [32, 1, 1],
            args: vec![
                gpumemsim::launch::KernelArg::Buffer(input),
                gpumemsim::launch::KernelArg::Buffer(vec![0; 4096]),
            ],
            ..gpumemsim::launch::Launch::new(k)
        })
        .expect("launches");
        done.run.result.clone().expect("runs");
        let names: Vec<String> = done.symbols.iter().map(|s| s.name.clone()).collect();
        (names, done.buffers[1].clone())
    };
    let (names, out) = run(&bytes);
    assert_eq!(names, ["__oclc_ABI_version"]);
    bytes[at..at + 8].copy_from_slice(&0x7f00_0000_0000_0000u64.to_le_bytes());
    let (bad_names, bad_out) = run(&bytes);
    assert!(bad_names.is_empty(), "{bad_names:?}");
    assert_eq!(bad_out, out);
}
