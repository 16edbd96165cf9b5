package render

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/sanitrace/sanitrace/wire"
)

// sarifFingerprint is the partialFingerprints key holding the bucket id:
// GitHub code scanning matches results across runs by it.
const sarifFingerprint = "sanitraceBucket/v1"

// WriteSARIF writes doc as SARIF 2.1.0 for GitHub code scanning and other
// SARIF consumers: one result per bucket, its rule the bug kind, its
// location the top user frame of the bucket's first report, every stack of
// that report as a SARIF stack and as a thread flow of a code flow, and the
// bucket id as the partial fingerprint. The SARIF document is built with
// github.com/owenrumney/go-sarif.
func WriteSARIF(w io.Writer, doc *wire.Batch, opts BatchOptions) error {
	rep, err := sarif.New(sarif.Version210)
	if err != nil {
		return fmt.Errorf("sarif: %w", err)
	}
	run := sarif.NewRunWithInformationURI("sanitrace", "https://github.com/sanitrace/sanitrace")
	if opts.Version != "" {
		run.Tool.Driver.WithVersion(opts.Version)
	}
	for _, b := range doc.Buckets {
		if len(b.Reports) == 0 || b.Reports[0] >= len(doc.Reports) {
			return fmt.Errorf("sarif: bucket %s names no report", b.ID)
		}
		r := &doc.Reports[b.Reports[0]]
		rule := run.AddRule(b.Kind)
		if rule.ShortDescription == nil {
			// GitHub code scanning shows the descriptions and the help
			// with each alert (the multitool's GH2012 asks for both).
			// Plain text only: tool and kind come from the log.
			rule.WithShortDescription(sarif.NewMultiformatMessageString(sarifText(b.Tool + ": " + b.Kind)))
			rule.WithFullDescription(sarif.NewMultiformatMessageString(sarifText(b.Tool + " reported " + b.Kind + " at run time.")))
			rule.WithTextHelp(sarifText(b.Tool+" reported "+b.Kind) + ". sanitrace groups the reports of a batch run into buckets by signature " +
				"(tool, kind and the first three frames of user code); each result of this rule is one bucket, located at its top user frame, " +
				"with the stacks of its first report as stacks and code flows, its signature and report count in its properties, " +
				"and its bucket id as the partial fingerprint " + sarifFingerprint + ".")
			rule.WithName(ruleName(b.Kind))
			rule.WithProperties(sarif.Properties{"tags": []string{"security", "sanitizer"}})
		}
		msg := r.Headline
		if msg == "" {
			msg = b.Tool + ": " + b.Kind
		}
		res := run.CreateResultForRule(b.Kind).
			WithLevel("error").
			WithMessage(sarif.NewTextMessage(sarifText(msg))).
			WithPartialFingerPrints(map[string]interface{}{sarifFingerprint: b.ID})
		res.Properties = sarif.Properties{"signature": b.Signature, "count": b.Count, "new": b.New, "firstSeen": b.First.Name()}
		res.AddLocation(primaryLocation(r, opts.SourceRoot))
		seen := make(map[string]bool) // SARIF wants a result's stacks unique
		flow := sarif.NewCodeFlow().WithMessage(sarif.NewTextMessage(sarifText(msg)))
		for _, s := range r.Stacks {
			if len(s.Frames) == 0 {
				continue
			}
			title := s.Title
			if title == "" {
				title = s.Role
			}
			st := sarif.NewStack().WithMessage(sarif.NewTextMessage(sarifText(title)))
			tf := sarif.NewThreadFlow().WithMessage(sarif.NewTextMessage(sarifText(title)))
			for _, f := range s.Frames {
				sf := sarif.NewStackFrame().WithLocation(frameLocation(f, opts.SourceRoot))
				tl := sarif.NewThreadFlowLocation().WithLocation(frameLocation(f, opts.SourceRoot))
				if f.Module != nil {
					sf.WithModule(*f.Module)
					tl.WithModule(*f.Module)
				}
				st.AddFrame(sf)
				tf.AddLocation(tl)
			}
			// Two leaks allocated alike print the same stack; SARIF wants
			// a result's stacks unique, so one stands for both.
			key, err := json.Marshal(st)
			if err != nil {
				return fmt.Errorf("sarif: %w", err)
			}
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			res.AddStack(st)
			flow.AddThreadFlow(tf)
		}
		if len(flow.ThreadFlows) > 0 {
			res.AddCodeFlow(flow)
		}
	}
	rep.AddRun(run)
	if err := rep.PrettyWrite(w); err != nil {
		return fmt.Errorf("sarif: %w", err)
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// ruleName spells a kind as a SARIF rule name: "heap-use-after-free" ->
// "HeapUseAfterFree".
func ruleName(kind string) string {
	var b strings.Builder
	up := true
	for _, c := range kind {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			if up && c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			b.WriteRune(c)
			up = false
		default:
			up = true
		}
	}
	return b.String()
}

// primaryLocation is the first frame of the report's first stack with a
// source file that is user code; without one, the log itself at the
// report's first line (code scanning needs a location for every result).
func primaryLocation(r *wire.BatchReport, root string) *sarif.Location {
	if len(r.Stacks) > 0 {
		for _, f := range r.Stacks[0].Frames {
			if f.File != nil && f.Line > 0 && f.User {
				return frameLocation(f, root)
			}
		}
	}
	loc := sarif.NewPhysicalLocation().
		WithArtifactLocation(sarif.NewSimpleArtifactLocation(fileURI(r.Source.Path, ""))).
		WithRegion(sarif.NewRegion().WithStartLine(max(r.Source.FirstLine, 1)))
	return sarif.NewLocation().WithPhysicalLocation(loc).
		WithMessage(sarif.NewTextMessage(sarifText("reported in " + r.Source.Name())))
}

// frameLocation: file:line:column of a frame, its function as a logical
// location and the message.
func frameLocation(f wire.Frame, root string) *sarif.Location {
	loc := sarif.NewLocation()
	fn := "??"
	if f.Function != nil {
		fn = *f.Function
		loc.AddLogicalLocations(sarif.NewLogicalLocation().WithFullyQualifiedName(fn).WithKind("function"))
	}
	text := fn
	if f.File != nil {
		pl := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(fileURI(*f.File, root)))
		if f.Line > 0 {
			reg := sarif.NewRegion().WithStartLine(f.Line)
			if f.Column > 0 {
				reg.WithStartColumn(f.Column)
			}
			pl.WithRegion(reg)
		}
		loc.WithPhysicalLocation(pl)
	} else if f.Module != nil {
		text += " in " + *f.Module
		if f.Offset != nil {
			text += "+" + *f.Offset
		}
	}
	return loc.WithMessage(sarif.NewTextMessage(sarifText(text)))
}

// fileURI makes a path a URI reference: relative to root when it lies
// below it (code scanning resolves those against the repository), else a
// file: URI. SARIF forbids ".." segments: absolute paths are cleaned (as
// clang's "/usr/bin/../lib/gcc/..." header names), and a relative path
// loses the leading ".." that only meant something in its compile
// directory.
func fileURI(p, root string) string {
	p = path.Clean(filepath.ToSlash(p))
	for strings.HasPrefix(p, "../") {
		p = p[3:]
	}
	if root != "" {
		r := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(root)), "/") + "/"
		if strings.HasPrefix(p, r) {
			return (&url.URL{Path: path.Clean(strings.TrimPrefix(p, r))}).String()
		}
	}
	if strings.HasPrefix(p, "/") {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}

// sarifText escapes log text for a SARIF plain-text message, where
// "[text](target)" is an embedded link that viewers such as GitHub code
// scanning render (SARIF 2.1.0 §3.11.6): "\\", "[" and "]" are escaped with
// a backslash, as the spec provides, so that a log cannot add a link.
func sarifText(s string) string {
	if !strings.ContainsAny(s, `\[]`) {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}
