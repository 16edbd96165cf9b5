// Package campaign is the reliability campaign of docs/reliability.md:
// it makes mutants of every kind of input sanitrace reads (internal/mutate
// makes the bytes), runs them through the commands that read them and
// through the reference tools, each run bounded in time and memory, and
// counts what goes wrong: panics, hangs, memory over the bound, invalid
// JSON, reports lost, raw control bytes on a terminal, files written from
// an archive. Each kind keeps its state and findings in a directory of
// its own, so that a campaign goes on where it stopped.
package campaign
