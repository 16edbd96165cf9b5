package dropin

import (
	"errors"
	"fmt"

	"github.com/sanitrace/sanitrace/cfi"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/symbolize"
)

// fakeModule answers from a table; addresses not in it are unknown.
type fakeModule struct {
	frames map[uint64][]symbolize.Frame
	data   map[uint64]symbolize.DataSymbol
}

func (m *fakeModule) Symbolize(addr uint64, opts symbolize.LookupOptions) ([]symbolize.Frame, error) {
	f, ok := m.frames[addr]
	if !ok {
		return []symbolize.Frame{{}}, nil
	}
	if !opts.Inlines {
		return f[len(f)-1:], nil
	}
	return f, nil
}

func (m *fakeModule) Data(addr uint64) (symbolize.DataSymbol, bool) {
	d, ok := m.data[addr]
	return d, ok
}

func (m *fakeModule) SymbolizeMany(addrs []uint64, opts symbolize.LookupOptions) [][]symbolize.Frame {
	out := make([][]symbolize.Frame, len(addrs))
	for i, a := range addrs {
		out[i], _ = m.Symbolize(a, opts)
	}
	return out
}

func (m *fakeModule) Close() error                            { return nil }
func (m *fakeModule) Frame(uint64) ([]symbolize.Local, error) { return nil, nil }
func (m *fakeModule) FuncStart(uint64) (uint64, bool)         { return 0, false }
func (m *fakeModule) CFI() *cfi.Table                         { return nil }
func (m *fakeModule) CodeAt(uint64, int) []byte               { return nil }
func (m *fakeModule) Damage() error                           { return nil }
func (m *fakeModule) SupplementaryError() error               { return nil }
func (m *fakeModule) SplitDWARFErrors() []error               { return nil }
func (m *fakeModule) SymbolAddresses(string, uint64) []uint64 { return nil }
func (m *fakeModule) ExpectManyLookups()                      {}
func (m *fakeModule) ReleaseResident()                        {}
func (m *fakeModule) Footprint() int64                        { return 0 }

var testModule = &fakeModule{
	frames: map[uint64][]symbolize.Frame{
		0x1190: {
			{Function: "inl", File: "/src/t.c", Line: 3, Column: 48, StartFile: "/src/t.c", StartLine: 3, StartAddress: 0x1190, HasStartAddress: true, Inlined: true},
			{Function: "foo", File: "/src/t.c", Line: 4, Column: 33, Discriminator: 2, StartFile: "/src/t.c", StartLine: 4, StartAddress: 0x1190, HasStartAddress: true},
		},
		0x1060: {{Function: "main", File: "/src/t.c", Line: 5, Column: 70, StartFile: "/src/t.c", StartLine: 5, StartAddress: 0x1050, HasStartAddress: true}},
	},
	data: map[uint64]symbolize.DataSymbol{0x4044: {Name: "g_arr", Start: 0x4040, Size: 40}},
}

var errNotObject = errors.New("not an object")

// fakeOpener opens testdata/t as the test module and fails on anything else as a
// missing file would.
func fakeOpener(path string, _ *debuginfo.Finder) (modcache.Object, error) {
	if path == "testdata/t" {
		return testModule, nil
	}
	return nil, fmt.Errorf("open %s: %w", path, errNotObject)
}
