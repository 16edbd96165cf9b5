package campaign

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Table writes the figures of states as the Markdown that
// docs/reliability.md holds: a line saying when, on what and with which
// bounds, sanitrace's table, then the reference tools'.
func Table(w io.Writer, states []*State) {
	var versions []string
	var last time.Time
	var timeout string
	var mem int64
	for _, st := range states {
		for _, v := range st.Versions {
			if !slices.Contains(versions, v) {
				versions = append(versions, v)
			}
		}
		if st.Updated.After(last) {
			last, timeout, mem = st.Updated, st.Timeout, st.MemoryMB
		}
	}
	date := "never run"
	if !last.IsZero() {
		date = last.UTC().Format("2006-01-02")
	}
	fmt.Fprintf(w, "Campaign of %s, sanitrace %s; bounds per run: %s, %d MiB peak RSS.\n\n",
		date, strings.Join(versions, " and "), timeout, mem)
	fmt.Fprintln(w, "| kind | seeds | mutants | runs | panics | recovered panics | hangs | over memory | invalid JSON | lost reports (mutants compared, refused) | raw control bytes | files written | hours |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, st := range states {
		c := st.Counts
		lost := "–"
		if c.Compared > 0 || c.Refused > 0 || c.LostReports > 0 {
			lost = fmt.Sprintf("%d (%d, %d)", c.LostReports, c.Compared, c.Refused)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %d | %d | %.1f |\n", st.Kind, st.Seeds, c.Mutants, c.Runs,
			c.Classes[Panic], c.Classes[Recovered], c.Classes[Hang], c.Classes[Memory], c.Classes[BadJSON], lost,
			c.Classes[Control], c.Classes[Written], st.Seconds/3600)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The same mutants through the reference tools:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| kind | tool | runs | crashes | hangs | over memory | peak RSS (MiB) |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|")
	any := false
	for _, st := range states {
		names := make([]string, 0, len(st.Refs))
		for n := range st.Refs {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			r := st.Refs[n]
			crashes := fmt.Sprint(r.Crashes)
			if len(r.Signals) > 0 {
				sigs := make([]string, 0, len(r.Signals))
				for sig, k := range r.Signals {
					sigs = append(sigs, fmt.Sprintf("%s %d", sig, k))
				}
				slices.Sort(sigs)
				crashes += " (" + strings.Join(sigs, ", ") + ")"
			}
			fmt.Fprintf(w, "| %s | %s | %d | %s | %d | %d | %d |\n", st.Kind, n, r.Runs, crashes, r.Hangs, r.Memory, r.PeakRSS)
			any = true
		}
	}
	if !any {
		fmt.Fprintln(w, "| – | none run | | | | | |")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "sanitrace's runs by exit status (0 and 1: the input was read, 1 saying that reports were found; 2: the input was refused with a message):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| kind | command | exit statuses | peak RSS (MiB) |")
	fmt.Fprintln(w, "|---|---|---|--:|")
	for _, st := range states {
		cmds := make([]string, 0, len(st.Counts.Exits))
		for c := range st.Counts.Exits {
			cmds = append(cmds, c)
		}
		slices.Sort(cmds)
		for _, c := range cmds {
			m := st.Counts.Exits[c]
			codes := make([]string, 0, len(m))
			for code := range m {
				codes = append(codes, code)
			}
			slices.Sort(codes)
			var parts []string
			for _, code := range codes {
				parts = append(parts, fmt.Sprintf("%s: %d", code, m[code]))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %d |\n", st.Kind, c, strings.Join(parts, ", "), st.Counts.PeakRSS[c])
		}
	}
}
