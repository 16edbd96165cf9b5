package debuginfo

import "testing"

func TestApply(t *testing.T) {
	maps := []PrefixMap{
		{From: "/build/ci", To: "/home/me/corpus"},
		{From: "/build/", To: "rel"},
		{From: "/", To: "/sysroot"},
	}
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/build/ci/cases/x/bin", "/home/me/corpus/cases/x/bin", true},
		{"/build/ci", "/home/me/corpus", true},
		{"/build/cix/bin", "rel/cix/bin", true}, // not /build/ci: whole components only
		{"/build/y", "rel/y", true},
		{"/lib/libc.so.6", "/sysroot/lib/libc.so.6", true},
		{"relative/path", "relative/path", false},
	}
	for _, tt := range tests {
		got, ok := Apply(maps, tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Apply(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if got, ok := Apply(nil, "/x"); got != "/x" || ok {
		t.Errorf("Apply(nil, /x) = %q, %v", got, ok)
	}
}

func TestParsePrefixMap(t *testing.T) {
	tests := []struct {
		in      string
		want    PrefixMap
		wantErr bool
	}{
		{"/a=/b", PrefixMap{"/a", "/b"}, false},
		{"/a=", PrefixMap{"/a", ""}, false},
		{"/a=b=c", PrefixMap{"/a", "b=c"}, false},
		{"/a", PrefixMap{}, true},
		{"=/b", PrefixMap{}, true},
	}
	for _, tt := range tests {
		got, err := ParsePrefixMap(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParsePrefixMap(%q) = %+v, %v", tt.in, got, err)
		}
	}
}
