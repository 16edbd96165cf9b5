package symbolize

import (
	"github.com/sanitrace/sanitrace/symbolize/dwarf"
)

// The first lookup in a unit. One address in a fresh process, the
// sanitizer's single frame or a script's addr2line call, should not pay
// for the index of the whole unit around it: the first lookup of a unit
// probes it (dwarf.Data.Probe: its line program run for the one address,
// its DIEs walked keeping only the functions that contain it), and the
// second lookup builds the full index, as before, so a batch pays the
// probe once per unit, and only for the units of its first few lookups
// (maxProbes). A probe answers exactly what the full index would, or
// gives up and the lookup uses the index.

// maxProbes bounds the probes of one object: a batch over a binary of
// many small units (a Go program has hundreds) would otherwise probe
// each unit and then index it on its second lookup, decoding most units
// twice; after the first few lookups, units are indexed at once.
const maxProbes = 8

// probeUnit answers the unit part of the first lookup of pc in u without
// indexing u (dwarf.Data.Probe). ok is false when the lookup must use the
// full index instead: not u's first lookup, the object's probes spent, a
// unit no probe serves (a skeleton or partial unit), or a probe that gave
// up.
func (o *Object) probeUnit(u *dwarf.Unit, pc uint64) (lt *dwarf.LineTable, fi *dwarf.FuncIndex, ok bool) {
	if u.DWOName() != "" || u.Partial() || u.FunctionsIndexed() || !o.looked[u.Index()].CompareAndSwap(false, true) {
		return nil, nil, false
	}
	if o.probes.Add(1) > maxProbes {
		return nil, nil, false
	}
	return o.dw.Probe(u, pc)
}

// ExpectManyLookups tells o that many lookups follow at once (a batch of
// queries, not one address): from now on each unit is indexed on its
// first lookup rather than probed for one address and indexed on its
// second, which would decode it twice. Answers are the same either way.
func (o *Object) ExpectManyLookups() {
	o.probes.Store(maxProbes)
}
