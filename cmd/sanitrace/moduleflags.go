package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/humanize"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/pipeline"
	"github.com/sanitrace/sanitrace/render"
)

// moduleFlags say where the modules a log or core names are found: the
// flags decode, batch and core share.
type moduleFlags struct {
	binaryDirs []string
	prefixMaps []string
	sysroot    string
	debugDirs  []string
	set        *pflag.FlagSet // to tell a flag given from its default
}

// The environment variables that give --binary-dir and --prefix-map their
// defaults, for CI jobs that set them once for every step. Each holds a
// list separated as PATH is (':' on Unix); a flag given on the command
// line replaces the variable's list.
const (
	envBinaryDir = "SANITRACE_BINARY_DIR"
	envPrefixMap = "SANITRACE_PREFIX_MAP"
)

// add registers the flags. named completes "directory searched for the
// modules..." ("a log names"); sysrootDebug says that the sysroot's
// usr/lib/debug is searched for debug files too.
func (m *moduleFlags) add(f *pflag.FlagSet, named string, sysrootDebug bool) {
	m.set = f
	modules := "the modules"
	if named != "" {
		modules += " " + named
	}
	sysroot := "prefix for absolute system-library paths"
	if sysrootDebug {
		sysroot += " (and its usr/lib/debug for debug files)"
	}
	f.StringArrayVar(&m.binaryDirs, "binary-dir", nil, "directory searched for "+modules+", by base name then by build-id (repeatable; default $"+envBinaryDir+")")
	f.StringArrayVar(&m.prefixMaps, "prefix-map", nil, "rewrite a path prefix of modules and source files, `FROM=TO` (repeatable; default $"+envPrefixMap+")")
	f.StringVar(&m.sysroot, "sysroot", "", sysroot)
	f.StringArrayVar(&m.debugDirs, "debug-file-directory", nil, "directory searched for .build-id/xx/rest.debug and debuglink targets (repeatable)")
	for _, name := range []string{"binary-dir", "sysroot", "debug-file-directory"} {
		_ = cobra.MarkFlagDirname(f, name) // shell completion offers directories
	}
}

// finder returns the run's one debuginfo.Finder over these flags, asking
// debuginfod (DEBUGINFOD_URLS) last; its warnings go to warn. The error is
// a usage error (a malformed --prefix-map).
func (m *moduleFlags) finder(warn *warner) (*debuginfo.Finder, error) {
	maps, err := m.parsePrefixMaps()
	if err != nil {
		return nil, err
	}
	f := &debuginfo.Finder{BinaryDirs: m.binaryDirs, PrefixMaps: maps, Sysroot: m.sysroot, Fetch: debuginfodFetcher(os.Getenv, warn)}
	if len(m.debugDirs) > 0 {
		f.DebugDirs = m.debugDirs // else the sysroot's, or the system's
	}
	return f, nil
}

// parsePrefixMaps parses the prefix maps, taking --binary-dir and
// --prefix-map from the environment first when they were not given.
func (m *moduleFlags) parsePrefixMaps() ([]debuginfo.PrefixMap, error) {
	src := "--prefix-map"
	if m.set != nil {
		if !m.set.Changed("binary-dir") {
			m.binaryDirs = envList(envBinaryDir)
		}
		if !m.set.Changed("prefix-map") {
			if m.prefixMaps = envList(envPrefixMap); len(m.prefixMaps) > 0 {
				src = envPrefixMap
			}
		}
	}
	var maps []debuginfo.PrefixMap
	for _, s := range m.prefixMaps {
		pm, err := debuginfo.ParsePrefixMap(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		maps = append(maps, pm)
	}
	return maps, nil
}

// envList splits the environment variable name as PATH is split, without
// empty entries.
func envList(name string) []string {
	var list []string
	for _, s := range strings.Split(os.Getenv(name), string(filepath.ListSeparator)) {
		if s != "" {
			list = append(list, s)
		}
	}
	return list
}

// symbolFlags say how decode and batch symbolize the frames of their logs:
// where the modules are (moduleFlags), the binary of the pcs that name no
// module (--obj, --base) and the kernel's images (--vmlinux,
// --modules-dir).
type symbolFlags struct {
	moduleFlags
	obj, base           string
	vmlinux, modulesDir string
	cacheSize           string
}

// add registers the flags; named is moduleFlags.add's.
func (s *symbolFlags) add(f *pflag.FlagSet, named string) {
	s.moduleFlags.add(f, named, false)
	f.StringVar(&s.obj, "obj", "", "ELF binary for frames whose log names no module (libwebsockets ~m#/~b# records)")
	f.StringVar(&s.base, "base", "", "load address (hex) of --obj, subtracted from those pcs first (PIE executables, shared libraries)")
	f.StringVar(&s.vmlinux, "vmlinux", "", "kernel image (with symbols and DWARF) that kernel frames (func+0x1c/0x60) resolve against")
	f.StringVar(&s.modulesDir, "modules-dir", "", "directory searched for a kernel module's NAME.ko")
	f.StringVar(&s.cacheSize, "cache-size", humanize.Bytes(modcache.DefaultMaxBytes), "keep modules open up to `SIZE` bytes of their files and unpacked DWARF (like 512M); past it the least recently used are closed, and reopened when needed")
}

// symbolize returns what the flags say, over the run's one Finder (close
// it when the run is done); warnings go to warn. The error is a usage
// error.
func (s *symbolFlags) symbolize(warn *warner) (*pipeline.Symbolize, error) {
	size, err := humanize.ParseBytes(s.cacheSize)
	if err != nil {
		return nil, fmt.Errorf("--cache-size: %w", err)
	}
	finder, err := s.finder(warn)
	if err != nil {
		return nil, err
	}
	return &pipeline.Symbolize{Finder: finder, Obj: s.obj, Base: s.base, Vmlinux: s.vmlinux, ModulesDir: s.modulesDir, Warn: warn.warn,
		CacheBytes: modcache.Bound(uint64(size))}, nil
}

// outputFlags choose the output: --format and --color.
type outputFlags struct {
	format string
	color  string
}

func (o *outputFlags) add(f *pflag.FlagSet) {
	enumFlag(f, &o.format, "format", "text", render.Formats(), false, "output format: "+oneOf(render.Formats()))
	enumFlag(f, &o.color, "color", "auto", colorModes, true,
		"colors, given as --color=WHEN: auto (on a terminal, unless NO_COLOR or TERM=dumb; FORCE_COLOR or CLICOLOR_FORCE force them), always or never")
}
