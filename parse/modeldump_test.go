package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/sanitrace/sanitrace/report"
)

// The model's plain dump: the whole report.Report as JSON, its fields by
// their Go names in declaration order, for the goldens of
// testdata/golden/parse. It is a test aid, not an output format (package
// wire has those), so the model carries no json tags for it; what the
// dump leaves out or shortens is said here.

// dumpLeftOut are the fields derived from others, which the dump leaves
// out.
var dumpLeftOut = map[string]bool{
	"Report.Address": true, "Report.HasAddress": true, "Report.StackObjects": true, "Report.LockCycle": true,
	"Stack.Thread": true, "Stack.Location": true, "Stack.Truncated": true,
	"ShadowRow.Base": true, "ShadowRow.HasBase": true,
}

// dumpOmitEmpty are the fields most producers never set, which the dump
// leaves out when they are zero.
var dumpOmitEmpty = map[string]bool{
	"Report.Fuzzer": true, "Report.Kernel": true,
	"Frame.SymbolSize": true, "Frame.HasSymbolSize": true, "Frame.Unreliable": true, "Frame.Context": true, "Frame.Problem": true,
}

var (
	locationType = reflect.TypeFor[report.Location]()
	summaryType  = reflect.TypeFor[report.Summary]()
)

// dumpModel is the model's plain dump of v, indented as
// json.MarshalIndent(v, "", "  ") indents: the lines as printed stand for
// a Location and a Summary (the dump shows what the log said; the typed
// parts are for programs).
func dumpModel(v any) ([]byte, error) {
	var compact bytes.Buffer
	if err := dumpValue(&compact, reflect.ValueOf(v)); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func dumpValue(b *bytes.Buffer, v reflect.Value) error {
	switch {
	case v.Type() == locationType:
		return dumpValue(b, v.FieldByName("Text"))
	case v.Type() == summaryType:
		return dumpValue(b, v.FieldByName("Text"))
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return dumpValue(b, v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := dumpValue(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case reflect.Struct:
		t := v.Type()
		b.WriteByte('{')
		n := 0
		for i := range t.NumField() {
			f := t.Field(i)
			key := t.Name() + "." + f.Name
			if !f.IsExported() || dumpLeftOut[key] || dumpOmitEmpty[key] && v.Field(i).IsZero() {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			name, _ := json.Marshal(f.Name)
			b.Write(name)
			b.WriteByte(':')
			if err := dumpValue(b, v.Field(i)); err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
		}
		b.WriteByte('}')
		return nil
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := dumpValue(b, k); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := dumpValue(b, v.MapIndex(k)); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	}
	// Strings, numbers and booleans as encoding/json spells them.
	leaf, err := json.Marshal(v.Interface())
	if err != nil {
		return err
	}
	b.Write(leaf)
	return nil
}
