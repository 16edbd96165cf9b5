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
