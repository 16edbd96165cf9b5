package corpustest

// Role maps one of the corpus's stack roles (README: expected.json
// "stacks") to the report model's coarser report.Stack.Role. The corpus's
// own name is what the model keeps as RoleDetail. A name the corpus README
// does not list comes back unchanged, so a test comparing it with the
// model fails instead of matching by accident.
func Role(corpusRole string) string {
	switch corpusRole {
	case "access", "error":
		return "access"
	case "free", "alloc", "leak", "other":
		return corpusRole
	case "location_heap": // the heap block a TSan location lies in
		return "alloc"
	case "thread_creation":
		return "thread"
	case "previous_access":
		return "previous"
	case "mutex_creation", "mutex_acquire", "mutex_previous_acquire":
		return "mutex"
	case "origin_store", "origin_heap", "origin_stack", "origin_unknown":
		return "origin"
	case "stack_frame", "sleep":
		return "other"
	}
	return corpusRole
}
