package resolve

import (
	"debug/elf"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sanitrace/sanitrace/symbolize"
)

// elfInfo is what locating a module needs to know about a candidate file,
// read from its headers and notes only.
type elfInfo struct {
	buildID string // lower-case hex; "" when the file has none
	exec    bool   // ET_EXEC: addresses are absolute, the module offset is the pc
}

// errNotELF marks a file that is not an ELF object at all.
var errNotELF = errors.New("not an ELF file")

// readELFInfo reads the GNU build-id and type of the ELF file at path.
func readELFInfo(path string) (elfInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return elfInfo{}, err
	}
	defer f.Close()
	return parseELFInfo(f)
}

// parseELFInfo reads the build-id from the ELF in r. debug/elf can panic on
// adversarial headers, so a panic becomes an error for this file.
func parseELFInfo(r io.ReaderAt) (info elfInfo, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt ELF: %v", p)
		}
	}()
	var magic [4]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil || string(magic[:]) != elf.ELFMAG {
		return elfInfo{}, errNotELF
	}
	f, err := elf.NewFile(r)
	if err != nil {
		return elfInfo{}, err
	}
	info.exec = f.Type == elf.ET_EXEC
	info.buildID = hex.EncodeToString(symbolize.BuildIDOf(f))
	return info, nil
}

var errNoOpener = errors.New("no symbolizer configured")
