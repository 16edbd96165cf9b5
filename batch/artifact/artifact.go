// Package artifact walks the inputs of a batch run: log files, directories
// (recursively) and archives (.tar, .tar.gz/.tgz, .tar.zst, .zip, nested
// ones too) read in place, plus single compressed files (.gz, .zst).
//
// Nothing is ever extracted: an archive member is streamed or, when small or
// a binary, held in memory, and a member's name is only a label (it is never
// joined to a path that is opened or written). Every member's inflated size
// and every archive's inflated total are bounded; a member or archive past a
// bound costs one error and the walk goes on with the next input.
//
// Each entry is classified by its first bytes, not by its name: ELF files
// are binaries (offered to the module finder), text is a log, anything
// else (images, core dumps, random data) is skipped.
package artifact

import (
	"fmt"
	"io"
	"strings"
)

// Source names where an entry came from: a file, or a member of an archive.
// Path is the file as reached from the command line (a directory argument
// joined with the path below it); Member is the path inside the archive
// ("" for a plain file). For a member of a nested archive, Member joins the
// members with "!/".
type Source struct {
	Path   string `json:"path"`
	Member string `json:"member,omitempty"`
}

// String is the one-word spelling used in messages and input names:
// "dir/run.log" or "ci.tar.gz!/logs/run.log".
func (s Source) String() string {
	if s.Member == "" {
		return s.Path
	}
	return s.Path + "!/" + s.Member
}

// Kind says what an entry holds.
type Kind int

const (
	Log    Kind = iota // text: decoded as a log
	Binary             // an ELF file: a module logs may name
)

func (k Kind) String() string {
	if k == Binary {
		return "binary"
	}
	return "log"
}

// Entry is one log or binary found in the inputs.
type Entry struct {
	Source Source
	Kind   Kind
	// Size is the entry's size in bytes (inflated), -1 when unknown (a
	// single compressed file is only measured by reading it).
	Size int64
	// File is the file on disk holding the entry, "" for archive members.
	// A binary with File set can be mapped from there; with Data set it is
	// held in memory.
	File string
	// Data holds the entry's bytes when they were read into memory: archive
	// binaries, and archive logs up to Limits.Inline bytes.
	Data []byte

	open     func() (io.ReadCloser, error)
	detached bool
}

// Detached reports whether Open may be called after the walk's callback for
// the entry has returned (from any goroutine). A large archive member is a
// stream that only lasts as long as the callback.
func (e *Entry) Detached() bool { return e.detached }

// Open returns the entry's content. For a log read in place it can fail
// (the file became unreadable); its reader's errors name the input.
func (e *Entry) Open() (io.ReadCloser, error) { return e.open() }

// Limits bound what the walk reads. Zero fields take the defaults.
type Limits struct {
	// Entry is the largest inflated size of one archive member or single
	// compressed file. A log beyond it is read up to the limit (its
	// reports are kept) and flagged; any other member beyond it is skipped.
	Entry int64
	// Archive is the largest inflated total of one archive, nested members
	// included. The walk of an archive that exceeds it stops there.
	Archive int64
	// Inline is the largest archive log held in memory (so that workers can
	// decode it while the walk goes on); bigger ones are streamed.
	Inline int64
	// Depth is how deep archives nest (an archive member that is itself an
	// archive counts one).
	Depth int
}

// Default limits: generous for real CI artifacts (multi-GB logs do occur),
// small enough that a decompression bomb cannot fill memory or a day.
const (
	DefaultEntry   = 4 << 30
	DefaultArchive = 16 << 30
	DefaultInline  = 8 << 20
	DefaultDepth   = 4
)

func (l Limits) withDefaults() Limits {
	if l.Entry <= 0 {
		l.Entry = DefaultEntry
	}
	if l.Archive <= 0 {
		l.Archive = DefaultArchive
	}
	if l.Inline <= 0 {
		l.Inline = DefaultInline
	}
	if l.Depth <= 0 {
		l.Depth = DefaultDepth
	}
	return l
}

// Error is a problem with one input or member; the walk goes on.
type Error struct {
	Source Source
	Err    error
	// Unopened: Source is a path given to Walk that could not be opened
	// at all (missing, not permitted), not a problem found inside it.
	Unopened bool
}

func (e *Error) Error() string { return oneLine(fmt.Sprintf("%s: %s", e.Source, e.Err.Error())) }
func (e *Error) Unwrap() error { return e.Err }

// oneLine keeps an error message to one line, whatever its text: archive
// member names, in the source and in the error, may hold newlines.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(s)
}

// Walker walks inputs. Its callbacks run on the caller's goroutine, one at
// a time, in input order: directories sorted by name, archive members in
// archive order.
type Walker struct {
	Limits Limits
	// Want selects the kinds whose content the walk reads: entries of other
	// kinds are still classified and passed to Visit (with no content), so
	// that counts agree between a walk for binaries and one for logs.
	Want map[Kind]bool
	// Visit receives every log and binary. An error ends the walk.
	Visit func(*Entry) error
	// Error receives every problem with an input; nil drops them.
	Error func(*Error)
	// Stdin is read for the input "-" (one log, streamed).
	Stdin io.Reader
}
