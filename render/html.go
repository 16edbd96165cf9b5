package render

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/wire"
)

// htmlMaxLogs is how many logs of a bucket the page names (the JSON
// output has them all): the page grows with the buckets, not the reports.
const htmlMaxLogs = 10

// htmlChartBars is how many buckets the bar chart draws.
const htmlChartBars = 25

// htmlSourceFrames is how many in-app frames of the representative
// report's first stack show their source lines, and htmlSourceLines how
// many lines around each.
const (
	htmlSourceFrames = 3
	htmlSourceLines  = 2
)

// WriteHTML writes doc as one self-contained page: inline style and script,
// no external request of any kind. An overview leads: a bar chart of the
// reports per bucket (inline SVG) and a table of the buckets, most reports
// first (count, new or known against a baseline, tool and kind, top in-app
// frames, first and last seen). Then each bucket opens to its
// representative report (its first), laid out as its producer prints
// frames, with source lines of its in-app frames where the sources are
// found, and a collapsed list of its first htmlMaxLogs logs and a count: the
// page grows with the buckets, not with the reports. A search box and a
// "new only" switch filter the table and the buckets together. All log
// text goes through html/template, which escapes it for the context it
// lands in, after termsafe has made its control characters visible.
func WriteHTML(w io.Writer, doc *wire.Batch, opts BatchOptions) error {
	page := htmlPage{Doc: doc, Baseline: opts.Baseline}
	src := newSourceReader(opts.SourcePath)
	max := 0
	for i := range doc.Buckets {
		max = maxInt(max, doc.Buckets[i].Count)
	}
	for i := range doc.Buckets {
		b := &doc.Buckets[i]
		if len(b.Reports) == 0 || b.Reports[0] >= len(doc.Reports) {
			return fmt.Errorf("html: bucket %s names no report of the %d", b.ID, len(doc.Reports))
		}
		r := &doc.Reports[b.Reports[0]]
		hb := htmlBucket{Bucket: b, Frames: b.Frames(), Note: signatureNote(b), Headline: r.Headline,
			Rep: htmlReportOf(r, src)}
		search := []string{b.ID, b.Tool, b.Kind, b.Signature}
		for j, ri := range b.Reports {
			if j == htmlMaxLogs {
				break
			}
			if ri >= len(doc.Reports) {
				return fmt.Errorf("html: bucket %s names report %d of %d", b.ID, ri, len(doc.Reports))
			}
			src := doc.Reports[ri].Source
			hb.Logs = append(hb.Logs, src)
			search = append(search, src.Name())
		}
		hb.MoreLogs = len(b.Reports) - len(hb.Logs)
		for _, m := range b.Merged {
			search = append(search, m.ID, m.Signature)
		}
		hb.Search = strings.ToLower(termsafe.Line(strings.Join(search, " ")))
		if b.New {
			page.New++
		}
		page.Buckets = append(page.Buckets, hb)
		if i < htmlChartBars {
			label := b.Tool + ": " + b.Kind
			if len(hb.Frames) > 0 {
				label += " in " + hb.Frames[0]
			}
			page.Chart = append(page.Chart, htmlBar{ID: b.ID, Label: clip(label, 52), Count: b.Count, New: b.New,
				Y: i * htmlBarHeight, Width: 1 + b.Count*(htmlChartWidth-1)/max})
		}
	}
	page.ChartHeight = len(page.Chart) * htmlBarHeight
	page.MoreBars = len(doc.Buckets) - len(page.Chart)
	if err := htmlTemplate().Execute(w, page); err != nil {
		return fmt.Errorf("html: %w", err)
	}
	return nil
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// The bar chart's geometry, in pixels: a bar's height and the longest
// bar (the labels take the width before it).
const (
	htmlBarHeight  = 22
	htmlChartWidth = 360
	htmlLabelWidth = 420
)

type htmlPage struct {
	Doc         *wire.Batch
	Buckets     []htmlBucket
	New         int
	Baseline    bool
	Chart       []htmlBar
	ChartHeight int
	MoreBars    int
}

// htmlBar is one bar of the chart: Y and Width in pixels.
type htmlBar struct {
	ID, Label string
	Count     int
	New       bool
	Y, Width  int
}

type htmlBucket struct {
	*wire.Bucket
	Frames   []string
	Note     string // how the signature was made, when not from in-app frames
	Headline string
	Rep      htmlReport
	Logs     []wire.Source
	MoreLogs int
	Search   string
}

// htmlReport is the representative report of a bucket as the page shows
// it.
type htmlReport struct {
	R      *wire.BatchReport
	Stacks []htmlStack
	Shadow *htmlShadow
}

type htmlStack struct {
	Title  string
	Frames []htmlFrame
	More   int // frames past htmlMaxFrames, not shown
}

// htmlMaxFrames is how many frames of a stack the page shows (a stack
// overflow prints hundreds).
const htmlMaxFrames = 40

// htmlFrame is a frame in its producer's layout (batchFrame), and the
// source lines around it when it is in-app and its source was found.
type htmlFrame struct {
	Text   string
	User   bool
	Source []htmlSourceLine
}

type htmlSourceLine struct {
	No      int
	Text    string
	Current bool
}

func htmlReportOf(r *wire.BatchReport, src *sourceReader) htmlReport {
	out := htmlReport{R: r, Shadow: shadowView(r.Shadow)}
	withSource := 0
	for si, s := range r.Stacks {
		hs := htmlStack{Title: s.Title}
		for i, f := range s.Frames {
			if i == htmlMaxFrames {
				hs.More = len(s.Frames) - i
				break
			}
			hf := htmlFrame{Text: batchFrame(r.Tool, i, f), User: f.User}
			if si == 0 && f.User && f.File != nil && f.Line > 0 && withSource < htmlSourceFrames {
				first := maxInt(1, f.Line-htmlSourceLines)
				for k, l := range src.lines(*f.File, first, f.Line+htmlSourceLines) {
					hf.Source = append(hf.Source, htmlSourceLine{No: first + k, Text: l, Current: first+k == f.Line})
				}
				if hf.Source != nil {
					withSource++
				}
			}
			hs.Frames = append(hs.Frames, hf)
		}
		out.Stacks = append(out.Stacks, hs)
	}
	return out
}

// htmlShadow is a shadow dump with each byte's meaning looked up.
type htmlShadow struct {
	Rows   []htmlShadowRow
	Legend []htmlLegend
}

type htmlShadowRow struct {
	Address string
	Current bool
	Bytes   []htmlShadowByte
}

type htmlShadowByte struct {
	Value   string
	Meaning string
	Class   string
	Marked  bool
}

type htmlLegend struct{ Value, Meaning, Class string }

// shadowView decodes a shadow dump for the page: "00" is addressable, a
// partial byte "01".."07" says how many bytes are, every other value is
// explained by the runtime's own legend.
func shadowView(s *wire.Shadow) *htmlShadow {
	if s == nil || len(s.Rows) == 0 {
		return nil
	}
	meaning := func(v string) string {
		if m, ok := s.Legend[v]; ok {
			return m
		}
		switch {
		case v == "00":
			return "Addressable"
		case len(v) == 2 && v[0] == '0' && v[1] >= '1' && v[1] <= '7':
			return fmt.Sprintf("Partially addressable: %c bytes", v[1])
		}
		return "unknown shadow value"
	}
	class := func(v string) string {
		switch {
		case v == "00":
			return "sb-ok"
		case len(v) == 2 && v[0] == '0':
			return "sb-part"
		}
		return "sb-bad"
	}
	out := &htmlShadow{}
	for _, r := range s.Rows {
		row := htmlShadowRow{Address: r.Address, Current: r.Current}
		for i, v := range r.Bytes {
			row.Bytes = append(row.Bytes, htmlShadowByte{Value: v, Meaning: meaning(v), Class: class(v),
				Marked: r.Marked != nil && *r.Marked == i})
		}
		out.Rows = append(out.Rows, row)
	}
	keys := make([]string, 0, len(s.Legend))
	for k := range s.Legend {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out.Legend = append(out.Legend, htmlLegend{Value: k, Meaning: s.Legend[k], Class: class(k)})
	}
	return out
}

// htmlTemplate is parsed on first use: parsing it at init cost every
// process (a one-address symbolize included) a few hundred microseconds.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		// t makes log text printable (control characters visible) before
		// html/template escapes it.
		"t": termsafe.Line,
		// lines is t of each line of a multi-line frame.
		"lines": func(s string) string {
			ls := strings.Split(s, "\n")
			for i := range ls {
				ls[i] = termsafe.Line(ls[i])
			}
			return strings.Join(ls, "\n")
		},
		"str": func(p *string) string {
			if p == nil {
				return ""
			}
			return termsafe.Line(*p)
		},
		"plural":     plural,
		"labelWidth": func() int { return htmlLabelWidth },
		"chartWidth": func() int { return htmlLabelWidth + htmlChartWidth + 60 },
		"add":        func(a, b int) int { return a + b },
	}).Parse(htmlSource))
})

const htmlSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sanitrace: {{plural (len .Buckets) "bucket"}}</title>
<script>
// Collects script errors into the page, where a headless browser's DOM dump shows them.
(function () {
  var errs = [];
  function note(msg) {
    errs.push(String(msg));
    var el = document.getElementById("js-errors");
    if (el) { el.textContent = errs.join("\n"); el.hidden = false; }
  }
  window.addEventListener("error", function (e) { note(e.message || e); });
  var ce = console.error;
  console.error = function () { note(Array.prototype.join.call(arguments, " ")); ce.apply(console, arguments); };
})();
</script>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1b1b; background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
h2 { font-size: 1.1em; margin: 0; display: inline; }
.controls { position: sticky; top: 0; z-index: 1; background: #fff; padding: .5em 0; border-bottom: 1px solid #ddd; margin-bottom: 1em; }
.controls input[type=search] { width: 28em; max-width: 70%; padding: .3em; }
.controls label { margin: 0 1em; }
svg.chart { display: block; margin: .5em 0 1em; font: 12px ui-monospace, monospace; }
svg.chart rect { fill: #7a8ca8; }
svg.chart g.new rect { fill: #c33; }
svg.chart g.bar { cursor: pointer; }
svg.chart g.bar:hover rect { fill: #345; }
table.overview tr.row { cursor: pointer; }
table.overview tr.row:hover { background: #f4f7fb; }
table.overview td.go code { color: #1a4d8f; }
table.overview td code { overflow-wrap: anywhere; }
table.overview { border-collapse: collapse; width: 100%; margin-bottom: 1.5em; }
table.overview th, table.overview td { text-align: left; padding: .25em .6em; border-bottom: 1px solid #e4e4e4; vertical-align: top; }
table.overview th { background: #f3f3f3; position: sticky; top: 3.2em; }
table.overview td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.overview tr.new td:first-child { box-shadow: inset 3px 0 #c33; }
.bucket { border: 1px solid #ccc; border-radius: 6px; padding: .6em .9em; margin: .8em 0; }
.bucket.new { border-color: #c33; box-shadow: 0 0 0 1px #c33; }
.bucket > details > summary { cursor: pointer; }
.badge { display: inline-block; padding: 0 .5em; border-radius: 3px; font-size: .85em; font-weight: 600; }
.badge.new { background: #c33; color: #fff; }
.badge.known { background: #e4efe4; color: #2a5a2a; }
.badge.count { background: #eee; }
.badge.corrupted { background: #f6e3b4; color: #6b4b00; }
.sig { font-family: ui-monospace, monospace; color: #555; font-size: .9em; }
.note { color: #6b4b00; font-size: .9em; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; margin: .4em 0; white-space: pre-wrap; }
ol.frames { overflow-x: auto; margin: .2em 0; padding-left: 1em; list-style: none; font-family: ui-monospace, monospace; font-size: .9em; }
ol.frames li { white-space: pre; }
ol.frames li.sys { color: #888; }
ol.frames li.user { font-weight: 600; }
table.src { border-collapse: collapse; margin: .1em 0 .4em 2em; font-family: ui-monospace, monospace; font-size: .85em; font-weight: 400; background: #f8f8f2; }
table.src td { padding: 0 .5em; white-space: pre; }
table.src td.no { color: #999; text-align: right; }
table.src tr.cur { background: #fff2b3; }
table.shadow { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: .85em; margin: .4em 0; }
table.shadow td { padding: 0 .25em; }
table.shadow tr.current td.addr { font-weight: 700; }
.sb-ok { color: #2a7a2a; } .sb-part { color: #b86e00; } .sb-bad { color: #b00020; }
.marked { outline: 2px solid #b00020; font-weight: 700; }
ul.legend { display: flex; flex-wrap: wrap; gap: .2em 1.2em; list-style: none; padding-left: 0; font-size: .85em; }
details.logs { margin: .5em 0; }
details.logs ul { font-family: ui-monospace, monospace; font-size: .9em; }
.errors li { font-family: ui-monospace, monospace; }
#js-errors { color: #b00020; }
</style>
</head>
<body>
<h1>sanitrace: {{plural (len .Buckets) "distinct bug"}} in {{plural (len .Doc.Reports) "report"}}{{if .New}}, <span class="badge new">{{.New}} new</span>{{end}}</h1>
<p>{{plural .Doc.Inputs "log"}} decoded{{if .Doc.Errors}}; {{plural (len .Doc.Errors) "input error"}} (at the end){{end}}{{if .Doc.Fragments}}; {{plural (len .Doc.Fragments) "unattached fragment"}}: frames outside any report, not counted as bugs (in the JSON output){{end}}.</p>
<pre id="js-errors" hidden></pre>
<div class="controls">
<input type="search" id="filter" placeholder="filter: function, kind, file, bucket id" aria-label="filter buckets">
<label><input type="checkbox" id="new-only"> new only</label>
<span><span id="shown">{{len .Buckets}}</span> of {{len .Buckets}} buckets shown</span>
</div>
{{if .Chart}}<svg class="chart" role="img" aria-label="reports per bucket" width="{{chartWidth}}" height="{{.ChartHeight}}" viewBox="0 0 {{chartWidth}} {{.ChartHeight}}">
{{range .Chart}}<g class="bar{{if .New}} new{{end}}" data-id="{{.ID}}"><title>{{t .Label}}: {{plural .Count "report"}}</title>
<text x="0" y="{{add .Y 15}}">{{t .Label}}</text><rect x="{{labelWidth}}" y="{{add .Y 3}}" width="{{.Width}}" height="16"></rect><text x="{{add labelWidth (add .Width 6)}}" y="{{add .Y 15}}">{{.Count}}</text></g>
{{end}}</svg>{{if .MoreBars}}<p>{{plural .MoreBars "smaller bucket"}} not drawn.</p>{{end}}{{end}}
<table class="overview" id="overview">
<thead><tr><th>Count</th>{{if .Baseline}}<th>Status</th>{{end}}<th>Tool</th><th>Kind</th><th>Top in-app frames</th><th>First seen</th><th>Last seen</th></tr></thead>
<tbody>
{{range .Buckets}}<tr class="row{{if .New}} new{{end}}" data-id="{{.ID}}" data-new="{{.New}}" data-search="{{.Search}}"><td class="num">{{.Count}}</td>{{if $.Baseline}}<td>{{if .New}}<span class="badge new">new</span>{{else}}<span class="badge known">known</span>{{end}}</td>{{end}}<td>{{t .Tool}}</td><td>{{t .Kind}}{{if .Corrupted}} <span class="badge corrupted">corrupted</span>{{end}}</td><td class="go">{{if .Frames}}{{range $i, $f := .Frames}}{{if $i}} ← {{end}}<code>{{t $f}}</code>{{end}}{{else}}<code>{{.ID}}</code>{{end}}{{if .Note}} <span class="note">({{t .Note}})</span>{{end}}</td><td><code>{{t .First.Name}}</code>:{{.First.FirstLine}}</td><td><code>{{t .Last.Name}}</code>:{{.Last.FirstLine}}</td></tr>
{{end}}</tbody>
</table>
<main id="buckets">
{{range .Buckets}}
<section class="bucket{{if .New}} new{{end}}" id="bucket-{{.ID}}" data-id="{{.ID}}" data-new="{{.New}}" data-search="{{.Search}}">
<details>
<summary>{{if .New}}<span class="badge new">new</span> {{end}}<span class="badge count">{{.Count}}×</span> <h2>{{t .Tool}}: {{t .Kind}}</h2> <span class="sig">bucket <code>{{.ID}}</code></span></summary>
<div class="sig">{{t .Signature}}</div>
{{if .Note}}<div class="note">{{t .Note}}</div>{{end}}
{{if .Merged}}<div>Joined by <code>--group similar</code>:<ul>{{range .Merged}}<li><code>{{.ID}}</code> {{plural .Count "report"}}: <code>{{t .Signature}}</code></li>{{end}}</ul></div>{{end}}
{{with .Rep}}{{$r := .R}}
<div>Representative report: <code>{{t $r.Source.Name}}</code> lines {{$r.Source.FirstLine}}–{{$r.Source.LastLine}}</div>
<pre>{{t $r.Headline}}</pre>
{{range .Stacks}}<div class="stack"><div>{{t .Title}}</div>
<ol class="frames">{{range .Frames}}<li class="{{if .User}}user{{else}}sys{{end}}">{{lines .Text}}{{if .Source}}<table class="src">{{range .Source}}<tr{{if .Current}} class="cur"{{end}}><td class="no">{{.No}}</td><td>{{t .Text}}</td></tr>{{end}}</table>{{end}}</li>{{end}}{{if .More}}<li class="sys">… {{plural .More "more frame"}} (the JSON output has them)</li>{{end}}</ol></div>
{{end}}{{if $r.Location}}<pre>{{str $r.Location}}</pre>{{end}}
{{with .Shadow}}<div>Shadow bytes around the buggy address:</div>
<table class="shadow">{{range .Rows}}<tr{{if .Current}} class="current"{{end}}><td class="addr">{{if .Current}}=&gt;{{end}}{{t .Address}}:</td>{{range .Bytes}}<td class="{{.Class}}{{if .Marked}} marked{{end}}" title="{{t .Meaning}}">{{t .Value}}</td>{{end}}</tr>
{{end}}</table>
{{range .Rows}}{{range .Bytes}}{{if .Marked}}<div>The access hits shadow byte <span class="{{.Class}} marked">{{t .Value}}</span>: {{t .Meaning}}.</div>{{end}}{{end}}{{end}}
<ul class="legend">{{range .Legend}}<li><span class="{{.Class}}">{{t .Value}}</span> {{t .Meaning}}</li>{{end}}</ul>
{{end}}{{if $r.Summary}}<div>SUMMARY: {{str $r.Summary}}</div>{{end}}
{{end}}
<details class="logs"><summary>{{plural .Count "report"}}{{if .MoreLogs}}: the first {{len .Logs}} listed{{end}}</summary>
<ul>{{range .Logs}}<li><code>{{t .Name}}</code> lines {{.FirstLine}}–{{.LastLine}}</li>{{end}}</ul>
{{if .MoreLogs}}<p>and {{.MoreLogs}} more: the JSON output lists them all.</p>{{end}}
</details>
</details>
</section>
{{end}}
</main>
{{if .Doc.Errors}}<h2>Input errors</h2>
<ul class="errors">{{range .Doc.Errors}}<li>{{t .Source.Name}}: {{t .Error}}</li>{{end}}</ul>{{end}}
<script>
(function () {
  var filter = document.getElementById("filter");
  var newOnly = document.getElementById("new-only");
  var shown = document.getElementById("shown");
  var items = document.querySelectorAll("section.bucket, tr.row");
  function apply() {
    var q = filter.value.toLowerCase().trim();
    var n = 0;
    for (var i = 0; i < items.length; i++) {
      var b = items[i];
      var ok = (!q || b.getAttribute("data-search").indexOf(q) >= 0) && (!newOnly.checked || b.getAttribute("data-new") === "true");
      b.hidden = !ok;
      if (ok && b.tagName === "SECTION") n++;
    }
    shown.textContent = String(n);
  }
  filter.addEventListener("input", apply);
  newOnly.addEventListener("change", apply);
  // A row of the table or a bar of the chart opens its bucket.
  function openBucket(id) {
    var el = document.getElementById("bucket-" + id);
    if (!el) { return; }
    el.querySelector("details").open = true;
    el.scrollIntoView();
  }
  var links = document.querySelectorAll("tr.row, g.bar");
  for (var i = 0; i < links.length; i++) {
    links[i].addEventListener("click", function () { openBucket(this.getAttribute("data-id")); });
  }
  if (location.hash.indexOf("#bucket-") === 0) { openBucket(location.hash.slice(8)); }
  apply();
  document.body.setAttribute("data-ready", String(document.querySelectorAll("section.bucket").length));
})();
</script>
</body>
</html>
`
