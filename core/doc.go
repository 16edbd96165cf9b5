// Package core reads ELF core files as the Linux kernel and gdb's gcore
// write them for x86-64 processes, and unwinds their threads.
//
// A core file is a header, program headers and notes: NT_PRSTATUS gives
// each thread's general registers, NT_SIGINFO the signal that ended the
// process, NT_FILE the files mapped into it and NT_AUXV the auxiliary
// vector. PT_LOAD segments hold the process's memory; the kernel leaves
// out the pages of file-backed read-only mappings (their file has them),
// and gdb's gcore leaves those mappings out altogether. File presents that
// memory through ReadAt, reading such pages from the mapped files once the
// caller has attached them (AttachFile).
//
// Unwind walks one thread from its registers, outermost last: call frame
// information through package cfi first, then the kernel's signal frame
// at libc's __restore_rt trampoline, then frame pointers, then a bounded
// scan of the stack for a return address. Every frame says how it was
// found. The walk stops where gdb stops: at a frame whose return address
// CFI marks undefined (_start, clone3), when the CFA stops increasing, or
// when no return address can be found.
//
// Every note is read with bounds checks: a truncated or malformed note is
// an error for that note (File.Errors), and the rest of the core is still
// used. Nothing here panics on any input, and every loop is bounded.
package core
