package main

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestReleaseInstall runs "make install" as the README says (into a
// temporary DESTDIR) and checks what it installs: one statically linked
// binary (no program interpreter, no shared libraries: it runs on any
// x86-64 Linux), its man pages and the shell completions.
func TestReleaseInstall(t *testing.T) {
	t.Parallel() // long and self-contained
	makePath := reftool.NeedFor(t, "make", "make install not tried")
	if _, err := os.Stat(filepath.Join(repoRoot, "Makefile")); err != nil {
		t.Skip("no Makefile at the module root: ", err)
	}
	tmp := t.TempDir()
	dest := filepath.Join(tmp, "dest")
	cmd := exec.Command(makePath, "-s", "install", "DESTDIR="+dest, "PREFIX=/usr",
		"BIN="+filepath.Join(tmp, "build", "sanitrace"), "MANOUT="+filepath.Join(tmp, "man"))
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	bin := filepath.Join(dest, "usr", "bin", "sanitrace")
	checkStatic(t, bin)

	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "sanitrace ") || !strings.Contains(string(out), "CGO_ENABLED=0") {
		t.Errorf("installed sanitrace version: %v\n%s", err, out)
	}
	checkManPages(t, filepath.Join(dest, "usr", "share", "man", "man1"))
	if _, err := os.Stat(filepath.Join(tmp, "build", "sanitrace-man")); err == nil {
		t.Errorf("make man left its generator binary behind")
	}
	if out, _ := exec.Command(bin, "man", t.TempDir()).CombinedOutput(); !strings.Contains(string(out), "unknown command") {
		t.Errorf("the installed binary has the man page generator (built only with -tags man):\n%s", out)
	}
	for _, f := range []string{"bash-completion/completions/sanitrace", "zsh/site-functions/_sanitrace", "fish/vendor_completions.d/sanitrace.fish"} {
		if b, err := os.ReadFile(filepath.Join(dest, "usr", "share", f)); err != nil || !strings.Contains(string(b), "__complete") {
			t.Errorf("completion %s: %v\n%.200s", f, err, b)
		}
	}
}

// checkStatic fails unless bin is statically linked.
func checkStatic(t *testing.T, bin string) {
	t.Helper()
	problems, err := staticProblems(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// staticProblems lists what makes bin dynamically linked: a PT_INTERP
// segment, DT_NEEDED entries.
func staticProblems(bin string) ([]string, error) {
	f, err := elf.Open(bin)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var problems []string
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			problems = append(problems, bin+" has a program interpreter")
		}
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return nil, err
	}
	if len(libs) > 0 {
		problems = append(problems, fmt.Sprintf("%s needs shared libraries %q", bin, libs))
	}
	return problems, nil
}

// TestStaticProblems: the check sees a dynamically linked program (a
// fixture built by gcc with default flags) for what it is.
func TestStaticProblems(t *testing.T) {
	problems, err := staticProblems(filepath.Join(demoDir, "session"))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 2 {
		t.Errorf("the demo binary, dynamically linked: %q", problems)
	}
}

// checkManPages: "make man" wrote one page per command, each a page man
// can read, generated from the commands' own help, and none for the
// hidden generator itself.
func checkManPages(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"sanitrace", "sanitrace-decode", "sanitrace-symbolize", "sanitrace-addr2line",
		"sanitrace-lws", "sanitrace-lws-decode", "sanitrace-lws-heapmap", "sanitrace-core", "sanitrace-cfi",
		"sanitrace-batch", "sanitrace-merge", "sanitrace-version", "sanitrace-completion"} {
		b, err := os.ReadFile(filepath.Join(dir, name+".1"))
		if err != nil {
			t.Error(err)
			continue
		}
		page := string(b)
		if !strings.HasPrefix(page, ".nh\n.TH \""+strings.ToUpper(name)+"\" \"1\" \"") || !strings.Contains(page, ".SH SYNOPSIS") {
			t.Errorf("%s.1 is not a man page:\n%.300s", name, page)
		}
	}
	decode, _ := os.ReadFile(filepath.Join(dir, "sanitrace-decode.1"))
	for _, want := range []string{"\\fB--color\\fP[=auto]", "\\fB--prefix-map\\fP", "SANITRACE_PREFIX_MAP"} {
		if !strings.Contains(string(decode), want) {
			t.Errorf("sanitrace-decode.1 does not describe %s", want)
		}
	}
	sym, _ := os.ReadFile(filepath.Join(dir, "sanitrace-symbolize.1"))
	if !strings.Contains(string(sym), "--output-style=LLVM|GNU|JSON") {
		t.Errorf("sanitrace-symbolize.1 does not describe the face's options")
	}
	if _, err := os.Stat(filepath.Join(dir, "sanitrace-man.1")); err == nil {
		t.Errorf("a page for the hidden man command")
	}
}
