package resolve

// Unresolved counts the modules the logs named so far that could not be
// used (each was warned about once, with the reason): notFound were not
// found at all, unusable were found but could not be read or did not match.
func (r *Resolver) Unresolved() (notFound, unusable int) {
	seen := make(map[string]bool)
	for k, m := range r.modules {
		if m.usable || m.err == nil || seen[k.name] {
			continue
		}
		seen[k.name] = true
		if m.path == "" {
			notFound++
		} else {
			unusable++
		}
	}
	return notFound, unusable
}
