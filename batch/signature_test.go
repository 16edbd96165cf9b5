package batch

import (
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

func TestNormalizeFunction(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"main", "main"},
		{"sample_at", "sample_at"},
		{"sample_at.constprop.0", "sample_at"},
		{"parse_header.isra.0.cold", "parse_header"},
		{"foo.part.1", "foo"},
		{"foo+0x1c", "foo"},
		{"ns::Widget::resize(unsigned long)", "ns::Widget::resize"},
		{"ns::Widget::get() const", "ns::Widget::get"},
		{"int sum<int>(int*, int)", "sum"},
		{"std::vector<int, std::allocator<int> >::push_back(int const&)", "std::vector::push_back"},
		{"void std::__1::vector<int>::__push_back_slow_path<int>(int&&)", "std::__1::vector::__push_back_slow_path"},
		{"(anonymous namespace)::helper(char const*)", "helper"},
		{"ns::(anonymous namespace)::Impl::run() [clone .constprop.0]", "ns::Impl::run"},
		{"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_create(unsigned long&, unsigned long)", "std::__cxx11::basic_string::_M_create"},
		{"Foo::name[abi:cxx11]() const", "Foo::name"},
		{"operator new(unsigned long)", "operator new"},
		{"void* operator new[](unsigned long)", "operator new[]"},
		{"ns::Vec::operator[](unsigned long)", "ns::Vec::operator[]"},
		{"ns::Str::operator<<(int)", "ns::Str::operator<<"},
		{"bool ns::operator< <int>(ns::X<int> const&, ns::X<int> const&)", "ns::operator<"},
		{"ns::Ptr::operator->() const", "ns::Ptr::operator->"},
		{"ns::T::operator bool() const", "ns::T::operator bool"},
		{"main::{lambda()#1}::operator()() const", "main::{lambda()#1}::operator()"},
		{"main::$_0::operator()() const", "main::$_0::operator()"},
		{"main::'lambda'()::operator()() const", "main::'lambda'()::operator()"},
		{"int std::__invoke_impl<int, main::'lambda'()&>(std::__invoke_other, main::'lambda'()&)", "std::__invoke_impl"},
		{"", ""},
	} {
		if got := NormalizeFunction(tc.in); got != tc.want {
			t.Errorf("NormalizeFunction(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSignature(t *testing.T) {
	fr := func(fn, file, module string) report.Frame {
		return report.Frame{Function: fn, File: file, Module: module}
	}
	rep := &report.Report{Tool: "AddressSanitizer", Kind: "heap-use-after-free", Stacks: []report.Stack{{Frames: []report.Frame{
		fr("__interceptor_free", "", "/usr/lib/libasan.so.8"),
		fr("free", "", ""),
		fr("Session::close() [clone .cold]", "/src/s.cc", "/b/prog"),
		fr("std::unique_ptr<Session, std::default_delete<Session> >::~unique_ptr()", "/usr/include/c++/12/bits/unique_ptr.h", "/b/prog"),
		fr("int run<Session>(Session*)", "/src/s.cc", "/b/prog"),
		fr("", "", "/b/prog"),
		fr("main", "/src/s.cc", "/b/prog"),
		fr("__libc_start_call_main", "../sysdeps/nptl/libc_start_call_main.h", "/lib/x86_64-linux-gnu/libc.so.6"),
	}}}}
	want := "AddressSanitizer:heap-use-after-free:close|run|[prog]"
	if got := Signature(rep); got != want {
		t.Errorf("Signature = %q, want %q", got, want)
	}
	if id := BucketID(want); len(id) != 12 || id != BucketID(want) {
		t.Errorf("BucketID = %q", id)
	}
	ub := &report.Report{Tool: "UndefinedBehaviorSanitizer", Kind: "out-of-bounds-index",
		Headline: "src/ub_bounds.c:12:10: runtime error: index 5 out of bounds for type 'const int[5]'"}
	if got, want := Signature(ub), "UndefinedBehaviorSanitizer:out-of-bounds-index:@ub_bounds.c"; got != want {
		t.Errorf("Signature(no stack) = %q, want %q", got, want)
	}
}

func TestShortName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ui::area_of", "area_of"},
		{"main::$_0::operator()", "operator()"},
		{"main::'lambda'()::operator()", "operator()"},
		{"main::{lambda()#1}::operator()", "operator()"},
		{"ns::operator<", "operator<"},
		{"ns::Str::operator<<", "operator<<"},
		{"plain", "plain"},
	} {
		if got := shortName(tc.in); got != tc.want {
			t.Errorf("shortName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSignatureOtherProducers: a kernel report's signature starts past the
// reporting, trap, lock and scheduler frames and skips "? " guesses; a Go
// report's keeps a method's receiver and drops the runtime; a Rust panic's
// starts past the standard library's panic machinery.
func TestSignatureOtherProducers(t *testing.T) {
	fr := func(fn string) report.Frame { return report.Frame{Function: fn} }
	unreliable := fr("ringdev_poll")
	unreliable.Unreliable = true
	for _, tc := range []struct {
		rep  *report.Report
		want string
	}{
		{&report.Report{Tool: report.ToolKernel, Kind: "KASAN: slab-use-after-free", Stacks: []report.Stack{{Frames: []report.Frame{
			fr("__dump_stack"), fr("dump_stack_lvl"), fr("print_address_description.constprop.0"), fr("print_report"),
			fr("kasan_report"), unreliable, fr("ring_pop"), fr("ringdev_read"), fr("vfs_read"), fr("ksys_read"),
			fr("do_syscall_64"), fr("entry_SYSCALL_64_after_hwframe"),
		}}}}, "Kernel:KASAN: slab-use-after-free:ring_pop|ringdev_read|vfs_read"},
		{&report.Report{Tool: report.ToolKernel, Kind: "hung task", Stacks: []report.Stack{{Frames: []report.Frame{
			fr("__schedule"), fr("schedule"), fr("schedule_preempt_disabled"), fr("__mutex_lock.constprop.0"),
			fr("ring_resize"), fr("process_one_work"), fr("worker_thread"), fr("kthread"), fr("ret_from_fork"),
		}}}}, "Kernel:hung task:ring_resize"},
		{&report.Report{Tool: report.ToolGoRace, Kind: "data race", Stacks: []report.Stack{{Frames: []report.Frame{
			fr("main.(*account).deposit()"), fr("main.main.func1()"), fr("runtime.goexit"),
		}}}}, "GoRaceDetector:data race:main.(*account).deposit|main.main.func1"},
		{&report.Report{Tool: report.ToolGoPanic, Kind: "SIGSEGV", Stacks: []report.Stack{{Frames: []report.Frame{
			fr("runtime.cgocall"), fr("panic({0x4a2b60?, 0x5a1d40?})"), fr("main.(*Map[...]).Get(0xc000010000, 0x3)"),
			fr("main.run"), fr("main.main"), fr("testing.tRunner"),
		}}}}, "GoPanic:SIGSEGV:main.(*Map).Get|main.run|main.main"},
		{&report.Report{Tool: report.ToolRust, Kind: "panic", Stacks: []report.Stack{{Frames: []report.Frame{
			fr("__rustc::rust_begin_unwind"), fr("core::panicking::panic_fmt"), fr("core::panicking::panic_bounds_check"),
			fr("main::pick"), fr("main::total::{{closure}}"), fr("core::iter::adapters::map::map_fold::{{closure}}"), fr("main::total"),
		}}}}, "Rust:panic:pick|{{closure}}|total"},
	} {
		if got := Signature(tc.rep); got != tc.want {
			t.Errorf("Signature = %q, want %q", got, tc.want)
		}
	}
}

func TestNormalizeGoFunction(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"main.walk", "main.walk"},
		{"main.walk(0x0)", "main.walk"},
		{"main.(*account).deposit()", "main.(*account).deposit"},
		{"main.(*account).deposit", "main.(*account).deposit"},
		{"main.Map[...].Get", "main.Map.Get"},
		{"example.com/x/y.(*T[...]).M(...)", "example.com/x/y.(*T).M"},
		{"main.main.func1+0x12", "main.main.func1"},
	} {
		if got := NormalizeGoFunction(tc.in); got != tc.want {
			t.Errorf("NormalizeGoFunction(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSignatureKernelRegisterStack: an oops's signature is the faulting
// function from the register dump and then its callers from the call
// trace, the trace's own copy of the faulting function (arm64) once.
func TestSignatureKernelRegisterStack(t *testing.T) {
	fr := func(fn string, unreliable bool) report.Frame {
		return report.Frame{Function: fn, Unreliable: unreliable}
	}
	for _, tc := range []struct {
		rep  *report.Report
		want string
	}{
		{&report.Report{Tool: report.ToolKernel, Kind: "WARNING", Stacks: []report.Stack{
			{Title: "RIP: 0010:ringdev_close+0x1b4/0x1f0 [ringdev]", RoleDetail: report.RoleDetailRegisters, Frames: []report.Frame{fr("ringdev_close", false)}},
			{Title: "Call Trace:", Frames: []report.Frame{fr("__warn", true), fr("ringdev_close", true), fr("report_bug", true),
				fr("__dev_close_many", false), fr("dev_close_many", false), fr("do_syscall_64", false)}},
		}}, "Kernel:WARNING:ringdev_close|__dev_close_many|dev_close_many"},
		{&report.Report{Tool: report.ToolKernel, Kind: "Oops", Stacks: []report.Stack{
			{Title: "pc : ring_peek+0x18/0x40 [ringbuf]", RoleDetail: report.RoleDetailRegisters, Frames: []report.Frame{fr("ring_peek", false)}},
			{Title: "Call trace:", Frames: []report.Frame{fr("ring_peek", false), fr("ringdev_read", false), fr("vfs_read", false)}},
		}}, "Kernel:Oops:ring_peek|ringdev_read|vfs_read"},
		// Only the register stack continues into the next one.
		{&report.Report{Tool: report.ToolKernel, Kind: "KASAN: slab-use-after-free", Stacks: []report.Stack{
			{Title: "Call Trace:", Frames: []report.Frame{fr("dump_stack_lvl", false), fr("ring_pop", false)}},
			{Title: "Allocated by task 201:", Frames: []report.Frame{fr("ring_alloc", false)}},
		}}, "Kernel:KASAN: slab-use-after-free:ring_pop"},
	} {
		if got := Signature(tc.rep); got != tc.want {
			t.Errorf("Signature = %q, want %q", got, tc.want)
		}
	}
}
