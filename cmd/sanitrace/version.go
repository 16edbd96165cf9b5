package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// buildVersion is the release name: the one the Makefile stamps (git
// describe), else the module version go install recorded
// (go install .../cmd/sanitrace@v1.2.0), else "dev".
func buildVersion(info *debug.BuildInfo) string {
	if version != "dev" {
		return version
	}
	if info != nil && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return version
}

// versionText is what "sanitrace version" and --version print: the
// release, then what the Go toolchain recorded about the build (module,
// commit, toolchain), so a bug report says exactly which code ran.
func versionText(info *debug.BuildInfo, ok bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "sanitrace %s\n", buildVersion(info))
	if !ok || info == nil {
		fmt.Fprintf(&b, "go:     %s %s/%s (no build information recorded)\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return b.String()
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if info.Main.Path != "" {
		fmt.Fprintf(&b, "module: %s %s\n", info.Main.Path, info.Main.Version)
	}
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&b, "commit: %s", rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " (%s)", t)
		}
		if settings["vcs.modified"] == "true" {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteByte('\n')
	}
	goVersion := info.GoVersion
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	fmt.Fprintf(&b, "go:     %s %s/%s", goVersion, runtime.GOOS, runtime.GOARCH)
	if cgo, ok := settings["CGO_ENABLED"]; ok {
		fmt.Fprintf(&b, ", CGO_ENABLED=%s", cgo)
	}
	b.WriteByte('\n')
	return b.String()
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and toolchain sanitrace was built from",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info, ok := debug.ReadBuildInfo()
			_, err := fmt.Fprint(cmd.OutOrStdout(), versionText(info, ok))
			return err
		},
	}
}

// noArgs rejects positional arguments as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErr(cmd, "takes no arguments, got %q", args[0])
	}
	return nil
}
