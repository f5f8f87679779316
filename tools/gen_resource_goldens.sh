#!/bin/sh
# Writes tests/golden/resources.txt: clang-19's own account of every kernel of the project's two
# corpora, as its -Rpass-analysis=kernel-resource-usage remarks print it (the numbers Radeon GPU
# Analyzer shows). crates/gpumemsim/tests/occupancy.rs loads each committed object and checks
# that gpumemsim::occupancy reads the same VGPRs, SGPRs, scratch and LDS bytes from it and
# computes the same waves per SIMD.
#
# Each kernel source is compiled exactly as the script that built its committed object builds
# it (the object goes to a temporary folder; the committed one is what the test loads):
#   examples/kernels/*.cl, *.ll   tools/build_kernels.sh: -nogpulib -O2 -g, wave32 -> NAME.w32.o,
#                                 wave64 -> NAME.w64.o
#   examples/apps/*.cl            tools/build_apps.sh: device libraries, -O2 -g, wave32 ->
#                                 build/NAME.o, and wave64 -> build/NAME.w64.o for its W64 list
#   examples/apps/*.hip           tools/build_apps.sh: device libraries, -O2 -g -> build/NAME.o
#                                 (offload bundle), and build/NAME.hsaco for its HSACO list
#   examples/apps/*, examples/gfx942/*.hip
#                                 tools/build_gfx942.sh: gfx942, wave64, device libraries with
#                                 oclc_isa_version_940 -> examples/gfx942/build/[apps/]NAME.o
#
# One line per kernel and build, sorted by object, then kernel symbol:
#   OBJECT SYMBOL vgprs=N sgprs=N scratch=N occupancy=N lds=N dynamic_stack=0|1
#       sgpr_spill=N vgpr_spill=N [agprs=N]
# OBJECT is relative to the repository root; SYMBOL is the kernel's symbol (mangled for HIP),
# as the remark's "Function Name" gives it. Only entry functions (kernels) are kept: LLVM prints
# "LDS Size" for those alone (AMDGPUAsmPrinter::emitResourceUsageRemarks).
#
#   sh tools/gen_resource_goldens.sh     (needs clang-19, lld-19, rocm-device-libs and
#                                         libamdhip64-dev, as tools/build_apps.sh does)
# ROCM_DEVICE_LIBS overrides the bitcode folder.
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/tools/device_libs.sh"
OUT="$ROOT/tests/golden/resources.txt"

command -v clang-19 >/dev/null || { echo "gen_resource_goldens.sh: needs clang-19 (Debian package clang-19)" >&2; exit 1; }
check_device_libs gen_resource_goldens.sh

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
LINES="$TMP/lines"
: > "$LINES"


# remarks OBJECT CLANG-ARGS...: runs clang-19 with the remarks on (from the source's folder, as
# the build scripts do) and appends one golden line per kernel it reports for OBJECT.
remarks() {
    object="$1"
    shift
    clang-19 "$@" -Rpass-analysis=kernel-resource-usage -fno-caret-diagnostics \
        -fno-color-diagnostics 2> "$TMP/stderr" || { cat "$TMP/stderr" >&2; exit 1; }
    parse_remarks "$object" < "$TMP/stderr" >> "$LINES"
}

# The remarks, one per line: "FILE:LINE:COL: remark: KEY: VALUE [-Rpass-analysis=...]", or
# "remark: <unknown>:0:0: KEY: VALUE [...]" when there is no source location (LLVM IR input).
# Anything else on stderr (warnings, notes) is passed through to the terminal.
parse_remarks() {
    awk -v object="$1" '
    function flush() {
        if (name != "" && ("LDS Size [bytes/block]" in v)) {
            line = object " " name \
                " vgprs=" v["VGPRs"] " sgprs=" v["SGPRs"] \
                " scratch=" v["ScratchSize [bytes/lane]"] \
                " occupancy=" v["Occupancy [waves/SIMD]"] \
                " lds=" v["LDS Size [bytes/block]"] \
                " dynamic_stack=" (v["Dynamic Stack"] == "True" ? 1 : 0) \
                " sgpr_spill=" v["SGPRs Spill"] " vgpr_spill=" v["VGPRs Spill"]
            if ("AGPRs" in v) line = line " agprs=" v["AGPRs"]
            for (k in need) if (!(k in v)) { print "no \"" k "\" remark for " name > "/dev/stderr"; bad = 1 }
            print line
        }
        name = ""
        split("", v)
    }
    BEGIN {
        tag = " [-Rpass-analysis=kernel-resource-usage]"
        split("VGPRs|SGPRs|ScratchSize [bytes/lane]|Occupancy [waves/SIMD]|Dynamic Stack|SGPRs Spill|VGPRs Spill", n, "|")
        for (i in n) need[n[i]] = 1
    }
    {
        at = index($0, "remark: ")
        if (at == 0 || substr($0, length($0) - length(tag) + 1) != tag) {
            print > "/dev/stderr"
            next
        }
        body = substr($0, at + 8, length($0) - at - 7 - length(tag))
        sub(/^<unknown>:[0-9]+:[0-9]+: /, "", body)
        sub(/^ +/, "", body)
        colon = index(body, ": ")
        if (colon == 0) { print "unreadable remark: " $0 > "/dev/stderr"; bad = 1; next }
        key = substr(body, 1, colon - 1)
        value = substr(body, colon + 2)
        if (key == "Function Name") { flush(); name = value; next }
        if (name == "") { print "remark before any Function Name: " $0 > "/dev/stderr"; bad = 1; next }
        if (value !~ /^([0-9]+|True|False)$/) { print "unreadable value: " $0 > "/dev/stderr"; bad = 1; next }
        v[key] = value
    }
    END { flush(); exit bad }
    '
}

TARGET="-target amdgcn-amd-amdhsa -mcpu=gfx1100"

# The -nogpulib corpus (tools/build_kernels.sh), -O2. (-g does not change code generation; it
# is here only so that the flags are the build's.)
cd "$ROOT/examples/kernels"
for src in *.cl *.ll; do
    base="${src%.*}"
    case "$src" in
        *.cl) lang="-x cl -cl-std=CL2.0" ;;
        *) lang="-x ir" ;;
    esac
    for wave in 32 64; do
        flags="$lang $TARGET -nogpulib -O2 -g -fdebug-prefix-map=$ROOT=."
        [ "$wave" = 64 ] && flags="$flags -mwavefrontsize64"
        # shellcheck disable=SC2086
        remarks "examples/kernels/$base.w$wave.o" $flags -c "$src" -o "$TMP/k.o"
    done
done

# The application corpus (tools/build_apps.sh), with the device libraries.
cd "$ROOT/examples/apps"
for src in *.cl; do
    base="${src%.cl}"
    cl="-x cl -cl-std=CL2.0 -cl-kernel-arg-info $TARGET -nogpulib -O2 -g"
    # shellcheck disable=SC2086
    remarks "examples/apps/build/$base.o" $cl -c "$src" -o "$TMP/a.o" $(libs opencl 32)
    if contains "$W64" "$base"; then
        # shellcheck disable=SC2086
        remarks "examples/apps/build/$base.w64.o" $cl -mwavefrontsize64 -c "$src" -o "$TMP/a.o" \
            $(libs opencl 64)
    fi
done
for src in *.hip; do
    base="${src%.hip}"
    hip="-x hip --cuda-device-only --offload-arch=gfx1100 -nogpulib -O2 -g"
    # shellcheck disable=SC2086
    remarks "examples/apps/build/$base.o" $hip -c "$src" -o "$TMP/a.o" $(libs hip 32)
    if contains "$HSACO" "$base"; then
        # shellcheck disable=SC2086
        remarks "examples/apps/build/$base.hsaco" $hip --no-gpu-bundle-output -c "$src" \
            -o "$TMP/a.hsaco" $(libs hip 32)
    fi
done

# The gfx942 builds (tools/build_gfx942.sh): every application kernel, and examples/gfx942.
G942="-nogpulib -O2 -g"
cd "$ROOT/examples/apps"
for src in *.cl; do
    # shellcheck disable=SC2086
    remarks "examples/gfx942/build/apps/${src%.cl}.o" -x cl -cl-std=CL2.0 -cl-kernel-arg-info \
        -target amdgcn-amd-amdhsa -mcpu=gfx942 $G942 -c "$src" -o "$TMP/a.o" $(libs opencl 64 940)
done
for dir in apps gfx942; do
    cd "$ROOT/examples/$dir"
    out="examples/gfx942/build"
    [ "$dir" = apps ] && out="$out/apps"
    for src in *.hip; do
        # shellcheck disable=SC2086
        remarks "$out/${src%.hip}.o" -x hip --cuda-device-only --offload-arch=gfx942 \
            --no-gpu-bundle-output $G942 -c "$src" -o "$TMP/a.o" $(libs hip 64 940)
    done
done

{
    echo "# clang-19 -Rpass-analysis=kernel-resource-usage for every kernel of examples/kernels (-O2)"
    echo "# and examples/apps, built as tools/build_kernels.sh and tools/build_apps.sh build them,"
    echo "# and of the gfx942 builds of tools/build_gfx942.sh."
    echo "# Written by tools/gen_resource_goldens.sh; read by crates/gpumemsim/tests/occupancy.rs."
    echo "# OBJECT SYMBOL vgprs sgprs scratch (bytes/lane) occupancy (waves/SIMD) lds (bytes/block,"
    echo "# static) dynamic_stack sgpr_spill vgpr_spill [agprs]"
    LC_ALL=C sort -k1,1 -k2,2 "$LINES"
} > "$OUT"
echo "wrote $(grep -vc '^#' "$OUT") lines to ${OUT#"$ROOT"/}"
