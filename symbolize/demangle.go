package symbolize

// DemangleLLVM demangles an Itanium ("_Z") or Rust v0 ("_R") name as
// llvm-symbolizer's demangler spells it (the names of frames in LLVM
// style); any other name comes back as it is. It is for names that come
// from elsewhere than an object, such as symbolizer markup's
// {{{symbol:…}}} elements.
func DemangleLLVM(name string) string { return demangleName(name, LLVM14.demangle) }

// DemangleLLVM19 is DemangleLLVM in llvm-symbolizer 19's spelling (">>"
// between template closers, expressions parenthesised by precedence).
func DemangleLLVM19(name string) string { return demangleName(name, LLVM19.demangle) }
