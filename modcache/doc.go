// Package modcache keeps the modules a run has opened, for every command
// that symbolizes: the drop-in faces (dropin), the resolving of report
// frames (resolve) and batch's workers, which share one Cache.
//
// A module is opened once per file, not per name: the paths of one file
// (merged /usr's /lib/… and /usr/lib/…, hard links, the same binary named
// by two logs) share an entry through debuginfo.Finder.FileKey. A file
// that cannot be opened keeps its error and is not tried again. Callers
// hold an object through a Lease. The open objects are bounded in bytes
// (Options.MaxBytes, every command's --cache-size): each costs its
// Footprint, an estimate of the memory it can keep resident, and past the
// bound the least recently used objects that no lease holds are closed,
// to be opened again, with the same answers, when asked for.
//
// Object is what the commands ask of a module, every ability in the
// interface (no optional methods found by type assertion);
// *symbolize.Object satisfies it. Engine opens modules with the
// symbolizer through debuginfo, so every module file is read by the same
// rules and repairs (debuginfo.Open).
package modcache
