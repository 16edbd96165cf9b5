package render

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/wire"
)

// htmlMaxReports bounds the reports a bucket shows in the page (the JSON
// output has them all).
const htmlMaxReports = 50

// WriteHTML writes doc as one self-contained page: inline style and script,
// no external request of any kind. Buckets (new first) hold expandable
// reports with their stacks and decoded shadow maps; a search box and a
// "new only" switch filter them. All log text goes through html/template,
// which escapes it for the context it lands in.
func WriteHTML(w io.Writer, doc *wire.Batch) error {
	page := htmlPage{Doc: doc}
	for _, b := range bucketsNewFirst(doc) {
		hb := htmlBucket{Bucket: b, Frames: b.Frames()}
		var search []string
		search = append(search, b.ID, b.Tool, b.Kind, b.Signature)
		for i, ri := range b.Reports {
			if ri >= len(doc.Reports) {
				return fmt.Errorf("html: bucket %s names report %d of %d", b.ID, ri, len(doc.Reports))
			}
			r := &doc.Reports[ri]
			if i == 0 {
				hb.Headline = r.Headline
			}
			search = append(search, r.Source.Name())
			if i < htmlMaxReports {
				hb.Reports = append(hb.Reports, htmlReport{R: r, Shadow: shadowView(r.Shadow)})
			}
		}
		hb.More = len(b.Reports) - len(hb.Reports)
		hb.Search = strings.ToLower(strings.Join(search, " "))
		if b.New {
			page.New++
		}
		page.Buckets = append(page.Buckets, hb)
	}
	if err := htmlTemplate().Execute(w, page); err != nil {
		return fmt.Errorf("html: %w", err)
	}
	return nil
}

type htmlPage struct {
	Doc     *wire.Batch
	Buckets []htmlBucket
	New     int
}

type htmlBucket struct {
	*wire.Bucket
	Frames   []string
	Headline string
	Reports  []htmlReport
	More     int
	Search   string
}

type htmlReport struct {
	R      *wire.BatchReport
	Shadow *htmlShadow
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
		"frame": func(i int, f wire.Frame) string { return frameLine(i, f) },
		"str": func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		},
		"plural": plural,
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
.controls { position: sticky; top: 0; background: #fff; padding: .5em 0; border-bottom: 1px solid #ddd; margin-bottom: 1em; }
.controls input[type=search] { width: 28em; max-width: 70%; padding: .3em; }
.bucket { border: 1px solid #ccc; border-radius: 6px; padding: .6em .9em; margin: .8em 0; }
.bucket.new { border-color: #c33; box-shadow: 0 0 0 1px #c33; }
.badge { display: inline-block; padding: 0 .5em; border-radius: 3px; font-size: .85em; font-weight: 600; }
.badge.new { background: #c33; color: #fff; }
.badge.count { background: #eee; }
.sig { font-family: ui-monospace, monospace; color: #555; font-size: .9em; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; margin: .4em 0; }
details.report { margin: .4em 0 .4em 1em; }
details.report > summary { cursor: pointer; }
ol.frames { margin: .2em 0; padding-left: 1em; list-style: none; font-family: ui-monospace, monospace; font-size: .9em; }
ol.frames li.sys { color: #888; }
table.shadow { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: .85em; margin: .4em 0; }
table.shadow td { padding: 0 .25em; }
table.shadow tr.current td.addr { font-weight: 700; }
.sb-ok { color: #2a7a2a; } .sb-part { color: #b86e00; } .sb-bad { color: #b00020; }
.marked { outline: 2px solid #b00020; font-weight: 700; }
ul.legend { display: flex; flex-wrap: wrap; gap: .2em 1.2em; list-style: none; padding-left: 0; font-size: .85em; }
.controls label { margin: 0 1em; }
.errors li { font-family: ui-monospace, monospace; }
#js-errors { color: #b00020; }
</style>
</head>
<body>
<h1>sanitrace: {{plural (len .Buckets) "distinct bug"}} in {{plural (len .Doc.Reports) "report"}}{{if .New}}, <span class="badge new">{{.New}} new</span>{{end}}</h1>
<p>{{plural .Doc.Inputs "log"}} decoded{{if .Doc.Errors}}; {{plural (len .Doc.Errors) "input error"}} (at the end){{end}}.</p>
<pre id="js-errors" hidden></pre>
<div class="controls">
<input type="search" id="filter" placeholder="filter: function, kind, file, bucket id" aria-label="filter buckets">
<label><input type="checkbox" id="new-only"> new only</label>
<span><span id="shown">{{len .Buckets}}</span> of {{len .Buckets}} buckets shown</span>
</div>
<main id="buckets">
{{range .Buckets}}
<section class="bucket{{if .New}} new{{end}}" id="bucket-{{.ID}}" data-id="{{.ID}}" data-new="{{.New}}" data-search="{{.Search}}">
<h2>{{if .New}}<span class="badge new">new</span> {{end}}<span class="badge count">{{.Count}}×</span> {{.Tool}}: {{.Kind}}</h2>
<div class="sig">{{.Signature}} · bucket <code>{{.ID}}</code></div>
{{if .Frames}}<div>top frames: {{range $i, $f := .Frames}}{{if $i}} ← {{end}}<code>{{$f}}</code>{{end}}</div>{{end}}
<pre>{{.Headline}}</pre>
<div>first seen: <code>{{.First.Name}}</code> line {{.First.FirstLine}}{{if gt .Count 1}}; last: <code>{{.Last.Name}}</code> line {{.Last.FirstLine}}{{end}}</div>
{{range .Reports}}{{$r := .R}}
<details class="report">
<summary><code>{{$r.Source.Name}}</code> lines {{$r.Source.FirstLine}}–{{$r.Source.LastLine}}</summary>
<pre>{{$r.Headline}}</pre>
{{range $r.Stacks}}<div class="stack"><div>{{.Title}}</div>
<ol class="frames" start="0">{{range $i, $f := .Frames}}<li{{if not $f.User}} class="sys"{{end}}>{{frame $i $f}}</li>{{end}}</ol></div>
{{end}}{{if $r.Location}}<pre>{{str $r.Location}}</pre>{{end}}
{{with .Shadow}}<div>Shadow bytes around the buggy address:</div>
<table class="shadow">{{range .Rows}}<tr{{if .Current}} class="current"{{end}}><td class="addr">{{if .Current}}=&gt;{{end}}{{.Address}}:</td>{{range .Bytes}}<td class="{{.Class}}{{if .Marked}} marked{{end}}" title="{{.Meaning}}">{{.Value}}</td>{{end}}</tr>
{{end}}</table>
{{range .Rows}}{{range .Bytes}}{{if .Marked}}<div>The access hits shadow byte <span class="{{.Class}} marked">{{.Value}}</span>: {{.Meaning}}.</div>{{end}}{{end}}{{end}}
<ul class="legend">{{range .Legend}}<li><span class="{{.Class}}">{{.Value}}</span> {{.Meaning}}</li>{{end}}</ul>
{{end}}{{if $r.Summary}}<div>SUMMARY: {{str $r.Summary}}</div>{{end}}
</details>
{{end}}{{if .More}}<p>{{.More}} more reports in this bucket are in the JSON output.</p>{{end}}
</section>
{{end}}
</main>
{{if .Doc.Errors}}<h2>Input errors</h2>
<ul class="errors">{{range .Doc.Errors}}<li>{{.Source.Name}}: {{.Error}}</li>{{end}}</ul>{{end}}
<script>
(function () {
  var filter = document.getElementById("filter");
  var newOnly = document.getElementById("new-only");
  var shown = document.getElementById("shown");
  var buckets = document.querySelectorAll("section.bucket");
  function apply() {
    var q = filter.value.toLowerCase().trim();
    var n = 0;
    for (var i = 0; i < buckets.length; i++) {
      var b = buckets[i];
      var ok = (!q || b.getAttribute("data-search").indexOf(q) >= 0) && (!newOnly.checked || b.getAttribute("data-new") === "true");
      b.hidden = !ok;
      if (ok) n++;
    }
    shown.textContent = String(n);
  }
  filter.addEventListener("input", apply);
  newOnly.addEventListener("change", apply);
  apply();
  document.body.setAttribute("data-ready", String(buckets.length));
})();
</script>
</body>
</html>
`
