package report

// Fragment is crash output found outside every report: stack frames, with
// the titles between them, whose report's headline is not in the input (a
// paste that begins inside a report, the tail of a report cut off by other
// output, a damaged header no repair could read). It is not a report: it
// has no tool and no bug kind, is never counted, signed or bucketed as a
// crash, and outputs show it apart, marked as what it is, so that the
// frames are neither lost nor taken for a crash of their own.
type Fragment struct {
	Stacks []Stack
	// Frames is how many frame lines the fragment has; its stacks keep
	// the first of them (a producer bounds what it keeps).
	Frames int
	// Summary is the text of a "SUMMARY: " line that ended the fragment
	// (without "SUMMARY: "), "" when none did.
	Summary string
	Input   InputRange
}
