// Command benchrun is sanitrace's benchmark harness: it draws the sample
// addresses, runs sanitrace and the symbolizers users run today
// (llvm-symbolizer 19 and 14, llvm-addr2line 19, gimli's addr2line, GNU
// addr2line, eu-addr2line) side by side on the corpus bench/build.sh
// builds, and measures decode, batch and a session over many modules. It
// prints Markdown tables to paste into docs/performance.md. bench/README.md
// says how to run it; `make bench-compare` runs it all.
//
//	benchrun addrs BIN COUNT SEED [-o FILE]   sample addresses
//	benchrun sections BIN...                  section sizes, as a table
//	benchrun symbolize [flags]                W1/W2/W3 against every peer
//	benchrun mklog [flags]                    a report-dense or report-free log
//	benchrun decode [flags]                   decode throughput and RSS by log size
//	benchrun batch [flags]                    batch over 10,000 logs on 1 and 2 cores
//	benchrun modules [flags]                  one session over 2,000 distinct binaries
//	benchrun modules-batch [flags]            a batch run whose logs name 2,000 distinct binaries
//
// Every measured process is a fresh child: wall time from the parent's
// clock, user+sys CPU and peak RSS from that child's rusage.
package main

import (
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"strconv"
)

var commands = map[string]func([]string) error{
	"addrs":     cmdAddrs,
	"sections":  cmdSections,
	"symbolize": cmdSymbolize,
	"mklog":     cmdMklog,
	"decode":    cmdDecode,
	"batch":     cmdBatch,
	"modules":   cmdModules,
	// modules-batch is modules' copies named by batch's logs.
	"modules-batch": cmdModulesBatch,
}

func main() {
	if len(os.Args) < 2 || commands[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: benchrun addrs|sections|symbolize|mklog|decode|batch|modules|modules-batch [flags] (see bench/README.md)")
		os.Exit(2)
	}
	if err := commands[os.Args[1]](os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "benchrun %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func cmdAddrs(args []string) error {
	fs := flag.NewFlagSet("addrs", flag.ExitOnError)
	out := fs.String("o", "", "output file (default stdout)")
	fs.Usage = func() { fmt.Fprintln(os.Stderr, "usage: benchrun addrs [-o FILE] BIN COUNT SEED") }
	fs.Parse(args)
	if fs.NArg() != 3 {
		fs.Usage()
		os.Exit(2)
	}
	count, err := strconv.Atoi(fs.Arg(1))
	if err != nil || count < 0 {
		return fmt.Errorf("COUNT %q: not a count", fs.Arg(1))
	}
	seed, err := strconv.ParseUint(fs.Arg(2), 0, 64)
	if err != nil {
		return fmt.Errorf("SEED %q: %v", fs.Arg(2), err)
	}
	if *out != "" {
		return writeAddressFile(fs.Arg(0), *out, count, seed)
	}
	f, err := elf.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	spans, err := codeSpans(f)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	return sampleAddresses(os.Stdout, spans, count, seed)
}

func cmdSections(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: benchrun sections BINARY [BINARY]")
	}
	return sectionTable(os.Stdout, args)
}
