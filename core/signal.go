package core

import (
	"fmt"
	"strings"
)

// Linux signal names and gdb's descriptions of them (x86-64 numbering).
var signals = map[int][2]string{
	1: {"SIGHUP", "Hangup"}, 2: {"SIGINT", "Interrupt"}, 3: {"SIGQUIT", "Quit"},
	4: {"SIGILL", "Illegal instruction"}, 5: {"SIGTRAP", "Trace/breakpoint trap"},
	6: {"SIGABRT", "Aborted"}, 7: {"SIGBUS", "Bus error"}, 8: {"SIGFPE", "Arithmetic exception"},
	9: {"SIGKILL", "Killed"}, 10: {"SIGUSR1", "User defined signal 1"},
	11: {"SIGSEGV", "Segmentation fault"}, 12: {"SIGUSR2", "User defined signal 2"},
	13: {"SIGPIPE", "Broken pipe"}, 14: {"SIGALRM", "Alarm clock"}, 15: {"SIGTERM", "Terminated"},
	16: {"SIGSTKFLT", "Stack fault"}, 17: {"SIGCHLD", "Child status changed"},
	18: {"SIGCONT", "Continued"}, 19: {"SIGSTOP", "Stopped (signal)"}, 20: {"SIGTSTP", "Stopped (user)"},
	21: {"SIGTTIN", "Stopped (tty input)"}, 22: {"SIGTTOU", "Stopped (tty output)"},
	23: {"SIGURG", "Urgent I/O condition"}, 24: {"SIGXCPU", "CPU time limit exceeded"},
	25: {"SIGXFSZ", "File size limit exceeded"}, 26: {"SIGVTALRM", "Virtual timer expired"},
	27: {"SIGPROF", "Profiling timer expired"}, 28: {"SIGWINCH", "Window size changed"},
	29: {"SIGIO", "I/O possible"}, 30: {"SIGPWR", "Power fail/restart"}, 31: {"SIGSYS", "Bad system call"},
}

// SignalName is the name of Linux signal n ("SIG34" style for real-time
// and unknown ones).
func SignalName(n int) string {
	if s, ok := signals[n]; ok {
		return s[0]
	}
	if n >= 34 && n <= 64 {
		return fmt.Sprintf("SIG%d", n)
	}
	return fmt.Sprintf("signal %d", n)
}

// SignalDescription is what gdb says of Linux signal n ("Segmentation
// fault").
func SignalDescription(n int) string {
	if s, ok := signals[n]; ok {
		return s[1]
	}
	return strings.TrimPrefix(SignalName(n), "SIG")
}
