#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine: installs the packages, builds, then
#   ./build.sh run [SENTENCE]   starts attnscope (the desktop app) with the shipped models
#   ./build.sh test             runs the whole test suite
#   ./build.sh build            only builds
#   ./build.sh sanitize         AddressSanitizer + UBSan build of the suite (build-asan), runs it
#   ./build.sh fuzz [SECONDS]   builds the libFuzzer targets (build-fuzz), runs each (default 60 s)
#   ./build.sh lint             checks the layout (clang-format) and the engine's layers
#   ./build.sh headless         builds attnscope-cli without Qt and without the AVX2/F16C kernel
#                               (build-headless), runs its tests
#   ./build.sh package          builds the Debian packages build/attnscope_<version>_amd64.deb (the
#                               programs) and build/attnscope-models_<version>_all.deb (the models)
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-run}
shift || true

packages=(
  cmake ninja-build g++ pkg-config
  libtorch-dev libopenblas0-openmp   # OpenBLAS: without it libtorch falls back to reference BLAS, ~10x slower
  nlohmann-json3-dev libcli11-dev libicu-dev zlib1g-dev libsentencepiece-dev
  libgloo-dev  # the headers c10d's ProcessGroupGloo includes (training on several processes)
  googletest libgtest-dev
  ccache  # a build again after an edit, and object files the build folders share (configure below)
)
# The desktop app and its tests: not needed for a build without the UI.
if [ "$mode" != headless ]; then
  packages+=(qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
             libgif-dev  # animated GIF exports (giflib, linked in-process: no ffmpeg to find)
             xvfb xauth xdotool imagemagick)  # the GUI tests drive a real window on a virtual display
fi

# The TorchScript examples' test (examples/torchscript/check.sh) runs them with Debian's PyTorch,
# the same version as libtorch.
if [ "$mode" = test ]; then packages+=(python3-torch); fi

# The fuzzers are clang's (libFuzzer); nothing else needs clang.
if [ "$mode" = fuzz ]; then packages+=(clang-14 libclang-rt-14-dev); fi
if [ "$mode" = lint ]; then packages=(clang-format git); fi
# The packages: icons rendered from the SVG, dpkg-shlibdeps for Depends, and their checks
# (tests/package/check-package.sh: the desktop entry, AppStream data, lintian, man pages).
if [ "$mode" = package ]; then
  packages+=(librsvg2-bin dpkg-dev desktop-file-utils appstream lintian man-db bash-completion)
fi

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Configures build folder $1 (further cmake arguments after it) with ccache in front of the
# compiler. The folders sit side by side in the project, so with paths taken relative to it, an
# object file compiled for one folder with the same flags is found again for another; not one
# that uses the precompiled Torch header, which records its folder. That header needs the
# sloppiness: ccache otherwise refuses files that use one.
export CCACHE_BASEDIR="$PWD"
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
configure() {
  local folder=$1
  shift
  cmake -S . -B "$folder" -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "$@" >/dev/null
}

build() {
  configure build -DCMAKE_BUILD_TYPE=Release
  cmake --build build
}

# Every test of build folder $1. The engine's GoogleTest cases (label "engine") run in one
# process: ctest starts one per case, and each start loads libtorch (under ASan ~4 s, so ~15
# minutes of start-ups for ~200 cases; one process takes ~1 minute). ctest runs the rest, two at
# a time (most run one single-threaded child process); those that measure time or run several
# processes with timeouts are marked RUN_SERIAL (tests/CMakeLists.txt) and run alone.
# Further arguments go to ctest.
run_tests() {
  local folder=$1
  shift
  "$folder/tests/engine_tests"
  ctest --test-dir "$folder" --output-on-failure -j2 -LE engine "$@"
}

install_packages
case "$mode" in
  sanitize | fuzz | lint | headless) ;;  # their own build folders, or none
  *) build ;;
esac
case "$mode" in
  build) ;;
  lint)
    scripts/check-format.sh
    scripts/check-layers.sh
    ;;
  headless)
    # Also without the AVX2/F16C kernel: decoding takes the path a CPU without it takes.
    # The engine is compiled again (its precompiled header is this folder's), in unity batches.
    configure build-headless -DCMAKE_BUILD_TYPE=Release -DATTNSCOPE_BUILD_UI=OFF \
              -DATTNSCOPE_PORTABLE_KERNELS=ON
    cmake --build build-headless --target attnscope-cli cli_tests
    # The tests that decode (greedy, beam, its tree, subword and no-attention models: the
    # kernel the options change) and those that check what a CLI without Qt says. Not the
    # others (bad arguments, files, training, attributions): their code is the same in both
    # builds and the test stage ran them (~520 s of tests, ~4 minutes of CI, left out).
    ctest --test-dir build-headless --output-on-failure -j2 \
          -R '^Cli(Version|NoAttention|BeamTree|Subwords|SnapshotsHeadless|ExportBeamTreeHeadless|AttentionFileHeadless)[.]|^Cli[.](TranslateWritesOneLinePerInputLine|ExportWithoutTheUiSaysWhatItNeeds|SentenceArgumentsMayBeEmptyOrHostile)$' \
          -E 'Bad|HostileInput'
    ;;
  test)
    run_tests build
    ;;
  package)
    (cd build && cpack -G DEB)
    ;;
  run)
    if [ -x build/app/attnscope ]; then
      exec build/app/attnscope "$@"
    fi
    exec build/app/attnscope-cli translate --score additive "${@:-A little girl climbing into a wooden playhouse.}"
    ;;
  sanitize)
    # -O1: a sanitized -O3 build of the Torch files takes much longer on two cores. -g1: line
    # tables, all a sanitizer's stack trace needs, compile ~25% faster than full debug info.
    # Without the speed benchmark, which no test runs.
    configure build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
              -DATTNSCOPE_SANITIZE=ON -DATTNSCOPE_BUILD_BENCH=OFF
    cmake --build build-asan
    # ASan's defaults hold for Debian's uninstrumented libtorch and Qt; the one suppression is
    # libdbus's buffer in the tests under a virtual X display (tests/lsan.supp says why).
    # Not strict_string_checks: libxkbcommon-x11 strndup()s unterminated names (gui_screenshot).
    # A smaller quarantine (16 MB, default 256) and 5 frames per allocation stack (default 30):
    # each process start (libtorch's static initialisers allocate a lot) took 2.7 s rather than
    # 2.0 s, and the suite starts ~400 processes. A use after free is still caught while the
    # block is among the last 16 MB freed; a report shows fewer allocation frames.
    export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:quarantine_size_mb=16:malloc_context_size=5"
    export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    export ATTNSCOPE_TEST_TIME_SCALE=5  # the CLI tests' timeouts, the Train tab's latency bound
    # Not the TorchScript examples' check: it compares Python's decoding with the CLI's, which
    # the Release run does; under ASan it took a minute and the CLI's TorchScript path is run by
    # the CliScriptedModel tests anyway. Nor the tests of flags and output paths alone (CLI11's
    # parsing and range checks, each case a CLI start: ~7 s under ASan, ~270 s of tests): the
    # Release run has them; bad files, specs, sentences and network faults stay under ASan.
    run_tests build-asan -E '^(examples_torchscript|Cli[.]BadArgumentsGiveOneLine|CliExportBeamTree[.]FlagsThatMakeNoSenseEndInOneLine|CliBeamTree[.]HostileInputEndsInOneLine|CliSnapshots[.]BadOptionsAndOutputsGiveOneLine|CliTrainingTask[.]BadTaskSettingsGiveOneLine)$'
    ;;
  fuzz)
    seconds=${1:-60}
    cmake -S fuzz -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
    cmake --build build-fuzz
    targets=(tokenizer checkpoint attention_file snapshots)
    # Each fuzzer is one process on one core: as many run at once as there are cores, each
    # for the full time.
    fuzz_one() {
      local target=$1
      # New inputs go to build-fuzz/corpus; fuzz/corpus (the committed seeds) is only read.
      mkdir -p "build-fuzz/corpus/$target" build-fuzz/crashes
      "build-fuzz/${target}_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix=build-fuzz/crashes/ \
        "build-fuzz/corpus/$target" "fuzz/corpus/$target" 2>"build-fuzz/$target.log"
    }
    cores=$(nproc)
    failed=()
    for ((first = 0; first < ${#targets[@]}; first += cores)); do
      running=()
      for target in "${targets[@]:first:cores}"; do
        echo "fuzzing $target for $seconds s"
        fuzz_one "$target" &
        running+=("$!:$target")
      done
      for job in "${running[@]}"; do
        wait "${job%%:*}" || failed+=("${job#*:}")
      done
    done
    for target in "${targets[@]}"; do
      echo "$target:"
      grep -E "^(Done|stat::number_of_executed_units)" "build-fuzz/$target.log" || true
    done
    for target in "${failed[@]}"; do
      echo "fuzz: $target failed" >&2
      tail -n 60 "build-fuzz/$target.log" >&2
    done
    echo "fuzz: $((${#targets[@]} - ${#failed[@]})) passed, ${#failed[@]} failed"
    [ ${#failed[@]} -eq 0 ]
    ;;
  *)
    echo "usage: $0 [run [SENTENCE] | test | build | sanitize | fuzz [SECONDS] | lint | headless | package]" >&2
    exit 2
    ;;
esac
