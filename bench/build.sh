#!/usr/bin/env bash
# Builds sanitrace's benchmark corpus, the gimli-rs addr2line front end and
# the address files into the cache dir (never into the repository):
#
#   corpus/NAME/NAME         sqlite3-gcc-O2 sqlite3-clang-O2 cpp-heavy go-large cppcheck-testrunner cppcheck-asan
#   corpus/NAME/addrs-N-seedS.txt
#   tools/gimli-addr2line
#
# Sources come from Debian packages (compilers, Boost headers, packaged Rust
# crates, the cppcheck source package), the Go module proxy (the SQLite
# amalgamation vendored by github.com/mattn/go-sqlite3, gopls) and bench/src.
# A target whose inputs have not changed is skipped (a stamp beside it).
#
#   SANITRACE_BENCH_DIR  cache dir (default ~/.cache/sanitrace-bench-own)
#   TARGETS              default "sqlite3-gcc-O2 sqlite3-clang-O2 cpp-heavy go-large cppcheck-testrunner cppcheck-asan gimli-addr2line"
#   JOBS                 parallel compiles (default: nproc)
#   INSTALL_DEPS         auto (default: apt-get install what is missing when root), 1, 0
#   FORCE=1              rebuild even when the stamp matches
#   SEED                 address seed (default 1); W1 and W3 sizes: N_BATCH (100000), N_SMALL (1000)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
CACHE=${SANITRACE_BENCH_DIR:-$HOME/.cache/sanitrace-bench-own}
TARGETS=${TARGETS:-"sqlite3-gcc-O2 sqlite3-clang-O2 cpp-heavy go-large cppcheck-testrunner cppcheck-asan gimli-addr2line"}
JOBS=${JOBS:-$(nproc)}
INSTALL_DEPS=${INSTALL_DEPS:-auto}
FORCE=${FORCE:-0}
SEED=${SEED:-1}
N_BATCH=${N_BATCH:-100000}
N_SMALL=${N_SMALL:-1000}
SQLITE_MODULE=github.com/mattn/go-sqlite3@v1.14.22 # vendors the SQLite 3.45.1 amalgamation
GOPLS_MODULE=golang.org/x/tools/gopls@v0.21.0
CPPCHECK_SRC=cppcheck=2.10-2 # Debian 12's source package
SQLITE_DEFS=(-DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_MATH_FUNCTIONS
	-DSQLITE_ENABLE_STAT4 -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_THREADSAFE=1)
CXXFLAGS_HEAVY="-std=c++17 -O2 -g -pthread"
NICE="nice -n 10" # the corpus builds use every core for minutes; others keep working

export PATH="$PATH:/usr/local/go/bin"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false
mkdir -p "$CACHE"/{corpus,src,tools,logs}
log() { printf '[bench/build] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
want() { [[ " $TARGETS " == *" $1 "* ]]; }
stamp() { printf '%s\n' "$@" | sha256sum | cut -c1-16; }
fresh() { [[ $FORCE != 1 && -s $1 && $(cat "$1.stamp" 2>/dev/null) == "$2" ]]; }
hashof() { cat "$@" | sha256sum | cut -c1-16; }

# ------------------------------------------------------------ packages
pkgs=()
need() { command -v "$1" >/dev/null 2>&1 || pkgs+=("$2"); }
need gcc gcc; need g++ g++; need readelf binutils; need addr2line binutils; need eu-addr2line elfutils
need llvm-symbolizer-19 llvm-19; need llvm-addr2line-19 llvm-19; need llvm-symbolizer-14 llvm-14
need taskset util-linux
want sqlite3-clang-O2 && need clang-14 clang-14
want cpp-heavy && { [[ -f /usr/include/boost/version.hpp ]] || pkgs+=(libboost-dev); }
{ want cppcheck-testrunner || want cppcheck-asan; } && need dpkg-source dpkg-dev && need python3 python3
if want gimli-addr2line; then
	need /usr/bin/cargo cargo; need /usr/bin/rustc rustc
	[[ -d /usr/share/cargo/registry/addr2line-0.19.0 ]] || pkgs+=(librust-addr2line-dev
		librust-addr2line+default-dev librust-addr2line+std-object-dev)
fi
if ((${#pkgs[@]})); then
	if [[ $INSTALL_DEPS == 1 || ($INSTALL_DEPS == auto && $(id -u) == 0) ]]; then
		log "apt-get install ${pkgs[*]}"
		export DEBIAN_FRONTEND=noninteractive
		{ apt-get install -y -q "${pkgs[@]}" || { apt-get update -q && apt-get install -y -q "${pkgs[@]}"; }; } \
			>"$CACHE/logs/apt.log" 2>&1 || log "WARNING: apt-get install failed, see $CACHE/logs/apt.log"
	else
		log "WARNING: missing Debian packages: ${pkgs[*]} (INSTALL_DEPS=$INSTALL_DEPS)"
	fi
fi
command -v go >/dev/null || die "Go is needed (the harness, the SQLite source, go-large)"

# ------------------------------------------------------------ the harness
# Built for this script's run only, as run.sh does: two checkouts
# building at once must not run each other's harness from the shared cache.
HARNESS=$(mktemp -d)
trap 'rm -rf "$HARNESS"' EXIT
(cd "$REPO" && go build -o "$HARNESS/benchrun" ./internal/cmd/benchrun) || die "building benchrun failed"

# ------------------------------------------------------------ targets
timed() { # timed NAME CMD...: runs CMD, records its wall and CPU time in corpus/NAME/BUILD
	local name=$1 TIMEFORMAT='%R s wall, %U s user, %S s system' load0 took
	shift
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	# time's line goes to the file, the command's own stderr where it went
	{ time "$@" 2>&3; } 3>&2 2>"$CACHE/corpus/$name/BUILD.time" || return
	took=$(cat "$CACHE/corpus/$name/BUILD.time")
	printf 'built %s on %s cores: %s; load average before %s, after %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(nproc)" \
		"$took" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" >"$CACHE/corpus/$name/BUILD"
	rm -f "$CACHE/corpus/$name/BUILD.time"
}

sqlite_src() {
	local src=$CACHE/src/sqlite dir
	mkdir -p "$src"
	if [[ ! -s $src/sqlite3.c || $(cat "$src/MODULE" 2>/dev/null) != "$SQLITE_MODULE" ]]; then
		log "go mod download $SQLITE_MODULE"
		dir=$(cd "$CACHE/src" && go mod download -json "$SQLITE_MODULE" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
		[[ -s $dir/sqlite3-binding.c ]] || die "no sqlite3-binding.c in the module ($dir)"
		install -m 0644 "$dir/sqlite3-binding.c" "$src/sqlite3.c"
		install -m 0644 "$dir/sqlite3-binding.h" "$src/sqlite3.h"
		echo "$SQLITE_MODULE" >"$src/MODULE"
	fi
	install -m 0644 "$HERE/src/sqlite-driver.c" "$src/driver.c"
}

build_sqlite() { # NAME CC
	local name=$1 cc=$2 out=$CACHE/corpus/$1/$1 st
	command -v "$cc" >/dev/null || { log "SKIP $name: no $cc"; return 0; }
	mkdir -p "$CACHE/corpus/$name"
	st=$(stamp "$("$cc" --version | head -1)" "${SQLITE_DEFS[*]}" "$(hashof "$CACHE/src/sqlite/sqlite3.c" "$CACHE/src/sqlite/driver.c")")
	fresh "$out" "$st" && { log "$name: up to date"; return 0; }
	log "$name: $cc -O2 -g (the 9 MB amalgamation: a few minutes)"
	# relative names: the DWARF's file names point into the cache's copy
	(cd "$CACHE/src/sqlite" && timed "$name" $NICE "$cc" -O2 -g "${SQLITE_DEFS[@]}" -o "$out.tmp" driver.c sqlite3.c -lm -lpthread -ldl) \
		>"$CACHE/logs/$name.log" 2>&1 || die "$name failed, see $CACHE/logs/$name.log"
	"$out.tmp" 200 >/dev/null || die "$name does not run"
	mv "$out.tmp" "$out" && echo "$st" >"$out.stamp"
}

build_cpp_heavy() {
	local name=cpp-heavy out=$CACHE/corpus/cpp-heavy/cpp-heavy src=$CACHE/src/cpp-heavy st
	mkdir -p "$CACHE/corpus/$name" "$src"
	st=$(stamp "$(g++ --version | head -1)" "$CXXFLAGS_HEAVY" "$(grep 'define BOOST_LIB_VERSION' /usr/include/boost/version.hpp)" \
		"$(hashof "$HERE"/src/cpp-heavy/*)")
	fresh "$out" "$st" && { log "$name: up to date"; return 0; }
	log "$name: g++ $CXXFLAGS_HEAVY, $JOBS jobs (several minutes; up to ~1.5 GB per job)"
	# objects are kept between runs: a changed source or header, or other flags, recompile
	local f flags="$CXXFLAGS_HEAVY | $(g++ --version | head -1)"
	[[ $(cat "$src/FLAGS" 2>/dev/null) == "$flags" ]] || { rm -f "$src"/*.o; echo "$flags" >"$src/FLAGS"; }
	for f in "$HERE"/src/cpp-heavy/*; do
		cmp -s "$f" "$src/${f##*/}" || cp "$f" "$src/"
	done
	(cd "$src" && timed "$name" sh -c "for c in *.cpp; do [ \$c.o -nt \$c ] && [ \$c.o -nt parts.h ] || echo \$c; done |
		xargs -r -P '$JOBS' -I{} sh -c '$NICE g++ $CXXFLAGS_HEAVY -c {} -o {}.o.tmp && mv {}.o.tmp {}.o' &&
		$NICE g++ $CXXFLAGS_HEAVY -o '$out.tmp' *.cpp.o") >"$CACHE/logs/$name.log" 2>&1 ||
		die "$name failed, see $CACHE/logs/$name.log"
	"$out.tmp" 20 >/dev/null || die "$name does not run"
	mv "$out.tmp" "$out" && echo "$st" >"$out.stamp"
}

build_go_large() {
	local name=go-large out=$CACHE/corpus/go-large/go-large st gobin=$CACHE/src/go-large-bin
	mkdir -p "$CACHE/corpus/$name"
	st=$(stamp "$(go version)" "$GOPLS_MODULE")
	fresh "$out" "$st" && { log "$name: up to date"; return 0; }
	log "$name: go install $GOPLS_MODULE (default flags: DWARF kept, compressed sections)"
	rm -rf "$gobin"
	(cd "$CACHE/src" && GOBIN=$gobin timed "$name" $NICE go install "$GOPLS_MODULE") >"$CACHE/logs/$name.log" 2>&1 ||
		die "$name failed, see $CACHE/logs/$name.log"
	mv "$gobin/gopls" "$out"
	echo "$GOPLS_MODULE ($(go version))" >"$CACHE/corpus/$name/SOURCE"
	echo "$st" >"$out.stamp"
}

# cppcheck-testrunner: cppcheck's test runner (the whole library, its
# command-line code and 66 test files in one program, as a CI test binary
# is), built by its plain Makefile with -O2 -g. cppcheck-asan: the same
# runner as cppcheck's own address-sanitizer CI job builds it
# (.github/workflows/asan.yml: RelWithDebInfo, so -O2 -g -DNDEBUG, with
# -fsanitize=address and the match compiler in its verifying mode), the
# kind of binary whose crash reports sanitrace symbolizes, and the big one:
# over 5x cpp-heavy's DWARF. Both come from Debian 12's cppcheck source
# package, fetched with apt-get source through a private deb-src list (the
# machine's apt configuration is left alone) and unpacked once per build,
# since make writes its objects in the tree.
cppcheck_src() { # DIR
	local apt=$CACHE/apt dir=$1
	[[ -f $dir/Makefile ]] && return 0
	mkdir -p "$apt"/{lists/partial,archives/partial}
	local aptopts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt" -o Dir::Cache::archives="$apt/archives")
	if [[ ! -f $CACHE/src/cppcheck_2.10-2.dsc ]]; then
		log "apt-get source $CPPCHECK_SRC"
		echo "deb-src http://deb.debian.org/debian bookworm main" >"$apt/sources.list"
		{ apt-get "${aptopts[@]}" update && (cd "$CACHE/src" && apt-get "${aptopts[@]}" source --download-only "$CPPCHECK_SRC"); } \
			>"$CACHE/logs/cppcheck-source.log" 2>&1 || die "fetching $CPPCHECK_SRC failed, see $CACHE/logs/cppcheck-source.log"
	fi
	(cd "$CACHE/src" && dpkg-source -x cppcheck_2.10-2.dsc "$dir") >>"$CACHE/logs/cppcheck-source.log" 2>&1 ||
		die "unpacking $CPPCHECK_SRC into $dir failed, see $CACHE/logs/cppcheck-source.log"
}

build_cppcheck() { # NAME DIR MAKE-ARGS...
	local name=$1 dir=$2 out=$CACHE/corpus/$1/$1 st
	shift 2
	mkdir -p "$CACHE/corpus/$name"
	st=$(stamp "$(g++ --version | head -1)" "$CPPCHECK_SRC" "$*")
	fresh "$out" "$st" && { log "$name: up to date"; return 0; }
	cppcheck_src "$dir"
	# make knows nothing of flags: objects built with others are removed
	local flags="$* | $(g++ --version | head -1)"
	if [[ $(cat "$dir/BENCH-FLAGS" 2>/dev/null) != "$flags" ]]; then
		find "$dir" -name '*.o' -delete
		rm -f "$dir/testrunner"
		echo "$flags" >"$dir/BENCH-FLAGS"
	fi
	# make writes each object in place: a compile killed with the session
	# (SIGKILL, no clean-up by make) leaves an empty or cut-off object newer
	# than its source, which make would take as built and the link reject
	local o
	while IFS= read -r o; do
		if [[ -n $(readelf -S "$o" 2>&1 >/dev/null) ]] || ! readelf -S "$o" >/dev/null 2>&1; then
			log "$name: removing the broken object ${o#"$dir"/}"
			rm -f "$o"
		fi
	done < <(find "$dir" -name '*.o')
	if (cd "$dir" && make -q testrunner "$@" >/dev/null 2>&1); then
		# Only the stamp changed: BUILD keeps the time of the real build.
		log "$name: the runner in $dir is up to date with these flags"
	else
		log "$name: make -j$JOBS testrunner $* (the longest builds: 140 files)"
		(cd "$dir" && timed "$name" $NICE make -j"$JOBS" testrunner "$@") \
			>"$CACHE/logs/$name.log" 2>&1 || die "$name failed, see $CACHE/logs/$name.log"
	fi
	(cd "$dir" && ASAN_OPTIONS=detect_leaks=0 ./testrunner TestUtils >/dev/null) || die "$name does not run"
	cp "$dir/testrunner" "$out" && echo "$st" >"$out.stamp"
	echo "Debian source package $CPPCHECK_SRC, make testrunner $*" >"$CACHE/corpus/$name/SOURCE"
}

build_gimli() {
	local out=$CACHE/tools/gimli-addr2line src=$CACHE/src/gimli-addr2line st
	[[ -x /usr/bin/cargo && -d /usr/share/cargo/registry/addr2line-0.19.0 ]] ||
		{ log "SKIP gimli-addr2line: needs Debian's cargo and librust-addr2line-dev"; return 0; }
	st=$(stamp "$(/usr/bin/rustc --version)" "$(hashof "$HERE"/gimli-addr2line/Cargo.toml "$HERE"/gimli-addr2line/src/main.rs)")
	fresh "$out" "$st" && { log "gimli-addr2line: up to date"; return 0; }
	log "gimli-addr2line: cargo build --offline against Debian's crates"
	# target/ is kept: a changed front end recompiles only itself
	mkdir -p "$src/.cargo" && rm -rf "$src/src" && cp -r "$HERE"/gimli-addr2line/{Cargo.toml,src} "$src/"
	cat >"$src/.cargo/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian-packaged"
[source.debian-packaged]
directory = "/usr/share/cargo/registry"
[net]
offline = true
TOML
	# Debian's own rustc and cargo, whatever rustup puts first in PATH
	(cd "$src" && CARGO_HOME=$CACHE/src/cargo-home RUSTC=/usr/bin/rustc $NICE /usr/bin/cargo build --release --offline) \
		>"$CACHE/logs/gimli-addr2line.log" 2>&1 || die "gimli-addr2line failed, see $CACHE/logs/gimli-addr2line.log"
	install -m 0755 "$src/target/release/gimli-addr2line" "$out"
	sed -n '/^name = "addr2line"/{n;s/version = "\(.*\)"/\1/p}' "$src/Cargo.lock" >"$CACHE/tools/gimli-addr2line.version"
	echo "$st" >"$out.stamp"
}

T0=$(date +%s)
if want sqlite3-gcc-O2 || want sqlite3-clang-O2; then
	sqlite_src
	pids=() # two single-threaded compiles side by side
	want sqlite3-gcc-O2 && { build_sqlite sqlite3-gcc-O2 gcc & pids+=($!); }
	want sqlite3-clang-O2 && { build_sqlite sqlite3-clang-O2 clang-14 & pids+=($!); }
	for p in "${pids[@]}"; do wait "$p" || die "a SQLite build failed"; done
fi
want go-large && build_go_large
want gimli-addr2line && build_gimli
want cpp-heavy && build_cpp_heavy
want cppcheck-testrunner && build_cppcheck cppcheck-testrunner "$CACHE/src/cppcheck-2.10" \
	MATCHCOMPILER=no HAVE_RULES=no "CXXFLAGS=-O2 -g"
want cppcheck-asan && build_cppcheck cppcheck-asan "$CACHE/src/cppcheck-2.10-asan" \
	MATCHCOMPILER=yes VERIFY=1 HAVE_RULES=no "CXXFLAGS=-O2 -g -DNDEBUG -fsanitize=address"

built=()
for name in $TARGETS; do
	bin=$CACHE/corpus/$name/$name
	[[ -f $bin ]] || continue
	for n in "$N_BATCH" "$N_SMALL"; do
		f=$CACHE/corpus/$name/addrs-$n-seed$SEED.txt
		[[ -s $f && $f -nt $bin ]] || "$HARNESS/benchrun" addrs -o "$f" "$bin" "$n" "$SEED"
	done
	built+=("$bin")
done
log "done in $(($(date +%s) - T0)) s; corpus in $CACHE/corpus"
((${#built[@]})) && "$HARNESS/benchrun" sections "${built[@]}"
for b in "${built[@]}"; do [[ -f ${b%/*}/BUILD ]] && echo "$(basename "$b"): $(cat "${b%/*}/BUILD")"; done
exit 0
