package dwarf

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sanitrace/sanitrace/internal/dwarfbuf"
)

// A LineRow is one row of a line table as a lookup returns it.
type LineRow struct {
	addr  uint64
	file  uint32
	line  uint32
	col   uint32
	discr uint32
}

// File returns the row's file register, the index of its file in the
// table (FileName); unset reports a row of a DWARF 5 sequence before the
// sequence's first DW_LNS_set_file, whose register still holds its
// initial 1.
func (r LineRow) File() (index uint32, unset bool) {
	return r.file &^ defaultFileBit, r.file&defaultFileBit != 0
}

// Line returns the row's line.
func (r LineRow) Line() uint32 { return r.line }

// Column returns the row's column.
func (r LineRow) Column() uint32 { return r.col }

// Discriminator returns the row's discriminator.
func (r LineRow) Discriminator() uint32 { return r.discr }

// packedRow is how a table stores a row: half a LineRow, since tables of
// big binaries have millions of rows and are kept for the whole session.
// The address is an offset from its sequence's start; the discriminator,
// rare, is in LineTable.discrs. A table whose rows do not all fit (a
// sequence longer than 4 GiB or whose rows go below its first address,
// more than 16,383 files, a column above 65,535) keeps them as lineRows
// instead (LineTable.wide).
type packedRow struct {
	off  uint32
	line uint32
	// fileCol: the file (low half: the file index, packedDefaultFile,
	// packedHasDiscr) and the column (high half), one field so that
	// decode stores it at once.
	fileCol uint32
}

const (
	packedDefaultFile = 1 << 15 // defaultFileBit
	packedHasDiscr    = 1 << 14 // the row's discriminator is in discrs
	packedFileMax     = 1<<14 - 1
)

// rowDiscr is the discriminator of the packed row at index row.
type rowDiscr struct {
	row   int32
	discr uint32
}

// lineSeq is a contiguous run of rows ending with DW_LNE_end_sequence:
// rows[first:first+n] (the end_sequence row excluded), covering [start,end).
type lineSeq struct {
	start, end uint64
	first, n   int32
}

// A LineTable is one unit's decoded line program: its rows, sorted for
// Lookup, and its file names (FileName).
type LineTable struct {
	size    uint64 // bytes of the program in .debug_line, header included
	version int
	files   []string // by DWARF file index, joined (PathFull)
	rel     []string // the same without the compilation directory (PathRelative)
	// dir0 holds the PathFullDir0 names that are not the PathFull ones:
	// DWARF 5 files in a relative directory 0.
	dir0 []dir0Path
	seqs []lineSeq
	// rows, with discrs in row order; or, when a row did not fit a
	// packedRow, wide (and rows and discrs nil).
	rows   []packedRow
	discrs []rowDiscr
	wide   []LineRow
	// buckets indexes each long sequence whose rows are in address
	// order (by sequence number): lookup reads its bucket and scans a
	// few rows, rather than binary searching megabytes of rows with a
	// cache miss a step. The others (short, or rows out of order) are
	// binary searched. Nil when no sequence is indexed.
	buckets map[int32]BucketIndex[uint32]
}

// bucketMinRows: only sequences of this many rows or more are indexed; a
// shorter one is a few cache lines of rows.
const bucketMinRows = 256

// rowsPerBucket: a sequence's row index keeps about eight rows a bucket
// (half a byte a row), scanned.
const rowsPerBucket = 8

// rowBuckets indexes a sequence's rows, in address order, by offset:
// newBucketIndex's loop over the rows' offsets. (One loop reading keys
// through a function built indexes 2.7 times slower, and prune indexes
// millions of DIE offsets.)
func rowBuckets(rows []packedRow) BucketIndex[uint32] {
	x, nb := bucketShape(rows[0].off, rows[len(rows)-1].off, len(rows), rowsPerBucket)
	i := 0
	for b := range nb - 1 {
		start := uint64(x.base) + uint64(b)<<x.shift
		for i < len(rows) && uint64(rows[i].off) < start {
			i++
		}
		x.first[b] = uint32(i)
	}
	return x
}

// searchBucket returns the index of the first of rows, the sequence x
// indexes by offset, whose offset is above rel: len(rows) when none is.
func searchBucket(x *BucketIndex[uint32], rows []packedRow, rel uint32) int {
	lo, hi := x.bucket(rel)
	if hi-lo > 4*scanBelow {
		return lo + sort.Search(hi-lo, func(j int) bool { return rows[lo+j].off > rel })
	}
	// A scan, not a search: the bucket's few cache lines are then read
	// at once rather than one after the other.
	for lo < hi && rows[lo].off <= rel {
		lo++
	}
	return lo
}

// nrows is the number of rows stored.
func (t *LineTable) nrows() int { return len(t.rows) + len(t.wide) }

// row returns stored row i of the sequence that starts at start.
func (t *LineTable) row(i int, start uint64) LineRow {
	if t.wide != nil {
		return t.wide[i]
	}
	p := t.rows[i]
	file := p.fileCol & 0xffff
	r := LineRow{addr: start + uint64(p.off), file: file &^ (packedDefaultFile | packedHasDiscr), line: p.line, col: p.fileCol >> 16}
	if file&packedDefaultFile != 0 {
		r.file |= defaultFileBit
	}
	if file&packedHasDiscr != 0 {
		j := sort.Search(len(t.discrs), func(j int) bool { return t.discrs[j].row >= int32(i) })
		if j < len(t.discrs) && t.discrs[j].row == int32(i) {
			r.discr = t.discrs[j].discr
		}
	}
	return r
}

// pack returns r as a packedRow of the sequence that starts at start, or
// false when it does not fit one.
func pack(r LineRow, start uint64) (packedRow, bool) {
	fc, ok := packFileCol(r.file, r.col)
	if !ok || r.addr < start || r.addr-start > 1<<32-1 {
		return packedRow{}, false
	}
	if r.discr != 0 {
		fc |= packedHasDiscr
	}
	return packedRow{off: uint32(r.addr - start), line: r.line, fileCol: fc}, true
}

// packFileCol returns the fileCol field of a packed row with the file
// register file and the column col (packedDefaultFile set, packedHasDiscr
// not), or false when either is too large for it.
func packFileCol(file, col uint32) (uint32, bool) {
	f := file &^ defaultFileBit
	if f > packedFileMax || col > 1<<16-1 {
		return 0, false
	}
	if file&defaultFileBit != 0 {
		f |= packedDefaultFile
	}
	return f | col<<16, true
}

// appendRow stores r, a row of the sequence whose first row is stored at
// seqFirst and which starts at start (r's own address for the first row).
func (t *LineTable) appendRow(r LineRow, seqFirst int, start uint64) {
	if t.wide == nil {
		if p, ok := pack(r, start); ok {
			if r.discr != 0 {
				t.discrs = append(t.discrs, rowDiscr{row: int32(len(t.rows)), discr: r.discr})
			}
			t.rows = append(t.rows, p)
			return
		}
		t.widen(seqFirst, start)
	}
	t.wide = append(t.wide, r)
}

// widen moves the stored rows to wide: the closed sequences' rows are in
// t.seqs; those from seqFirst on belong to the open one, which starts at
// start.
func (t *LineTable) widen(seqFirst int, start uint64) {
	wide := make([]LineRow, len(t.rows), max(cap(t.rows), len(t.rows)+1))
	for _, s := range t.seqs {
		for i := s.first; i < s.first+s.n; i++ {
			wide[i] = t.row(int(i), s.start)
		}
	}
	for i := seqFirst; i < len(t.rows); i++ {
		wide[i] = t.row(i, start)
	}
	t.wide, t.rows, t.discrs = wide, nil, nil
}

// truncate drops the stored rows from n on.
func (t *LineTable) truncate(n int) {
	if t.wide != nil {
		t.wide = t.wide[:n]
		return
	}
	t.rows = t.rows[:n]
	for len(t.discrs) > 0 && int(t.discrs[len(t.discrs)-1].row) >= n {
		t.discrs = t.discrs[:len(t.discrs)-1]
	}
}

// lineProgramInput is what decoding one line program needs from its unit.
type lineProgramInput struct {
	// line holds the program: bytes of .debug_line from offset lineBase
	// on (the whole section when 0), whose size is lineSize (len(line)
	// when 0). A compressed section is kept in parts (lineParts).
	line, str, lineStr []byte
	lineBase, lineSize uint64
	offset             uint64 // DW_AT_stmt_list
	compDir            string
	bo                 binary.ByteOrder
	// probe, when set, stores no rows: the program is run for the one
	// address probe.pc (see lineProbe).
	probe *lineProbe
	// wide stores every row as a LineRow: FuzzLineProgram's reference
	// for the packed layout.
	wide bool
	// paths, when set, interns the joined file names (the object's).
	paths *pathCache
}

const (
	lnctPath     = 1
	lnctDirIndex = 2
)

// decodeLineProgram decodes the line program at in.offset.
func decodeLineProgram(in lineProgramInput) (*LineTable, error) {
	if in.offset < in.lineBase || in.offset-in.lineBase >= uint64(len(in.line)) {
		size := in.lineSize
		if size == 0 {
			size = uint64(len(in.line))
		}
		return nil, fmt.Errorf("line table offset 0x%x beyond .debug_line (size 0x%x)", in.offset, size)
	}
	b := dwarfbuf.NewReader(".debug_line", in.offset, in.line[in.offset-in.lineBase:], in.bo)
	unitLen := uint64(b.U32())
	dwarf64 := false
	if unitLen == 0xffffffff {
		dwarf64 = true
		unitLen = b.U64()
	}
	if b.Err() != nil {
		return nil, b.Err()
	}
	if unitLen > uint64(b.Left()) {
		return nil, fmt.Errorf("truncated .debug_line at 0x%x: unit length 0x%x exceeds section", in.offset, unitLen)
	}
	b.Limit(int(unitLen))
	version := int(b.U16())
	if version < 2 || version > 5 {
		return nil, fmt.Errorf("unsupported .debug_line version %d at 0x%x", version, in.offset)
	}
	addrSize := 8
	if version >= 5 {
		addrSize = int(b.U8())
		b.U8() // segment selector size
	}
	var headerLen uint64
	if dwarf64 {
		headerLen = b.U64()
	} else {
		headerLen = uint64(b.U32())
	}
	if headerLen > uint64(b.Left()) {
		return nil, fmt.Errorf("corrupt .debug_line at 0x%x: header length 0x%x exceeds unit", in.offset, headerLen)
	}
	progStart := b.Pos() + int(headerLen)
	minInst := uint64(b.U8())
	if version >= 4 {
		b.U8() // maximum_operations_per_instruction: VLIW only
	}
	defaultIsStmt := b.U8() != 0
	_ = defaultIsStmt
	lineBase := int64(int8(b.U8()))
	lineRange := uint64(b.U8())
	opcodeBase := int(b.U8())
	if b.Err() != nil {
		return nil, b.Err()
	}
	if lineRange == 0 {
		return nil, fmt.Errorf("corrupt .debug_line at 0x%x: line_range 0", in.offset)
	}
	opLens := make([]uint8, opcodeBase)
	for i := 1; i < opcodeBase; i++ {
		opLens[i] = b.U8()
	}

	// A row takes 3-6 bytes of program: start near the upper bound of the
	// row count rather than regrowing (run trims the table afterwards).
	t := &LineTable{version: version}
	switch {
	case in.wide:
		t.wide = make([]LineRow, 0, 16)
	case in.probe == nil:
		t.rows = make([]packedRow, 0, unitLen/3+16)
	}
	t.size = 4 + unitLen // the length field, then the unit
	if dwarf64 {
		t.size += 8
	}
	var dirs []string
	var rawFiles []rawFile
	if version >= 5 {
		var err error
		dirs, rawFiles, err = readV5EntryTables(&b, in, dwarf64)
		if err != nil {
			return nil, err
		}
	} else {
		for b.Err() == nil {
			s := b.CString()
			if s == "" {
				break
			}
			dirs = append(dirs, s)
		}
		// v2-4 file indices are 1-based; index 0 is unused.
		rawFiles = append(rawFiles, rawFile{})
		for b.Err() == nil {
			name := b.CString()
			if name == "" {
				break
			}
			dir := b.Uleb()
			b.Uleb() // mtime
			b.Uleb() // length
			rawFiles = append(rawFiles, rawFile{name: name, dir: dir, valid: true})
		}
	}
	if b.Err() != nil {
		return nil, b.Err()
	}
	t.files = make([]string, len(rawFiles))
	t.rel = make([]string, len(rawFiles))
	if in.paths != nil {
		in.paths.joinAll(version, in.compDir, dirs, rawFiles, t.files, t.rel)
	} else {
		for i, f := range rawFiles {
			if f.valid {
				t.files[i], t.rel[i] = joinFileNames(version, in.compDir, dirs, f)
			}
		}
	}
	same := true
	for i := range t.files {
		same = same && t.rel[i] == t.files[i]
	}
	if same {
		t.rel = t.files // as in a Go binary, where every name is absolute
	}
	if version >= 5 && in.compDir != "" && len(dirs) > 0 && !isAbs(dirs[0]) {
		for i, f := range rawFiles {
			if f.valid && f.dir == 0 && !isAbs(f.name) {
				t.dir0 = append(t.dir0, dir0Path{file: uint32(i), path: appendPath(dirs[0], f.name)})
			}
		}
	}
	b.Seek(progStart)
	if err := t.run(&b, version, addrSize, minInst, lineBase, lineRange, opcodeBase, opLens, in, dirs); err != nil {
		return t, err
	}
	return t, nil
}

type rawFile struct {
	name  string
	dir   uint64
	valid bool
}

// readV5EntryTables reads the DWARF 5 directory and file name tables.
func readV5EntryTables(b *dwarfbuf.Reader, in lineProgramInput, dwarf64 bool) ([]string, []rawFile, error) {
	dirs, err := readEntryTable(b, in, dwarf64, "directories", func(e rawFile) string { return e.name })
	if err != nil {
		return nil, nil, err
	}
	files, err := readEntryTable(b, in, dwarf64, "files", func(e rawFile) rawFile { return e })
	if err != nil {
		return nil, nil, err
	}
	return dirs, files, b.Err()
}

// readEntryTable reads one DWARF 5 entry table (an entry format, a count,
// the entries) and returns what keep makes of each entry.
func readEntryTable[T any](b *dwarfbuf.Reader, in lineProgramInput, dwarf64 bool, what string, keep func(rawFile) T) ([]T, error) {
	nFormat := int(b.U8())
	format := make([][2]uint64, 0, nFormat)
	for i := 0; i < nFormat && b.Err() == nil; i++ {
		format = append(format, [2]uint64{b.Uleb(), b.Uleb()})
	}
	n := b.Uleb()
	if n > uint64(b.Left()) {
		return nil, fmt.Errorf("corrupt .debug_line at 0x%x: %d %s", in.offset, n, what)
	}
	out := make([]T, 0, n)
	for i := uint64(0); i < n; i++ {
		rf := rawFile{valid: true}
		for _, ct := range format {
			s, u, err := readForm(b, ct[1], in, dwarf64)
			if err != nil {
				return nil, err
			}
			switch ct[0] {
			case lnctPath:
				rf.name = s
			case lnctDirIndex:
				rf.dir = u
			}
		}
		if b.Err() != nil {
			return nil, b.Err()
		}
		out = append(out, keep(rf))
	}
	return out, nil
}

// readForm reads one attribute value of a v5 entry format; strings come back
// in s, constants in u.
func readForm(b *dwarfbuf.Reader, form uint64, in lineProgramInput, dwarf64 bool) (s string, u uint64, err error) {
	offSize := 4
	if dwarf64 {
		offSize = 8
	}
	switch form {
	case FormString:
		s = b.CString()
	case FormLineStrp, FormStrp:
		off := b.UintN(offSize)
		sec := in.lineStr
		if form == FormStrp {
			sec = in.str
		}
		// A string that cannot be found (its section damaged or
		// absent) costs that name, not the table's rows: the name is
		// "".
		s, _ = dwarfbuf.CStringAt(sec, off)
	case FormUdata:
		u = b.Uleb()
	case FormSdata:
		u = uint64(b.Sleb())
	case FormData1:
		u = uint64(b.U8())
	case FormData2:
		u = uint64(b.U16())
	case FormData4:
		u = uint64(b.U32())
	case FormData8:
		u = b.U64()
	case FormData16:
		b.Bytes(16)
	case FormBlock:
		b.Bytes(int(b.Uleb()))
	case FormBlock1:
		b.Bytes(int(b.U8()))
	case FormBlock2:
		b.Bytes(int(b.U16()))
	case FormBlock4:
		b.Bytes(int(b.U32()))
	default:
		return "", 0, fmt.Errorf("unsupported form 0x%x in .debug_line at 0x%x", form, in.offset)
	}
	return s, u, b.Err()
}

func isAbs(p string) bool { return strings.HasPrefix(p, "/") }

// joinFileName builds a file's path in form PathFull, or PathRelative
// when relative is set.
func joinFileName(version int, compDir string, dirs []string, f rawFile, relative bool) string {
	if isAbs(f.name) {
		return f.name
	}
	includeDir := includeDirOf(version, dirs, f, relative)
	var p string
	if !relative && compDir != "" && !isAbs(includeDir) {
		p = compDir
	}
	p = appendPath(p, includeDir)
	return appendPath(p, f.name)
}

// includeDirOf is the directory joinFileName puts before f's name.
func includeDirOf(version int, dirs []string, f rawFile, relative bool) string {
	if version >= 5 {
		if f.dir < uint64(len(dirs)) && (f.dir != 0 || !relative) {
			return dirs[f.dir]
		}
	} else if f.dir > 0 && f.dir <= uint64(len(dirs)) {
		return dirs[f.dir-1]
	}
	return ""
}

// joinFileNames returns f's path and its --relativenames form, one string
// when they are the same (an absolute name or directory, no compilation
// directory): a Go binary's tables name thousands of files.
func joinFileNames(version int, compDir string, dirs []string, f rawFile) (full, rel string) {
	full = joinFileName(version, compDir, dirs, f, false)
	if dir := includeDirOf(version, dirs, f, false); isAbs(f.name) || dir == includeDirOf(version, dirs, f, true) && (compDir == "" || isAbs(dir)) {
		return full, full
	}
	return full, joinFileName(version, compDir, dirs, f, true)
}

// appendPath joins c to the POSIX path p with one '/' (llvm's
// sys::path::append): "p/c", "p/" + c without its leading '/', or c alone.
func appendPath(p, c string) string {
	if c == "" {
		return p
	}
	if strings.HasSuffix(p, "/") {
		return p + strings.TrimLeft(c, "/")
	}
	if p != "" && !strings.HasPrefix(c, "/") {
		return p + "/" + c
	}
	return p + c
}

// lineRegs is the line-number state machine's registers.
type lineRegs struct {
	addr                   uint64
	file, line, col, discr uint32
}

// lineProgram is what running a line program needs besides its bytes.
type lineProgram struct {
	version    int
	minInst    uint64
	opcodeBase int
	opLens     []uint8
	in         lineProgramInput
	dirs       []string
	// initFile is the file register's initial value. Until the first
	// DW_LNS_set_file of a DWARF 5 sequence, rows carry defaultFileBit
	// (LineRow.File says so: readers differ on the file such rows name).
	initFile uint32
	// A special opcode's address and line advances, computed once: two
	// divisions per row were a good part of decoding a table.
	specialAddr [256]uint64
	specialLine [256]int64
	constAddPC  uint64
}

func newLineProgram(version int, minInst uint64, lineBase int64, lineRange uint64, opcodeBase int, opLens []uint8, in lineProgramInput, dirs []string) *lineProgram {
	lp := &lineProgram{version: version, minInst: minInst, opcodeBase: opcodeBase, opLens: opLens, in: in, dirs: dirs, initFile: 1}
	if version >= 5 {
		lp.initFile |= defaultFileBit
	}
	for op := max(opcodeBase, 0); op < 256; op++ {
		adj := uint64(op - opcodeBase)
		lp.specialAddr[op] = (adj / lineRange) * minInst
		lp.specialLine[op] = lineBase + int64(adj%lineRange)
	}
	lp.constAddPC = (uint64(255-opcodeBase) / lineRange) * minInst
	return lp
}

// run executes the line number program and fills t.rows and t.seqs (or,
// with a probe, t.seqs and one row per sequence: runProbe); decode runs
// the opcodes.
func (t *LineTable) run(b *dwarfbuf.Reader, version, addrSize int, minInst uint64, lineBase int64, lineRange uint64, opcodeBase int, opLens []uint8, in lineProgramInput, dirs []string) error {
	lp := newLineProgram(version, minInst, lineBase, lineRange, opcodeBase, opLens, in, dirs)
	if in.probe != nil {
		t.runProbe(b, lp, in.probe)
	} else {
		t.runRows(b, lp)
	}
	// Sequences by low pc (stable, as the table order breaks ties).
	sort.SliceStable(t.seqs, func(i, j int) bool { return t.seqs[i].start < t.seqs[j].start })
	if in.probe == nil {
		t.indexRows()
	}
	return b.Err()
}

// indexRows fills t.buckets for t's packed rows: an index for each
// sequence long enough to gain from one whose rows are in address order.
// A table of wide rows (t.wide; t.rows is empty then) is searched without.
func (t *LineTable) indexRows() {
	if t.wide != nil {
		return
	}
	for i, s := range t.seqs {
		if s.n < bucketMinRows {
			continue
		}
		rows := t.rows[s.first : s.first+s.n]
		if !inOrder(rows) {
			continue
		}
		if t.buckets == nil {
			t.buckets = map[int32]BucketIndex[uint32]{}
		}
		t.buckets[int32(i)] = rowBuckets(rows)
	}
}

// inOrder reports whether rows' offsets never go back.
func inOrder(rows []packedRow) bool {
	for j := 1; j < len(rows); j++ {
		if rows[j].off < rows[j-1].off {
			return false
		}
	}
	return true
}

// searchRows returns the index, from s.first, of the first row of the
// sequence s (the i-th) whose offset is above rel: len when none is.
func (t *LineTable) searchRows(i int, s lineSeq, rel uint32) int {
	rows := t.rows[s.first : s.first+s.n]
	if s.n >= bucketMinRows && t.buckets != nil {
		if x, ok := t.buckets[int32(i)]; ok {
			return searchBucket(&x, rows, rel)
		}
	}
	return sort.Search(len(rows), func(j int) bool { return rows[j].off > rel })
}

// lineMachine is a line program's run between two calls of decode: the
// position in the program, the registers, and the open sequence.
type lineMachine struct {
	pos int
	r   lineRegs
	// seqStart is the address of the open sequence's first stored row
	// (of the sequence just closed, once decode returns); open: it has
	// one.
	seqStart uint64
	open     bool
}

// lineMode picks decode's row path when decode is compiled: storeRows
// stores every row in the table (runRows), probeRows hands them to a
// probeSeq (runProbe). The two are arrays of different lengths so that
// each has an instantiation of decode of its own (its own shape), in
// which len of the mode is a constant: the other path is compiled out,
// and each loop gets its registers as a hand-written loop of its own
// would. Measured against this (instructions): a flag tested at each
// row, 7% more building a table and 10% more in a first lookup; rows
// stored a batch at a time for the probe to scan, 11% more in a first
// lookup; a row sink called through an interface, 9% more.
type lineMode interface{ storeRows | probeRows }

type (
	storeRows [0]struct{}
	probeRows [1]struct{}
)

// runRows runs the program storing every row: decode returns once per
// sequence, which is closed here.
func (t *LineTable) runRows(b *dwarfbuf.Reader, lp *lineProgram) {
	m := lineMachine{pos: b.Pos(), r: lineRegs{file: lp.initFile, line: 1}}
	seqFirst := t.nrows()
	for {
		end, ok := decode[storeRows](t, b, lp, &m, seqFirst, nil)
		if !ok {
			break
		}
		if n := t.nrows() - seqFirst; n > 0 {
			if m.seqStart < end {
				t.seqs = append(t.seqs, lineSeq{start: m.seqStart, end: end, first: int32(seqFirst), n: int32(n)})
			} else {
				// An empty or inverted sequence is unusable; drop its
				// rows.
				t.truncate(seqFirst)
			}
		}
		seqFirst = t.nrows()
	}
	// Rows after the last end_sequence belong to no sequence. The table
	// lives as long as the object: keep it at its exact size.
	t.truncate(seqFirst)
	if cap(t.rows)-len(t.rows) > len(t.rows)/8 {
		t.rows = append([]packedRow(nil), t.rows...)
	}
	if cap(t.wide)-len(t.wide) > len(t.wide)/8 {
		t.wide = append([]LineRow(nil), t.wide...)
	}
}

// runProbe runs the program for p.pc: each sequence keeps its extent and
// one row (lineProbe), which decode hands to a probeSeq instead of
// storing them.
func (t *LineTable) runProbe(b *dwarfbuf.Reader, lp *lineProgram, p *lineProbe) {
	ps := probeSeq{pc: p.pc}
	m := lineMachine{pos: b.Pos(), r: lineRegs{file: lp.initFile, line: 1}}
	for {
		end, ok := decode[probeRows](t, b, lp, &m, t.nrows(), &ps)
		if !ok {
			return
		}
		p.endSeq(t, &ps, end)
		ps = probeSeq{pc: p.pc}
	}
}

// decode runs the program from m on, storing its rows in t (those of the
// open sequence from seqFirst on; storeRows) or handing them to ps
// (probeRows), up to a DW_LNE_end_sequence (ok: end is the sequence's
// end address, m's registers are reset and m.seqStart is the closed
// sequence's), or to the end of the program. It is the one place that
// runs opcodes, for runRows and runProbe alike (lineMode).
//
// The loop reads the program's bytes with a local position and keeps the
// registers in locals: it runs once per opcode of tables with millions
// of rows. An opcode whose operands are more than one byte long, or a
// rare one, goes through slowOp, which reads them through b (Seek, then
// the position back from it) and so also reports any error; an error
// leaves b at the end of its data, which ends the loop.
func decode[M lineMode](t *LineTable, b *dwarfbuf.Reader, lp *lineProgram, m *lineMachine, seqFirst int, ps *probeSeq) (end uint64, ok bool) {
	var mode M
	r := m.r
	addr, line := r.addr, r.line
	seqStart, open := m.seqStart, m.open
	fc := t.packedRegs(&r, seqStart, open)
	data, pos := b.Data(), m.pos
	// The common row is stored below cap(t.rows) without growing it: no
	// call on its path, so that the loop's registers stay in registers.
	lim := cap(t.rows)
	for pos < len(data) {
		op := int(data[pos])
		pos++
		if op >= lp.opcodeBase {
			addr += lp.specialAddr[op]
			line = uint32(int64(line) + lp.specialLine[op])
		} else if op != 1 { // DW_LNS_copy: a row, below
			// The common standard opcodes: no operand, or a LEB128
			// operand of one byte.
			switch op {
			case 6, 7, 10, 11: // negate_stmt, basic_block, prologue_end, epilogue_begin
				continue
			case 8: // DW_LNS_const_add_pc
				addr += lp.constAddPC
				continue
			case 2, 3, 5: // advance_pc, advance_line, set_column
				if pos < len(data) && data[pos] < 0x80 {
					c := data[pos]
					pos++
					switch op {
					case 2:
						addr += uint64(c) * lp.minInst
					case 3:
						line = uint32(int64(line) + int64(int8(c<<1)>>1))
					default:
						r.col = uint32(c)
						fc = fc&0xffff | uint32(c)<<16
					}
					continue
				}
			}
			r.addr, r.line = addr, line
			b.Seek(pos)
			seqEnd := t.slowOp(b, op, &r, lp)
			pos = b.Pos()
			if seqEnd {
				m.pos, m.r, m.open = pos, lineRegs{file: lp.initFile, line: 1}, false
				if len(mode) == 0 { // a probe's loop keeps no sequence
					m.seqStart = seqStart
				}
				return r.addr, true
			}
			addr, line = r.addr, r.line
			fc = t.packedRegs(&r, seqStart, open)
			continue
		}
		if len(mode) != 0 { // probeRows
			ps.add(LineRow{addr: addr, file: r.file, line: line, col: r.col, discr: r.discr})
			r.discr = 0
			continue
		}
		// The common row, packed in place (pack's rules, the registers'
		// part in fc: the call cost a tenth of decoding a table);
		// appendRow does the rest, the first row of a sequence included.
		if n, off := len(t.rows), addr-seqStart; n < lim && uint16(fc) != noPackedFile && off <= 1<<32-1 {
			t.rows = t.rows[:n+1]
			t.rows[n] = packedRow{off: uint32(off), line: line, fileCol: fc}
			continue
		}
		if !open {
			seqStart, open = addr, true
		}
		t.appendRow(LineRow{addr: addr, file: r.file, line: line, col: r.col, discr: r.discr}, seqFirst, seqStart)
		r.discr = 0
		fc = t.packedRegs(&r, seqStart, open)
		lim = cap(t.rows)
	}
	r.addr, r.line = addr, line
	m.pos, m.r = pos, r
	if len(mode) == 0 {
		m.seqStart, m.open = seqStart, open
	}
	return 0, false
}

// noPackedFile, in the file half of packedRegs' result, says that rows do
// not take decode's common path. No row that path packs has this file
// field: it packs none with a discriminator, so packedHasDiscr is never
// set there, and the file index and packedDefaultFile come to 0xbfff at
// the most.
const noPackedFile = 0xffff

// packedRegs returns the fileCol field of a packed row with r's
// registers, or, in its file half, noPackedFile when such a row does
// not pack (pack's rules: the table is wide, or a register too large),
// or none of its sequence is stored yet (open false, seqStart not yet
// known), or the sequence starts so high that an address below it could
// pass for an offset: decode then checks neither. The column half is r's
// column even then: decode updates it alone.
func (t *LineTable) packedRegs(r *lineRegs, seqStart uint64, open bool) uint32 {
	fc, ok := packFileCol(r.file, r.col)
	if !ok || t.wide != nil || r.discr != 0 || !open || seqStart > math.MaxUint64-(1<<32-1) {
		return noPackedFile | r.col<<16
	}
	return fc
}

// slowOp runs a standard or extended opcode through b, which is at its
// operands; it reports whether it was DW_LNE_end_sequence, which the
// caller closes (and then resets r).
func (t *LineTable) slowOp(b *dwarfbuf.Reader, op int, r *lineRegs, lp *lineProgram) (endSeq bool) {
	switch op {
	case 0: // extended
		n := b.Uleb()
		if n == 0 || n > uint64(b.Left()) {
			b.Fail("bad extended opcode length")
			return false
		}
		end := b.Pos() + int(n)
		switch b.U8() {
		case 1: // DW_LNE_end_sequence
			endSeq = true
		case 2: // DW_LNE_set_address
			r.addr = b.UintN(int(n - 1))
		case 3: // DW_LNE_define_file
			name := b.CString()
			dir := b.Uleb()
			b.Uleb()
			b.Uleb()
			full, rel := joinFileNames(lp.version, lp.in.compDir, lp.dirs, rawFile{name: name, dir: dir, valid: true})
			t.rel = append(t.rel[:len(t.rel):len(t.rel)], rel) // a copy when it shares files' array
			t.files = append(t.files, full)
		case 4: // DW_LNE_set_discriminator
			r.discr = uint32(b.Uleb())
		}
		if b.Err() == nil {
			b.Seek(end)
		}
		return endSeq && b.Err() == nil
	case 2: // DW_LNS_advance_pc
		r.addr += b.Uleb() * lp.minInst
	case 3: // DW_LNS_advance_line
		r.line = uint32(int64(r.line) + b.Sleb())
	case 4: // DW_LNS_set_file
		r.file = uint32(b.Uleb()) &^ defaultFileBit
	case 5: // DW_LNS_set_column
		r.col = uint32(b.Uleb())
	case 9: // DW_LNS_fixed_advance_pc
		r.addr += uint64(b.U16())
	default:
		for i := 0; i < int(lp.opLens[op]); i++ {
			b.Uleb()
		}
	}
	return false
}

// Lookup returns the row for pc: in the first sequence (by start) whose
// end lies above pc, the last row at or below pc.
func (t *LineTable) Lookup(pc uint64) (LineRow, bool) {
	i := sort.Search(len(t.seqs), func(i int) bool { return t.seqs[i].end > pc })
	if i == len(t.seqs) {
		return LineRow{}, false
	}
	s := t.seqs[i]
	if pc < s.start || pc >= s.end {
		return LineRow{}, false
	}
	var j int
	if t.wide != nil {
		rows := t.wide[s.first : s.first+s.n]
		j = sort.Search(len(rows), func(j int) bool { return rows[j].addr > pc })
	} else if rel := pc - s.start; rel > 1<<32-1 {
		j = int(s.n) // past every row's offset
	} else {
		j = t.searchRows(i, s, uint32(rel))
	}
	if j == 0 {
		return LineRow{}, false
	}
	return t.row(int(s.first)+j-1, s.start), true
}

// defaultFileBit marks a row whose file register still holds its initial
// value in a DWARF 5 sequence.
const defaultFileBit = 1 << 31

// A PathForm says how FileName spells a file's path. None is normalised:
// "/usr/bin/../lib/gcc/x.h" stays as the table records it.
type PathForm uint8

const (
	// PathFull puts the file's directory before its name when the name
	// is relative, and the compilation directory before that when the
	// directory is relative. DWARF 5's directory 0, which names the
	// compilation directory again, is joined like the others: a relative
	// one comes twice ("././a.go").
	PathFull PathForm = iota
	// PathFullDir0 is PathFull but for DWARF 5's directory 0, which stands
	// for the compilation directory and is not put after it ("./a.go").
	PathFullDir0
	// PathRelative leaves out the compilation directory (and DWARF 5's
	// directory 0, which is it).
	PathRelative
	// PathGDB is the file name gdb's backtraces print (a symtab's
	// filename): PathRelative, but a DWARF 5 file in a relative directory
	// 0 keeps that directory. gdb puts each file's directory entry before
	// its name and never the compilation directory
	// (dwarf2_start_subfile); a file whose path is then the unit's own
	// file under an absolute compilation directory keeps the unit's
	// name (buildsym's start_subfile): "mt_abort.c", but
	// "./nptl/pthread_kill.c" for libc's unit in "./nptl" (its full path
	// "./nptl/./nptl/pthread_kill.c").
	PathGDB
)

// dir0Path is a file's PathFullDir0 name where it is not its PathFull one.
type dir0Path struct {
	file uint32
	path string
}

// FileName returns the path of the file with index i in form; false when
// the table has no such file (index 0 before DWARF 5).
func (t *LineTable) FileName(i uint32, form PathForm) (string, bool) {
	if int(i) >= len(t.files) || t.version < 5 && i == 0 {
		return "", false
	}
	switch form {
	case PathRelative:
		return t.rel[i], true
	case PathFullDir0, PathGDB:
		for _, d := range t.dir0 {
			if d.file == i {
				return d.path, true
			}
		}
		if form == PathGDB {
			return t.rel[i], true
		}
	}
	return t.files[i], true
}

// SequenceRanges appends the address range of each of the table's
// sequences to dst.
func (t *LineTable) SequenceRanges(dst [][2]uint64) [][2]uint64 {
	for _, s := range t.seqs {
		dst = append(dst, [2]uint64{s.start, s.end})
	}
	return dst
}

// lineProbe runs a line program for one address without storing its rows,
// for the first lookup in a unit (a W2 query decodes one address, and a
// big unit's table is hundreds of thousands of rows). Each sequence keeps
// its extent and one row: the last at or below pc, which is what
// LineTable.Lookup's binary search finds when the sequence's rows are in
// address order. The table it fills answers Lookup(pc) and file names
// exactly as the full table would, and nothing else; a sequence holding
// pc whose rows are out of order makes it unusable (ok false), as does
// any decoding error: the caller then decodes the full table.
type lineProbe struct {
	pc uint64
	// ok: no sequence holding pc had rows out of address order.
	ok bool
}

// probeSeq is what run keeps of the current sequence for a probe: its
// first address and row count, the last row at or below pc, and whether
// an address went down.
type probeSeq struct {
	pc          uint64 // lineProbe.pc
	start, prev uint64
	n           int32
	last        LineRow
	hasLast     bool
	unsorted    bool
}

// add takes the sequence's next row r.
func (s *probeSeq) add(r LineRow) {
	if s.n == 0 {
		s.start = r.addr
	} else if r.addr < s.prev {
		s.unsorted = true
	}
	s.prev = r.addr
	s.n++
	if r.addr <= s.pc {
		s.last, s.hasLast = r, true
	}
}

// endSeq closes the sequence s at end, as run does for stored rows (an
// empty or inverted sequence is dropped), keeping its one row in t.rows.
func (p *lineProbe) endSeq(t *LineTable, s *probeSeq, end uint64) {
	if s.n > 0 && s.start < end {
		if s.start <= p.pc && p.pc < end && (s.unsorted || !s.hasLast) {
			p.ok = false
		}
		first := t.nrows()
		t.appendRow(s.last, first, s.start)
		t.seqs = append(t.seqs, lineSeq{start: s.start, end: end, first: int32(first), n: 1})
	}
}

// LineTable returns u's decoded line table, decoding it on first use.
func (dw *Data) LineTable(u *Unit) (*LineTable, error) {
	u.linesOnce.Do(func() {
		defer u.linesDone.Store(true)
		if u.stmtList < 0 {
			u.linesErr = fmt.Errorf("unit at 0x%x has no line table", u.h.off)
			return
		}
		sec := dw.secOf(&u.h) // the object's, or its dwz supplementary file's
		u.lines, u.linesErr = decodeLineProgram(dw.lineInput(sec, u))
		if u.linesErr != nil {
			u.linesErr = fmt.Errorf("%s: %w", dw.path, u.linesErr)
		}
		if u.lines != nil {
			// Rows and file names are copied out: the program's bytes
			// need not stay resident.
			sec.releaseLine(uint64(u.stmtList), uint64(u.stmtList)+u.lines.size)
		}
	})
	return u.lines, u.linesErr
}

// lineInput is what decoding u's line program from sec needs.
func (dw *Data) lineInput(sec *debugSections, u *Unit) lineProgramInput {
	line, base, size := sec.lineAt(uint64(u.stmtList))
	return lineProgramInput{
		line: line, lineBase: base, lineSize: size, str: sec.str, lineStr: sec.lineStr,
		offset: uint64(u.stmtList), compDir: u.compDir, bo: dw.byteOrder, paths: &dw.paths,
	}
}
