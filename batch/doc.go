// Package batch runs sanitrace over a CI job's artifacts: every log of the
// inputs (walked by batch/artifact) decoded as decode does, by a pool of
// workers sharing one modcache.Cache (the binaries the inputs carry, read
// through debuginfo as every module file is, symbolize the logs they came
// with), each report given a signature from the model (Signature: frames
// classified by report.ClassIn) and turned once into its batch form
// (wire.BatchReportOf), and the reports grouped into buckets of the run's
// document (wire.Batch); baselines mark new buckets, shards split the
// inputs between machines and Merge joins their documents, read back with
// wire.ReadBatch, into exactly the unsharded result. docs/json.md specifies
// the document and the signature; docs/guide.md shows the command in CI.
package batch
