// Package startup hands back to the kernel the pages of the running
// executable that starting the process touched.
//
// A Go program runs every linked package's init before main, and this
// one links a hundred and twenty: HTTP, templates, archives and the
// command tree besides the symbolizer. Each init touches a page of text or
// read-only data somewhere in the executable, and the kernel maps the 64
// KB around every page it faults in, so that a symbolizer session starts
// with about 10 MB of the executable resident, most of it never used
// again. Release drops those pages from the process's resident set; the
// code a session runs faults back in from the page cache as it runs.
package startup
