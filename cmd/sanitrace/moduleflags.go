package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/sanitrace/sanitrace/debuginfo"
)

// moduleFlags say where the modules a log or core names are found: the
// flags that decode and core (and the commands to come) share.
type moduleFlags struct {
	binaryDirs []string
	prefixMaps []string
	sysroot    string
	debugDirs  []string
}

// add registers the flags. named completes "directory searched for the
// modules..." ("a log names"); sysrootDebug says that the sysroot's
// usr/lib/debug is searched for debug files too.
func (m *moduleFlags) add(f *pflag.FlagSet, named string, sysrootDebug bool) {
	modules := "the modules"
	if named != "" {
		modules += " " + named
	}
	sysroot := "prefix for absolute system-library paths"
	if sysrootDebug {
		sysroot += " (and its usr/lib/debug for debug files)"
	}
	f.StringArrayVar(&m.binaryDirs, "binary-dir", nil, "directory searched for "+modules+", by base name then by build-id (repeatable)")
	f.StringArrayVar(&m.prefixMaps, "prefix-map", nil, "rewrite a path prefix of modules and source files, `FROM=TO` (repeatable)")
	f.StringVar(&m.sysroot, "sysroot", "", sysroot)
	f.StringArrayVar(&m.debugDirs, "debug-file-directory", nil, "directory searched for .build-id/xx/rest.debug and debuglink targets (repeatable)")
}

func (m *moduleFlags) parsePrefixMaps() ([]debuginfo.PrefixMap, error) {
	var maps []debuginfo.PrefixMap
	for _, s := range m.prefixMaps {
		pm, err := debuginfo.ParsePrefixMap(s)
		if err != nil {
			return nil, fmt.Errorf("--prefix-map: %w", err)
		}
		maps = append(maps, pm)
	}
	return maps, nil
}

// outputFlags choose the output: --format and --color.
type outputFlags struct {
	format string
	color  string
}

func (o *outputFlags) add(f *pflag.FlagSet) {
	f.StringVar(&o.format, "format", "text", "output format: text or json")
	f.StringVar(&o.color, "color", "auto", "colors: auto (on a terminal, unless NO_COLOR is set), always or never")
}
