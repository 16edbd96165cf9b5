// Package inflate reads zlib streams (RFC 1950, DEFLATE of RFC 1951
// inside) held whole in memory, as an ELF file's compressed debug sections
// are. It does one thing a streaming inflater cannot: knowing the whole
// input and, for a section, the inflated size, it decodes straight into
// the destination, with no window copied through and eight input bytes
// loaded at a time. On the DWARF of the bench's go-large it inflates about
// one and a half times as fast as klauspost/compress/flate, which it replaced
// (docs/performance.md).
//
// Its verdicts are compress/flate's: the same streams inflate to the same
// bytes and the same streams fail, with the same error types; a stream cut
// short yields every byte decodable before the cut.
package inflate
