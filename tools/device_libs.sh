# Sourced by tools/build_apps.sh, tools/build_gfx942.sh and tools/gen_resource_goldens.sh: how
# the project links AMD's device libraries into a gfx1100 (or gfx942) kernel (the flags `gpumemsim run kernel.cl/.hip` uses too,
# crates/gpumemsim/src/loader/source.rs), and which corpus kernels get extra builds.
# ROCM_DEVICE_LIBS overrides the bitcode folder. Debian's ROCm 5.2.3 device libraries have
# no gfx1100 ISA-version file: oclc_isa_version_1036 stands in (it only sets the ISA version
# constant, which none of the corpus kernels reads).
D="${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}"
# examples/apps kernels built for wave64 too (NAME.w64.o), and HIP ones linked alone
# (NAME.hsaco) besides the offload bundle.
W64="gemm_tiled histogram_local reduce_two_pass bitonic_sort_local"
HSACO="histogram256 scan_blocked"
COMMON="ockl ocml oclc_abi_version_500"
CONTROLS="oclc_daz_opt_off oclc_finite_only_off oclc_unsafe_math_off oclc_correctly_rounded_sqrt_on"

# Fails unless every bitcode file is there ($1 names the calling script).
check_device_libs() {
    for lib in opencl hip $COMMON oclc_isa_version_1036 oclc_isa_version_940 \
        oclc_wavefrontsize64_off oclc_wavefrontsize64_on $CONTROLS; do
        [ -f "$D/$lib.bc" ] || { echo "$1: no $D/$lib.bc (set ROCM_DEVICE_LIBS)" >&2; exit 1; }
    done
}

# The -mlink-builtin-bitcode flags for language library $1 (opencl or hip), wave size $2 and
# ISA-version library $3 (default 1036, gfx1100's stand-in; 940 for gfx942).
libs() {
    wave=off
    [ "$2" = 64 ] && wave=on
    for lib in "$1" ockl ocml "oclc_isa_version_${3:-1036}" oclc_abi_version_500 \
        "oclc_wavefrontsize64_$wave" $CONTROLS; do
        printf ' -Xclang -mlink-builtin-bitcode -Xclang %s' "$D/$lib.bc"
    done
}

# Whether word $2 is in the list $1.
contains() {
    case " $1 " in *" $2 "*) return 0 ;; esac
    return 1
}
