// This directory is a copy of github.com/ianlancetaylor/demangle
// (v0.0.0-20260724033716-83e58baca724, BSD licence, see LICENSE) with the
// changes the symbolizer needs to print names byte for byte as
// llvm-symbolizer 14 and binutils 2.40 do. Each change is marked
// "sanitrace change" in the code:
//
//   - LLVMStyle prints "> >" between nested template closers, as LLVM 14's
//     demangler did (later LLVMs print ">>").
//   - An unresolved qualifier level with template arguments ("sr3std24
//     __is_bitwise_relocatableIT_EE5value") adds no substitution, as in
//     LLVM and libiberty; upstream added one, so later S<n>_ were off by one.
//   - Empty elements of an argument pack print neither themselves nor a
//     comma; in the GNU style a template closer right after one gets no
//     space, reproducing libiberty's last-character state.
//   - GNU style names an inheriting constructor after its base class.
//   - VendorQualifier.Copy kept the old type (staticcheck SA4006).
//
// TestDemangleMatchesReferenceTools in package symbolize checks the result
// against llvm-cxxfilt 14 and c++filt on every mangled name of the fixtures
// and the shared corpus.

package demangle
