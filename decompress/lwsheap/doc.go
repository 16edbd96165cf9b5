// Package lwsheap aggregates decoded libwebsockets heap-dump records into a
// heap map: one row per distinct backtrace with its live allocation count
// and bytes, sorted by bytes (FORMAT.md §11, the aggregation that lws's
// contrib/heapmap.sh leaves out), plus the records that failed to decode.
//
// It knows nothing of text or symbols: package decompress supplies the
// records, package pipeline symbolizes the rows, package wire makes the
// JSON document of them (wire.HeapMapOf) and package render writes them.
package lwsheap
