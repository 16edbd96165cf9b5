package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/report"
)

// unwrapCases are logs a 72- or 80-column wrapper broke where "⏎" stands
// (the blank there dropped): each must parse as the log with the blank put
// back.
var unwrapCases = []struct{ name, log string }{
	{"UBSan headline after its runtime error", "" +
		"/home/developer/projects/src/sanitrace/overflow_check.c:12:7: runtime error:⏎signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n" +
		"    #0 0x55a18979ee1e in add_one /home/developer/projects/src/overflow_check.c:12:7\n" +
		"    #1 0x55a18979eec4 in main /home/developer/projects/src/overflow_check.c:20:3\n" +
		"\n" +
		"SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior⏎/home/developer/projects/src/sanitrace/overflow_check.c:12:7 in\n"},
	{"ASan headline after its tool, with a prefix", "" +
		"2024-01-02T03:04:01.037Z [job 3] ==27612==ERROR: AddressSanitizer:⏎heap-buffer-overflow on address 0x603000000060 at pc 0x00000040136e bp⏎0x7ffdaacf9e70 sp 0x7ffdaacf9e68\n" +
		"2024-01-02T03:04:02.074Z [job 3] READ of size 4 at 0x603000000060 thread T0\n" +
		"2024-01-02T03:04:03.111Z [job 3]     #0 0x40136d in sample_at⏎/build/ci/src/heap_overflow_read.c:20\n" +
		"2024-01-02T03:04:04.148Z [job 3]     #1 0x4011ab in main /build/ci/src/heap_overflow_read.c:40\n" +
		"2024-01-02T03:04:05.000Z [job 3] \n" +
		"2024-01-02T03:04:08.296Z [job 3] SUMMARY: AddressSanitizer: heap-buffer-overflow⏎/build/ci/src/heap_overflow_read.c:20 in sample_at\n" +
		"2024-01-02T03:04:09.813Z [job 3] ==27612==ABORTING\n"},
	{"CHECK failed broken after its marker", "" +
		"==9901==AddressSanitizer CHECK failed:⏎/build/llvm/compiler-rt/lib/asan/asan_allocator.cpp:188 \"((m->chunk_state)) ==⏎((CHUNK_QUARANTINE))\" (0x3, 0x2)\n" +
		"    #0 0x4c1a5e in __asan::AsanCheckFailed(char const*, int, char const*,⏎unsigned long long, unsigned long long) (/src/check+0x4c1a5e)\n" +
		"    #1 0x4f2a11 in main /src/check.c:21:5\n"},
	{"boost::stacktrace's first frame after its 0#", "" +
		"lookup: negative key -1\n" +
		" 0#⏎boost::stacktrace::basic_stacktrace<std::allocator<boost::stacktrace::frame>⏎>::basic_stacktrace() at⏎/usr/include/boost/stacktrace/stacktrace.hpp:129\n" +
		" 1# query(store::Index&, int) at⏎/build/sanitrace/src/stacks/stacktrace.cc:19\n" +
		" 2# main at /build/sanitrace/src/stacks/stacktrace.cc:24\n"},
	{"kernel GPF whose marker is on the second line", "" +
		"Nov 24 18:02:14 buildhost systemd[1]: Started session-4.scope - Session 4 of⏎User ci.\n" +
		"Nov 24 18:02:15 buildhost kernel: general protection fault, probably for⏎non-canonical address 0xdffffc0000000002: 0000 [#1] PREEMPT SMP KASAN NOPTI\n" +
		"Nov 24 18:02:15 buildhost kernel: KASAN: null-ptr-deref in range⏎[0x0000000000000010-0x0000000000000017]\n" +
		"Nov 24 18:02:15 buildhost kernel: CPU: 0 PID: 1203 Comm: ringctl Tainted: G⏎W  O       6.6.8 #1\n" +
		"Nov 24 18:02:15 buildhost kernel: RIP: 0010:ring_peek+0x2e/0x80 [ringbuf]\n" +
		"Nov 24 18:02:15 buildhost kernel: RAX: dffffc0000000000 RBX: 0000000000000000⏎RCX: ffffffffc04a1126\n" +
		"Nov 24 18:02:15 buildhost kernel: Call Trace:\n" +
		"Nov 24 18:02:15 buildhost kernel:  <TASK>\n" +
		"Nov 24 18:02:15 buildhost kernel:  ring_pop+0x1e/0x90 [ringbuf]\n" +
		"Nov 24 18:02:15 buildhost kernel:  ringdev_ioctl+0x1c4/0x2a0 [ringdev]\n" +
		"Nov 24 18:02:15 buildhost kernel:  </TASK>\n" +
		"Nov 24 18:02:15 buildhost kernel: ---[ end trace 0000000000000000 ]---\n"},
	{"lockdep's lock line and its frame without the stamp", "" +
		"[  250.004391] ======================================================\n" +
		"[  250.005123] WARNING: possible circular locking dependency detected\n" +
		"[  250.005856] 6.1.0 #1 Not tainted\n" +
		"[  250.006290] ------------------------------------------------------\n" +
		"[  250.007020] ringctl/1203 is trying to acquire lock:\n" +
		"[  250.007617] ffff888103a2c0a8 (&dev->cfg_lock){+.+.}-{3:3}, at:⏎ringdev_reconfig+0x20/0x80 [ringdev]\n" +
		"[  250.008730] \n" +
		"[  250.008730] but task is already holding lock:\n" +
		"[  250.009412] ffff888101d4e1a0 (&ring->lock){+.+.}-{3:3}, at:⏎ring_resize+0x31/0x140 [ringbuf]\n" +
		"[  250.010471] \n" +
		"[  250.011440] the existing dependency chain (in reverse order) is:\n" +
		"[  250.012323] \n" +
		"[  250.012323] -> #1 (&ring->lock){+.+.}-{3:3}:\n" +
		"[  250.013006]        __mutex_lock+0x8d/0x8f0\n" +
		"[  250.013581]        ring_resize+0x31/0x140 [ringbuf]\n" +
		"[  250.015459] \n" +
		"[  250.015459] -> #0 (&dev->cfg_lock){+.+.}-{3:3}:\n" +
		"[  250.016148]        __lock_acquire+0x1450/0x2440\n" +
		"[  250.018637]        ring_resize+0xc2/0x140 [ringbuf]\n" +
		"[  250.019303] \n"},
	{"SUMMARY after its (BuildId:", "" +
		"==================\n" +
		"WARNING: ThreadSanitizer: thread leak (pid=498)\n" +
		"  Thread T1 (tid=500, finished) created by main thread at:\n" +
		"    #0 pthread_create <null> (thread_leak+0x513ad) (BuildId:⏎0ced5a3ca4e8586462b289ac377743d7b26cebac)\n" +
		"    #1 main /build/ci/src/thread_leak.c:22:3 (thread_leak+0xd01ae) (BuildId:⏎0ced5a3ca4e8586462b289ac377743d7b26cebac)\n" +
		"\n" +
		"SUMMARY: ThreadSanitizer: thread leak⏎(/build/ci/cases/tsan_thread_leak_clang_O2_dw4/thread_leak+0x513ad) (BuildId:⏎0ced5a3ca4e8586462b289ac377743d7b26cebac) in pthread_create\n" +
		"==================\n"},
	{"SUMMARY after its tool", "" +
		"2024-01-02T03:04:00.000Z [job 3] /build/ci/src/ub_shift.c:5:50: runtime error:⏎shift exponent 32 is too large for 32-bit type 'int'\n" +
		"2024-01-02T03:04:01.037Z [job 3]     #0 0x55a18979ee1e in low_mask⏎/build/ci/src/ub_shift.c:5:50\n" +
		"2024-01-02T03:04:07.259Z [job 3] \n" +
		"2024-01-02T03:04:08.296Z [job 3] SUMMARY: UndefinedBehaviorSanitizer:⏎undefined-behavior /build/ci/src/ub_shift.c:5:50 in \n" +
		"2024-01-02T03:04:09.333Z [job 3] ee\n"},
	{"the shadow legend's header and a row", "" +
		"2024-01-02T03:04:01.037Z [job 3] ==27612==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000060 at pc 0x00000040136e bp 0x7ffdaacf9e70 sp 0x7ffdaacf9e68\n" +
		"2024-01-02T03:04:03.111Z [job 3]     #0 0x40136d in sample_at /build/ci/src/heap_overflow_read.c:20\n" +
		"2024-01-02T03:04:28.000Z [job 3] SUMMARY: AddressSanitizer: heap-buffer-overflow /build/ci/src/heap_overflow_read.c:20 in sample_at\n" +
		"2024-01-02T03:04:29.000Z [job 3] Shadow bytes around the buggy address:\n" +
		"2024-01-02T03:04:29.100Z [job 3]   0x0c067fff8000: fa fa 00 00 00 00 fa fa 00 00 00 00[fa]fa fa fa\n" +
		"2024-01-02T03:04:30.110Z [job 3] Shadow byte legend (one shadow byte⏎represents 8 application bytes):\n" +
		"2024-01-02T03:04:31.147Z [job 3]   Addressable:           00\n" +
		"2024-01-02T03:04:32.184Z [job 3]   Partially addressable: 01 02 03 04 05⏎06 07 \n" +
		"2024-01-02T03:04:33.221Z [job 3]   Heap left redzone:       fa\n" +
		"2024-01-02T03:04:49.813Z [job 3] ==27612==ABORTING\n"},
	{"a kernel frame's module and its build id", "" +
		"UBSAN: array-index-out-of-bounds in drivers/misc/cfgtab.c:88:14\n" +
		"index 9 is out of range for type 'u32 [8]'\n" +
		"CPU: 1 PID: 231 Comm: modprobe Not tainted 6.6.8 #1\n" +
		"Call Trace:\n" +
		" <TASK>\n" +
		" dump_stack_lvl+0x48/0x60\n" +
		" cfgtab_probe+0x123/0x200 [cfgtab⏎5a1c7e9f0b2d4c6e8a1b3c5d7e9f0a2b4c6d8e0f]\n" +
		" do_one_initcall+0x5d/0x240\n" +
		" </TASK>\n"},
	{"gdb argument lists broken twice, and before them", "" +
		"Thread 1 (Thread 0x7ffff7dd1740 (LWP 23225) \"crash\"):\n" +
		"#0  __futex_abstimed_wait_common64 (private=128, cancel=true, abstime=0x0,⏎op=265, expected=23228, futex_word=0x7ffff7dd0990) at ./nptl/futex-internal.c:57\n" +
		"#1  __futex_abstimed_wait_common (futex_word=futex_word@entry=0x7ffff7dd0990,⏎expected=23228, clockid=clockid@entry=0, abstime=abstime@entry=0x0,⏎private=private@entry=128, cancel=cancel@entry=true) at⏎./nptl/futex-internal.c:87\n" +
		"#2  0x00007ffff7e59f7b in __GI___futex_abstimed_wait_cancelable64⏎(futex_word=futex_word@entry=0x7ffff7dd0990, expected=<optimized out>,⏎clockid=clockid@entry=0, abstime=abstime@entry=0x0, private=private@entry=128)⏎at ./nptl/futex-internal.c:139\n" +
		"#3  0x0000555555555248 in main () at crash.c:26\n"},
	{"macOS frames: f+0x8d and a framework path broken twice", "" +
		"==41812==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x000100003f1d bp 0x7ff7bfeff210 sp 0x7ff7bfeff208\n" +
		"READ of size 1 at 0x602000000010 thread T0\n" +
		"    #0 0x100003f1c in main+0x11c (uaf-mac:x86_64+0x100003f1c)\n" +
		"    # 1 0x10a2b3c4d  (/Applications/Sample⏎App.app/Contents/Frameworks/Sample Kit.framework/Versions/A/Sample⏎Kit:x86_64+0x3c4d)\n" +
		"\n" +
		"freed by thread T0 here:\n" +
		"    #0 0x1002a5a3d in wrap_free+0x8d⏎(libclang_rt.asan_osx_dynamic.dylib:x86_64h+0x49a3d)\n" +
		"    #1 0x100003eb7 in main+0xb7 (uaf-mac:x86_64+0x100003eb7)\n" +
		"\n" +
		"SUMMARY: AddressSanitizer: heap-use-after-free (uaf-mac:x86_64+0x100003f1c) in⏎main+0x11c\n" +
		"==41812==ABORTING\n"},
	{"a frame without a function, broken between its two blanks", "" +
		"==31235==ERROR: AddressSanitizer: heap-use-after-free on address 0x604000000014 at pc 0x5568ab6c2bb3 bp 0x7fd62f9fee10 sp 0x7fd62f9fee08\n" +
		"READ of size 4 at 0x604000000014 thread T2\n" +
		"        #6 0x5568ab6c2be0 in _M_run /usr/include/c++/12/bits/std_thread.h:210\n" +
		"        #7 0x7fd6318d44a2 ⏎(/lib/x86_64-linux-gnu/libstdc++.so.6+0xd44a2)\n" +
		"        #8 0x7fd6316a71f4 in start_thread nptl/pthread_create.c:442\n"},
	{"UBSan's message broken before a colon of its own", "" +
		"    /build/ci/src/ub_signed_overflow.c:4:58: runtime error: signed⏎integer overflow: 295248844 * 31 cannot be represented in type 'int'\n" +
		"    #0 0x55e2 in hash_step /build/ci/src/ub_signed_overflow.c:4:58\n"},
	{"UBSan's location before its runtime error, SUMMARY: alone", "" +
		"2024-01-02T03:04:00.000Z [job 3] /build/ci/src/ub_shift_and_friends.c:5:50:⏎runtime error: shift exponent 32 is too large for 32-bit type 'int'\n" +
		"2024-01-02T03:04:01.037Z [job 3]     #0 0x55a18979ee1e in low_mask /build/ci/src/ub_shift.c:5:50\n" +
		"2024-01-02T03:04:07.259Z [job 3] \n" +
		"2024-01-02T03:04:08.296Z [job 3] Some words to fill the line up: SUMMARY:⏎UndefinedBehaviorSanitizer: undefined-behavior /build/ci/src/ub_shift.c:5:50 in\n"},
	{"the shadow header and a shadow row", "" +
		"2024-01-02T03:04:01.037Z [job 3] ==27612==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000060 at pc 0x1 bp 0x2 sp 0x3\n" +
		"2024-01-02T03:04:03.111Z [job 3]     #0 0x40136d in sample_at /build/ci/src/heap_overflow_read.c:20\n" +
		"2024-01-02T03:04:28.000Z [job 3] SUMMARY: AddressSanitizer: heap-buffer-overflow /build/ci/src/heap_overflow_read.c:20 in sample_at\n" +
		"2024-01-02T03:04:29.000Z [job 3] > Shadow bytes around the buggy⏎address:\n" +
		"2024-01-02T03:04:29.100Z [job 3]   0x0c067fff7fb0: 00 00 00 00 00 00 00⏎00 00 00 00 00 00 00 00 00\n" +
		"2024-01-02T03:04:29.200Z [job 3]   0x0c067fff7fc0: fa fa 00 00 00 00 fa fa 00 00 00 00 fa fa fa fa\n" +
		"2024-01-02T03:04:49.813Z [job 3] ==27612==ABORTING\n"},
	{"a Rust name broken twice inside its generic arguments", "" +
		"thread 'main' panicked at src/main.rs:4:5:\n" +
		"index out of bounds: the len is 3 but the index is 3\n" +
		"stack backtrace:\n" +
		"   7: <core::ops::range::RangeInclusive<T> as core::iter::range::RangeInclusiveIteratorImpl>::spec_try_fold\n" +
		"             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/iter/range.rs:1202:21\n" +
		"       8: core::iter::range::<impl⏎core::iter::traits::iterator::Iterator for⏎core::ops::range::RangeInclusive<A>>::try_fold\n" +
		"             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/iter/range.rs:1320:14\n" +
		"   9: main::main\n" +
		"             at ./src/main.rs:4:5\n"},
	{"a C++ name broken before its closing angle brackets", "" +
		"WARNING: ThreadSanitizer: data race (pid=32323)\n" +
		"  Write of size 8 at 0x7b0400000000 by main thread:\n" +
		"    #6 std::thread::_Invoker<std::tuple<main::$_0> >::operator()() (race_heap+0xd4903)\n" +
		"    #7 std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::$_0>⏎> >::_M_run() (race_heap+0xd4903)\n" +
		"\n" +
		"SUMMARY: ThreadSanitizer: data race (race_heap+0xd53b1)\n" +
		"==================\n"},
	{"backtrace_symbols' address on the next line", "" +
		"Obtained 7 stack frames.\n" +
		"./bt(+0x1198) [0x55b061033198]\n" +
		"    /usr/lib/x86_64-linux-gnu/libc.so.6(__libc_start_main+0x85)⏎[0x7fdea9900305]\n" +
		"./bt(_start+0x21) [0x55b0610330b1]\n"},
	{"a kernel headline's stamp-less rest that reads as a frame", "" +
		"    [   88.413512] BUG: KASAN: slab-use-after-free in⏎ring_pop+0x7e/0x130 [ringbuf]\n" +
		"    [   88.414120] Read of size 8 at addr ffff88810a3c6e48 by task kworker/1:2/214\n" +
		"    [   88.416790] Call Trace:\n" +
		"    [   88.416791]  <TASK>\n" +
		"    [   88.416792]  ring_pop+0x7e/0x130 [ringbuf]\n" +
		"    [   88.416793]  </TASK>\n"},
	{"a global's location, then ASan's ascii string line", "" +
		"==29689==ERROR: AddressSanitizer: global-buffer-overflow on address 0x0000004030a0 at pc 0x00000040254f bp 0x7fffdcc0a1b0 sp 0x7fffdcc0a1a8\n" +
		"READ of size 8 at 0x0000004030a0 thread T0\n" +
		"    #0 0x40254e in level_name⏎/build/ci/src/global_buffer_overflow.c:10:56\n" +
		"\n" +
		"0x0000004030a0 is located 32 bytes to the left of global variable⏎'<string literal>' defined in⏎'/build/ci/src/global_buffer_overflow.c:7:37' (0x4030c0) of size 6\n" +
		"  '<string literal>' is ascii string 'debug'\n" +
		"SUMMARY: AddressSanitizer: global-buffer-overflow⏎/build/ci/src/global_buffer_overflow.c:10:56 in level_name\n" +
		"==29689==ABORTING\n"},
}

func TestUnwrap(t *testing.T) {
	for _, c := range unwrapCases {
		for _, l := range strings.Split(c.log, "\n") {
			// Each break must be one a 72-80 column wrapper makes.
			ps := strings.Split(l, "⏎")
			for i := 0; i+1 < len(ps); i++ {
				if !mayWrapLen(len(ps[i]), ps[i+1]) {
					t.Errorf("%s: no wrapper breaks %q before %q", c.name, ps[i], ps[i+1])
				}
			}
		}
		whole := strings.ReplaceAll(c.log, "⏎", " ")
		wrapped := strings.ReplaceAll(c.log, "⏎", "\n")
		want := modelView(parseAll(t, strings.NewReader(whole), c.name))
		if want == "" {
			t.Errorf("%s: the whole log has no report", c.name)
			continue
		}
		got := modelView(parseAll(t, strings.NewReader(wrapped), c.name))
		if got != want {
			t.Errorf("%s: the wrapped log differs\n%s", c.name, golden.FirstDiff(want, got))
		}
		// The wrapped log quoted in a reply ("> " on every piece) and
		// pasted as a code block (four blanks before every piece).
		for _, p := range []func(string) string{quote, indent} {
			pasted := strings.Join(mapLines(strings.Split(strings.TrimSuffix(wrapped, "\n"), "\n"), p), "\n") + "\n"
			got = modelView(parseAll(t, strings.NewReader(pasted), c.name))
			if got != want {
				t.Errorf("%s: the wrapped log %.2q... differs\n%s", c.name, pasted, golden.FirstDiff(want, got))
			}
		}
	}
}

// noJoinCases are logs whose lines nothing wrapped, each with a line after
// a report line that the joins of unwrap.go must leave alone: the model
// holds every want and no not.
var noJoinCases = []struct {
	name, log string
	want, not []string
}{
	{"a short line ending in runtime error:", "" +
		"a.c:1:2: runtime error:\n" +
		"signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n",
		nil, []string{"UndefinedBehaviorSanitizer"}},
	{"runtime error: and a first word that would have fit", "" +
		"/home/developer/projects/sanitrace-demo/src/overflow_check.c:12:7: runtime error:\n" +
		"ok\n",
		nil, []string{"UndefinedBehaviorSanitizer"}},
	{"a short ERROR: AddressSanitizer:", "" +
		"==1==ERROR: AddressSanitizer:\n" +
		"heap-buffer-overflow on address 0x603000000060 at pc 0x00000040136e bp 0x1 sp 0x2\n",
		nil, []string{"AddressSanitizer"}},
	{"a short 0#", " 0#\nmain at /src/a.cc:3\n", nil, []string{"boost"}},
	{"general protection fault, then another writer's line", "" +
		"Nov 24 18:02:15 buildhost kernel: general protection fault, probably for\n" +
		"Nov 24 18:02:15 buildhost sshd[88]: [#1] session opened for user ci by (uid=0)\n",
		nil, []string{"Kernel"}},
	{"general protection fault in a short line", "" +
		"[    1.000000] general protection fault, probably for\n" +
		"non-canonical address 0xdffffc0000000002: 0000 [#1] PREEMPT SMP KASAN NOPTI\n",
		nil, []string{"Kernel"}},
	{"a program's report after a stamped kernel line", "" +
		"[  250.007020] ringctl/1203 is trying to acquire lock:\n" +
		"[  250.005123] WARNING: possible circular locking dependency detected\n" +
		"[  250.007617] ffff888103a2c0a8 (&dev->cfg_lock){+.+.}-{3:3}, at:\n" +
		"/src/ringctl/main.c:31:9: runtime error: load of null pointer of type 'int'\n" +
		"    #0 0x4f5d1f in parse_field /src/ringctl/main.c:31:9\n",
		[]string{`UndefinedBehaviorSanitizer|null-pointer-use|`, `"parse_field"`}, nil},
	{"SUMMARY ending in (BuildId: and words", "" +
		"==================\n" +
		"WARNING: ThreadSanitizer: thread leak (pid=498)\n" +
		"  Thread T1 (tid=500, finished) created by main thread at:\n" +
		"    #0 pthread_create <null> (thread_leak+0x513ad)\n" +
		"\n" +
		"SUMMARY: ThreadSanitizer: thread leak (/build/ci/thread_leak+0x513ad) (BuildId:\n" +
		"(not-recorded-by-this-build-see-the-log)\n" +
		"==================\n",
		[]string{`(BuildId:"`}, []string{"not-recorded"}},
	{"SUMMARY after its tool, a short line", "" +
		"a.c:5:50: runtime error: shift exponent 32 is too large for 32-bit type 'int'\n" +
		"SUMMARY: UndefinedBehaviorSanitizer:\n" +
		"done\n",
		nil, []string{"done"}},
	{"a short legend row and hex", "" +
		"==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000060 at pc 0x1 bp 0x2 sp 0x3\n" +
		"    #0 0x40136d in sample_at /build/ci/src/heap_overflow_read.c:20\n" +
		"SUMMARY: AddressSanitizer: heap-buffer-overflow /build/ci/src/heap_overflow_read.c:20 in sample_at\n" +
		"Shadow byte legend (one shadow byte represents 8 application bytes):\n" +
		"  Addressable:           00\n" +
		"  Partially addressable: 01 02 03 04 05 06 07\n" +
		"fb fc\n" +
		"==1==ABORTING\n",
		[]string{"shadow 0 rows 8 legend"}, nil},
	{"a kernel frame's module and words", "" +
		"UBSAN: array-index-out-of-bounds in drivers/misc/cfgtab.c:88:14\n" +
		"Call Trace:\n" +
		" <TASK>\n" +
		" dump_stack_lvl+0x48/0x60\n" +
		" cfgtab_probe+0x123/0x200 [cfgtab\n" +
		"/lib/modules/6.6.8/kernel/drivers/misc/cfgtab.ko.xz loaded]\n" +
		" do_one_initcall+0x5d/0x240\n" +
		" </TASK>\n",
		[]string{`"do_one_initcall"`}, []string{"cfgtab.ko"}},
	{"a gdb frame and the prompt", "" +
		"Thread 1 (Thread 0x7ffff7dd1740 (LWP 23225) \"crash\"):\n" +
		"#0  0x00007ffff7e59f7b in __GI___futex_abstimed_wait_cancelable64 ()\n" +
		"#1  0x00007ffff7e59f7b in __GI___pthread_clockjoin_ex_wait_cancelable64\n" +
		"(gdb) bt full\n" +
		"#2  0x0000555555555248 in main () at crash.c:26\n",
		[]string{`"__GI___pthread_clockjoin_ex_wait_cancelable64"`}, []string{"(gdb)"}},
	{"a UBSan message no runtime prints, then a label", "" +
		"/build/ci/src/ub_thing.c:4:58: runtime error: something the runtime never said\n" +
		"worker 2: processed 10 items\n",
		[]string{`"/build/ci/src/ub_thing.c:4:58: runtime error: something the runtime never said"`}, []string{"worker"}},
	{"a frame with a blank at its end, then program output", "" +
		"==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n" +
		"    #3 0x7f91bbb4f249 in __libc_start_call_main csu/../sysdeps/nptl/x.h:5 \n" +
		"seq=14131211\n",
		[]string{`"csu/../sysdeps/nptl/x.h":5:0`}, []string{"seq="}},
	{"an indented frame, then indented program output", "" +
		"    ==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n" +
		"        #3 0x7f91bbb4f249 in __libc_start_call_main csu/../sysdeps/nptl/libc.h:58\n" +
		"    retrying in 5 seconds\n",
		[]string{`"csu/../sysdeps/nptl/libc.h":58:0`}, []string{"retrying"}},
	{"a UBSan location and program output", "" +
		"2024-01-02T03:04:00.000Z [job 3] checking /build/ci/src/ub_shift_and_friend.c:5:50:\n" +
		"passed, no runtime errors were reported by the checker\n",
		nil, []string{"UndefinedBehaviorSanitizer"}},
	{"a lone SUMMARY: and a writer's line", "" +
		"2024-01-02T03:04:00.000Z [job 3] /build/ci/src/ub_shift.c:5:50: runtime error: shift exponent 32 is too large for 32-bit type 'int'\n" +
		"2024-01-02T03:04:08.296Z [job 3] Some words to fill the line up to the: SUMMARY:\n" +
		"compiler-warnings: 3 in this step\n",
		nil, []string{"compiler-warnings"}},
	{"an empty quoted line and a long word", "" +
		"> ==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n" +
		">     #0 0x4f5d1f in parse_field /src/segv.c:9:12\n" +
		">\n" +
		"https://ci.example.org/job/nightly/builds/1234/artifacts/logs/crash-asan-segv.txt\n" +
		"> SUMMARY: AddressSanitizer: SEGV /src/segv.c:9:12 in parse_field\n",
		[]string{`"parse_field"`}, []string{"https"}},
	{"a gdb frame and an address", "" +
		"Thread 1 (Thread 0x7ffff7dd1740 (LWP 23225) \"crash\"):\n" +
		"#0  0x00007ffff7e59f7b in __GI___pthread_clockjoin_ex_wait_cancelable64 ()\n" +
		"[0x7ffff7e59f7b]\n" +
		"#1  0x0000555555555248 in main () at crash.c:26\n",
		[]string{`"__GI___pthread_clockjoin_ex_wait_cancelable64"`}, []string{"7ffff7e59f7b]"}},
	{"a macOS frame and a short module", "" +
		"==41812==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x1 bp 0x2 sp 0x3\n" +
		"    #0 0x1002a5a3d in wrap_free+0x8d\n" +
		"(dyld:x86_64)\n" +
		"SUMMARY: AddressSanitizer: heap-use-after-free (uaf-mac:x86_64+0x100003f1c) in main+0x11c\n",
		[]string{`"wrap_free+0x8d"`}, []string{"dyld"}},
}

func TestNoJoin(t *testing.T) {
	for _, c := range noJoinCases {
		got := modelView(parseAll(t, strings.NewReader(c.log), c.name))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the model lacks %q:\n%s", c.name, w, got)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: the model has %q:\n%s", c.name, n, got)
			}
		}
	}
}

// A run of pieces that each could follow a wrap stops being joined at
// wrapJoinMax: the joins copy the line so far, and memory stays bounded.
func TestJoinBounded(t *testing.T) {
	piece := strings.Repeat("x", 60) + " " + strings.Repeat("y", 17) // 78 columns, a long last word
	starts := []string{
		// an open first frame, held outside reports
		"#0  function_with_a_rather_long_name (argument_one=1, argument_two=2,",
		// stamp-less rests in a kernel report
		"[    1.000000] BUG: unable to handle page fault for address: 0000000000000008\n[    1.000001] RIP: 0010:f+0x1/0x2",
		// an open sanitizer frame
		"==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n    #0 0x4f5d1f in f(int,",
	}
	for _, start := range starts {
		var b strings.Builder
		b.WriteString(start + "\n")
		for i := 0; i < 5000; i++ {
			b.WriteString(piece + "\n")
		}
		for _, r := range parseAll(t, strings.NewReader(b.String()), "bounded") {
			for _, l := range r.Raw {
				if len(l) > wrapJoinMax+wrapMax {
					t.Errorf("%.20q: a report line of %d bytes", start, len(l))
				}
			}
			for _, st := range r.Stacks {
				for _, f := range st.Frames {
					if len(f.Raw) > wrapJoinMax+wrapMax {
						t.Errorf("%.20q: a frame of %d bytes", start, len(f.Raw))
					}
				}
			}
		}
	}
}

// TestLostRunWrappedNoGDB: a piece of a wrapped lost frame run that reads
// as a gdb frame ("#13 0x... in fuzzer::FuzzerDriver(int*, char***, int",
// after a "#12 0x... in" broken before its function) is the run's, no gdb
// backtrace, and every frame keeps its wrapped rest; a gdb frame standing
// alone (a bt pasted from its #1) still is one. made-libfuzzer-cut-clang14's
// stack without its SUMMARY (a fragment), wrapped at 72 columns, and
// gdb_bt.log's last two frames.
func TestLostRunWrappedNoGDB(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "samples", "pastes", "made-libfuzzer-cut-clang14.log"))
	if err != nil {
		t.Fatal(err)
	}
	stack, _, _ := strings.Cut(string(data), "\n\n")
	run := strings.Join(wrapLines(strings.Split(stack, "\n"), 72), "\n") + "\n"
	if !strings.Contains(run, "\n    #12 0x55d8bb80eea5 in\n") {
		t.Fatalf("the wrap is not the one this test is about:\n%s", run)
	}
	sc := NewScanner(strings.NewReader(run), "run")
	var frags []*report.Fragment
	sc.OnFragment(func(f *report.Fragment) { frags = append(frags, f) })
	if reps := allReports(t, sc); len(reps) != 0 {
		t.Fatalf("%d reports (%s), want none", len(reps), reps[0].Tool)
	}
	if len(frags) != 1 || len(frags[0].Stacks) != 1 || len(frags[0].Stacks[0].Frames) != 18 {
		t.Fatalf("%d fragments, want 1 of one stack of 18 frames", len(frags))
	}
	for _, f := range frags[0].Stacks[0].Frames {
		if f.Unparsed || f.Module == "" && f.File == "" {
			t.Errorf("frame #%d lost its rest: %q", f.Index, f.Raw)
		}
	}

	lone := "#1  0x0000555555555161 in measure (s=0x0) at g.c:3\n#2  0x000055555555518f in main (argc=1, argv=0x7fffffffe7d8) at g.c:4\n"
	reps := parseAll(t, strings.NewReader(lone), "lone")
	if len(reps) != 1 || reps[0].Tool != report.ProducerGDB.Tool() || len(reps[0].Stacks) != 1 || len(reps[0].Stacks[0].Frames) != 2 {
		t.Errorf("a bt from its #1: %d reports, want one gdb report of 2 frames", len(reps))
	}
}

// TestPIDErrorCut holds a sanitizer headline broken right after its
// "==PID==ERROR:" (a logcat prefix pushes the tool's name past 80
// columns: public-hwasan-chromium-android-symbolized-arrow.log wrapped)
// to one report whose access line stays its own line.
func TestPIDErrorCut(t *testing.T) {
	for _, brk := range []string{"", " "} { // with and without the blank broken at
		log := "07-09 23:43:51.333  1181  1181 I app_process64: ==1181==ERROR:" + brk + "\n" +
			"HWAddressSanitizer: tag-mismatch on address 0x0039862dbca0 at pc 0x006caee73e54\n" +
			"07-09 23:43:51.334  1181  1181 I app_process64: READ of size 1 at\n" +
			"0x0039862dbca0 tags: cd/10 (ptr/mem) in thread T0\n" +
			"07-09 23:43:51.364  1181  1181 I app_process64:     #0 0x6caee73e54  (/data/app/lib/arm64/libchrome.so+0x6873e54) (BuildId: f70b4ed1a4f72e94)\n"
		reps := parseAll(t, strings.NewReader(log), "hwasan-wrapped.log")
		if len(reps) != 1 {
			t.Fatalf("break %q: %d reports, want 1", brk, len(reps))
		}
		r := reps[0]
		if r.Kind != "tag-mismatch" || r.Access == nil || r.Access.Size != 1 {
			t.Errorf("break %q: kind %q, access %+v", brk, r.Kind, r.Access)
		}
		if len(r.Stacks) != 1 || len(r.Stacks[0].Frames) != 1 {
			t.Errorf("break %q: stacks %+v", brk, r.Stacks)
		}
	}
	for _, l := range []string{"x ==ERROR:", "==abc==ERROR:", "=1==ERROR:"} {
		if pidErrorCut([]byte(l)) {
			t.Errorf("pidErrorCut(%q) = true", l)
		}
	}
}

// TestLocationWrapped holds HWASan's location line, broken by a wrapper
// after "0x... is" and before its "[0x...,0x...)" behind a logcat prefix
// (public-hwasan-chromium-android-symbolized-arrow.log wrapped at 72
// columns), to one location; a bracketed range is no writer's "[name]".
func TestLocationWrapped(t *testing.T) {
	p := "07-09 23:43:51.365  1181  1181 I app_process64: "
	log := p + "==1181==ERROR: HWAddressSanitizer: tag-mismatch on address 0x0039862dbca0 at pc 0x006caee73e54\n" +
		p + "READ of size 1 at 0x0039862dbca0 tags: cd/10 (ptr/mem) in thread T0\n" +
		p + "    #0 0x6caee73e54  (/data/app/lib/arm64/libchrome.so+0x6873e54) (BuildId: f70b4ed1a4f72e94)\n" +
		p + "\n" +
		p + "0x0039862dbca0 is\n" +
		"located 32 bytes inside a 120-byte region\n" +
		"[0x0039862dbc80,0x0039862dbcf8)\n" +
		p + "freed by thread T0 here:\n" +
		p + "    #0 0x6caee73e54  (/data/app/lib/arm64/libchrome.so+0x6873e54) (BuildId: f70b4ed1a4f72e94)\n"
	reps := parseAll(t, strings.NewReader(log), "hwasan-location-wrapped.log")
	if len(reps) != 1 {
		t.Fatalf("%d reports, want 1", len(reps))
	}
	want := "0x0039862dbca0 is located 32 bytes inside a 120-byte region [0x0039862dbc80,0x0039862dbcf8)"
	if locs := reps[0].Location; len(locs) != 1 || locs[0].Text != want {
		t.Errorf("locations %+v, want one %q", locs, want)
	}
	for _, s := range []string{"[0x10,0x20)", " [0x0039862dbc80,0x0039862dbcf8) "} {
		if !addrRange([]byte(s)) {
			t.Errorf("addrRange(%q) = false", s)
		}
	}
	for _, s := range []string{"[0x10,0x20) is a small unallocated heap chunk", "[kworker]", "[0x10]", "[0x,0x1)"} {
		if addrRange([]byte(s)) {
			t.Errorf("addrRange(%q) = true", s)
		}
	}
}
