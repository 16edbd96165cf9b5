// Package wire is the JSON documents sanitrace writes and reads back:
// decode's, core's, lws heapmap's and batch's; version 1, as docs/json.md
// and the contract name them.
//
// It holds the documents' Go declarations (key names, key order, which
// keys are null and which are left out: what encoding/json makes of them
// is the schema), the conversions from the model to them (ReportOf from a
// report.Report, CoreOf from a core.Report, HeapMapOf from an
// lwsheap.Map, BatchReportOf for a report of a batch run) and ReadBatch,
// which reads a batch document back for merge and baselines. It writes
// nothing: package render encodes these documents with the other output
// formats, by the same name tables, so that every byte sanitrace prints
// comes from one package.
//
// Readers of sanitrace's output (tests, tools) decode it with the
// declarations that wrote it.
package wire
