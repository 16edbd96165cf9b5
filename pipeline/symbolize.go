package pipeline

import (
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/resolve"
)

// Symbolize is how a run symbolizes the frames its logs left
// unsymbolized: what decode's and batch's symbolization flags say (lws's
// --obj and --base too).
type Symbolize struct {
	// Finder finds the modules and their debug files.
	Finder *debuginfo.Finder
	// Obj is the binary of the pcs that name no module (libwebsockets
	// ~m# records), loaded at Base (hex; "" is 0): --obj and --base.
	Obj, Base string
	// Vmlinux and ModulesDir resolve Linux kernel frames.
	Vmlinux, ModulesDir string
	// Warn receives one line per module that cannot be used, or is used
	// without its damaged parts.
	Warn func(msg string)
	// CacheBytes bounds the modules kept open (--cache-size):
	// modcache.Options.MaxBytes, 0 meaning modcache.DefaultMaxBytes.
	CacheBytes int64
}

// OpenObj opens Obj for the pcs of records, which name no module (nil
// when there is no Obj). Its error is a usage error in the project's
// words (a --base without --obj or not in hex, an --obj that cannot be
// opened); a damaged Obj is used, the damage said on Warn.
func (s *Symbolize) OpenObj() (*resolve.PCSymbolizer, error) {
	if s.Obj == "" {
		if s.Base != "" {
			return nil, errors.New("--base needs --obj")
		}
		return nil, nil
	}
	addr, err := resolve.ParseLoadAddress(s.Base)
	if err != nil {
		return nil, err
	}
	m, err := resolve.OpenPCSymbolizer(s.Obj, addr, s.Finder)
	if m == nil {
		return nil, fmt.Errorf("--obj: %w", FileProblem(s.Obj, err))
	}
	if err != nil && s.Warn != nil {
		s.Warn(err.Error())
	}
	return m, nil
}

// Resolver returns the Resolver of a run: modules found by Finder and
// opened in a module cache of its own (bounded by CacheBytes), bare pcs
// symbolized by obj (OpenObj's, may be nil). Close it when the run is done.
func (s *Symbolize) Resolver(obj *resolve.PCSymbolizer) *resolve.Resolver {
	return resolve.New(resolve.Options{
		Finder:     s.Finder,
		CacheBytes: s.CacheBytes,
		BarePCs:    obj,
		Warn:       s.Warn,
		Vmlinux:    s.Vmlinux,
		ModulesDir: s.ModulesDir,
	})
}

// FileProblem says what is wrong with a file given on the command line in
// the project's words: an *os.PathError already names the file ("open X:
// no such file or directory"), so wrappers that named it again are
// dropped; debug/elf's "bad magic number '[114 111 111 116]'" becomes
// "not an ELF file".
func FileProblem(path string, err error) error {
	var (
		pe *os.PathError
		fe *elf.FormatError
	)
	switch {
	case errors.As(err, &pe):
		return pe
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s: not an ELF file (too short)", path)
	case errors.As(err, &fe):
		if strings.HasPrefix(fe.Error(), "bad magic number") {
			return fmt.Errorf("%s: not an ELF file", path)
		}
		return fmt.Errorf("%s: malformed ELF file: %v", path, fe)
	}
	return err
}
