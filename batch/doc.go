// Package batch runs sanitrace over a CI job's artifacts: every log of the
// inputs (walked by batch/artifact) decoded as decode does, by a pool of
// workers sharing one modcache.Cache (the binaries the inputs carry, read
// through debuginfo as every module file is, symbolize the logs they came
// with), each report given a signature and the
// reports grouped into buckets; baselines mark new buckets, shards split
// the inputs between machines and Merge joins their documents into exactly
// the unsharded result. docs/json.md specifies the document and the
// signature; docs/guide.md shows the command in CI.
package batch
